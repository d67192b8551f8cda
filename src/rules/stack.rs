//! Several codes in one basket: each code's class, which classes combine,
//! the fixed order of application, and the stack's quote.

use std::fmt;

use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

use super::basket::Basket;
use super::counts::UsageCounts;
use super::definition::PromoCode;
use super::quote::{Quote, QuoteLine, QuoteShipping};
use super::rejection::{PromoCodeRejected, Rejection};
use crate::values::{Code, CustomerId, InputError, Money, Timestamp};

mod automatic;
mod resume;

pub use automatic::Skipped;
pub use resume::StackResumeError;

/// What a code discounts, which decides when it applies in a [`Stack`]:
/// product codes first, then order codes, then shipping codes.
///
/// A code's class follows from its definition ([`PromoCode::class`]):
/// `shipping` for a free-shipping discount, `product` when it has
/// `applies_to`, `order` otherwise. Serialised as `"product"`, `"order"` or
/// `"shipping"`; the variants are in the order of application.
///
/// # Example
///
/// ```
/// use promocodes::CodeClass;
///
/// assert_eq!(CodeClass::parse("order")?, CodeClass::Order);
/// assert_eq!(CodeClass::Shipping.as_str(), "shipping");
/// assert!(CodeClass::Product < CodeClass::Order && CodeClass::Order < CodeClass::Shipping);
/// assert!(CodeClass::parse("orders").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeClass {
    /// A code for some products (it has `applies_to`): applied first, to its
    /// eligible lines' amounts after the product codes before it.
    Product,
    /// A code for the whole order: applied to the subtotal after every
    /// discount before it.
    Order,
    /// A free-shipping code: applied last, to the shipping.
    Shipping,
}

impl CodeClass {
    /// Every class, in the order of application.
    pub const ALL: [CodeClass; 3] = [CodeClass::Product, CodeClass::Order, CodeClass::Shipping];

    /// The class named `text`: `"product"`, `"order"` or `"shipping"`.
    ///
    /// # Errors
    ///
    /// [`InputError::UnknownCodeClass`] for any other text.
    pub fn parse(text: &str) -> Result<CodeClass, InputError> {
        match text {
            "product" => Ok(CodeClass::Product),
            "order" => Ok(CodeClass::Order),
            "shipping" => Ok(CodeClass::Shipping),
            other => Err(InputError::UnknownCodeClass {
                input: other.chars().take(40).collect(),
            }),
        }
    }

    /// Its name: `"product"`, `"order"` or `"shipping"`.
    pub fn as_str(self) -> &'static str {
        match self {
            CodeClass::Product => "product",
            CodeClass::Order => "order",
            CodeClass::Shipping => "shipping",
        }
    }
}

impl fmt::Display for CodeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of [`CodeClass`]es: what a code's `combines_with` lists. Serialised
/// as a list in the order of application: `["product", "shipping"]`.
///
/// # Example
///
/// ```
/// use promocodes::{CodeClass, CodeClasses};
///
/// let some = CodeClasses::NONE.with(CodeClass::Shipping).with(CodeClass::Product);
/// assert!(some.contains(CodeClass::Product) && !some.contains(CodeClass::Order));
/// assert_eq!(some.iter().collect::<Vec<_>>(), [CodeClass::Product, CodeClass::Shipping]);
/// assert!(CodeClasses::NONE.is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CodeClasses(u8);

impl CodeClasses {
    /// No class: a code that combines with nothing.
    pub const NONE: CodeClasses = CodeClasses(0);

    fn bit(class: CodeClass) -> u8 {
        1 << (class as u8)
    }

    /// This set and `class`.
    #[must_use]
    pub fn with(self, class: CodeClass) -> CodeClasses {
        CodeClasses(self.0 | CodeClasses::bit(class))
    }

    /// Whether `class` is in the set.
    pub fn contains(self, class: CodeClass) -> bool {
        self.0 & CodeClasses::bit(class) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The classes in the set, in the order of application.
    pub fn iter(self) -> impl Iterator<Item = CodeClass> {
        CodeClass::ALL.into_iter().filter(move |c| self.contains(*c))
    }
}

impl Serialize for CodeClasses {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// Several codes for one basket (1 to [`Stack::MAX_CODES`], each once), in
/// the order the request lists them.
///
/// **Combining.** Two codes may share a basket only if each lists the other's
/// [`class`](PromoCode::class) in its `combines_with`; otherwise the later one
/// in the list is refused with [`Rejection::NotCombinable`], naming the code
/// it cannot combine with.
///
/// **Order of application.** Product codes first, each on its eligible
/// lines' amounts after the product codes before it; then order codes, each
/// on the subtotal after every discount before it; then shipping codes, on
/// the shipping left. Within a class, in the order listed. Each code's rules
/// (window, caps, audience, budget, and its minimum, which applies to what
/// it would discount after the codes before it) are its own, checked on the
/// basket as the codes before it left it; its discount is rounded and split
/// over the lines as a single code's is, over the amounts left. No line's
/// discount passes its amount and the payable is never below zero.
///
/// # Example
///
/// The lines `MUG` 2 x 12.50 (category `mugs`) and `GRINDER` 1 x 46.50 with
/// shipping 4.90, and three codes listed as SAVE10, SHIPFREE, MUGS20:
///
/// ```
/// use promocodes::{from_json, Basket, PromoCode, Stack, Timestamp, UsageCounts};
///
/// let codes: Vec<PromoCode> = vec![
///     from_json(r#"{"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"},
///                   "combines_with": ["product", "shipping"]}"#)?,
///     from_json(r#"{"code": "SHIPFREE", "discount": {"kind": "free_shipping"},
///                   "combines_with": ["product", "order"]}"#)?,
///     from_json(r#"{"code": "MUGS20", "discount": {"kind": "percent", "percent": "20"},
///                   "applies_to": {"categories": ["mugs"]}, "combines_with": ["order", "shipping"]}"#)?,
/// ];
/// let basket: Basket = from_json(r#"{"lines": [
///     {"sku": "MUG", "quantity": 2, "unit_price": {"amount": "12.50", "currency": "EUR"}, "categories": ["mugs"]},
///     {"sku": "GRINDER", "quantity": 1, "unit_price": {"amount": "46.50", "currency": "EUR"}}],
///     "shipping": {"amount": "4.90", "currency": "EUR"}}"#)?;
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
///
/// let stack = Stack::new(codes)?;
/// let quote = stack.quote(None, &[UsageCounts::ZERO; 3], &basket, now)?;
/// let parts: Vec<String> = quote.codes().iter().map(|p| format!("{} {}", p.code(), p.discount().amount_text())).collect();
/// assert_eq!(parts, ["MUGS20 5.00", "SAVE10 6.65", "SHIPFREE 4.90"]);
/// assert_eq!(quote.discount().to_string(), "EUR 16.55");
/// assert_eq!(quote.payable().to_string(), "EUR 59.85");
/// let lines: Vec<String> = quote.lines().unwrap().iter().map(|l| l.discount.amount_text()).collect();
/// assert_eq!(lines, ["7.00", "4.65"]);
/// assert_eq!(quote.shipping().unwrap().discount.amount_text(), "4.90");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stack {
    codes: Vec<PromoCode>,
    /// The automatic promotions offered beside the typed codes, as given
    /// (see [`Stack::with_automatic`]).
    automatic: Vec<PromoCode>,
}

impl Stack {
    /// The most codes one basket takes.
    pub const MAX_CODES: usize = 5;

    /// A stack of `codes`, in the order the request lists them.
    ///
    /// # Errors
    ///
    /// [`InputError::EmptyStack`] for no codes, [`InputError::TooMany`]
    /// (field `codes`) beyond [`Stack::MAX_CODES`], and
    /// [`InputError::DuplicateCode`] for a code listed twice.
    pub fn new(codes: Vec<PromoCode>) -> Result<Stack, InputError> {
        check_codes(&codes)?;
        Ok(Stack {
            codes,
            automatic: Vec::new(),
        })
    }

    /// The codes, in the order the request listed them (the typed ones).
    pub fn codes(&self) -> &[PromoCode] {
        &self.codes
    }

    /// The positions of the codes (in [`codes`](Stack::codes)) in the order
    /// they apply: by class, and within a class as listed.
    pub fn application_order(&self) -> Vec<usize> {
        order_of(&self.codes.iter().collect::<Vec<_>>())
    }

    /// For each code as listed, the first code listed before it that it
    /// cannot share a basket with, if any.
    pub fn conflicts(&self) -> Vec<Option<&PromoCode>> {
        self.codes
            .iter()
            .enumerate()
            .map(|(i, promo)| self.codes[..i].iter().find(|earlier| !earlier.combines(promo)))
            .collect()
    }

    /// Checks every code's rules and whether the codes combine, and prices
    /// the basket with all of them, touching no counter.
    ///
    /// `usage[i]` is what a store last said about the `i`-th code as listed
    /// (and this customer); a code without an entry counts
    /// [`UsageCounts::ZERO`].
    ///
    /// # Errors
    ///
    /// [`StackRejected`] with every code that refused and why (the first
    /// rule that refuses each, in [`Rejection`]'s order), in the order the
    /// codes apply.
    pub fn quote(
        &self,
        customer: Option<&CustomerId>,
        usage: &[UsageCounts],
        basket: &Basket,
        now: Timestamp,
    ) -> Result<StackQuote, StackRejected> {
        self.resume_or_replay(false, customer, usage, &[], basket, now)
            .map_err(|err| match err {
                StackResumeError::Rejected(rejected) => rejected,
                StackResumeError::KeyReused { .. } => {
                    unreachable!("nothing is recorded, so no record is for another basket")
                }
            })
    }
}

/// The positions of `codes` in the order they apply: by class, and within a class as listed.
fn order_of(codes: &[&PromoCode]) -> Vec<usize> {
    let mut order = Vec::with_capacity(codes.len());
    for class in CodeClass::ALL {
        for (i, promo) in codes.iter().enumerate() {
            if promo.class() == class {
                order.push(i);
            }
        }
    }
    order
}

/// Checks a stack's list of codes: 1 to [`Stack::MAX_CODES`], each once.
fn check_codes(codes: &[PromoCode]) -> Result<(), InputError> {
    let count = codes.len();
    if count == 0 {
        return Err(InputError::EmptyStack);
    }
    if count > Stack::MAX_CODES {
        return Err(InputError::TooMany {
            field: "codes",
            count,
            max: Stack::MAX_CODES,
        });
    }
    for (i, promo) in codes.iter().enumerate() {
        if codes[..i].iter().any(|earlier| earlier.code() == promo.code()) {
            return Err(InputError::DuplicateCode {
                code: promo.code().as_str().to_owned(),
            });
        }
    }
    Ok(())
}

/// One code's part of a [`StackQuote`]: its class, and its own quote of the
/// basket as the codes before it left it (each line's and the shipping's
/// amount is what was left of it; `total` what was left of the basket).
///
/// Serialised as `{"code", "class", "automatic"?, "discount", "lines"?,
/// "shipping"?}` (`automatic: true` for an automatic promotion; and `note`,
/// `budget_clipped`, `desired` as a single code's quote has them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackPart {
    class: CodeClass,
    quote: Quote,
    /// Whether it joined as an automatic promotion (not typed).
    automatic: bool,
}

impl StackPart {
    /// The code.
    pub fn code(&self) -> &Code {
        self.quote.code()
    }

    /// Its class.
    pub fn class(&self) -> CodeClass {
        self.class
    }

    /// What it takes off.
    pub fn discount(&self) -> &Money {
        self.quote.discount()
    }

    /// Its own quote, of the basket as the codes before it left it.
    pub fn quote(&self) -> &Quote {
        &self.quote
    }

    /// Whether it joined as an automatic promotion, not typed.
    pub fn is_automatic(&self) -> bool {
        self.automatic
    }
}

impl Serialize for StackPart {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let q = &self.quote;
        let mut s = serializer.serialize_struct("StackPart", 9)?;
        s.serialize_field("code", q.code())?;
        s.serialize_field("class", &self.class)?;
        if self.automatic {
            s.serialize_field("automatic", &true)?;
        }
        s.serialize_field("discount", q.discount())?;
        if let Some(lines) = q.lines() {
            s.serialize_field("lines", lines)?;
        }
        if let Some(shipping) = q.shipping() {
            s.serialize_field("shipping", shipping)?;
        }
        if let Some(note) = q.note() {
            s.serialize_field("note", note)?;
        }
        if q.budget_clipped() {
            s.serialize_field("budget_clipped", &true)?;
        }
        if let Some(desired) = q.desired() {
            s.serialize_field("desired", desired)?;
        }
        s.end()
    }
}

/// A basket priced with several codes: each code's part in the order they
/// applied, and the sums.
///
/// `discount` is the sum of the parts' discounts, `discount + payable ==
/// total` exactly, and the payable is never below zero. For a basket with
/// lines, `lines` and `shipping` carry each line's (and the shipping's)
/// summed discount, never above its amount.
///
/// Serialised as `{"codes": [<StackPart>, ...], "total", "discount",
/// "payable", "quoted_at", "lines"?, "shipping"?, "skipped"?}` (`skipped`:
/// the automatic promotions that did not join, [`Skipped`], when any).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StackQuote {
    codes: Vec<StackPart>,
    total: Money,
    discount: Money,
    payable: Money,
    quoted_at: Timestamp,
    #[serde(skip_serializing_if = "Option::is_none")]
    lines: Option<Vec<QuoteLine>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shipping: Option<QuoteShipping>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    skipped: Vec<Skipped>,
}

impl StackQuote {
    /// The stack's quote of `basket`, which the `parts` left as `left`: each
    /// line's (and the shipping's) discount is what the codes took off it
    /// (never below zero: `left` is never above `basket`).
    fn of(basket: &Basket, left: &Basket, parts: Vec<StackPart>, now: Timestamp) -> StackQuote {
        let zero = Money::zero(basket.currency());
        let off = |amount: &Money, after: &Money| amount.checked_sub(after).unwrap_or(zero);
        let mut lines = None;
        if basket.has_lines() {
            let mut each = Vec::with_capacity(basket.lines().len());
            for (line, after) in basket.lines().iter().zip(left.lines()) {
                each.push(QuoteLine {
                    sku: line.sku().clone(),
                    amount: *line.amount(),
                    discount: off(line.amount(), after.amount()),
                });
            }
            lines = Some(each);
        }
        let shipping = match (basket.shipping(), left.shipping()) {
            (Some(amount), Some(after)) => Some(QuoteShipping {
                amount: *amount,
                discount: off(amount, after),
            }),
            _ => None,
        };
        let payable = *left.total();
        let discount = off(basket.total(), &payable);
        StackQuote {
            codes: parts,
            total: *basket.total(),
            discount,
            payable,
            quoted_at: now,
            lines,
            shipping,
            skipped: Vec::new(),
        }
    }

    /// Each automatic promotion offered that did not join, and why, in the
    /// order they were decided (by priority, then code).
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Each code's part, in the order they applied.
    pub fn codes(&self) -> &[StackPart] {
        &self.codes
    }

    /// The basket total before any discount.
    pub fn total(&self) -> &Money {
        &self.total
    }

    /// What the codes take off together.
    pub fn discount(&self) -> &Money {
        &self.discount
    }

    /// What is left to pay: `total - discount`.
    pub fn payable(&self) -> &Money {
        &self.payable
    }

    /// When the quote was made.
    pub fn quoted_at(&self) -> Timestamp {
        self.quoted_at
    }

    /// Each line's amount and summed discount, for a basket with lines.
    pub fn lines(&self) -> Option<&[QuoteLine]> {
        self.lines.as_deref()
    }

    /// The shipping and its summed discount, when the basket has shipping.
    pub fn shipping(&self) -> Option<&QuoteShipping> {
        self.shipping.as_ref()
    }

    /// The basket each part applied to, in the order of [`codes`](StackQuote::codes):
    /// `basket` (the one quoted) less the parts before it, each line one unit
    /// at what was left of its amount. A server holds or captures each code
    /// of a stack with its part's basket, so that each code's own answer is
    /// its part.
    pub fn baskets_applied_to(&self, basket: &Basket) -> Vec<Basket> {
        let mut left = basket.clone();
        let mut baskets = Vec::with_capacity(self.codes.len());
        for part in &self.codes {
            baskets.push(left.clone());
            left.take_off(&part.quote);
        }
        baskets
    }

    /// A capture pinned to the stack's quote as the buyer was shown it
    /// (`shown`: each part's code and discount, in order, and the payable):
    /// `None` when this quote charges the same, else a refusal with
    /// [`Rejection::QuoteChanged`] for every code whose part changed (every
    /// code, when the codes changed, or only the payable did).
    pub fn changed_from(&self, shown: &ShownStack) -> Option<StackRejected> {
        let same_codes = self.codes.len() == shown.parts.len()
            && self
                .codes
                .iter()
                .zip(&shown.parts)
                .all(|(p, (code, _))| p.code() == code);
        let part_changed =
            |i: usize, part: &StackPart| shown.parts.get(i).is_none_or(|(_, off)| off != part.discount());
        let any_part = self.codes.iter().enumerate().any(|(i, part)| part_changed(i, part));
        let everything = !same_codes || (!any_part && self.payable != shown.payable);
        let refusals: Vec<StackRefusal> = self
            .codes
            .iter()
            .enumerate()
            .filter(|(i, part)| everything || part_changed(*i, part))
            .map(|(_, part)| {
                let message = format!(
                    "the price changed since it was quoted: {} to pay then, {} now",
                    shown.payable, self.payable
                );
                StackRefusal::new(PromoCodeRejected::changed(part.code(), message))
            })
            .collect();
        (!refusals.is_empty()).then_some(StackRejected { refusals })
    }

    /// Whether `other` charges the same: every code's part takes the same
    /// off (the same codes in the same order), and the same is left to pay.
    pub fn charges_as(&self, other: &StackQuote) -> bool {
        self.payable == other.payable
            && self.codes.len() == other.codes.len()
            && self
                .codes
                .iter()
                .zip(&other.codes)
                .all(|(a, b)| a.code() == b.code() && a.discount() == b.discount())
    }
}

/// What a buyer was shown for a stack, as a pinned capture sends it back:
/// each part's code and discount in the order they applied, and the payable
/// (read from a [`StackQuote`]'s JSON; its other fields are not compared).
///
/// # Example
///
/// ```
/// use promocodes::{from_json, ShownStack};
///
/// let shown: ShownStack = from_json(r#"{"codes": [{"code": "SAVE10", "class": "order",
///     "discount": {"amount": "8.00", "currency": "EUR"}}],
///     "payable": {"amount": "72.00", "currency": "EUR"}}"#)?;
/// assert_eq!(shown.payable().to_string(), "EUR 72.00");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownStack {
    parts: Vec<(Code, Money)>,
    payable: Money,
}

impl ShownStack {
    /// The shown stack of these parts (code and discount, in order) and payable.
    pub fn new(parts: Vec<(Code, Money)>, payable: Money) -> ShownStack {
        ShownStack { parts, payable }
    }

    /// Each part's code and discount, in the order they applied.
    pub fn parts(&self) -> &[(Code, Money)] {
        &self.parts
    }

    /// What was left to pay.
    pub fn payable(&self) -> &Money {
        &self.payable
    }
}

impl<'de> Deserialize<'de> for ShownStack {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<ShownStack, D::Error> {
        #[derive(Deserialize)]
        struct Part {
            code: Code,
            discount: Money,
        }
        #[derive(Deserialize)]
        struct Shown {
            codes: Vec<Part>,
            payable: Money,
        }
        let shown = Shown::deserialize(deserializer)?;
        let parts = shown.codes.into_iter().map(|p| (p.code, p.discount)).collect();
        Ok(ShownStack::new(parts, shown.payable))
    }
}

/// One code of a stack that refused: the code, the rule, the code it cannot
/// combine with (for [`Rejection::NotCombinable`]), and a sentence for the buyer.
///
/// Serialised as `{"code", "rejection", "with"?, "message"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackRefusal {
    refused: PromoCodeRejected,
    with: Option<Code>,
}

impl StackRefusal {
    fn new(refused: PromoCodeRejected) -> StackRefusal {
        StackRefusal { refused, with: None }
    }

    /// The code that refused.
    pub fn code(&self) -> &Code {
        self.refused.code()
    }

    /// The rule that refused it.
    pub fn rejection(&self) -> Rejection {
        self.refused.rejection()
    }

    /// The code it cannot combine with, for [`Rejection::NotCombinable`].
    pub fn with(&self) -> Option<&Code> {
        self.with.as_ref()
    }

    /// The sentence for the buyer.
    pub fn message(&self) -> &str {
        self.refused.message()
    }

    /// The refusal as a single code's.
    pub fn as_rejected(&self) -> &PromoCodeRejected {
        &self.refused
    }
}

impl Serialize for StackRefusal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("StackRefusal", 4)?;
        s.serialize_field("code", self.code())?;
        s.serialize_field("rejection", &self.rejection())?;
        if let Some(with) = &self.with {
            s.serialize_field("with", with)?;
        }
        s.serialize_field("message", self.message())?;
        s.end()
    }
}

/// A stack refused: every code that refused, and why, in the order the
/// codes apply (by class, and within a class as listed). Nothing applies
/// unless every code does.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct StackRejected {
    refusals: Vec<StackRefusal>,
}

impl StackRejected {
    /// Every code that refused (at least one), in the order the codes apply.
    pub fn refusals(&self) -> &[StackRefusal] {
        &self.refusals
    }

    fn describe(&self) -> String {
        let mut text = String::new();
        for (i, r) in self.refusals.iter().enumerate() {
            let sep = if i > 0 { "; " } else { "" };
            text.push_str(&format!("{sep}{}: {}", r.code(), r.message()));
        }
        text
    }
}
