//! A store's turn on a code (`AsyncRedemptionStore::turn`): the async
//! decision loop takes it before its first call to the store and gives it
//! back with its answer, whatever the answer is.

mod common;

use std::future::Future;
use std::sync::{Arc, Mutex};

use common::*;
use promocodes::{
    capture_async, hold_async, release_async, AsyncRedemptionStore, Campaign, CaptureOptions, Code, Conversion,
    CustomerId, HoldOptions, IdempotencyKey, InMemoryRedemptionStore, Redemption, RedemptionError, RedemptionStore,
    Rejection, Release, Reservation, StoreError, Timestamp, Turn, UsageCounts, UsageLimits,
};

/// Runs a future whose store answers at once (the in-memory store's do).
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

/// What the store was asked, in order.
type Log = Arc<Mutex<Vec<String>>>;

/// Logs the end of a turn when dropped.
struct Given(Log, String);

impl Drop for Given {
    fn drop(&mut self) {
        self.0.lock().expect("a log").push(format!("given back {}", self.1));
    }
}

/// The in-memory store, logging each call and each turn.
struct Logging {
    inner: InMemoryRedemptionStore,
    log: Log,
}

impl Logging {
    fn new() -> Logging {
        Logging {
            inner: InMemoryRedemptionStore::new(),
            log: Log::default(),
        }
    }

    fn note(&self, what: &str) {
        self.log.lock().expect("a log").push(what.to_owned());
    }

    /// The calls since the last time, emptied.
    fn calls(&self) -> Vec<String> {
        std::mem::take(&mut *self.log.lock().expect("a log"))
    }
}

impl AsyncRedemptionStore for Logging {
    async fn usage_for(
        &self,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        self.note("read");
        RedemptionStore::usage_for(&self.inner, code, customer, now)
    }

    async fn uses_through(
        &self,
        campaign: &Code,
        code: &Code,
        customer: Option<&CustomerId>,
        now: Timestamp,
    ) -> Result<UsageCounts, StoreError> {
        self.note("read");
        RedemptionStore::uses_through(&self.inner, campaign, code, customer, now)
    }

    fn turn(&self, code: &Code, campaign: Option<&Code>) -> impl Future<Output = Turn> + Send {
        let name = campaign.map_or_else(|| code.to_string(), |campaign| format!("campaign {campaign}"));
        self.note(&format!("turn {name}"));
        std::future::ready(Turn::holding(Given(Arc::clone(&self.log), name)))
    }

    async fn held(&self, code: &Code, now: Timestamp) -> Result<u64, StoreError> {
        RedemptionStore::held(&self.inner, code, now)
    }

    async fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        self.note("read key");
        RedemptionStore::reservation(&self.inner, code, key)
    }

    async fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        self.note("record");
        RedemptionStore::record(&self.inner, redemption)
    }

    async fn convert(&self, conversion: &Conversion<'_>) -> Result<Option<Reservation>, StoreError> {
        self.note("convert");
        RedemptionStore::convert(&self.inner, conversion)
    }

    async fn release(&self, release: &Release<'_>) -> Result<Option<Reservation>, StoreError> {
        self.note("release");
        RedemptionStore::release(&self.inner, release)
    }
}

fn calls(list: &[&str]) -> Vec<String> {
    list.iter().map(|call| (*call).to_owned()).collect()
}

#[test]
fn a_capture_takes_the_codes_turn_before_its_first_call_and_gives_it_back_with_its_answer() {
    let store = Logging::new();
    let promo = ten_percent("SAVE10").build().expect("a code");
    let receipt = block_on(capture_async(
        &promo,
        &store,
        None,
        &basket("80"),
        start(),
        CaptureOptions::new(),
    ));
    assert!(receipt.is_ok(), "{receipt:?}");
    assert_eq!(
        store.calls(),
        calls(&["turn SAVE10", "read", "record", "given back SAVE10"])
    );
}

#[test]
fn a_refusal_and_a_replay_give_the_turn_back_too() {
    let store = Logging::new();
    let promo = ten_percent("ONCE")
        .limits(UsageLimits::new(Some(1), None).expect("limits"))
        .build()
        .expect("a code");
    let order = key("order-1");
    let options = || CaptureOptions::new().idempotency_key(&order);
    block_on(capture_async(&promo, &store, None, &basket("80"), start(), options())).expect("the one use");
    store.calls();

    let replay = block_on(capture_async(&promo, &store, None, &basket("80"), start(), options())).expect("a replay");
    assert!(replay.replayed);
    let replayed = store.calls();
    assert_eq!(replayed.first().map(String::as_str), Some("turn ONCE"));
    assert_eq!(replayed.last().map(String::as_str), Some("given back ONCE"));

    let refused = block_on(capture_async(
        &promo,
        &store,
        None,
        &basket("80"),
        start(),
        CaptureOptions::new(),
    ));
    match refused {
        Err(RedemptionError::Rejected(rejected)) => assert_eq!(rejected.rejection(), Rejection::Exhausted),
        other => panic!("expected exhausted, got {other:?}"),
    }
    assert_eq!(store.calls(), calls(&["turn ONCE", "read", "given back ONCE"]));
}

#[test]
fn a_hold_and_its_capture_each_take_the_turn_and_a_release_needs_none() {
    let store = Logging::new();
    let promo = ten_percent("SAVE10").build().expect("a code");
    let order = key("order-1");
    block_on(hold_async(
        &promo,
        &store,
        None,
        &basket("80"),
        start(),
        &order,
        HoldOptions::new(),
    ))
    .expect("a hold");
    assert_eq!(
        store.calls(),
        calls(&["turn SAVE10", "read", "record", "given back SAVE10"])
    );

    let options = CaptureOptions::new().idempotency_key(&order);
    block_on(capture_async(&promo, &store, None, &basket("80"), start(), options)).expect("the capture");
    let captured = store.calls();
    assert_eq!(captured.first().map(String::as_str), Some("turn SAVE10"));
    assert!(captured.contains(&"convert".to_owned()), "{captured:?}");
    assert_eq!(captured.last().map(String::as_str), Some("given back SAVE10"));

    block_on(release_async(&store, promo.code(), &order, start(), Some("refunded"))).expect("a release");
    assert_eq!(store.calls(), calls(&["release"]));
}

#[test]
fn a_campaigns_codes_share_the_campaigns_turn() {
    let store = Logging::new();
    let campaign = Campaign::new(ten_percent("SPRING").build().expect("a definition"), 1).expect("a campaign");
    for name in ["SPRING-AAAA", "SPRING-BBBB"] {
        let promo = campaign.code(code(name));
        block_on(capture_async(
            &promo,
            &store,
            None,
            &basket("80"),
            start(),
            CaptureOptions::new(),
        ))
        .expect("a use");
        assert_eq!(
            store.calls(),
            calls(&["turn campaign SPRING", "read", "record", "given back campaign SPRING"])
        );
    }
}
