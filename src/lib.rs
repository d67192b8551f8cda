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
ISO 4217 table (EUR 2 places, JPY 0, KWD 3, ...), exact to the currency's
minor unit and never a float; computed amounts round half away from zero.

## Check and quote: pure, no counter touched

[`PromoCode::check`] and [`PromoCode::validate`] run the rules against a
customer, the [`UsageCounts`] a store last reported, a [`Basket`], and the
time, which is always passed in. [`PromoCode::quote`] validates and prices:

```
use promocodes::{Basket, Currency, CustomerId, Money, PromoCode, Rejection, Timestamp, UsageCounts};

# let promo = PromoCode::from_json(r#"{"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"},
#     "limits": {"total": 1000, "per_customer": 1}, "minimum": {"amount": "50.00", "currency": "EUR"}}"#)?;
let alice = CustomerId::parse("alice")?;
let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
let basket = Basket::from(Money::parse("80.00", Currency::EUR)?);

let quote = promo.quote(Some(&alice), UsageCounts::ZERO, &basket, now)?;
assert_eq!(quote.discount().to_string(), "EUR 8.00");
assert_eq!(quote.payable().to_string(), "EUR 72.00");

let small = Basket::from(Money::parse("20.00", Currency::EUR)?);
assert_eq!(promo.check(Some(&alice), UsageCounts::ZERO, &small, now), Some(Rejection::BelowMinimum));
# Ok::<(), Box<dyn std::error::Error>>(())
```

## Baskets with lines: scoped codes and an exact split

A [`Basket`] is one total, or [`Line`]s (a [`Sku`], a quantity, a unit
price, [`Category`]s) and optional shipping. A code's
[`applies_to`](PromoCode::applies_to) scopes it to some skus or categories;
its minimum then applies to the eligible subtotal, and a free-shipping
discount takes the shipping off. A quote of a basket with lines splits the
discount over the eligible lines, exactly (largest remainder), so a refund
of one item or tax per line knows each line's part:

```
use promocodes::{Basket, PromoCode, Timestamp, UsageCounts};

let mugs = PromoCode::from_json(r#"{"code": "MUGS15", "discount": {"kind": "percent", "percent": "15"},
    "applies_to": {"categories": ["mugs"]}}"#)?;
let basket = Basket::from_json(r#"{"lines": [
    {"sku": "MUG", "quantity": 2, "unit_price": {"amount": "12.50", "currency": "EUR"}, "categories": ["mugs"]},
    {"sku": "GRINDER", "quantity": 1, "unit_price": {"amount": "46.50", "currency": "EUR"}}
], "shipping": {"amount": "4.90", "currency": "EUR"}}"#)?;
let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;

let quote = mugs.quote(None, UsageCounts::ZERO, &basket, now)?;
assert_eq!(quote.discount().to_string(), "EUR 3.75");
let lines = quote.lines().expect("a basket with lines");
assert_eq!(lines[0].discount.to_string(), "EUR 3.75");
assert!(lines[1].discount.is_zero());
# Ok::<(), Box<dyn std::error::Error>>(())
```

## Buy X get Y, tiers and first orders

Two discount kinds look at units and size: [`BuyXGetY`] (for each X units
bought, or each amount spent, Y units at a percent or an amount off; the
units never shared, the result independent of the order of the lines) and
tiers ([`Tier`]: the highest tier the eligible subtotal or units reach
applies, and the quote says what the next one needs). A first-order code
needs the count of the customer's earlier orders
([`Basket::with_customer_orders`], `customer_orders` in a request):

```
use promocodes::{Basket, CustomerId, PromoCode, Rejection, Timestamp, UsageCounts};

let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
let mugs = PromoCode::from_json(r#"{"code": "MUG", "discount": {"kind": "buy_x_get_y",
    "buy": {"quantity": 2, "applies_to": {"categories": ["mugs"]}},
    "get": {"quantity": 1, "percent": "100"}, "selection": "cheapest"}}"#)?;
let basket = Basket::from_json(r#"{"lines": [
    {"sku": "MUG", "quantity": 2, "unit_price": {"amount": "12.50", "currency": "EUR"}, "categories": ["mugs"]},
    {"sku": "MUG-S", "quantity": 1, "unit_price": {"amount": "8.00", "currency": "EUR"}, "categories": ["mugs"]}
]}"#)?;
let quote = mugs.quote(None, UsageCounts::ZERO, &basket, now)?;
assert_eq!(quote.discount().to_string(), "EUR 8.00");
assert_eq!(quote.lines().unwrap()[1].discount.to_string(), "EUR 8.00");
let two = Basket::from_json(r#"{"lines": [
    {"sku": "MUG", "quantity": 2, "unit_price": {"amount": "12.50", "currency": "EUR"}, "categories": ["mugs"]}]}"#)?;
let short = mugs.quote(None, UsageCounts::ZERO, &two, now).unwrap_err();
assert_eq!(short.rejection(), Rejection::NotEnoughItems);
assert_eq!(short.message(), "add 1 more item from mugs");

let tiers = PromoCode::from_json(r#"{"code": "MORE", "discount": {"kind": "tiered", "by": "subtotal", "tiers": [
    {"from": {"amount": "50.00", "currency": "EUR"}, "discount": {"kind": "percent", "percent": "10"}},
    {"from": {"amount": "100.00", "currency": "EUR"}, "discount": {"kind": "percent", "percent": "15"}}]}}"#)?;
let quote = tiers.quote(None, UsageCounts::ZERO, &Basket::from_json(r#"{"total": {"amount": "80.00", "currency": "EUR"}}"#)?, now)?;
assert_eq!(quote.discount().to_string(), "EUR 8.00");
assert_eq!(quote.tier().map(|t| t.index), Some(0));
assert_eq!(quote.next_tier().map(|t| t.missing.to_string()), Some("EUR 20.00".to_owned()));

let welcome = PromoCode::from_json(r#"{"code": "WELCOME", "first_order": true,
    "discount": {"kind": "percent", "percent": "10"}}"#)?;
let alice = CustomerId::parse("alice")?;
let total = Basket::from_json(r#"{"total": {"amount": "80.00", "currency": "EUR"}}"#)?;
assert!(welcome.quote(Some(&alice), UsageCounts::ZERO, &total.clone().with_customer_orders(0), now).is_ok());
let again = welcome.quote(Some(&alice), UsageCounts::ZERO, &total.with_customer_orders(2), now).unwrap_err();
assert_eq!(again.rejection(), Rejection::NotFirstOrder);
# Ok::<(), Box<dyn std::error::Error>>(())
```

## Hold, capture, release: the write decides

A [`RedemptionStore`] has reads and three writes, each a compare-and-set
that lands only if what it was decided on still holds:
[`record`](RedemptionStore::record) (a new use, if the counts are still
exactly the expected ones), [`convert`](RedemptionStore::convert) (a hold
into a capture, if still held) and [`release`](RedemptionStore::release).
The functions around them:

- [`hold`] reserves a use while the buyer pays, under a key, until an
  expiry; it counts as used until then.
- [`capture`] spends it when the money moves: it converts the hold under
  its key (keeping the hold's quote exactly), or runs every rule again at
  payment time, and it may be pinned to the quote the buyer was shown.
- [`release`] gives a hold or a capture back (checkout abandoned, order
  cancelled or refunded).
- [`redeem`] loops up to [`DEFAULT_ATTEMPTS`] times: each pass re-reads
  usage, re-runs every rule, then writes; [`capture`] and [`hold`] use the
  same loop.

```
use promocodes::{capture, hold, release, Basket, CaptureOptions, Currency, HoldOptions};
use promocodes::{IdempotencyKey, InMemoryRedemptionStore, Money, PromoCode, RedemptionError, RedemptionStore, Rejection, Timestamp};
use promocodes::UsageCounts;

let promo = PromoCode::from_json(r#"{"code": "LASTONE", "discount": {"kind": "percent", "percent": "10"},
    "limits": {"total": 1}}"#)?;
let store = InMemoryRedemptionStore::new();
let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
let cart = Basket::from(Money::parse("80.00", Currency::EUR)?);

// Checkout: price the basket. Nothing is counted.
let quote = promo.quote(None, UsageCounts::ZERO, &cart, now)?;
assert_eq!(quote.payable().to_string(), "EUR 72.00");

// The buyer starts paying: hold the use under the payment's id (15 minutes by default).
let pi = IdempotencyKey::parse("pi_1")?;
let held = hold(&promo, &store, None, &cart, now, &pi, HoldOptions::new())?;

// Another buyer had the same quote on screen; the last use is held.
match capture(&promo, &store, None, &cart, now, CaptureOptions::new()) {
    Err(RedemptionError::Rejected(stale)) => assert_eq!(stale.rejection(), Rejection::Exhausted),
    other => panic!("expected a rejection, got {other:?}"),
}

// The payment provider confirms, then redelivers: one capture, pinned to the
// quote the buyer was shown, at the price held.
let paid = CaptureOptions::new().idempotency_key(&pi).quoted(&quote);
let receipt = capture(&promo, &store, None, &cart, now, paid)?;
let again = capture(&promo, &store, None, &cart, now, paid)?;
assert!(!receipt.replayed && again.replayed && again.usage == receipt.usage);
assert_eq!(receipt.quote, held.quote);

// The order is refunded: the use comes back.
release(&store, promo.code(), &pi, now, Some("refunded"))?;
assert_eq!(store.usage_for(promo.code(), None, now)?.total(), 0);
# Ok::<(), Box<dyn std::error::Error>>(())
```

## Campaigns of many codes

A [`Campaign`] is one definition shared by many codes: its `limits` (`total`, `per_customer`,
`budget`) hold across all of its codes, and `uses_per_code` (default 1) caps each code. A
campaign's code is a [`PromoCode`] like any other ([`Campaign::code`]); the store counts its uses
through the campaign, so the code's own uses, the campaign's total, the customer's campaign-wide
count and the budget are compared in **one** compare-and-set ([`RedemptionStore::uses_through`]):
two codes of one campaign racing for its last use cannot both win. A code used up is `exhausted`.

```rust
use promocodes::{capture, Basket, Campaign, CaptureOptions, Code, CodePattern, Currency, Money};
use promocodes::{InMemoryRedemptionStore, RedemptionError, Rejection, Timestamp};

let campaign = Campaign::from_json(Code::parse("BF2026")?, r#"{
    "discount": {"kind": "percent", "percent": "20"},
    "limits": {"total": 150, "budget": {"amount": "500.00", "currency": "EUR"}},
    "uses_per_code": 1
}"#)?;
// Codes from a pattern: each # one character of the charset, drawn by the caller's
// cryptographic generator (here a stand-in).
let pattern = CodePattern::parse(Some("BF-####-####"), None)?;
pattern.check_room(0, 2)?; // at least 1,000,000 combinations per code of the campaign
let mut draw = 7u32;
let mut random = || { draw = draw.wrapping_mul(2_654_435_761).wrapping_add(1); draw };
let (a, b) = (campaign.code(pattern.generate(&mut random)), campaign.code(pattern.generate(&mut random)));

let store = InMemoryRedemptionStore::new();
let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
let cart = Basket::from(Money::parse("80.00", Currency::EUR)?);
let first = capture(&a, &store, None, &cart, now, CaptureOptions::new())?;
assert_eq!((first.usage.total(), first.usage.code_uses()), (1, 1));
let used_up = capture(&a, &store, None, &cart, now, CaptureOptions::new());
assert!(matches!(used_up, Err(RedemptionError::Rejected(r)) if r.rejection() == Rejection::Exhausted));
let other = capture(&b, &store, None, &cart, now, CaptureOptions::new())?; // the campaign's second use
assert_eq!((other.usage.total(), other.usage.code_uses()), (2, 1));
# Ok::<(), Box<dyn std::error::Error>>(())
```

The in-memory store, the Worker's SQLite store and the PostgreSQL store all count campaigns (the
conformance suite checks it); the Worker serves them at `/v1/campaigns/...` (the
repository's `docs/http-api.md`, "Campaigns of many codes").

## Three outcomes stay three

- a [`Receipt`] (or a [`Hold`]): the redemption is recorded (or was, and
  this is a replay);
- a rejection ([`PromoCodeRejected`], [`RedemptionRejected`]): an answer the
  buyer can act on, with a stable [`Rejection`] code;
- a [`RedemptionConflict`]: every attempt lost its write. Nothing is wrong
  with the code; it is an answer for the operator, and the request is safe
  to retry with the same idempotency key.

Bad input is a fourth thing, an [`InputError`], and never records anything.

## Async services

A store that talks to a database over the network implements
[`AsyncRedemptionStore`] (the same six calls, each a `Send` future), and
[`redeem_async`], [`capture_async`], [`hold_async`] and [`release_async`]
answer exactly as their blocking twins: both forms drive one decision loop,
which does no I/O of its own and only asks its store for the next read or
write, so no rule and no retry step is written twice. The
`promocodes-postgres` crate is such a store. Such a store may also queue
one process's decisions on a code ([`AsyncRedemptionStore::turn`]), so
that many tasks capturing one code at once do not make each other's
counts stale.

## Writing a store

Implement [`RedemptionStore`] so that each of its three writes is one atomic step (for a database:
one transaction, the key behind a unique constraint): `record` compares the counts at `now`
(captured uses plus holds whose `expires_at` is after `now`) with the expected ones, then writes
the hold or capture and its key; `convert` turns a hold still active at `now` into a capture;
`release` gives a hold or a capture back. [`Redemption::reservation`], [`Reservation::captured`] and
[`Reservation::released`] build what each write stores, so every store records the same thing.
Then run the conformance suite against it (it covers holds, expiry at the exact instant,
conversion, release, the replays of each, and a release racing a capture):

```toml
[dev-dependencies]
promocodes = { version = "0.1", features = ["testing"] }
```

```rust,ignore
#[test]
fn my_store_conforms() {
    promocodes::testing::run_conformance(MyStore::new_empty);
}
```

[`InMemoryRedemptionStore`] holds everything under one mutex: correct across threads in one process
and nothing more.

# JSON shapes

Every type that crosses a boundary has one serde shape, used by the browser
module and the Worker alike. Decimals are strings, currencies ISO codes,
times RFC 3339 UTC.

| type | JSON |
|---|---|
| [`Money`] | `{"amount": "80.00", "currency": "EUR"}` |
| [`PromoCode`] | `{"code": "SAVE10", "active": true, "discount": {"kind": "percent", "percent": "10"}, "applies_to": {"categories": ["mugs"]}, "limits": {"total": 1000, "per_customer": 1}, ...}` |
| [`Discount`] | `{"kind": "percent", "percent": "10", "max": <Money>}`, `{"kind": "fixed", "amount": <Money>, "max": <Money>}`, `{"kind": "free_shipping", "max": <Money>}`, `{"kind": "buy_x_get_y", "buy": {"quantity": 2}, "get": {"quantity": 1, "percent": "100"}, "max_applications": 2, "selection": "cheapest"}` or `{"kind": "tiered", "by": "subtotal", "tiers": [{"from": <Money>, "discount": <Discount>}]}` |
| [`Basket`] | `{"total": <Money>}` or `{"lines": [{"sku", "quantity", "unit_price": <Money>, "categories"}], "shipping": <Money>}` |
| [`UsageCounts`] | `{"total": 1, "per_customer": 1, "discounted": "8.00"}` (in an answer, [`UsageCounts::in_currency`]: `"discounted": <Money>`) |
| [`Quote`] | `{"code", "total", "discount", "payable", "quoted_at", "lines": [{"sku", "amount", "discount"}], "shipping": {"amount", "discount"}}` |
| [`Receipt`] | `{"key": "evt_1", "state": "captured", "quote": <Quote>, "usage": <UsageCounts>, "replayed": false}` |
| [`Hold`] | `{"key", "state": "held", "expires_at", "quote", "usage", "replayed"}` |
| [`Released`] | `{"key", "state": "released", "was": "held", "released_at", "reason", "usage", "replayed"}` |
| [`Rejection`] | `"below_minimum"` |
| [`StackQuote`] | `{"codes": [{"code", "class", "automatic", "discount", "lines", "shipping"}], "total", "discount", "payable", "quoted_at", "lines", "shipping", "skipped": [{"code", "rejection", "detail"}]}` |

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
- `schema`: [`schema`], the JSON Schemas of the wire types (schemars), from
  which the Worker's native tests generate `docs/openapi.json`.
*/

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod events;
pub mod json;
pub mod redemption;
pub mod rules;
pub mod store;
pub mod values;
pub mod wire;

// The README's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

// The guides' Rust examples (docs/*.md) run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../docs/http-api.md")]
#[doc = include_str!("../docs/payments.md")]
#[doc = include_str!("../docs/operating.md")]
#[doc = include_str!("../docs/browser.md")]
#[doc = include_str!("../docs/postgres.md")]
struct DocsDoctests;

#[cfg(all(target_arch = "wasm32", feature = "wasm"))]
pub mod wasm;

#[cfg(feature = "schema")]
pub mod schema;

pub use crate::json::api;
pub use crate::json::from_json;
pub use crate::redemption::{
    capture, capture_async, hold, hold_async, redeem, redeem_async, release, release_async, CaptureOptions, Hold,
    HoldOptions, Misuse, Receipt, RedeemOptions, RedemptionConflict, RedemptionError, RedemptionRejected, ReleaseError,
    Released, DEFAULT_ATTEMPTS, DEFAULT_HOLD_TTL_SECONDS, MAX_HOLD_TTL_SECONDS, MAX_REASON_LEN, MIN_HOLD_TTL_SECONDS,
};
pub use crate::rules::{
    customer_shard, shard_of, AppliesTo, Audience, Basket, BudgetShort, BuyCondition, BuyXGetY, Campaign, CodeClass,
    CodeClasses, CodePattern, Discount, DiscountKind, GetOff, Line, NextTier, PromoCode, PromoCodeBuilder,
    PromoCodeRejected, PublicDefinition, Quote, QuoteLine, QuoteShipping, Rejection, Selection, ShownStack, Skipped,
    Stack, StackPart, StackQuote, StackRefusal, StackRejected, StackResumeError, Tier, TierBasis, TierFrom,
    TierReached, UsageCounts, UsageInCurrency, UsageLimits,
};
#[cfg(feature = "testing")]
pub use crate::store::testing;
pub use crate::store::{
    AsyncRedemptionStore, Conversion, InMemoryRedemptionStore, Redemption, RedemptionStore, Release, Reservation,
    ReservationState, StoreError, Turn,
};
pub use crate::values::{
    Category, Code, Currency, CustomerId, IdempotencyKey, InputError, Money, Sku, Timestamp, ROUNDING,
};

pub use rust_decimal::Decimal;
