//! Small constructors shared by the integration tests.
#![allow(dead_code)]

use promocodes::{Code, CustomerId, Discount, IdempotencyKey, Money, PromoCode, Timestamp, UsageCounts};

pub fn eur(amount: &str) -> Money {
    Money::parse(amount, promocodes::Currency::EUR).expect("valid EUR amount")
}

pub fn money(amount: &str, currency: &str) -> Money {
    Money::parse(amount, currency.parse().expect("known currency")).expect("valid amount")
}

pub fn at(text: &str) -> Timestamp {
    text.parse().expect("valid RFC 3339 time")
}

/// The moment most tests run at: inside December 2026.
pub fn start() -> Timestamp {
    at("2026-12-02T10:00:00Z")
}

pub fn code(text: &str) -> Code {
    Code::parse(text).expect("valid code")
}

pub fn customer(name: &str) -> CustomerId {
    CustomerId::parse(name).expect("valid customer")
}

pub fn key(text: &str) -> IdempotencyKey {
    IdempotencyKey::parse(text).expect("valid key")
}

/// Counts of `total` uses, `per_customer` by the customer, each of the
/// usual 10% off EUR 80.00 (EUR 8.00 discounted a use).
pub fn usage(total: u64, per_customer: u64) -> UsageCounts {
    UsageCounts::new(total, per_customer)
        .and_then(|u| u.with_discounted(rust_decimal::Decimal::new(800, 2) * rust_decimal::Decimal::from(total)))
        .expect("valid usage")
}

pub fn ten_percent(name: &str) -> promocodes::PromoCodeBuilder {
    PromoCode::builder(code(name), Discount::percent(10.into()).expect("10%"))
}

pub fn definition(json: &str) -> PromoCode {
    PromoCode::from_json(json).expect("valid definition")
}

/// A basket of one EUR total.
pub fn basket(amount: &str) -> promocodes::Basket {
    promocodes::Basket::from(eur(amount))
}
