use std::collections::{BTreeMap, HashMap};
use std::future::{ready, Future};
use std::ops::Bound;
use std::sync::{Mutex, MutexGuard};

use rust_decimal::Decimal;

use super::{
    AsyncRedemptionStore, Conversion, Redemption, RedemptionStore, Release, Reservation, ReservationState, StoreError,
};
use crate::rules::UsageCounts;
use crate::values::{Code, CustomerId, IdempotencyKey, Timestamp};

/// A [`RedemptionStore`] in memory, for tests and single-process use.
///
/// Counts, holds and idempotency keys live under **one** mutex, so every
/// compare and its write are one step. That honours the store contract
/// across threads in one process and nothing more: two processes each
/// holding one of these share nothing, and everything is gone when the
/// process ends. For anything real, back the contract with a database
/// transaction.
///
/// # Example
///
/// ```
/// use promocodes::{Basket, Code, Currency, Discount, InMemoryRedemptionStore, Money, PromoCode, Redemption};
/// use promocodes::{RedemptionStore, Timestamp, UsageCounts};
///
/// let store = InMemoryRedemptionStore::new();
/// let promo = PromoCode::builder(Code::parse("SAVE10")?, Discount::percent("10".parse()?)?).build()?;
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// let quote = promo.price(&Basket::from(Money::parse("80", Currency::EUR)?), now)?;
/// let write = |expected| Redemption {
///     code: promo.code(),
///     campaign: None,
///     customer: None,
///     expected,
///     idempotency_key: None,
///     quote: &quote,
///     now,
///     hold_until: None,
///     after_expired_hold: None,
/// };
///
/// let first = store.record(&write(UsageCounts::ZERO))?.expect("counts were zero");
/// assert_eq!(first.usage, UsageCounts::new(1, 0)?.with_discounted("8.00".parse()?)?);
/// // The same write against counts that are already spent changes nothing.
/// assert_eq!(store.record(&write(UsageCounts::ZERO))?, None);
/// assert_eq!(store.usage_for(promo.code(), None, now)?, first.usage);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct InMemoryRedemptionStore {
    inner: Mutex<Ledger>,
}

/// A hold in the index of holds still marked `held`: its expiry and its sequence number.
type HoldKey = (Timestamp, u64);

/// What a use counts under: its code, or its code's campaign (kept apart
/// from a code that has the campaign's id).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Counter {
    Code(Code),
    Campaign(Code),
}

impl Counter {
    fn of(code: &Code, campaign: Option<&Code>) -> Counter {
        match campaign {
            Some(campaign) => Counter::Campaign(campaign.clone()),
            None => Counter::Code(code.clone()),
        }
    }
}

/// A hold not yet captured or released: who holds, the discount it
/// reserves, and the code it came through.
#[derive(Debug)]
struct HeldUse {
    customer: Option<CustomerId>,
    discount: Decimal,
    code: Code,
}

#[derive(Debug, Default)]
struct Ledger {
    /// Captured uses per counter, and per counter and customer.
    captured: HashMap<Counter, u64>,
    captured_by: HashMap<(Counter, CustomerId), u64>,
    /// Captured uses per code (for a campaign's codes).
    captured_code: HashMap<Code, u64>,
    /// The sum of the captured uses' discounts, per counter.
    captured_discount: HashMap<Counter, Decimal>,
    /// Holds not yet captured or released, per counter, by expiry. Whether
    /// each counts is decided at read time against `now`.
    holds: HashMap<Counter, BTreeMap<HoldKey, HeldUse>>,
    /// Every keyed reservation, with its sequence number and its counter.
    keys: HashMap<(Code, IdempotencyKey), (u64, Reservation, Counter)>,
    seq: u64,
}

impl Ledger {
    fn active_holds<'a>(&'a self, counter: &Counter, now: Timestamp) -> impl Iterator<Item = &'a HeldUse> + 'a {
        self.holds
            .get(counter)
            .into_iter()
            .flat_map(move |holds| holds.range((Bound::Excluded((now, u64::MAX)), Bound::Unbounded)))
            .map(|(_, hold)| hold)
    }

    /// The counts under `counter` at `now`, for `customer`; read through a
    /// campaign, with `code`'s own uses.
    fn usage(&self, counter: &Counter, code: &Code, customer: Option<&CustomerId>, now: Timestamp) -> UsageCounts {
        let captured = self.captured.get(counter).copied().unwrap_or(0);
        let captured_by = customer
            .and_then(|c| self.captured_by.get(&(counter.clone(), c.clone())))
            .copied()
            .unwrap_or(0);
        let (mut held, mut held_by, mut held_code) = (0, 0, 0);
        let mut discounted = self.captured_discount.get(counter).copied().unwrap_or_default();
        for hold in self.active_holds(counter, now) {
            held += 1;
            discounted += hold.discount;
            if customer.is_some() && hold.customer.as_ref() == customer {
                held_by += 1;
            }
            if &hold.code == code {
                held_code += 1;
            }
        }
        let usage = UsageCounts::new(captured + held, captured_by + held_by)
            .and_then(|usage| usage.with_discounted(discounted));
        let usage = match counter {
            Counter::Code(_) => usage,
            Counter::Campaign(_) => {
                let uses = self.captured_code.get(code).copied().unwrap_or(0) + held_code;
                usage.and_then(|usage| usage.with_code_uses(uses))
            }
        };
        usage.unwrap_or_default()
    }

    /// Adds `delta` captured uses of `code` by `customer` that took
    /// `discount` off (each; taken away for a negative `delta`).
    fn add_captured(
        &mut self,
        counter: &Counter,
        code: &Code,
        customer: Option<&CustomerId>,
        delta: i64,
        discount: Decimal,
    ) {
        let bump = |n: &mut u64| *n = n.saturating_add_signed(delta);
        bump(self.captured.entry(counter.clone()).or_default());
        bump(self.captured_code.entry(code.clone()).or_default());
        let sum = self.captured_discount.entry(counter.clone()).or_default();
        *sum = (*sum + discount * Decimal::from(delta)).max(Decimal::ZERO);
        if let Some(customer) = customer {
            bump(self.captured_by.entry((counter.clone(), customer.clone())).or_default());
        }
    }

    fn unindex_hold(&mut self, counter: &Counter, seq: u64, reservation: &Reservation) {
        if let (Some(holds), Some(expires_at)) = (self.holds.get_mut(counter), reservation.expires_at) {
            holds.remove(&(expires_at, seq));
        }
    }
}

impl InMemoryRedemptionStore {
    /// An empty store.
    pub fn new() -> InMemoryRedemptionStore {
        InMemoryRedemptionStore::default()
    }

    fn lock(&self) -> Result<MutexGuard<'_, Ledger>, StoreError> {
        self.inner.lock().map_err(|_| StoreError::Backend {
            store: "in-memory",
            message: "a thread panicked while holding the lock".to_owned(),
        })
    }
}

impl RedemptionStore for InMemoryRedemptionStore {
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>, now: Timestamp) -> Result<UsageCounts, StoreError> {
        Ok(self.lock()?.usage(&Counter::of(code, None), code, customer, now))
    }

    fn uses_through(
        &self,
        campaign: &Code,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        Ok(self
            .lock()?
            .usage(&Counter::of(code, Some(campaign)), code, customer, now))
    }

    fn held(&self, code: &Code, now: Timestamp) -> Result<u64, StoreError> {
        Ok(self.lock()?.active_holds(&Counter::of(code, None), now).count() as u64)
    }

    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        let ledger = self.lock()?;
        Ok(ledger
            .keys
            .get(&(code.clone(), key.clone()))
            .map(|(_, earlier, _)| earlier.clone().replayed()))
    }

    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        let mut ledger = self.lock()?;
        let (code, customer, now) = (redemption.code, redemption.customer, redemption.now);
        let counter = Counter::of(code, redemption.campaign);
        // A capture that names the expired hold under its key takes the key, once the
        // compare-and-set has passed (the hold no longer counts at `now`, so the counts compared
        // are the same with or without it). This store keeps no history beyond the keys.
        let mut expired_hold = None;
        if let Some(key) = redemption.idempotency_key {
            if let Some((seq, earlier, earlier_counter)) = ledger.keys.get(&(code.clone(), key.clone())).cloned() {
                if !redemption.follows_expired_hold(&earlier) {
                    return Ok(Some(earlier.replayed()));
                }
                expired_hold = Some((seq, earlier, earlier_counter));
            }
        }
        let current = ledger.usage(&counter, code, customer, now);
        if current != redemption.expected {
            return Ok(None);
        }
        let discount = redemption.quote.discount().amount();
        let Some(usage) = current.after_use(customer.is_some(), discount) else {
            return Ok(None);
        };
        if let Some((seq, earlier, earlier_counter)) = expired_hold {
            ledger.unindex_hold(&earlier_counter, seq, &earlier);
        }
        ledger.seq += 1;
        let seq = ledger.seq;
        match redemption.hold_until {
            Some(expires_at) => {
                let hold = HeldUse {
                    customer: customer.cloned(),
                    discount,
                    code: code.clone(),
                };
                ledger
                    .holds
                    .entry(counter.clone())
                    .or_default()
                    .insert((expires_at, seq), hold);
            }
            None => ledger.add_captured(&counter, code, customer, 1, discount),
        }
        let reservation = redemption.reservation(usage);
        if let Some(key) = redemption.idempotency_key {
            ledger
                .keys
                .insert((code.clone(), key.clone()), (seq, reservation.clone(), counter));
        }
        Ok(Some(reservation))
    }

    fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        let mut ledger = self.lock()?;
        let (code, now) = (conversion.code, conversion.now);
        let Some((seq, held, counter)) = ledger.keys.get(&(code.clone(), conversion.key.clone())).cloned() else {
            return Ok(None);
        };
        match held.state_at(now) {
            ReservationState::Held => {}
            ReservationState::Expired => return Ok(None),
            _ => return Ok(Some(held.replayed())),
        }
        if let Some(expected) = conversion.expected {
            if ledger.usage(&counter, code, held.customer.as_ref(), now) != expected {
                return Ok(None);
            }
        }
        ledger.unindex_hold(&counter, seq, &held);
        let discount = conversion.quote.discount().amount();
        ledger.add_captured(&counter, code, held.customer.as_ref(), 1, discount);
        let usage = ledger.usage(&counter, code, held.customer.as_ref(), now);
        let captured = held.captured(conversion.quote, usage, now);
        ledger
            .keys
            .insert((code.clone(), conversion.key.clone()), (seq, captured.clone(), counter));
        Ok(Some(captured))
    }

    fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        let mut ledger = self.lock()?;
        let (code, now) = (release.code, release.now);
        let Some((seq, earlier, counter)) = ledger.keys.get(&(code.clone(), release.key.clone())).cloned() else {
            return Ok(None);
        };
        let was = match earlier.state_at(now) {
            ReservationState::Released => return Ok(Some(earlier.replayed())),
            ReservationState::Captured => {
                let discount = earlier.quote.discount().amount();
                ledger.add_captured(&counter, code, earlier.customer.as_ref(), -1, discount);
                ReservationState::Captured
            }
            _ => {
                ledger.unindex_hold(&counter, seq, &earlier);
                ReservationState::Held
            }
        };
        let usage = ledger.usage(&counter, code, earlier.customer.as_ref(), now);
        let released = earlier.released(release, was, usage);
        ledger
            .keys
            .insert((code.clone(), release.key.clone()), (seq, released.clone(), counter));
        Ok(Some(released))
    }
}

/// The same store for the async API: every future is ready at once (the
/// store never waits on I/O, only on its mutex, held for microseconds).
impl AsyncRedemptionStore for InMemoryRedemptionStore {
    fn usage_for(
        &self,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> impl Future<Output = Result<UsageCounts, StoreError>> + Send {
        ready(RedemptionStore::usage_for(self, code, customer, now))
    }

    fn uses_through(
        &self,
        campaign: &Code,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> impl Future<Output = Result<UsageCounts, StoreError>> + Send {
        ready(RedemptionStore::uses_through(self, campaign, code, customer, now))
    }

    fn held(&self, code: &Code, now: Timestamp) -> impl Future<Output = Result<u64, StoreError>> + Send {
        ready(RedemptionStore::held(self, code, now))
    }

    fn reservation(
        &self,
        code: &Code,
        key: &IdempotencyKey,
    ) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send {
        ready(RedemptionStore::reservation(self, code, key))
    }

    fn record(
        &self,
        redemption: &Redemption<'_>,
    ) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send {
        ready(RedemptionStore::record(self, redemption))
    }

    fn convert(
        &self,
        conversion: &Conversion<'_>,
    ) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send {
        ready(RedemptionStore::convert(self, conversion))
    }

    fn release(&self, release: &Release<'_>) -> impl Future<Output = Result<Option<Reservation>, StoreError>> + Send {
        ready(RedemptionStore::release(self, release))
    }
}
