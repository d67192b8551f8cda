/*!
Promotion codes whose usage caps are a property of the write.

A code capped at "1 per customer, 1000 overall" is two counters. The naive
redemption reads them, checks the rules, then increments: two payment
confirmations that arrive together both read 999, both pass, both write, and
the 1001st redemption exists. promocodes closes that window by giving the
store no increment at all. Its only write is a compare-and-set that lands
only if the counts are still the ones the rules were checked against.

# A tour

## Define a code

A [`PromoCode`] is a [`Code`], a [`Discount`], optional [`UsageLimits`], an
optional half-open validity window `[starts_at, ends_at)`, an optional
minimum basket, and an [`Audience`]. Build one in Rust, or parse its JSON
definition:

```
use promocodes::PromoCode;

let promo = PromoCode::from_json(r#"{
    "code": "SAVE10",
    "discount": {"kind": "percent", "percent": "10", "max": {"amount": "20.00", "currency": "EUR"}},
    "limits": {"total": 1000, "per_customer": 1},
    "starts_at": "2026-12-01T00:00:00Z",
    "ends_at": "2027-01-01T00:00:00Z",
    "minimum": {"amount": "50.00", "currency": "EUR"}
}"#)?;
assert_eq!(promo.code().as_str(), "SAVE10");
# Ok::<(), Box<dyn std::error::Error>>(())
```

Money is [`Money`]: a [`rust_decimal::Decimal`] and a [`Currency`] from the
ISO 4217 table, exact to the currency's minor unit and never a float.

## Check and quote: pure, no counter touched

[`PromoCode::check`] and [`PromoCode::validate`] run the rules against a
customer, the [`UsageCounts`] a store last reported, a basket total, and the
time, which is always passed in. [`PromoCode::quote`] validates and prices:

```
use promocodes::{Currency, CustomerId, Money, PromoCode, Rejection, Timestamp, UsageCounts};

# let promo = PromoCode::from_json(r#"{"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"},
#     "limits": {"total": 1000, "per_customer": 1}, "minimum": {"amount": "50.00", "currency": "EUR"}}"#)?;
let alice = CustomerId::parse("alice")?;
let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;

let quote = promo.quote(Some(&alice), UsageCounts::ZERO, &Money::parse("80.00", Currency::EUR)?, now)?;
assert_eq!(quote.discount().to_string(), "EUR 8.00");
assert_eq!(quote.payable().to_string(), "EUR 72.00");

let small = Money::parse("20.00", Currency::EUR)?;
assert_eq!(promo.check(Some(&alice), UsageCounts::ZERO, &small, now), Some(Rejection::BelowMinimum));
# Ok::<(), Box<dyn std::error::Error>>(())
```

## Redeem and capture: the write decides

A [`RedemptionStore`] has two reads and one write,
[`record`](RedemptionStore::record), which increments only if the counts are
still exactly the expected ones, and otherwise returns `None` and changes
nothing. [`redeem`] loops up to [`DEFAULT_ATTEMPTS`] times: each pass
re-reads usage, re-runs every rule, then writes. [`capture`] does the same
at payment time for a quote the buyer was shown.

```
use promocodes::{capture, CaptureError, CaptureOptions, Currency, CustomerId, IdempotencyKey};
use promocodes::{InMemoryRedemptionStore, Money, PromoCode, Rejection, Timestamp, UsageCounts};

let promo = PromoCode::from_json(r#"{"code": "LASTONE", "discount": {"kind": "percent", "percent": "10"},
    "limits": {"total": 1}}"#)?;
let store = InMemoryRedemptionStore::new();
let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
let cart = promo.quote(None, UsageCounts::ZERO, &Money::parse("80.00", Currency::EUR)?, now)?;

// The payment provider confirms, then redelivers the same event.
let evt = IdempotencyKey::parse("evt_1")?;
let receipt = capture(&promo, &store, &cart, None, now, CaptureOptions::new().idempotency_key(&evt))?;
let again = capture(&promo, &store, &cart, None, now, CaptureOptions::new().idempotency_key(&evt))?;
assert!(!receipt.replayed && again.replayed);
assert_eq!(again.usage, receipt.usage);

// Another buyer had the same quote on screen; the last use is gone.
match capture(&promo, &store, &cart, None, now, CaptureOptions::new()) {
    Err(CaptureError::Rejected(stale)) => assert_eq!(stale.rejection(), Rejection::Exhausted),
    other => panic!("expected a rejection, got {other:?}"),
}
assert_eq!(store_usage(&store, &promo)?, UsageCounts::new(1, 0)?);
# fn store_usage(store: &InMemoryRedemptionStore, promo: &PromoCode) -> Result<UsageCounts, promocodes::StoreError> {
#     use promocodes::RedemptionStore;
#     store.usage_for(promo.code(), None)
# }
# Ok::<(), Box<dyn std::error::Error>>(())
```

## Three outcomes stay three

- a [`Receipt`]: the redemption is recorded (or was, and this is a replay);
- a rejection ([`PromoCodeRejected`], [`CaptureRejected`]): an answer the
  buyer can act on, with a stable [`Rejection`] code;
- a [`RedemptionConflict`]: every attempt lost its write. Nothing is wrong
  with the code; it is an answer for the operator, and the request is safe
  to retry with the same idempotency key.

Bad input is a fourth thing, an [`InputError`], and never records anything.

# JSON shapes

Every type that crosses a boundary has one serde shape, used by the browser
module and the Worker alike. Decimals are strings, currencies ISO codes,
times RFC 3339 UTC.

| type | JSON |
|---|---|
| [`Money`] | `{"amount": "80.00", "currency": "EUR"}` |
| [`PromoCode`] | `{"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"}, "limits": {"total": 1000, "per_customer": 1}, ...}` |
| [`Discount`] | `{"kind": "percent", "percent": "10", "max": <Money>}` or `{"kind": "fixed", "amount": <Money>}` |
| [`UsageCounts`] | `{"total": 1, "per_customer": 1}` |
| [`Quote`] | `{"code": "SAVE10", "total": <Money>, "discount": <Money>, "payable": <Money>, "quoted_at": "2026-12-02T10:00:00Z"}` |
| [`Receipt`] | `{"quote": <Quote>, "usage": <UsageCounts>, "replayed": false}` |
| [`Rejection`] | `"below_minimum"` |

```
use promocodes::{from_json, Quote};

let quote: Quote = from_json(r#"{"code": "SAVE10",
    "total": {"amount": "80.00", "currency": "EUR"},
    "discount": {"amount": "8.00", "currency": "EUR"},
    "payable": {"amount": "72.00", "currency": "EUR"},
    "quoted_at": "2026-12-02T10:00:00Z"}"#)?;
assert_eq!(serde_json::to_value(&quote)?["payable"]["amount"], "72.00");
# Ok::<(), Box<dyn std::error::Error>>(())
```

# Features

- `testing`: [`testing`], the store conformance suite and `FlakyStore`.
- `wasm` (wasm32 only): the browser module's JavaScript bindings.
*/

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod api;
mod currency;
mod error;
mod ids;
mod iso4217;
mod json;
mod memory;
mod money;
mod promo;
mod redeem;
mod rules;
mod store;
mod time;

// The README's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(feature = "testing")]
#[path = "integration.rs"]
pub mod testing;

#[cfg(all(target_arch = "wasm32", feature = "wasm"))]
pub mod wasm;

pub use crate::currency::Currency;
pub use crate::error::InputError;
pub use crate::ids::{Code, CustomerId, IdempotencyKey};
pub use crate::json::{from_json, malformed};
pub use crate::memory::InMemoryRedemptionStore;
pub use crate::money::{Money, ROUNDING};
pub use crate::promo::{Audience, Discount, PromoCode, PromoCodeBuilder, PublicDefinition, UsageLimits};
pub use crate::redeem::{
    capture, redeem, CaptureError, CaptureOptions, CaptureRejected, RedeemError, RedeemOptions, RedemptionConflict,
    DEFAULT_ATTEMPTS,
};
pub use crate::rules::{PromoCodeRejected, Quote, Rejection, UsageCounts};
pub use crate::store::{Receipt, Redemption, RedemptionStore, Reservation, StoreError};
pub use crate::time::Timestamp;

pub use rust_decimal::Decimal;
