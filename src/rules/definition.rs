use std::collections::BTreeSet;

use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::basket::Line;
use super::counts::UsageCounts;
use super::stack::{CodeClass, CodeClasses};
use crate::values::{agreed_currency, Category, Code, Currency, CustomerId, InputError, Money, Sku, Timestamp};

/// What a code takes off a basket.
///
/// - **percent**: a percent of the eligible lines' subtotal (the whole basket
///   total for a basket of one total), rounded half away from zero to the
///   currency's minor unit, at most `max`;
/// - **fixed**: an amount, at most the eligible subtotal;
/// - **free shipping**: the basket's shipping, at most `max`.
///
/// A `Discount` that exists is valid: its fields are private and every
/// constructor checks them (a percent above 0 and at most 100, amounts above
/// zero).
///
/// Serialised as `{"kind": "percent", "percent": "10", "max": <Money>}`,
/// `{"kind": "fixed", "amount": <Money>, "max": <Money>}` or
/// `{"kind": "free_shipping", "max": <Money>}` (`max` optional: it caps any kind).
///
/// # Example
///
/// ```
/// use promocodes::{Currency, Discount, DiscountKind, Money};
///
/// let ten = Discount::percent("10".parse()?)?;
/// let capped = Discount::percent("25".parse()?)?.with_max(Money::parse("20", Currency::EUR)?)?;
/// let five = Discount::fixed(Money::parse("5", Currency::EUR)?)?;
/// let shipping = Discount::free_shipping();
/// assert_eq!(capped.kind(), DiscountKind::Percent);
/// assert_eq!(capped.max().map(|m| m.to_string()), Some("EUR 20.00".to_owned()));
/// assert!(Discount::percent("0".parse()?).is_err());
/// assert!(Discount::percent("-10".parse()?).is_err());
/// assert!(Discount::percent("100.5".parse()?).is_err());
/// assert!(Discount::fixed(Money::parse("0", Currency::EUR)?).is_err());
/// let at_most_three = five.clone().with_max(Money::parse("3", Currency::EUR)?)?;
/// assert_eq!(at_most_three.fixed_amount(), five.fixed_amount());
/// assert_eq!(at_most_three.max().map(|m| m.to_string()), Some("EUR 3.00".to_owned()));
/// # let _ = (ten, five, shipping);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discount {
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Percent { percent: Decimal, max: Option<Money> },
    Fixed { amount: Money, max: Option<Money> },
    FreeShipping { max: Option<Money> },
}

/// Which kind of [`Discount`] a code has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DiscountKind {
    /// A percent of the eligible subtotal.
    Percent,
    /// A fixed amount.
    Fixed,
    /// The basket's shipping.
    FreeShipping,
}

impl Discount {
    /// The most decimal places a percent may have (`12.5` has one).
    pub const MAX_PERCENT_PLACES: u32 = 4;

    /// `percent` percent off, uncapped.
    ///
    /// # Errors
    ///
    /// [`InputError::PercentOutOfRange`] unless `0 < percent <= 100`;
    /// [`InputError::PercentTooPrecise`] beyond [`Discount::MAX_PERCENT_PLACES`].
    pub fn percent(percent: Decimal) -> Result<Discount, InputError> {
        if percent <= Decimal::ZERO || percent > Decimal::ONE_HUNDRED {
            return Err(InputError::PercentOutOfRange {
                percent: percent.to_string(),
            });
        }
        if percent.normalize().scale() > Discount::MAX_PERCENT_PLACES {
            return Err(InputError::PercentTooPrecise {
                percent: percent.to_string(),
                max: Discount::MAX_PERCENT_PLACES,
            });
        }
        Ok(Discount {
            kind: Kind::Percent {
                percent: percent.normalize(),
                max: None,
            },
        })
    }

    /// A fixed `amount` off.
    ///
    /// # Errors
    ///
    /// [`InputError::ZeroAmount`] for zero.
    pub fn fixed(amount: Money) -> Result<Discount, InputError> {
        if amount.is_zero() {
            return Err(InputError::ZeroAmount {
                field: "discount.amount",
            });
        }
        Ok(Discount {
            kind: Kind::Fixed { amount, max: None },
        })
    }

    /// The basket's shipping off, uncapped.
    pub fn free_shipping() -> Discount {
        Discount {
            kind: Kind::FreeShipping { max: None },
        }
    }

    /// Caps the discount at `max`: a percent, a fixed amount (which then
    /// takes off the smaller of the two) or the shipping.
    ///
    /// # Errors
    ///
    /// [`InputError::ZeroAmount`] for a zero maximum.
    pub fn with_max(self, max: Money) -> Result<Discount, InputError> {
        if max.is_zero() {
            return Err(InputError::ZeroAmount { field: "discount.max" });
        }
        let kind = match self.kind {
            Kind::Percent { percent, .. } => Kind::Percent {
                percent,
                max: Some(max),
            },
            Kind::FreeShipping { .. } => Kind::FreeShipping { max: Some(max) },
            Kind::Fixed { amount, .. } => Kind::Fixed { amount, max: Some(max) },
        };
        Ok(Discount { kind })
    }

    /// Which kind it is.
    pub fn kind(&self) -> DiscountKind {
        match self.kind {
            Kind::Percent { .. } => DiscountKind::Percent,
            Kind::Fixed { .. } => DiscountKind::Fixed,
            Kind::FreeShipping { .. } => DiscountKind::FreeShipping,
        }
    }

    /// The percent of a percent discount.
    pub fn as_percent(&self) -> Option<Decimal> {
        match self.kind {
            Kind::Percent { percent, .. } => Some(percent),
            _ => None,
        }
    }

    /// The amount of a fixed discount.
    pub fn fixed_amount(&self) -> Option<&Money> {
        match &self.kind {
            Kind::Fixed { amount, .. } => Some(amount),
            _ => None,
        }
    }

    /// The discount's cap, if it has one.
    pub fn max(&self) -> Option<&Money> {
        match &self.kind {
            Kind::Percent { max, .. } | Kind::Fixed { max, .. } | Kind::FreeShipping { max } => max.as_ref(),
        }
    }
}

/// The set of `items`, inserted one by one: the same set as `collect()`,
/// with less code in the browser module than its sort-then-build.
fn set_of<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

/// Caps on how often a code may be redeemed (overall and per customer) and
/// on how much it may give away (its budget).
///
/// Each cap is optional (none means unlimited); a count cap is at least 1, a
/// budget above zero. Serialised as `{"total": 1000, "per_customer": 1}`,
/// every field optional, plus `"budget": {"amount": "500.00", "currency":
/// "EUR"}` and `"when_budget_short": "refuse" | "partial"` for a budget.
///
/// # Example
///
/// ```
/// use promocodes::{BudgetShort, Currency, Money, UsageLimits};
///
/// let limits = UsageLimits::new(Some(1000), Some(1))?
///     .with_budget(Money::parse("500.00", Currency::EUR)?, BudgetShort::Partial)?;
/// assert_eq!(limits.budget().map(|b| b.to_string()), Some("EUR 500.00".to_owned()));
/// assert_eq!(limits.when_budget_short(), BudgetShort::Partial);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct UsageLimits {
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    per_customer: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    budget: Option<Money>,
    #[serde(skip_serializing_if = "Option::is_none")]
    when_budget_short: Option<BudgetShort>,
}

/// What a budgeted code does when a discount does not fit what is left of
/// its budget (nothing left is [`Rejection::BudgetExhausted`](crate::Rejection::BudgetExhausted)
/// either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum BudgetShort {
    /// Refuse the use with [`Rejection::BudgetExhausted`](crate::Rejection::BudgetExhausted) (the default).
    #[default]
    Refuse,
    /// Take off what is left: the quote says [`budget_clipped`](crate::Quote::budget_clipped)
    /// and what the discount would have been ([`desired`](crate::Quote::desired)).
    Partial,
}

impl BudgetShort {
    /// Its JSON name: `"refuse"` or `"partial"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BudgetShort::Refuse => "refuse",
            BudgetShort::Partial => "partial",
        }
    }

    /// The mode named `text`, if any.
    ///
    /// # Errors
    ///
    /// [`InputError::UnknownBudgetShort`] for any other text.
    pub fn parse(text: &str) -> Result<BudgetShort, InputError> {
        match text {
            "refuse" => Ok(BudgetShort::Refuse),
            "partial" => Ok(BudgetShort::Partial),
            other => Err(InputError::UnknownBudgetShort {
                input: other.chars().take(40).collect(),
            }),
        }
    }
}

impl UsageLimits {
    /// No caps at all.
    pub const UNLIMITED: UsageLimits = UsageLimits {
        total: None,
        per_customer: None,
        budget: None,
        when_budget_short: None,
    };

    /// At most `total` redemptions overall and `per_customer` by each customer.
    ///
    /// # Errors
    ///
    /// [`InputError::ZeroLimit`] for a cap of 0.
    pub fn new(total: Option<u64>, per_customer: Option<u64>) -> Result<UsageLimits, InputError> {
        if total == Some(0) {
            return Err(InputError::ZeroLimit { field: "total" });
        }
        if per_customer == Some(0) {
            return Err(InputError::ZeroLimit { field: "per_customer" });
        }
        Ok(UsageLimits {
            total,
            per_customer,
            budget: None,
            when_budget_short: None,
        })
    }

    /// The same caps with a budget: the discounts of the uses that count
    /// (captured uses and active holds) add up to at most `budget`, and
    /// `when_short` says what a discount that does not fit what is left does.
    ///
    /// # Errors
    ///
    /// [`InputError::ZeroBudget`] for a budget of zero.
    pub fn with_budget(self, budget: Money, when_short: BudgetShort) -> Result<UsageLimits, InputError> {
        if budget.is_zero() {
            return Err(InputError::ZeroBudget);
        }
        Ok(UsageLimits {
            budget: Some(budget),
            when_budget_short: Some(when_short),
            ..self
        })
    }

    /// The overall cap.
    pub fn total(&self) -> Option<u64> {
        self.total
    }

    /// The cap for each customer.
    pub fn per_customer(&self) -> Option<u64> {
        self.per_customer
    }

    /// The most the code's discounts may add up to, if it has a budget.
    pub fn budget(&self) -> Option<&Money> {
        self.budget.as_ref()
    }

    /// What a discount that does not fit the budget's rest does ([`BudgetShort::Refuse`] without a budget).
    pub fn when_budget_short(&self) -> BudgetShort {
        self.when_budget_short.unwrap_or_default()
    }

    /// What is left of the budget after the uses `usage` counts (never below
    /// zero), or `None` without a budget.
    pub fn remaining_budget(&self, usage: UsageCounts) -> Option<Money> {
        let budget = self.budget?;
        let spent = Money::new(usage.discounted(), budget.currency())
            .unwrap_or(budget)
            .min_same(budget);
        Some(budget.checked_sub(&spent).unwrap_or(Money::zero(budget.currency())))
    }
}

/// Who may redeem a code: anyone, or only the customers it is assigned to
/// (1 to [`Audience::MAX_CUSTOMERS`] of them).
///
/// # Example
///
/// ```
/// use promocodes::{Audience, CustomerId};
///
/// let vip = Audience::assigned([CustomerId::parse("dora")?])?;
/// assert!(vip.admits(&CustomerId::parse("dora")?));
/// assert!(!vip.admits(&CustomerId::parse("erin")?));
/// assert!(Audience::public().admits(&CustomerId::parse("erin")?));
/// assert!(Audience::assigned([]).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Audience {
    assigned: Option<BTreeSet<CustomerId>>,
}

impl Audience {
    /// The most customers a code may be assigned to.
    pub const MAX_CUSTOMERS: usize = 10_000;

    /// Anyone may redeem it.
    pub fn public() -> Audience {
        Audience { assigned: None }
    }

    /// An audience of exactly these customers.
    ///
    /// # Errors
    ///
    /// [`InputError::EmptyAudience`] when there are none,
    /// [`InputError::TooMany`] beyond [`Audience::MAX_CUSTOMERS`].
    pub fn assigned(customers: impl IntoIterator<Item = CustomerId>) -> Result<Audience, InputError> {
        let customers = set_of(customers);
        if customers.is_empty() {
            return Err(InputError::EmptyAudience);
        }
        if customers.len() > Audience::MAX_CUSTOMERS {
            return Err(InputError::TooMany {
                field: "audience",
                count: customers.len(),
                max: Audience::MAX_CUSTOMERS,
            });
        }
        Ok(Audience {
            assigned: Some(customers),
        })
    }

    /// Whether the code is limited to named customers.
    pub fn is_assigned(&self) -> bool {
        self.assigned.is_some()
    }

    /// The customers it is assigned to, if it is.
    pub fn customers(&self) -> Option<&BTreeSet<CustomerId>> {
        self.assigned.as_ref()
    }

    /// Whether `customer` may redeem it.
    pub fn admits(&self, customer: &CustomerId) -> bool {
        self.assigned.as_ref().is_none_or(|c| c.contains(customer))
    }
}

/// Which basket lines a code applies to: a line is eligible when its sku is
/// listed or any of its categories is. A code without `applies_to` applies to
/// every line. Shipping is never eligible for percent or fixed discounts.
///
/// Serialised as `{"skus": ["GRINDER-1"], "categories": ["mugs"]}`, either list
/// optional but not both.
///
/// # Example
///
/// ```
/// use promocodes::{AppliesTo, Category, Currency, Line, Money, Sku};
///
/// let mugs = AppliesTo::new([], [Category::parse("mugs")?])?;
/// let price = Money::parse("12.50", Currency::EUR)?;
/// let mug = Line::new(Sku::parse("MUG-1")?, 1, price)?.with_categories([Category::parse("mugs")?])?;
/// let beans = Line::new(Sku::parse("BEANS")?, 1, price)?;
/// assert!(mugs.includes(&mug));
/// assert!(!mugs.includes(&beans));
/// assert!(AppliesTo::new([], []).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AppliesTo {
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    skus: BTreeSet<Sku>,
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    categories: BTreeSet<Category>,
}

impl AppliesTo {
    /// The most skus, and the most categories, a code may apply to.
    pub const MAX_ENTRIES: usize = 1000;

    /// A scope of these skus and categories.
    ///
    /// # Errors
    ///
    /// [`InputError::EmptyScope`] when both are empty, [`InputError::TooMany`]
    /// beyond [`AppliesTo::MAX_ENTRIES`] of either.
    pub fn new(
        skus: impl IntoIterator<Item = Sku>,
        categories: impl IntoIterator<Item = Category>,
    ) -> Result<AppliesTo, InputError> {
        let skus = set_of(skus);
        let categories = set_of(categories);
        if skus.is_empty() && categories.is_empty() {
            return Err(InputError::EmptyScope);
        }
        for (field, count) in [
            ("applies_to.skus", skus.len()),
            ("applies_to.categories", categories.len()),
        ] {
            if count > AppliesTo::MAX_ENTRIES {
                return Err(InputError::TooMany {
                    field,
                    count,
                    max: AppliesTo::MAX_ENTRIES,
                });
            }
        }
        Ok(AppliesTo { skus, categories })
    }

    /// The skus it applies to.
    pub fn skus(&self) -> &BTreeSet<Sku> {
        &self.skus
    }

    /// The categories it applies to.
    pub fn categories(&self) -> &BTreeSet<Category> {
        &self.categories
    }

    /// Whether `line` is eligible: its sku is listed or any of its categories is.
    pub fn includes(&self, line: &Line) -> bool {
        self.skus.contains(line.sku()) || line.categories().iter().any(|c| self.categories.contains(c))
    }

    /// A phrase for the buyer: `items in mugs or grinders`, `GRINDER-1`.
    pub fn describe(&self) -> String {
        const SHOWN: usize = 3;
        fn list<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
            let total = names.len();
            let mut shown: Vec<&str> = names.take(SHOWN).collect();
            let more = total.saturating_sub(SHOWN);
            let last = if more > 0 { None } else { shown.pop() };
            let mut text = shown.join(", ");
            match (last, more) {
                (Some(last), _) if text.is_empty() => text = last.to_owned(),
                (Some(last), _) => text = format!("{text} or {last}"),
                (None, more) => text = format!("{text} or {more} more"),
            }
            text
        }
        let categories = (!self.categories.is_empty())
            .then(|| format!("items in {}", list(self.categories.iter().map(Category::as_str))));
        let skus = (!self.skus.is_empty()).then(|| list(self.skus.iter().map(Sku::as_str)));
        match (categories, skus) {
            (Some(c), Some(s)) => format!("{c}, or to {s}"),
            (Some(one), None) | (None, Some(one)) => one,
            (None, None) => "no items".to_owned(),
        }
    }
}

/// A promotion code and its rules.
///
/// Built with [`PromoCode::builder`] or parsed from its JSON definition with
/// [`PromoCode::from_json`]; either way every rule about the definition
/// itself (a window that ends after it starts, one currency for all its
/// amounts) is checked once, there, and a `PromoCode` that exists is valid.
///
/// Its serde form is the definition:
///
/// ```json
/// {"code": "SAVE10",
///  "active": true,
///  "discount": {"kind": "percent", "percent": "10", "max": {"amount": "20.00", "currency": "EUR"}},
///  "applies_to": {"categories": ["mugs"]},
///  "limits": {"total": 1000, "per_customer": 1},
///  "starts_at": "2026-12-01T00:00:00Z", "ends_at": "2027-01-01T00:00:00Z",
///  "minimum": {"amount": "50.00", "currency": "EUR"},
///  "audience": ["alice", "bob"],
///  "combines_with": ["order", "shipping"]}
/// ```
///
/// Only `code` and `discount` are required; `active` defaults to `true`, no
/// `applies_to` means every line, no `audience` means public, no
/// `combines_with` means it shares a basket with no other code. Unknown fields
/// are an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromoCode {
    code: Code,
    active: bool,
    discount: Discount,
    applies_to: Option<AppliesTo>,
    limits: UsageLimits,
    starts_at: Option<Timestamp>,
    ends_at: Option<Timestamp>,
    minimum: Option<Money>,
    audience: Audience,
    combines_with: CodeClasses,
    currency: Option<Currency>,
    /// For a campaign's code: the campaign's id and how often each of its codes may be used.
    campaign: Option<(Code, u64)>,
}

/// Builds a [`PromoCode`]; [`build`](PromoCodeBuilder::build) checks the whole definition.
#[derive(Debug, Clone)]
#[must_use]
pub struct PromoCodeBuilder {
    promo: PromoCode,
}

impl PromoCodeBuilder {
    /// Switches the code on or off (on by default). An inactive code is
    /// refused with [`Rejection::Inactive`](crate::Rejection::Inactive).
    pub fn active(mut self, active: bool) -> PromoCodeBuilder {
        self.promo.active = active;
        self
    }

    /// Limits the code to some lines (every line by default).
    pub fn applies_to(mut self, scope: AppliesTo) -> PromoCodeBuilder {
        self.promo.applies_to = Some(scope);
        self
    }

    /// Caps on redemptions (unlimited by default).
    pub fn limits(mut self, limits: UsageLimits) -> PromoCodeBuilder {
        self.promo.limits = limits;
        self
    }

    /// The first moment the code is valid (inclusive).
    pub fn starts_at(mut self, start: Timestamp) -> PromoCodeBuilder {
        self.promo.starts_at = Some(start);
        self
    }

    /// The first moment the code is no longer valid (exclusive).
    pub fn ends_at(mut self, end: Timestamp) -> PromoCodeBuilder {
        self.promo.ends_at = Some(end);
        self
    }

    /// The smallest eligible subtotal the code applies to.
    pub fn minimum(mut self, minimum: Money) -> PromoCodeBuilder {
        self.promo.minimum = Some(minimum);
        self
    }

    /// Who may redeem it (public by default).
    pub fn audience(mut self, audience: Audience) -> PromoCodeBuilder {
        self.promo.audience = audience;
        self
    }

    /// The classes of code it may share a basket with (none by default):
    /// two codes combine only when each lists the other's
    /// [`class`](PromoCode::class). See [`Stack`](crate::Stack).
    pub fn combines_with(mut self, classes: impl IntoIterator<Item = CodeClass>) -> PromoCodeBuilder {
        self.promo.combines_with = classes.into_iter().fold(CodeClasses::NONE, CodeClasses::with);
        self
    }

    /// Checks the definition as a whole and makes the code.
    ///
    /// # Errors
    ///
    /// [`InputError::EmptyWindow`] when the window does not end after it
    /// starts; [`InputError::CurrencyMismatch`] when the discount and the
    /// minimum name different currencies.
    pub fn build(self) -> Result<PromoCode, InputError> {
        let mut promo = self.promo;
        if let (Some(starts_at), Some(ends_at)) = (promo.starts_at, promo.ends_at) {
            if ends_at <= starts_at {
                return Err(InputError::EmptyWindow { starts_at, ends_at });
            }
        }
        promo.currency = agreed_currency(&[
            ("discount.amount", promo.discount.fixed_amount()),
            ("discount.max", promo.discount.max()),
            ("minimum", promo.minimum.as_ref()),
            ("limits.budget", promo.limits.budget.as_ref()),
        ])?;
        Ok(promo)
    }
}

impl PromoCode {
    /// The fields of the JSON definition, in the order it is written: what a
    /// reader of a definition accepts (any other field is an error).
    pub const FIELDS: [&'static str; 10] = [
        "code",
        "active",
        "discount",
        "applies_to",
        "limits",
        "starts_at",
        "ends_at",
        "minimum",
        "audience",
        "combines_with",
    ];

    /// Starts a definition of `code` with `discount`: active, public, for
    /// every line, unlimited, always valid.
    pub fn builder(code: Code, discount: Discount) -> PromoCodeBuilder {
        PromoCodeBuilder {
            promo: PromoCode {
                code,
                active: true,
                discount,
                applies_to: None,
                limits: UsageLimits::UNLIMITED,
                starts_at: None,
                ends_at: None,
                minimum: None,
                audience: Audience::public(),
                combines_with: CodeClasses::NONE,
                currency: None,
                campaign: None,
            },
        }
    }

    /// The same code switched on or off, everything else unchanged.
    pub fn with_active(&self, active: bool) -> PromoCode {
        PromoCode { active, ..self.clone() }
    }

    /// The normalised code.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// For a campaign's code, the campaign's id: its uses are counted with
    /// every other code of the campaign (see [`Campaign::code`](crate::Campaign::code)).
    pub fn campaign(&self) -> Option<&Code> {
        self.campaign.as_ref().map(|(id, _)| id)
    }

    /// For a campaign's code, how often the code itself may be used; its
    /// `limits` are then the campaign's, across all of its codes.
    pub fn uses_per_code(&self) -> Option<u64> {
        self.campaign.as_ref().map(|(_, uses)| *uses)
    }

    /// The same definition under another code.
    pub(crate) fn renamed(self, code: Code) -> PromoCode {
        PromoCode { code, ..self }
    }

    /// This definition as a code of no campaign.
    pub(crate) fn without_campaign(self) -> PromoCode {
        PromoCode { campaign: None, ..self }
    }

    /// How many more uses `usage` leaves the code, if it is capped: the
    /// least of what its total cap, (for a campaign's code) its
    /// `uses_per_code` and its budget leave. `None` for a code without any
    /// of them.
    ///
    /// A budget counts in uses at the discount's full size: a fixed
    /// discount's amount, or its `max` when it has one (a percent or free
    /// shipping with a `max`). Its rest divided by that size, rounded down
    /// with [`BudgetShort::Refuse`] and up with [`BudgetShort::Partial`]
    /// (the last use takes what is left). A smaller basket's discount is
    /// smaller, so the budget may pay for more uses than this says, never
    /// fewer. A discount of no fixed size (a percent or free shipping
    /// without `max`) leaves the budget out, until nothing is left of it:
    /// then no use is left.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{BudgetShort, Campaign, Code, Currency, Discount, Money, PromoCode, UsageCounts, UsageLimits};
    ///
    /// let definition = PromoCode::builder(Code::parse("BF")?, Discount::percent("20".parse()?)?)
    ///     .limits(UsageLimits::new(Some(150), None)?)
    ///     .build()?;
    /// let code = Campaign::new(definition.clone(), 2)?.code(Code::parse("BF-1")?);
    /// assert_eq!(code.remaining_uses(UsageCounts::new(100, 0)?.with_code_uses(1)?), Some(1));
    /// assert_eq!(code.remaining_uses(UsageCounts::new(149, 0)?.with_code_uses(0)?), Some(1));
    /// assert_eq!(definition.remaining_uses(UsageCounts::new(100, 0)?), Some(50));
    ///
    /// // 7.00 off each use, 100.00 to give away, 91.00 of it given: 1 full use
    /// // left, or 1 full and 1 partial when a short rest is given partly.
    /// let eur = |amount: &str| Money::parse(amount, Currency::EUR);
    /// let limits = UsageLimits::new(None, None)?.with_budget(eur("100.00")?, BudgetShort::Refuse)?;
    /// let seven = PromoCode::builder(Code::parse("SEVEN")?, Discount::fixed(eur("7.00")?)?)
    ///     .limits(limits)
    ///     .build()?;
    /// let used = UsageCounts::new(13, 0)?.with_discounted("91.00".parse()?)?;
    /// assert_eq!(seven.remaining_uses(used), Some(1));
    /// let partial = PromoCode::builder(Code::parse("SEVEN")?, Discount::fixed(eur("7.00")?)?)
    ///     .limits(limits.with_budget(eur("100.00")?, BudgetShort::Partial)?)
    ///     .build()?;
    /// assert_eq!(partial.remaining_uses(used), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remaining_uses(&self, usage: UsageCounts) -> Option<u64> {
        let total = self.limits.total().map(|cap| cap.saturating_sub(usage.total()));
        let own = self.uses_per_code().map(|cap| cap.saturating_sub(usage.code_uses()));
        [total, own, self.budget_uses(usage)].into_iter().flatten().min()
    }

    /// The uses the budget's rest pays for at the discount's full size
    /// (see [`PromoCode::remaining_uses`]), if it bounds them.
    fn budget_uses(&self, usage: UsageCounts) -> Option<u64> {
        let left = self.limits.remaining_budget(usage)?;
        if left.is_zero() {
            return Some(0);
        }
        let size = match (self.discount.fixed_amount(), self.discount.max()) {
            (Some(amount), Some(max)) => amount.amount().min(max.amount()),
            (amount, max) => amount.or(max)?.amount(),
        };
        let uses = left.amount().checked_div(size)?;
        let uses = match self.limits.when_budget_short() {
            BudgetShort::Partial => uses.ceil(),
            _ => uses.floor(),
        };
        uses.to_u64()
    }

    /// This definition as `code` of campaign `id`, each code usable
    /// `uses_per_code` times: what [`Campaign::code`](crate::Campaign::code) makes.
    pub(crate) fn counted_under(&self, code: Code, id: &Code, uses_per_code: u64) -> PromoCode {
        PromoCode {
            code,
            campaign: Some((id.clone(), uses_per_code)),
            ..self.clone()
        }
    }

    /// Whether the code is switched on.
    pub fn active(&self) -> bool {
        self.active
    }

    /// What it takes off.
    pub fn discount(&self) -> &Discount {
        &self.discount
    }

    /// Which lines it applies to (`None`: every line).
    pub fn applies_to(&self) -> Option<&AppliesTo> {
        self.applies_to.as_ref()
    }

    /// Its caps.
    pub fn limits(&self) -> UsageLimits {
        self.limits
    }

    /// When it opens (inclusive), if ever.
    pub fn starts_at(&self) -> Option<Timestamp> {
        self.starts_at
    }

    /// When it closes (exclusive), if ever.
    pub fn ends_at(&self) -> Option<Timestamp> {
        self.ends_at
    }

    /// The smallest eligible subtotal it applies to.
    pub fn minimum(&self) -> Option<&Money> {
        self.minimum.as_ref()
    }

    /// Who may use it.
    pub fn audience(&self) -> &Audience {
        &self.audience
    }

    /// Its class, which decides when it applies in a [`Stack`](crate::Stack):
    /// [`CodeClass::Shipping`] for a free-shipping discount,
    /// [`CodeClass::Product`] when it has [`applies_to`](PromoCode::applies_to),
    /// [`CodeClass::Order`] otherwise.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{CodeClass, Code, Discount, PromoCode};
    ///
    /// let ship = PromoCode::builder(Code::parse("SHIPFREE")?, Discount::free_shipping()).build()?;
    /// assert_eq!(ship.class(), CodeClass::Shipping);
    /// assert!(ship.combines_with().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn class(&self) -> CodeClass {
        match (self.discount.kind(), &self.applies_to) {
            (DiscountKind::FreeShipping, _) => CodeClass::Shipping,
            (_, Some(_)) => CodeClass::Product,
            (_, None) => CodeClass::Order,
        }
    }

    /// The classes of code it may share a basket with (empty: none).
    pub fn combines_with(&self) -> CodeClasses {
        self.combines_with
    }

    /// Whether this code and `other` may share a basket: each lists the other's class.
    pub fn combines(&self, other: &PromoCode) -> bool {
        self.combines_with.contains(other.class()) && other.combines_with.contains(self.class())
    }

    /// The one currency its amounts are in, if it has any amounts.
    /// Baskets in any other currency are refused with
    /// [`Rejection::CurrencyMismatch`](crate::Rejection::CurrencyMismatch).
    pub fn currency(&self) -> Option<Currency> {
        self.currency
    }

    /// The definition as anyone may see it: no audience's customers (they
    /// are personal data), only whether the code is assigned.
    ///
    /// Serialises as the definition without `audience`, plus `"assigned": true|false`.
    pub fn public_view(&self) -> PublicDefinition<'_> {
        PublicDefinition(self)
    }
}

/// A [`PromoCode`]'s definition with the audience's customers left out; see
/// [`PromoCode::public_view`].
#[derive(Debug, Clone, Copy)]
pub struct PublicDefinition<'a>(&'a PromoCode);

impl Serialize for PromoCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_definition(self, Shown::Operator, serializer)
    }
}

impl Serialize for PublicDefinition<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_definition(self.0, Shown::Public, serializer)
    }
}

/// Who a definition is written for.
#[derive(Clone, Copy)]
pub(crate) enum Shown {
    /// The operator: everything (a campaign's code names its campaign and `uses_per_code`).
    Operator,
    /// Anyone: no audience's customers (a campaign's code names its campaign too).
    Public,
    /// A campaign's definition, with `uses_per_code`: `id` in place of `code`.
    Campaign(u64),
}

pub(crate) fn serialize_definition<S: Serializer>(
    promo: &PromoCode,
    shown: Shown,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let with_audience = !matches!(shown, Shown::Public);
    let mut s = serializer.serialize_struct("PromoCode", 13)?;
    match shown {
        Shown::Campaign(uses_per_code) => {
            s.serialize_field("id", &promo.code)?;
            s.serialize_field("uses_per_code", &uses_per_code)?;
        }
        Shown::Operator | Shown::Public => {
            s.serialize_field("code", &promo.code)?;
            if let Some((id, uses_per_code)) = &promo.campaign {
                s.serialize_field("campaign", id)?;
                s.serialize_field("uses_per_code", uses_per_code)?;
            }
        }
    }
    s.serialize_field("active", &promo.active)?;
    s.serialize_field("discount", &promo.discount)?;
    if let Some(scope) = &promo.applies_to {
        s.serialize_field("applies_to", scope)?;
    }
    if promo.limits != UsageLimits::UNLIMITED {
        s.serialize_field("limits", &promo.limits)?;
    }
    if let Some(starts_at) = &promo.starts_at {
        s.serialize_field("starts_at", starts_at)?;
    }
    if let Some(ends_at) = &promo.ends_at {
        s.serialize_field("ends_at", ends_at)?;
    }
    if let Some(minimum) = &promo.minimum {
        s.serialize_field("minimum", minimum)?;
    }
    match (promo.audience.customers(), with_audience) {
        (Some(customers), true) => s.serialize_field("audience", customers)?,
        (_, false) => s.serialize_field("assigned", &promo.audience.is_assigned())?,
        (None, true) => {}
    }
    if !promo.combines_with.is_empty() {
        s.serialize_field("combines_with", &promo.combines_with)?;
    }
    s.end()
}
