//! A code's caps ([`UsageLimits`], [`BudgetShort`]), who may use it
//! ([`Audience`]) and which lines it applies to ([`AppliesTo`]).

use std::collections::BTreeSet;

use serde::Serialize;

use super::super::basket::Line;
use super::super::counts::UsageCounts;
use crate::values::{Category, CustomerId, InputError, Money, Sku};

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

    /// The same caps with `per_customer` (at least 1).
    pub(crate) fn with_per_customer(self, per_customer: u64) -> UsageLimits {
        UsageLimits {
            per_customer: Some(per_customer.max(1)),
            ..self
        }
    }

    /// The same caps, with `uses` taken off the per-customer cap (none left: 0, which refuses).
    pub(crate) fn less_customer_uses(self, uses: u64) -> UsageLimits {
        UsageLimits {
            per_customer: self.per_customer.map(|cap| cap.saturating_sub(uses)),
            ..self
        }
    }

    /// The caps a shard decides with (see [`PromoCode::allotted`](crate::PromoCode::allotted)):
    /// the overall cap `uses` (if there is one), the budget `budget` (zero
    /// when not given, if there is one), refused when short unless `last`; per customer unchanged.
    pub(crate) fn allotted(self, uses: u64, budget: Option<Money>, last: bool) -> UsageLimits {
        UsageLimits {
            total: self.total.map(|_| uses),
            per_customer: self.per_customer,
            budget: self
                .budget
                .map(|whole| budget.unwrap_or_else(|| Money::zero(whole.currency()))),
            when_budget_short: match last {
                true => self.when_budget_short,
                false => self.budget.map(|_| BudgetShort::Refuse),
            },
        }
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
            let mut text = String::new();
            for (i, name) in shown.iter().enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                text.push_str(name);
            }
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
