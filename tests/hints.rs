//! A store's usage hint (`RedemptionStore::usage_hint`): counts it believes
//! current, from which the decision loop may start a pass. A right hint
//! saves the read; a wrong one costs a read and never changes an answer; a
//! store whose stale write offers the counts it found saves the read of the
//! next try; counts a write found stale are never tried again.

mod common;

use std::cell::Cell;

use common::*;
use promocodes::{
    capture, hold, Code, Conversion, CustomerId, HoldOptions, IdempotencyKey, InMemoryRedemptionStore, PromoCode,
    RedeemOptions, Redemption, RedemptionError, RedemptionStore, Rejection, Release, Reservation, StoreError,
    Timestamp, UsageCounts, UsageLimits,
};

/// The in-memory store with a hint set by the test, counting the reads and writes the loop asks for.
struct Hinting {
    inner: InMemoryRedemptionStore,
    hint: Cell<Option<UsageCounts>>,
    /// Whether a stale write sets the hint to the counts it found (as a store that compares under a lock can).
    learns: bool,
    /// Whether the hint moves on by one use each time it is asked (a cache that lags).
    moves: bool,
    /// How many of the next writes another writer's use lands just before.
    losses: Cell<u32>,
    hints: Cell<u32>,
    reads: Cell<u32>,
    records: Cell<u32>,
}

impl Hinting {
    fn new(hint: Option<UsageCounts>) -> Hinting {
        Hinting {
            inner: InMemoryRedemptionStore::new(),
            hint: Cell::new(hint),
            learns: false,
            moves: false,
            losses: Cell::new(0),
            hints: Cell::new(0),
            reads: Cell::new(0),
            records: Cell::new(0),
        }
    }

    /// (hints asked, reads, records) since the last call.
    fn calls(&self) -> (u32, u32, u32) {
        (self.hints.take(), self.reads.take(), self.records.take())
    }
}

impl RedemptionStore for Hinting {
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>, now: Timestamp) -> Result<UsageCounts, StoreError> {
        self.reads.set(self.reads.get() + 1);
        self.inner.usage_for(code, customer, now)
    }

    fn uses_through(
        &self,
        campaign: &Code,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        self.reads.set(self.reads.get() + 1);
        self.inner.uses_through(campaign, code, customer, now)
    }

    fn usage_hint(&self, _: &Code, _: Option<&Code>, _: Option<&CustomerId>, _: Timestamp) -> Option<UsageCounts> {
        self.hints.set(self.hints.get() + 1);
        let hint = self.hint.get();
        if self.moves {
            self.hint.set(hint.map(|h| after(h.total() + 1)));
        }
        hint
    }

    fn held(&self, code: &Code, now: Timestamp) -> Result<u64, StoreError> {
        self.inner.held(code, now)
    }

    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        self.inner.reservation(code, key)
    }

    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        self.records.set(self.records.get() + 1);
        if self.losses.get() > 0 {
            self.losses.set(self.losses.get() - 1);
            capture(
                &capped(1000),
                &self.inner,
                None,
                &basket("80.00"),
                start(),
                Default::default(),
            )
            .unwrap();
        }
        let written = self.inner.record(redemption)?;
        if written.is_none() && self.learns {
            let found = self
                .inner
                .usage_for(redemption.code, redemption.customer, redemption.now)?;
            self.hint.set(Some(found));
        }
        Ok(written)
    }

    fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        self.inner.convert(conversion)
    }

    fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        self.inner.release(release)
    }
}

/// 10% off, at most `total` uses.
fn capped(total: u64) -> PromoCode {
    ten_percent("HINTED")
        .limits(UsageLimits::new(Some(total), None).unwrap())
        .build()
        .unwrap()
}

fn receipts(promo: &PromoCode, store: &Hinting, n: usize) {
    for _ in 0..n {
        capture(promo, &store.inner, None, &basket("80.00"), start(), Default::default()).unwrap();
    }
}

/// The counts after `n` captures of 8.00 off each.
fn after(n: u64) -> UsageCounts {
    UsageCounts::new(n, 0)
        .unwrap()
        .with_discounted(rust_decimal::Decimal::from(8 * n))
        .unwrap()
}

#[test]
fn a_right_hint_saves_the_read() {
    let promo = capped(10);
    let store = Hinting::new(Some(after(3)));
    receipts(&promo, &store, 3);
    let receipt = capture(&promo, &store, None, &basket("80.00"), start(), Default::default()).unwrap();
    assert_eq!(receipt.usage, after(4));
    assert_eq!(store.calls(), (1, 0, 1), "one hint, no read, one write");
}

#[test]
fn a_hint_behind_the_counts_costs_a_read_and_the_write_lands_on_it() {
    let promo = capped(10);
    let store = Hinting::new(Some(after(1)));
    receipts(&promo, &store, 3);
    // One attempt is enough: the pass on the hint is decided again on a read, in the same pass.
    let options = promocodes::CaptureOptions::new().attempts(1);
    let receipt = capture(&promo, &store, None, &basket("80.00"), start(), options).unwrap();
    assert_eq!(receipt.usage, after(4));
    assert_eq!(
        store.calls(),
        (1, 1, 2),
        "the write on the hint was stale; the one on the read landed"
    );
}

#[test]
fn a_refusal_on_the_hint_is_confirmed_by_a_read_before_it_is_answered() {
    // The hint says the cap is reached; the counts leave one use.
    let promo = capped(4);
    let store = Hinting::new(Some(after(4)));
    receipts(&promo, &store, 3);
    let receipt = capture(&promo, &store, None, &basket("80.00"), start(), Default::default()).unwrap();
    assert_eq!(receipt.usage, after(4));
    assert_eq!(store.calls(), (1, 1, 1));
    // Now the cap is reached: the read confirms the refusal, and it is the buyer's rejection.
    let refused = capture(&promo, &store, None, &basket("80.00"), start(), Default::default()).unwrap_err();
    match refused {
        RedemptionError::Rejected(r) => assert_eq!(r.rejection(), Rejection::Exhausted),
        other => panic!("not a rejection: {other:?}"),
    }
    assert_eq!(store.calls(), (1, 1, 0), "refused on the read, nothing written");
    assert_eq!(store.inner.usage_for(promo.code(), None, start()).unwrap(), after(4));
}

#[test]
fn a_hint_ahead_of_the_counts_writes_nothing_on_it() {
    // A hint above the counts (a release the cache did not see) is stale for the write too.
    let promo = capped(10);
    let store = Hinting::new(Some(after(7)));
    receipts(&promo, &store, 2);
    let pi = key("pi_hint");
    let held = hold(&promo, &store, None, &basket("80.00"), start(), &pi, HoldOptions::new()).unwrap();
    assert_eq!(held.usage, after(3));
    assert_eq!(store.calls(), (1, 1, 2));
    assert_eq!(store.inner.usage_for(promo.code(), None, start()).unwrap(), after(3));
}

#[test]
fn without_a_hint_the_loop_reads_as_before() {
    let promo = capped(10);
    let store = Hinting::new(None);
    let options = RedeemOptions::new();
    promocodes::redeem(&promo, &store, None, &basket("80.00"), start(), options).unwrap();
    assert_eq!(store.calls(), (1, 1, 1));
}

/// A [`Hinting`] store that learns from its stale writes, where another
/// writer's use lands just before each of the next `losses` writes.
fn losing(losses: u32) -> Hinting {
    let mut store = Hinting::new(None);
    store.learns = true;
    store.losses.set(losses);
    store
}

#[test]
fn a_stale_write_that_offers_the_counts_it_found_saves_the_next_passs_read() {
    let store = losing(1);
    let options = promocodes::CaptureOptions::new().attempts(2);
    let receipt = capture(&capped(10), &store, None, &basket("80.00"), start(), options).unwrap();
    assert_eq!(receipt.usage, after(2));
    assert_eq!(
        store.calls(),
        (2, 1, 2),
        "the first pass read and lost; the second wrote on the counts that write found, without a read"
    );
}

#[test]
fn each_attempt_still_reads_when_every_write_loses() {
    let store = losing(u32::MAX);
    let options = promocodes::CaptureOptions::new().attempts(3);
    let lost = capture(&capped(1000), &store, None, &basket("80.00"), start(), options).unwrap_err();
    assert!(matches!(lost, RedemptionError::Conflict(_)), "{lost:?}");
    assert_eq!(
        store.calls(),
        (3, 3, 5),
        "a read and its write each pass, and from the second a write on the counts the last one found before it"
    );
}

#[test]
fn a_wrong_hint_that_moves_never_uses_up_an_attempt() {
    // A cache that lags and changes each time it is asked: 0 uses, then 1, then 2...
    let promo = capped(10);
    let mut store = Hinting::new(Some(after(0)));
    store.moves = true;
    receipts(&promo, &store, 5);
    let options = promocodes::CaptureOptions::new().attempts(1);
    let receipt = capture(&promo, &store, None, &basket("80.00"), start(), options).unwrap();
    assert_eq!(
        receipt.usage,
        after(6),
        "no other writer: one attempt lands, whatever the hint"
    );
    assert_eq!(
        store.calls(),
        (1, 1, 2),
        "the write on the hint was stale; the one on the read landed"
    );
}
