use std::fmt;

use crate::time::Timestamp;
use serde::{Deserialize, Serialize};

use crate::currency::Currency;
use crate::error::InputError;
use crate::ids::{Code, CustomerId};
use crate::money::Money;
use crate::promo::{Audience, Discount, PromoCode};

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "UsageRepr")]
pub struct UsageCounts {
    total: u64,
    per_customer: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UsageRepr {
    total: u64,
    per_customer: u64,
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
///
/// # Example
///
/// ```
/// use promocodes::Rejection;
///
/// assert_eq!(Rejection::BelowMinimum.code(), "below_minimum");
/// assert_eq!(Rejection::from_code("exhausted"), Some(Rejection::Exhausted));
/// assert_eq!(serde_json::to_string(&Rejection::NotStarted)?, r#""not_started""#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Rejection {
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
    /// The basket total is below the code's minimum.
    BelowMinimum,
}

impl Rejection {
    /// Every rejection, in the order the rules are checked.
    pub const ALL: [Rejection; 8] = [
        Rejection::CustomerRequired,
        Rejection::NotAssigned,
        Rejection::NotStarted,
        Rejection::Expired,
        Rejection::Exhausted,
        Rejection::CustomerLimitReached,
        Rejection::CurrencyMismatch,
        Rejection::BelowMinimum,
    ];

    /// The stable snake_case code: `"below_minimum"`.
    pub fn code(self) -> &'static str {
        match self {
            Rejection::CustomerRequired => "customer_required",
            Rejection::NotAssigned => "not_assigned",
            Rejection::NotStarted => "not_started",
            Rejection::Expired => "expired",
            Rejection::Exhausted => "exhausted",
            Rejection::CustomerLimitReached => "customer_limit_reached",
            Rejection::CurrencyMismatch => "currency_mismatch",
            Rejection::BelowMinimum => "below_minimum",
        }
    }

    /// The rejection with this stable code, if any.
    pub fn from_code(code: &str) -> Option<Rejection> {
        Rejection::ALL.into_iter().find(|r| r.code() == code)
    }

    /// A general sentence for the buyer. [`PromoCodeRejected`]'s message is the
    /// same sentence with the code's own figures in it.
    pub fn message(self) -> &'static str {
        match self {
            Rejection::CustomerRequired => "this code needs you to be signed in",
            Rejection::NotAssigned => "this code is not available to you",
            Rejection::NotStarted => "this code is not valid yet",
            Rejection::Expired => "this code has expired",
            Rejection::Exhausted => "this code has been used up",
            Rejection::CustomerLimitReached => "you have already used this code as often as it allows",
            Rejection::CurrencyMismatch => "this code does not apply to a basket in this currency",
            Rejection::BelowMinimum => "this code needs a larger basket",
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
/// use promocodes::{Code, Currency, Discount, Money, PromoCode, Rejection, Timestamp, UsageCounts};
///
/// let promo = PromoCode::builder(Code::parse("BIG")?, Discount::percent("10".parse()?)?)
///     .minimum(Money::parse("50", Currency::EUR)?)
///     .build()?;
/// let small = Money::parse("20", Currency::EUR)?;
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
            Rejection::BelowMinimum => match promo.minimum() {
                Some(minimum) => format!("this code needs a basket of at least {minimum}"),
                None => rejection.message().to_owned(),
            },
            other => other.message().to_owned(),
        };
        PromoCodeRejected {
            code: promo.code().clone(),
            rejection,
            message,
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

/// A priced basket: what the code takes off and what is left to pay.
///
/// A quote touches no counter; it is a promise about the moment it was made,
/// `quoted_at`, and nothing more. The discount never exceeds the total, the
/// payable is never negative, and `discount + payable == total`, exactly.
///
/// It serialises as
/// `{"code", "total": <Money>, "discount": <Money>, "payable": <Money>, "quoted_at"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "QuoteRepr")]
pub struct Quote {
    code: Code,
    total: Money,
    discount: Money,
    payable: Money,
    quoted_at: Timestamp,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuoteRepr {
    code: Code,
    total: Money,
    discount: Money,
    payable: Money,
    quoted_at: Timestamp,
}

impl TryFrom<QuoteRepr> for Quote {
    type Error = InputError;

    fn try_from(repr: QuoteRepr) -> Result<Quote, InputError> {
        let consistent = repr.discount.partial_cmp_same(&repr.total).is_some_and(|o| o.is_le())
            && repr.total.checked_sub(&repr.discount) == Some(repr.payable);
        if !consistent {
            return Err(InputError::Malformed {
                path: "quote".to_owned(),
                message: "discount and payable do not add up to the total".to_owned(),
            });
        }
        Ok(Quote {
            code: repr.code,
            total: repr.total,
            discount: repr.discount,
            payable: repr.payable,
            quoted_at: repr.quoted_at,
        })
    }
}

impl Quote {
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
    /// use promocodes::{Code, CustomerId, Discount, Money, PromoCode, Rejection, Timestamp, UsageCounts, UsageLimits};
    ///
    /// let promo = PromoCode::builder(Code::parse("SAVE10")?, Discount::percent("10".parse()?)?)
    ///     .limits(UsageLimits::new(Some(1000), Some(1))?)
    ///     .build()?;
    /// let alice = CustomerId::parse("alice")?;
    /// let total = Money::parse("80.00", "EUR".parse()?)?;
    /// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
    ///
    /// assert_eq!(promo.check(Some(&alice), UsageCounts::new(999, 0)?, &total, now), None);
    /// assert_eq!(
    ///     promo.check(Some(&alice), UsageCounts::new(1000, 0)?, &total, now),
    ///     Some(Rejection::Exhausted),
    /// );
    /// assert_eq!(
    ///     promo.check(None, UsageCounts::ZERO, &total, now),
    ///     Some(Rejection::CustomerRequired),
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check(
        &self,
        customer: Option<&CustomerId>,
        usage: UsageCounts,
        total: &Money,
        now: Timestamp,
    ) -> Option<Rejection> {
        let limits = self.limits();
        let assigned = match self.audience() {
            Audience::Public => None,
            Audience::Assigned(customers) => Some(customers),
        };
        if customer.is_none() && (limits.per_customer().is_some() || assigned.is_some()) {
            return Some(Rejection::CustomerRequired);
        }
        if let (Some(customers), Some(customer)) = (assigned, customer) {
            if !customers.contains(customer) {
                return Some(Rejection::NotAssigned);
            }
        }
        if self.starts_at().is_some_and(|start| now < start) {
            return Some(Rejection::NotStarted);
        }
        if self.ends_at().is_some_and(|end| now >= end) {
            return Some(Rejection::Expired);
        }
        if limits.total().is_some_and(|cap| usage.total() >= cap) {
            return Some(Rejection::Exhausted);
        }
        if customer.is_some() && limits.per_customer().is_some_and(|cap| usage.per_customer() >= cap) {
            return Some(Rejection::CustomerLimitReached);
        }
        if self.currency().is_some_and(|currency| currency != total.currency()) {
            return Some(Rejection::CurrencyMismatch);
        }
        if let Some(minimum) = self.minimum() {
            if minimum.partial_cmp_same(total).is_some_and(|o| o.is_gt()) {
                return Some(Rejection::BelowMinimum);
            }
        }
        None
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
        total: &Money,
        now: Timestamp,
    ) -> Result<(), PromoCodeRejected> {
        match self.check(customer, usage, total, now) {
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
    /// use promocodes::{Code, Currency, Discount, Money, PromoCode, Timestamp, UsageCounts};
    ///
    /// let promo = PromoCode::builder(Code::parse("SAVE10")?, Discount::percent("10".parse()?)?).build()?;
    /// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
    /// let quote = promo.quote(None, UsageCounts::ZERO, &Money::parse("80", Currency::EUR)?, now)?;
    ///
    /// assert_eq!(quote.discount().to_string(), "EUR 8.00");
    /// assert_eq!(quote.payable().to_string(), "EUR 72.00");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn quote(
        &self,
        customer: Option<&CustomerId>,
        usage: UsageCounts,
        total: &Money,
        now: Timestamp,
    ) -> Result<Quote, PromoCodeRejected> {
        self.validate(customer, usage, total, now)?;
        self.price(total, now)
    }

    /// Prices a basket without checking any rule but the one pricing needs:
    /// the basket must be in the code's currency.
    ///
    /// This is what the buyer was (or would have been) quoted, for a server
    /// that captures without the page's own [`Quote`] in hand.
    ///
    /// # Errors
    ///
    /// [`PromoCodeRejected`] with [`Rejection::CurrencyMismatch`].
    pub fn price(&self, total: &Money, now: Timestamp) -> Result<Quote, PromoCodeRejected> {
        if self.currency().is_some_and(|currency| currency != total.currency()) {
            return Err(PromoCodeRejected::new(self, Rejection::CurrencyMismatch));
        }
        let discount = match self.discount() {
            Discount::Percent { percent, max } => {
                // No amount up to Money::MAX_AMOUNT times a percent up to 100
                // overflows a Decimal; the whole total is the safe bound anyway.
                let off = total.checked_percent(*percent).unwrap_or(*total);
                match max {
                    Some(max) => off.min_same(*max),
                    None => off,
                }
            }
            Discount::Fixed { amount } => *amount,
        }
        .min_same(*total);
        let payable = total
            .checked_sub(&discount)
            .unwrap_or_else(|| Money::zero(total.currency()));
        Ok(Quote {
            code: self.code().clone(),
            total: *total,
            discount,
            payable,
            quoted_at: now,
        })
    }
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
