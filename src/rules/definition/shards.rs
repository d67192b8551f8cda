//! A hot code spread over shard objects: how many ([`PromoCode::shards`]),
//! which shard a request goes to ([`shard_of`]), and the views of the code a
//! shard decides with ([`PromoCode::allotted`]).
//!
//! A sharded code's uses are split as an escrow: its object (the
//! coordinator) grants each shard an allotment of uses (and of budget), and
//! a shard decides its holds and captures alone, with the same rules, its
//! allotment standing in for the cap. The cap itself is still checked once,
//! by [`UsageLimits`](super::UsageLimits), on the allotted limits.

use super::{PromoCode, PromoCodeBuilder};
use crate::values::{Code, CustomerId, IdempotencyKey, Money};

impl PromoCodeBuilder {
    /// Spreads its holds and captures over `shards` shard objects (1, the
    /// default, to [`PromoCode::MAX_SHARDS`]; checked by
    /// [`build`](PromoCodeBuilder::build)).
    pub fn shards(mut self, shards: u8) -> PromoCodeBuilder {
        self.promo.shards = shards;
        self
    }
}

impl PromoCode {
    /// The most shards a code may be spread over.
    pub const MAX_SHARDS: u8 = 64;

    /// How many shard objects its holds and captures are spread over (1: its
    /// own object decides every use).
    pub fn shards(&self) -> u8 {
        self.shards
    }

    /// The code as a shard decides it with an allotment of `uses` (and of
    /// `budget`, for a budgeted code): the overall cap is `uses` (none when
    /// the code has none), the budget is `budget` (zero when not given), and
    /// a discount that does not fit the allotted budget is refused, unless
    /// `last` (the shard holds all that is left of the budget: a
    /// `when_budget_short: partial` code then clips its last use there, in
    /// one place). The per-customer cap and every other rule are the code's own.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Basket, Code, Currency, Discount, Money, PromoCode, Rejection, Timestamp, UsageCounts, UsageLimits};
    ///
    /// let promo = PromoCode::builder(Code::parse("HOT")?, Discount::percent("10".parse()?)?)
    ///     .limits(UsageLimits::new(Some(1000), None)?)
    ///     .shards(4)
    ///     .build()?;
    /// let shard = promo.allotted(2, None, false);
    /// assert_eq!(shard.limits().total(), Some(2));
    /// let basket = Basket::total_only(Money::parse("10.00", Currency::EUR)?);
    /// let now = Timestamp::parse("2026-01-01T00:00:00Z")?;
    /// assert!(shard.quote(None, UsageCounts::new(1, 0)?, &basket, now).is_ok());
    /// let refused = shard.quote(None, UsageCounts::new(2, 0)?, &basket, now).unwrap_err();
    /// assert_eq!(refused.rejection(), Rejection::Exhausted);
    /// // No allotment at all: every use waits for a grant.
    /// assert!(promo.allotted(0, None, false).quote(None, UsageCounts::ZERO, &basket, now).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn allotted(&self, uses: u64, budget: Option<Money>, last: bool) -> PromoCode {
        PromoCode {
            limits: self.limits.allotted(uses, budget, last),
            ..self.clone()
        }
    }
}

impl PromoCode {
    /// The same definition under `code`: for a campaign's code, the campaign's
    /// code `code` (the same campaign, caps and `uses_per_code`). A campaign's
    /// shard keeps one of its codes' definitions and decides every other code
    /// of the campaign with this.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Campaign, Code};
    ///
    /// let campaign = Campaign::from_json(Code::parse("BF")?, r#"{"discount": {"kind": "percent", "percent": "20"}, "shards": 4}"#)?;
    /// let one = campaign.code(Code::parse("BF-1")?);
    /// assert_eq!(one.sibling(Code::parse("BF-2")?), campaign.code(Code::parse("BF-2")?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sibling(&self, code: Code) -> PromoCode {
        self.clone().renamed(code)
    }
    /// A campaign's code as a shard decides it with an allotment of `uses`
    /// of the code's own uses: its `uses_per_code` is `uses` (the uses the
    /// shard took of it, plus those it may still take), every other rule
    /// the code's own. A code of no campaign is returned as it is.
    ///
    /// A campaign spread over shards decides each code's uses as an escrow
    /// of its own: the shards that take uses of one code hold allotments of
    /// it that never add up to more than its `uses_per_code`.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Basket, Campaign, Code, Currency, Money, Rejection, Timestamp, UsageCounts};
    ///
    /// let campaign = Campaign::from_json(Code::parse("BF")?, r#"{"discount": {"kind": "percent", "percent": "20"}, "uses_per_code": 3, "shards": 4}"#)?;
    /// let code = campaign.code(Code::parse("BF-1")?);
    /// let basket = Basket::total_only(Money::parse("10.00", Currency::EUR)?);
    /// let now = Timestamp::parse("2026-01-01T00:00:00Z")?;
    /// // This shard took one use of BF-1 and holds no more of it.
    /// let here = UsageCounts::new(1, 0)?.with_code_uses(1)?;
    /// assert!(code.quote(None, here, &basket, now).is_ok());
    /// let refused = code.with_uses_per_code(1).quote(None, here, &basket, now).unwrap_err();
    /// assert_eq!(refused.rejection(), Rejection::Exhausted);
    /// assert_eq!(code.with_uses_per_code(2).uses_per_code(), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_uses_per_code(&self, uses: u64) -> PromoCode {
        match &self.campaign {
            Some((id, _)) => PromoCode {
                campaign: Some((id.clone(), uses)),
                ..self.clone()
            },
            None => self.clone(),
        }
    }

    /// The code as decided for a customer who already took `uses` uses of it
    /// in places the counts passed in do not cover: the per-customer cap
    /// less `uses` (every other rule unchanged). A shard of a code whose
    /// `shards` changed decides with it: the customer's uses taken under an
    /// earlier layout sit in the objects that layout sent the customer to.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Basket, Code, Currency, CustomerId, Discount, Money, PromoCode, Rejection, Timestamp, UsageCounts, UsageLimits};
    ///
    /// let promo = PromoCode::builder(Code::parse("HOT")?, Discount::percent("10".parse()?)?)
    ///     .limits(UsageLimits::new(None, Some(2))?)
    ///     .build()?;
    /// let dora = CustomerId::parse("dora")?;
    /// let basket = Basket::total_only(Money::parse("10.00", Currency::EUR)?);
    /// let now = Timestamp::parse("2026-01-01T00:00:00Z")?;
    /// // One use here and one elsewhere: her cap of 2 is reached.
    /// let here = UsageCounts::new(1, 1)?;
    /// assert!(promo.quote(Some(&dora), here, &basket, now).is_ok());
    /// let refused = promo.less_customer_uses(1).quote(Some(&dora), here, &basket, now).unwrap_err();
    /// assert_eq!(refused.rejection(), Rejection::CustomerLimitReached);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn less_customer_uses(&self, uses: u64) -> PromoCode {
        if uses == 0 {
            return self.clone();
        }
        PromoCode {
            limits: self.limits.less_customer_uses(uses),
            ..self.clone()
        }
    }
}

/// The shard (0 to `shards - 1`) a hold, capture or release goes to: by
/// the customer when there is one (so that a customer's per-customer cap is
/// decided in one place), else by the idempotency key (so that a retry finds
/// its record). A stable hash (64-bit FNV-1a): the same request reaches the
/// same shard in every build and every process.
///
/// # Example
///
/// ```
/// use promocodes::{shard_of, CustomerId, IdempotencyKey};
///
/// let key = IdempotencyKey::parse("order-1")?;
/// let dora = CustomerId::parse("dora")?;
/// assert_eq!(shard_of(1, Some(&dora), &key), 0);
/// // A customer's requests reach one shard whatever their keys.
/// let other = IdempotencyKey::parse("order-2")?;
/// assert_eq!(shard_of(16, Some(&dora), &key), shard_of(16, Some(&dora), &other));
/// assert!(shard_of(16, None, &key) < 16);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn shard_of(shards: u8, customer: Option<&CustomerId>, key: &IdempotencyKey) -> u8 {
    match customer {
        Some(customer) => customer_shard(shards, customer),
        None => spread(shards, b'k', key.as_str()),
    }
}

/// The shard (0 to `shards - 1`) every hold, capture and release of
/// `customer` goes to, whatever its key: [`shard_of`] with a customer.
/// Where that customer's uses of a sharded code are counted.
///
/// # Example
///
/// ```
/// use promocodes::{customer_shard, shard_of, CustomerId, IdempotencyKey};
///
/// let dora = CustomerId::parse("dora")?;
/// let key = IdempotencyKey::parse("order-1")?;
/// assert_eq!(customer_shard(16, &dora), shard_of(16, Some(&dora), &key));
/// assert_eq!(customer_shard(1, &dora), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn customer_shard(shards: u8, customer: &CustomerId) -> u8 {
    spread(shards, b'c', customer.as_str())
}

/// `text` tagged `tag`, hashed (64-bit FNV-1a) onto `0..shards`.
fn spread(shards: u8, tag: u8, text: &str) -> u8 {
    if shards <= 1 {
        return 0;
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in std::iter::once(tag).chain(text.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (hash % u64::from(shards)) as u8
}
