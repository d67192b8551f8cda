//! Payments: Stripe's webhooks, as pure functions, and the flow that turns
//! a payment's events into captures and releases.
//!
//! 1. [`signature::verify`] checks the `Stripe-Signature` header against the raw body.
//! 2. [`event::parse_event`] reads a verified event into an [`event::Action`]:
//!    capture the code of a paid PaymentIntent, release it, or ignore the event.
//! 3. [`amount::major_amount`] turns a Stripe `amount` (an integer in Stripe's
//!    minor unit) into the plain decimal that `promocodes::Money::parse` reads.
//!
//! 4. [`flow`] is the payment flow in the code's object: what a capture or a
//!    release of a payment records, in whatever order the events arrive.
//! 5. The route, `POST /v1/webhooks/stripe`, is [`crate::handlers::webhooks`]: it verifies, reads, finds the code and
//!    forwards the capture or release to the code's object.
//!
//! Nothing in the first three uses `worker::` types, so all of it is tested
//! natively (`cargo test -p promocodes-worker`). The route reads the body as
//! raw bytes (never text re-encoded or JSON re-serialised), verifies, then parses.

pub mod amount;
pub mod event;
pub mod flow;
pub mod signature;

pub use amount::{major_amount, stripe_decimal_places, AmountError};
pub use event::{
    parse_event, parse_promo_codes, Action, EventError, Promo, HANDLED_EVENT_TYPES, META_BASKET, META_CUSTOMER,
    META_PROMO_CODE, META_PROMO_CODES,
};
pub use signature::{verify, SignatureError, DEFAULT_TOLERANCE_S, SIGNATURE_HEADER};

/// The shared signature vector.
///
/// The same body, secret, timestamp and signature are in
/// tests/worker/stripe-signing.test.mjs, so the Rust verifier and the Node
/// signer (tests/worker/stripe.mjs) agree. The expected hex was computed
/// independently of this code, twice, with the body in a file without a
/// trailing newline (239 bytes, UTF-8: "Café crème"):
/// `{ printf '1700000000.'; cat body.bin; } | openssl dgst -sha256 -hmac 'whsec_promocodes_test_vector'`;
/// python3: `hmac.new(b'whsec_promocodes_test_vector', b'1700000000.' + body, hashlib.sha256).hexdigest()`.
#[cfg(test)]
mod vector {
    pub const VECTOR_BODY: &str = r#"{"id":"evt_vector","object":"event","type":"payment_intent.succeeded","data":{"object":{"id":"pi_vector","object":"payment_intent","amount_received":7200,"currency":"eur","description":"Café crème","metadata":{"promo_code":"SUMMER24"}}}}"#;
    pub const VECTOR_SECRET: &str = "whsec_promocodes_test_vector";
    pub const VECTOR_T: i64 = 1_700_000_000;
    pub const VECTOR_V1: &str = "7c5710f3f0d836e045ad0ddb76cc921f1319408593b070e235aa0c163fea7886";
    pub const EMPTY_BODY_V1: &str = "77af00b4b3973d77df5af2001de4666d6d541f1663737d33cd4441e1036ff5e0";
    pub const OTHER_SECRET_V1: &str = "b60ad799e821b9cd7c92479d1bfef77b5dd4041bb5e96eed7afab9a9c88517d4";
}
