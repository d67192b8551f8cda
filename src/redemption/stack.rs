//! The counts a stack's code is priced on, for a request that may already
//! have uses under its key.

use crate::rules::{PromoCode, UsageCounts};
use crate::store::{RedemptionStore, StoreError};
use crate::values::{Code, CustomerId, IdempotencyKey, Timestamp};

/// The counts a [`Stack`](crate::Stack) prices `promo` on for `customer` at
/// `now`: what the store reports ([`RedemptionStore::usage_of`]), less every
/// use the request already has under its `key` (an active hold, or a
/// capture) that counts in them: `promo`'s own
/// ([`UsageCounts::without_use`]), and for a campaign's code, those of the
/// stack's other codes of the same campaign, `sharing`
/// ([`UsageCounts::without_campaign_use`]; a code in `sharing` that is
/// `promo`'s own, or that has no use under the key, leaves nothing out).
///
/// So a stack's capture converting its holds, or a retry finishing what its
/// first try started, is quoted on the counts its first try was quoted on:
/// [`Stack::quote`](crate::Stack::quote) then counts each earlier code of a
/// campaign once, and no code is refused for a use its own request took.
/// Without a key, the counts as the store reports them.
///
/// # Errors
///
/// [`StoreError`] when the store cannot answer.
///
/// # Example
///
/// ```
/// use promocodes::{hold, usage_in_stack, Basket, Campaign, Code, Currency, Discount, HoldOptions};
/// use promocodes::{IdempotencyKey, InMemoryRedemptionStore, Money, PromoCode, Timestamp, UsageCounts, UsageLimits};
///
/// let definition = PromoCode::builder(Code::parse("BF")?, Discount::percent("10".parse()?)?)
///     .limits(UsageLimits::new(Some(100), None)?)
///     .build()?;
/// let bf = Campaign::new(definition, 1)?;
/// let (a, b) = (bf.code(Code::parse("BF-A")?), bf.code(Code::parse("BF-B")?));
/// let store = InMemoryRedemptionStore::new();
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// let key = IdempotencyKey::parse("order-1")?;
/// let basket = Basket::from(Money::parse("80", Currency::EUR)?);
/// hold(&a, &store, None, &basket, now, &key, HoldOptions::new())?;
/// hold(&b, &store, None, &basket, now, &key, HoldOptions::new())?;
///
/// // Both holds are the request's own: B is priced without either.
/// let sharing = [a.code().clone(), b.code().clone()];
/// let usage = usage_in_stack(&store, &b, None, Some(&key), &sharing, now)?;
/// assert_eq!((usage.total(), usage.code_uses()), (0, 0));
/// assert_eq!(usage_in_stack(&store, &b, None, None, &sharing, now)?.total(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn usage_in_stack<S: RedemptionStore + ?Sized>(
    store: &S,
    promo: &PromoCode,
    customer: Option<&CustomerId>,
    key: Option<&IdempotencyKey>,
    sharing: &[Code],
    now: Timestamp,
) -> Result<UsageCounts, StoreError> {
    let mut usage = store.usage_of(promo, customer, now)?;
    let Some(key) = key else {
        return Ok(usage);
    };
    // A use under the key that counts now, and whether it is this customer's.
    let own = |code: &Code| -> Result<Option<(bool, rust_decimal::Decimal)>, StoreError> {
        let held = store.reservation(code, key)?.filter(|own| own.counts_at(now));
        Ok(held.map(|own| {
            let by_customer = own.customer.is_some() && own.customer.as_ref() == customer;
            (by_customer, own.quote.discount().amount())
        }))
    };
    if let Some((by_customer, discount)) = own(promo.code())? {
        usage = usage.without_use(by_customer, discount);
    }
    if promo.campaign().is_some() {
        for other in sharing.iter().filter(|other| *other != promo.code()) {
            if let Some((by_customer, discount)) = own(other)? {
                usage = usage.without_campaign_use(by_customer, discount);
            }
        }
    }
    Ok(usage)
}
