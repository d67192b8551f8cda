use std::fmt;

use crate::time::Timestamp;
use serde::{Deserialize, Serialize};

use crate::basket::Basket;
use crate::currency::Currency;
use crate::error::InputError;
use crate::ids::{Code, CustomerId, Sku};
use crate::json::Refused;
use crate::money::Money;
use crate::promo::{DiscountKind, PromoCode};

/// How often a code has been redeemed: by anyone, and by the customer asking.
///
/// The two are one value: a store's compare-and-set compares them together,
/// so a redemption by any other customer also makes a pending write stale.
/// `per_customer` can never exceed `total`.
///
/// It serialises as `{"total": 1, "per_customer": 1}`.
///
/// # Example
///
/// ```
/// use promocodes::UsageCounts;
///
/// let usage = UsageCounts::new(999, 0)?;
/// assert_eq!(usage.total(), 999);
/// assert!(UsageCounts::new(1, 2).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct UsageCounts {
    total: u64,
    per_customer: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UsageRepr {
    pub(crate) total: u64,
    pub(crate) per_customer: u64,
}

impl UsageRepr {
    /// The counts its fields make, or why not (serde's `try_from` error: a message).
    pub(crate) fn finish(self) -> Result<UsageCounts, Refused> {
        UsageCounts::try_from(self).map_err(|err| Refused::Message(err.to_string()))
    }
}

impl<'de> Deserialize<'de> for UsageCounts {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<UsageCounts, D::Error> {
        UsageRepr::deserialize(deserializer)?
            .finish()
            .map_err(Refused::into_serde)
    }
}

impl TryFrom<UsageRepr> for UsageCounts {
    type Error = InputError;

    fn try_from(repr: UsageRepr) -> Result<UsageCounts, InputError> {
        UsageCounts::new(repr.total, repr.per_customer)
    }
}

impl UsageCounts {
    /// No redemptions at all.
    pub const ZERO: UsageCounts = UsageCounts {
        total: 0,
        per_customer: 0,
    };

    /// Counts of `total` redemptions, `per_customer` of them by the customer.
    ///
    /// # Errors
    ///
    /// [`InputError::PerCustomerExceedsTotal`] when `per_customer > total`.
    pub fn new(total: u64, per_customer: u64) -> Result<UsageCounts, InputError> {
        if per_customer > total {
            return Err(InputError::PerCustomerExceedsTotal { total, per_customer });
        }
        Ok(UsageCounts { total, per_customer })
    }

    /// Redemptions by anyone.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Redemptions by the customer the counts were read for (0 without one).
    pub fn per_customer(&self) -> u64 {
        self.per_customer
    }

    /// The counts after one more redemption by this customer (by anyone, when
    /// `with_customer` is false), or `None` if a counter would overflow.
    pub fn incremented(&self, with_customer: bool) -> Option<UsageCounts> {
        Some(UsageCounts {
            total: self.total.checked_add(1)?,
            per_customer: if with_customer {
                self.per_customer.checked_add(1)?
            } else {
                self.per_customer
            },
        })
    }
}

/// Why a code does not apply: an answer for the buyer, who can act on it.
///
/// Rules are checked in the order of the variants here; the first that
/// applies is the one reported. Each has a stable snake_case [`code`](Rejection::code),
/// which is how it is serialised for JSON and JavaScript, and a human sentence.
/// [`Rejection::QuoteChanged`] is not a rule of the code: only a capture pinned
/// to the quote the buyer was shown reports it, after every rule has passed.
///
/// # Example
///
/// ```
/// use promocodes::Rejection;
///
/// assert_eq!(Rejection::BelowMinimum.code(), "below_minimum");
/// assert_eq!(Rejection::from_code("exhausted"), Some(Rejection::Exhausted));
/// assert_eq!(serde_json::to_string(&Rejection::NotStarted)?, r#""not_started""#);
/// assert_eq!(Rejection::ALL[0], Rejection::Inactive);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Rejection {
    /// The code is switched off (its kill switch).
    Inactive,
    /// The code has a per-customer cap or an assigned audience, and no customer was given.
    CustomerRequired,
    /// The code is assigned to other customers.
    NotAssigned,
    /// The code's window has not opened yet.
    NotStarted,
    /// The code's window has closed.
    Expired,
    /// The code's total cap is reached.
    Exhausted,
    /// The customer has used the code as often as it allows.
    CustomerLimitReached,
    /// The basket is in a currency the code's amounts are not in.
    CurrencyMismatch,
    /// The code applies to some products only, and no line of the basket is one
    /// (or the basket has no lines to tell).
    NoEligibleItems,
    /// The eligible subtotal is below the code's minimum.
    BelowMinimum,
    /// A capture pinned to the quote the buyer was shown: pricing now gives
    /// another discount or amount to pay.
    QuoteChanged,
}

impl Rejection {
    /// Every rejection, in the order the rules are checked.
    pub const ALL: [Rejection; 11] = [
        Rejection::Inactive,
        Rejection::CustomerRequired,
        Rejection::NotAssigned,
        Rejection::NotStarted,
        Rejection::Expired,
        Rejection::Exhausted,
        Rejection::CustomerLimitReached,
        Rejection::CurrencyMismatch,
        Rejection::NoEligibleItems,
        Rejection::BelowMinimum,
        Rejection::QuoteChanged,
    ];

    /// The stable snake_case code: `"below_minimum"`.
    pub fn code(self) -> &'static str {
        match self {
            Rejection::Inactive => "inactive",
            Rejection::CustomerRequired => "customer_required",
            Rejection::NotAssigned => "not_assigned",
            Rejection::NotStarted => "not_started",
            Rejection::Expired => "expired",
            Rejection::Exhausted => "exhausted",
            Rejection::CustomerLimitReached => "customer_limit_reached",
            Rejection::CurrencyMismatch => "currency_mismatch",
            Rejection::NoEligibleItems => "no_eligible_items",
            Rejection::BelowMinimum => "below_minimum",
            Rejection::QuoteChanged => "quote_changed",
        }
    }

    /// The rejection with this stable code, if any.
    pub fn from_code(code: &str) -> Option<Rejection> {
        Rejection::ALL.into_iter().find(|r| r.code() == code)
    }

    /// Whether the basket decided it (its currency, its lines, its subtotal)
    /// rather than the code or the customer. The rules about the basket are
    /// checked after every rule about the customer, so such a refusal also
    /// says that the customer may use the code.
    pub fn is_about_the_basket(self) -> bool {
        matches!(
            self,
            Rejection::CurrencyMismatch | Rejection::NoEligibleItems | Rejection::BelowMinimum
        )
    }

    /// A general sentence for the buyer. [`PromoCodeRejected`]'s message is the
    /// same sentence with the code's own figures in it.
    pub fn message(self) -> &'static str {
        match self {
            Rejection::Inactive => "this code is not active",
            Rejection::CustomerRequired => "this code needs you to be signed in",
            Rejection::NotAssigned => "this code is not available to you",
            Rejection::NotStarted => "this code is not valid yet",
            Rejection::Expired => "this code has expired",
            Rejection::Exhausted => "this code has been used up",
            Rejection::CustomerLimitReached => "you have already used this code as often as it allows",
            Rejection::CurrencyMismatch => "this code does not apply to a basket in this currency",
            Rejection::NoEligibleItems => "this code does not apply to anything in this basket",
            Rejection::BelowMinimum => "this code needs a larger basket",
            Rejection::QuoteChanged => "the price changed since it was quoted",
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// A code refused by its rules: which code, which rule, and a sentence for the buyer.
///
/// # Example
///
/// ```
/// use promocodes::{Basket, Code, Currency, Discount, Money, PromoCode, Rejection, Timestamp, UsageCounts};
///
/// let promo = PromoCode::builder(Code::parse("BIG")?, Discount::percent("10".parse()?)?)
///     .minimum(Money::parse("50", Currency::EUR)?)
///     .build()?;
/// let small = Basket::from(Money::parse("20", Currency::EUR)?);
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
///
/// let refused = promo.validate(None, UsageCounts::ZERO, &small, now).unwrap_err();
/// assert_eq!(refused.rejection(), Rejection::BelowMinimum);
/// assert_eq!(refused.to_string(), "this code needs a basket of at least EUR 50.00");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PromoCodeRejected {
    code: Code,
    rejection: Rejection,
    message: String,
}

impl PromoCodeRejected {
    /// The rejection of `promo` for `rejection`, with a message that uses the code's figures.
    pub fn new(promo: &PromoCode, rejection: Rejection) -> PromoCodeRejected {
        let message = match rejection {
            Rejection::NotStarted => match promo.starts_at() {
                Some(start) => format!("this code is valid from {start}"),
                None => rejection.message().to_owned(),
            },
            Rejection::Expired => match promo.ends_at() {
                Some(end) => format!("this code expired at {end}"),
                None => rejection.message().to_owned(),
            },
            Rejection::CurrencyMismatch => match promo.currency() {
                Some(currency) => format!("this code applies to baskets in {currency} only"),
                None => rejection.message().to_owned(),
            },
            Rejection::NoEligibleItems => match promo.applies_to() {
                Some(scope) => format!("this code applies only to {}", scope.describe()),
                None => rejection.message().to_owned(),
            },
            Rejection::BelowMinimum => match (promo.minimum(), promo.applies_to()) {
                (Some(minimum), None) => format!("this code needs a basket of at least {minimum}"),
                (Some(minimum), Some(scope)) => {
                    format!("this code needs at least {minimum} of {}", scope.describe())
                }
                (None, _) => rejection.message().to_owned(),
            },
            other => other.message().to_owned(),
        };
        PromoCodeRejected {
            code: promo.code().clone(),
            rejection,
            message,
        }
    }

    /// The refusal of a capture pinned to `shown`, when pricing now gives `current`.
    pub fn quote_changed(shown: &Quote, current: &Quote) -> PromoCodeRejected {
        PromoCodeRejected {
            code: current.code().clone(),
            rejection: Rejection::QuoteChanged,
            message: format!(
                "the price changed since it was quoted: {} to pay then, {} now",
                shown.payable(),
                current.payable()
            ),
        }
    }

    /// The code that was refused.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// The rule that refused it.
    pub fn rejection(&self) -> Rejection {
        self.rejection
    }

    /// The sentence for the buyer (also this error's `Display`).
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// One line of a quote: the line's amount and its part of the discount.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuoteLine {
    /// The line's product.
    pub sku: Sku,
    /// The line's amount, `quantity x unit_price`.
    pub amount: Money,
    /// Its part of the discount (zero when the line is not eligible).
    pub discount: Money,
}

/// The shipping of a quote: its amount and the part of the discount taken off it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuoteShipping {
    /// The basket's shipping.
    pub amount: Money,
    /// What the code takes off it (only a free-shipping code takes anything).
    pub discount: Money,
}

/// A priced basket: what the code takes off and what is left to pay.
///
/// A quote touches no counter; it is a promise about the moment it was made,
/// `quoted_at`, and nothing more. The discount never exceeds the total, the
/// payable is never negative, and `discount + payable == total`, exactly.
///
/// For a basket with lines it also carries the split: each line's part of
/// the discount (`lines`) and the shipping's (`shipping`). The parts add up to
/// the discount exactly and no part exceeds its amount: the discount is
/// allocated over the eligible lines in proportion to their amounts, each part
/// rounded down to the minor unit and the cents left over given one by one
/// to the largest remainders (ties by line order). That is what refunding a
/// single item, or computing tax per line, needs.
///
/// It serialises as
/// `{"code", "total": <Money>, "discount": <Money>, "payable": <Money>, "quoted_at",
/// "lines": [{"sku", "amount", "discount"}], "shipping": {"amount", "discount"}, "note"}`,
/// `lines`, `shipping` and `note` only when there is something to say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "QuoteRepr")]
pub struct Quote {
    code: Code,
    total: Money,
    discount: Money,
    payable: Money,
    quoted_at: Timestamp,
    #[serde(skip_serializing_if = "Option::is_none")]
    lines: Option<Vec<QuoteLine>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shipping: Option<QuoteShipping>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuoteRepr {
    code: Code,
    total: Money,
    discount: Money,
    payable: Money,
    quoted_at: Timestamp,
    #[serde(default)]
    lines: Option<Vec<QuoteLine>>,
    #[serde(default)]
    shipping: Option<QuoteShipping>,
    #[serde(default)]
    note: Option<String>,
}

impl TryFrom<QuoteRepr> for Quote {
    type Error = InputError;

    fn try_from(repr: QuoteRepr) -> Result<Quote, InputError> {
        let inconsistent = |message: &str| InputError::Malformed {
            path: ".".to_owned(),
            message: message.to_owned(),
        };
        let consistent = repr.discount.partial_cmp_same(&repr.total).is_some_and(|o| o.is_le())
            && repr.total.checked_sub(&repr.discount) == Some(repr.payable);
        if !consistent {
            return Err(inconsistent("discount and payable do not add up to the total"));
        }
        if repr.lines.is_none() && repr.shipping.is_some() {
            return Err(inconsistent("a quote with shipping has lines"));
        }
        if let Some(lines) = &repr.lines {
            let currency = repr.total.currency();
            let parts = lines
                .iter()
                .map(|l| (&l.amount, &l.discount))
                .chain(repr.shipping.as_ref().map(|s| (&s.amount, &s.discount)));
            let (mut amounts, mut discounts) = (0_i128, 0_i128);
            for (amount, discount) in parts {
                if amount.currency() != currency || discount.currency() != currency || discount.minor() > amount.minor()
                {
                    return Err(inconsistent(
                        "a line's discount is above its amount or in another currency",
                    ));
                }
                amounts += amount.minor();
                discounts += discount.minor();
            }
            if amounts != repr.total.minor() || discounts != repr.discount.minor() {
                return Err(inconsistent("the lines do not add up to the total and the discount"));
            }
        }
        Ok(Quote {
            code: repr.code,
            total: repr.total,
            discount: repr.discount,
            payable: repr.payable,
            quoted_at: repr.quoted_at,
            lines: repr.lines,
            shipping: repr.shipping,
            note: repr.note,
        })
    }
}

impl Quote {
    /// A quote of `basket` that takes nothing off: what the buyer pays without the code.
    pub(crate) fn undiscounted(code: &Code, basket: &Basket, now: Timestamp) -> Quote {
        let zero = Money::zero(basket.currency());
        Quote {
            code: code.clone(),
            total: *basket.total(),
            discount: zero,
            payable: *basket.total(),
            quoted_at: now,
            lines: basket.has_lines().then(|| {
                basket
                    .lines()
                    .iter()
                    .map(|l| QuoteLine {
                        sku: l.sku().clone(),
                        amount: *l.amount(),
                        discount: zero,
                    })
                    .collect()
            }),
            shipping: basket.shipping().map(|amount| QuoteShipping {
                amount: *amount,
                discount: zero,
            }),
            note: None,
        }
    }

    /// The quote that charges `payable` for `basket`: what a payment
    /// provider's amount says the buyer was shown.
    pub(crate) fn charging(code: &Code, basket: &Basket, payable: Money, now: Timestamp) -> Result<Quote, InputError> {
        let discount = basket
            .total()
            .checked_sub(&payable)
            .ok_or(InputError::ChargedMismatch {
                charged: payable,
                total: *basket.total(),
            })?;
        Ok(Quote {
            code: code.clone(),
            total: *basket.total(),
            discount,
            payable,
            quoted_at: now,
            lines: None,
            shipping: None,
            note: None,
        })
    }

    /// The code that was applied.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// The basket total before the discount.
    pub fn total(&self) -> &Money {
        &self.total
    }

    /// What the code takes off.
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

    /// Each line's amount and part of the discount, for a basket with lines.
    pub fn lines(&self) -> Option<&[QuoteLine]> {
        self.lines.as_deref()
    }

    /// The shipping and the part of the discount taken off it, when the basket has shipping.
    pub fn shipping(&self) -> Option<&QuoteShipping> {
        self.shipping.as_ref()
    }

    /// Why the code takes less than it might (a free-shipping code on a basket without shipping).
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Whether this quote was made for `basket`: the same total, and for a
    /// basket with lines the same lines (sku and amount, in order) and shipping.
    pub fn is_for(&self, basket: &Basket) -> bool {
        if self.total != *basket.total() {
            return false;
        }
        match &self.lines {
            None => !basket.has_lines(),
            Some(lines) => {
                basket.has_lines()
                    && lines.len() == basket.lines().len()
                    && lines
                        .iter()
                        .zip(basket.lines())
                        .all(|(q, b)| &q.sku == b.sku() && &q.amount == b.amount())
                    && self.shipping.map(|s| s.amount) == basket.shipping().copied()
            }
        }
    }

    /// Whether `other` charges the same: the same discount and amount to pay.
    pub fn charges_as(&self, other: &Quote) -> bool {
        self.discount == other.discount && self.payable == other.payable
    }
}

impl PromoCode {
    /// Checks every rule, in order, and returns the first that refuses, if any.
    ///
    /// `usage` is what a store last said about this code (and this
    /// customer); `now` is passed in, since the core never reads a clock.
    /// Checking promises nothing: by the time it returns, the counts may have
    /// moved. Only a store's compare-and-set [`record`](crate::RedemptionStore::record)
    /// makes a cap hold.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Basket, Code, CustomerId, Discount, Money, PromoCode, Rejection, Timestamp};
    /// use promocodes::{UsageCounts, UsageLimits};
    ///
    /// let promo = PromoCode::builder(Code::parse("SAVE10")?, Discount::percent("10".parse()?)?)
    ///     .limits(UsageLimits::new(Some(1000), Some(1))?)
    ///     .build()?;
    /// let alice = CustomerId::parse("alice")?;
    /// let basket = Basket::from(Money::parse("80.00", "EUR".parse()?)?);
    /// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
    ///
    /// assert_eq!(promo.check(Some(&alice), UsageCounts::new(999, 0)?, &basket, now), None);
    /// assert_eq!(
    ///     promo.check(Some(&alice), UsageCounts::new(1000, 0)?, &basket, now),
    ///     Some(Rejection::Exhausted),
    /// );
    /// assert_eq!(
    ///     promo.check(None, UsageCounts::ZERO, &basket, now),
    ///     Some(Rejection::CustomerRequired),
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check(
        &self,
        customer: Option<&CustomerId>,
        usage: UsageCounts,
        basket: &Basket,
        now: Timestamp,
    ) -> Option<Rejection> {
        if !self.active() {
            return Some(Rejection::Inactive);
        }
        self.check_held(customer, basket, now, |rejection| match rejection {
            Rejection::Exhausted => self.limits().total().is_some_and(|cap| usage.total() >= cap),
            Rejection::CustomerLimitReached => {
                customer.is_some()
                    && self
                        .limits()
                        .per_customer()
                        .is_some_and(|cap| usage.per_customer() >= cap)
            }
            _ => false,
        })
    }

    /// The rules for a use already held for this buyer: every rule but the
    /// kill switch and the caps, which applied when the hold was taken. `caps`
    /// says whether a cap refuses (`Exhausted`, `CustomerLimitReached`).
    fn check_held(
        &self,
        customer: Option<&CustomerId>,
        basket: &Basket,
        now: Timestamp,
        caps: impl Fn(Rejection) -> bool,
    ) -> Option<Rejection> {
        let limits = self.limits();
        let assigned = self.audience().is_assigned();
        if customer.is_none() && (limits.per_customer().is_some() || assigned) {
            return Some(Rejection::CustomerRequired);
        }
        if customer.is_some_and(|c| !self.audience().admits(c)) {
            return Some(Rejection::NotAssigned);
        }
        if self.starts_at().is_some_and(|start| now < start) {
            return Some(Rejection::NotStarted);
        }
        if self.ends_at().is_some_and(|end| now >= end) {
            return Some(Rejection::Expired);
        }
        for cap in [Rejection::Exhausted, Rejection::CustomerLimitReached] {
            if caps(cap) {
                return Some(cap);
            }
        }
        if self.currency().is_some_and(|currency| currency != basket.currency()) {
            return Some(Rejection::CurrencyMismatch);
        }
        let eligible = self.eligible_subtotal(basket);
        let Some(eligible) = eligible else {
            return Some(Rejection::NoEligibleItems);
        };
        if let Some(minimum) = self.minimum() {
            if minimum.partial_cmp_same(&eligible).is_some_and(|o| o.is_gt()) {
                return Some(Rejection::BelowMinimum);
            }
        }
        None
    }

    /// Checks a use held for this buyer against a changed basket: every rule
    /// but the kill switch and the caps.
    pub(crate) fn validate_held(
        &self,
        customer: Option<&CustomerId>,
        basket: &Basket,
        now: Timestamp,
    ) -> Result<Quote, PromoCodeRejected> {
        match self.check_held(customer, basket, now, |_| false) {
            None => self.price(basket, now),
            Some(rejection) => Err(PromoCodeRejected::new(self, rejection)),
        }
    }

    /// The eligible lines' subtotal (the total, for a basket of one total),
    /// or `None` when nothing in the basket qualifies.
    fn eligible_subtotal(&self, basket: &Basket) -> Option<Money> {
        match (self.applies_to(), basket.has_lines()) {
            (None, false) => Some(*basket.total()),
            (None, true) => Some(*basket.subtotal()),
            (Some(_), false) => None,
            (Some(scope), true) => {
                let eligible: i128 = basket
                    .lines()
                    .iter()
                    .filter(|l| scope.includes(l))
                    .map(|l| l.amount().minor())
                    .sum();
                let any = basket.lines().iter().any(|l| scope.includes(l));
                any.then(|| Money::from_minor(eligible, basket.currency())).flatten()
            }
        }
    }

    /// [`check`](PromoCode::check) as a `Result`.
    ///
    /// # Errors
    ///
    /// [`PromoCodeRejected`] with the first rule that refuses.
    pub fn validate(
        &self,
        customer: Option<&CustomerId>,
        usage: UsageCounts,
        basket: &Basket,
        now: Timestamp,
    ) -> Result<(), PromoCodeRejected> {
        match self.check(customer, usage, basket, now) {
            None => Ok(()),
            Some(rejection) => Err(PromoCodeRejected::new(self, rejection)),
        }
    }

    /// Validates and prices a basket, touching no counter.
    ///
    /// # Errors
    ///
    /// [`PromoCodeRejected`] with the first rule that refuses.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Basket, Code, Currency, Discount, Money, PromoCode, Timestamp, UsageCounts};
    ///
    /// let promo = PromoCode::builder(Code::parse("SAVE10")?, Discount::percent("10".parse()?)?).build()?;
    /// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
    /// let quote = promo.quote(None, UsageCounts::ZERO, &Basket::from(Money::parse("80", Currency::EUR)?), now)?;
    ///
    /// assert_eq!(quote.discount().to_string(), "EUR 8.00");
    /// assert_eq!(quote.payable().to_string(), "EUR 72.00");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn quote(
        &self,
        customer: Option<&CustomerId>,
        usage: UsageCounts,
        basket: &Basket,
        now: Timestamp,
    ) -> Result<Quote, PromoCodeRejected> {
        self.validate(customer, usage, basket, now)?;
        self.price(basket, now)
    }

    /// Prices a basket without checking any rule but the one pricing needs:
    /// the basket must be in the code's currency. A code that finds nothing
    /// eligible takes nothing off.
    ///
    /// This is what the buyer was (or would have been) quoted, for a server
    /// that captures without the page's own [`Quote`] in hand.
    ///
    /// # Errors
    ///
    /// [`PromoCodeRejected`] with [`Rejection::CurrencyMismatch`].
    pub fn price(&self, basket: &Basket, now: Timestamp) -> Result<Quote, PromoCodeRejected> {
        if self.currency().is_some_and(|currency| currency != basket.currency()) {
            return Err(PromoCodeRejected::new(self, Rejection::CurrencyMismatch));
        }
        let currency = basket.currency();
        let zero = Money::zero(currency);
        let mut note = None;
        let mut shipping_off = zero;
        let eligible = self.eligible_subtotal(basket).unwrap_or(zero);
        let discount = match self.discount().kind() {
            DiscountKind::FreeShipping => {
                let shipping = basket.shipping().copied().unwrap_or(zero);
                if !basket.has_lines() {
                    note = Some("free shipping needs a basket with lines and shipping; this one has only a total");
                } else if basket.shipping().is_none() {
                    note = Some("this basket has no shipping to take off");
                }
                shipping_off = cap(shipping, self.discount().max());
                shipping_off
            }
            DiscountKind::Percent => {
                let percent = self.discount().as_percent().unwrap_or_default();
                let off = eligible.percent_of(percent);
                cap(off, self.discount().max()).min_same(eligible)
            }
            DiscountKind::Fixed => {
                let amount = self.discount().fixed_amount().copied().unwrap_or(zero);
                cap(amount, self.discount().max()).min_same(eligible)
            }
        };
        let payable = basket.total().checked_sub(&discount).unwrap_or(zero);
        let lines = basket.has_lines().then(|| self.split(basket, discount, shipping_off));
        Ok(Quote {
            code: self.code().clone(),
            total: *basket.total(),
            discount,
            payable,
            quoted_at: now,
            lines,
            shipping: basket.shipping().map(|amount| QuoteShipping {
                amount: *amount,
                discount: shipping_off,
            }),
            note: note.map(str::to_owned),
        })
    }

    /// The discount's parts per line: what is not taken off shipping, over
    /// the eligible lines by the largest-remainder method.
    fn split(&self, basket: &Basket, discount: Money, shipping_off: Money) -> Vec<QuoteLine> {
        let currency = basket.currency();
        let eligible: Vec<bool> = basket
            .lines()
            .iter()
            .map(|l| self.applies_to().is_none_or(|scope| scope.includes(l)))
            .collect();
        let weights: Vec<i128> = basket
            .lines()
            .iter()
            .zip(&eligible)
            .map(|(l, e)| if *e { l.amount().minor() } else { 0 })
            .collect();
        let parts = largest_remainder(discount.minor() - shipping_off.minor(), &weights);
        basket
            .lines()
            .iter()
            .zip(parts)
            .map(|(line, part)| QuoteLine {
                sku: line.sku().clone(),
                amount: *line.amount(),
                discount: Money::from_minor(part, currency).unwrap_or(Money::zero(currency)),
            })
            .collect()
    }
}

/// `amount`, at most `max` when there is one (in the same currency).
fn cap(amount: Money, max: Option<&Money>) -> Money {
    match max {
        Some(max) => amount.min_same(*max),
        None => amount,
    }
}

/// Splits `total` (at most the sum of `weights`) in proportion to `weights`:
/// each part rounded down, then one more unit to each of the largest
/// remainders, ties by position. The parts add up to `total` exactly and no
/// part exceeds its weight.
pub(crate) fn largest_remainder(total: i128, weights: &[i128]) -> Vec<i128> {
    let sum: i128 = weights.iter().sum();
    if sum <= 0 || total <= 0 {
        return vec![0; weights.len()];
    }
    let total = total.min(sum);
    let mut parts: Vec<i128> = weights.iter().map(|w| total * w / sum).collect();
    let mut left = total - parts.iter().sum::<i128>();
    let remainders: Vec<i128> = weights.iter().map(|w| total * w % sum).collect();
    let mut order: Vec<usize> = (0..weights.len()).filter(|&i| weights[i] > 0).collect();
    // Largest remainder first, ties in line order: a stable insertion sort
    // (at most Basket::MAX_LINES lines; far less code than the library's sorts).
    for sorted in 1..order.len() {
        let mut at = sorted;
        while at > 0 && remainders[order[at - 1]] < remainders[order[at]] {
            order.swap(at - 1, at);
            at -= 1;
        }
    }
    for i in order {
        if left == 0 {
            break;
        }
        parts[i] += 1;
        left -= 1;
    }
    parts
}

/// The currency a definition's amounts agree on, checking each against the first.
pub(crate) fn agreed_currency(amounts: &[(&'static str, Option<&Money>)]) -> Result<Option<Currency>, InputError> {
    let mut agreed: Option<Currency> = None;
    for (field, amount) in amounts {
        let Some(amount) = amount else { continue };
        match agreed {
            None => agreed = Some(amount.currency()),
            Some(expected) if expected != amount.currency() => {
                return Err(InputError::CurrencyMismatch {
                    field,
                    expected,
                    actual: amount.currency(),
                })
            }
            Some(_) => {}
        }
    }
    Ok(agreed)
}

#[cfg(test)]
mod tests {
    use super::largest_remainder;

    #[test]
    fn largest_remainder_adds_up_and_breaks_ties_by_order() {
        // EUR 10.00 over 3.33, 3.33, 3.34: 3.33 + 3.33 + 3.34.
        assert_eq!(largest_remainder(1000, &[333, 333, 334]), vec![333, 333, 334]);
        // One cent over three equal lines goes to the first.
        assert_eq!(largest_remainder(1, &[100, 100, 100]), vec![1, 0, 0]);
        assert_eq!(largest_remainder(2, &[100, 100, 100]), vec![1, 1, 0]);
        // Ineligible lines (weight 0) get nothing.
        assert_eq!(largest_remainder(50, &[0, 100, 0, 100]), vec![0, 25, 0, 25]);
        assert_eq!(largest_remainder(0, &[1, 2]), vec![0, 0]);
        assert_eq!(largest_remainder(5, &[0, 0]), vec![0, 0]);
    }
}
