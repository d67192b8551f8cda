//! Property tests: the money laws and rounding, for several currencies.
// Native only: proptest is a native dev-dependency, and `wasm-pack test` builds every test target.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::start;
use promocodes::{from_json, Code, Currency, Decimal, Discount, Money, PromoCode, UsageCounts};
use proptest::prelude::*;

fn currency() -> impl Strategy<Value = Currency> {
    prop_oneof![
        Just(Currency::EUR),
        Just(Currency::JPY),
        Just(Currency::KWD),
        Just(Currency::USD),
        Just(Currency::from_code("CLF").unwrap()),
    ]
}

/// An amount as integer minor units (so every value is exact) and its currency.
fn money() -> impl Strategy<Value = Money> {
    (currency(), 0_i64..=10_000_000_000_000).prop_map(|(currency, minor)| {
        Money::new(Decimal::new(minor, currency.minor_units()), currency).expect("in range")
    })
}

/// A percent in (0, 100] with up to four decimal places, as (units of 1/10000, Decimal).
fn percent() -> impl Strategy<Value = (i64, Decimal)> {
    (1_i64..=1_000_000).prop_map(|ten_thousandths| (ten_thousandths, Decimal::new(ten_thousandths, 4)))
}

fn minor_units(m: &Money) -> i128 {
    let mut amount = m.amount();
    amount.rescale(m.currency().minor_units());
    amount.mantissa()
}

/// Half away from zero, for non-negative integers: `numerator / denominator`.
fn round_half_up(numerator: i128, denominator: i128) -> i128 {
    (2 * numerator + denominator) / (2 * denominator)
}

proptest! {
    #[test]
    fn quote_laws_hold_for_percent_discounts(total in money(), (_, p) in percent(), max in proptest::option::of(1_i64..=1_000_000_000)) {
        let mut discount = Discount::percent(p).unwrap();
        if let Some(max) = max {
            let cap = Money::new(Decimal::new(max, total.currency().minor_units()), total.currency()).unwrap();
            discount = discount.with_max(cap).unwrap();
        }
        let promo = PromoCode::builder(Code::parse("LAW").unwrap(), discount).build().unwrap();
        let quote = promo.quote(None, UsageCounts::ZERO, &total, start()).unwrap();

        prop_assert_eq!(quote.discount().currency(), total.currency());
        prop_assert!(quote.discount().amount() <= total.amount(), "discount never exceeds the total");
        prop_assert!(quote.payable().amount() >= Decimal::ZERO, "payable is never negative");
        prop_assert_eq!(quote.discount().amount() + quote.payable().amount(), total.amount());
        let places = total.currency().minor_units();
        prop_assert_eq!(quote.discount().amount().scale(), places);
        prop_assert_eq!(quote.payable().amount().scale(), places);
    }

    #[test]
    fn percent_rounds_half_away_from_zero_to_the_minor_unit(total in money(), (units, p) in percent()) {
        let promo = PromoCode::builder(Code::parse("ROUND").unwrap(), Discount::percent(p).unwrap()).build().unwrap();
        let quote = promo.quote(None, UsageCounts::ZERO, &total, start()).unwrap();
        // Exact integer arithmetic: minor * (units / 10_000) / 100, rounded half up.
        let expected = round_half_up(minor_units(&total) * i128::from(units), 1_000_000);
        prop_assert_eq!(minor_units(quote.discount()), expected);
    }

    #[test]
    fn fixed_discounts_take_the_smaller_of_amount_and_total(total in money(), off in 1_i64..=100_000_000) {
        let amount = Money::new(Decimal::new(off, total.currency().minor_units()), total.currency()).unwrap();
        let promo = PromoCode::builder(Code::parse("FIXED").unwrap(), Discount::fixed(amount).unwrap()).build().unwrap();
        let quote = promo.quote(None, UsageCounts::ZERO, &total, start()).unwrap();
        let expected = minor_units(&amount).min(minor_units(&total));
        prop_assert_eq!(minor_units(quote.discount()), expected);
        prop_assert_eq!(minor_units(quote.payable()), minor_units(&total) - expected);
    }

    #[test]
    fn money_is_written_with_exactly_the_currency_places_and_reads_back(m in money()) {
        let json = serde_json::to_value(m).unwrap();
        let text = json["amount"].as_str().unwrap().to_owned();
        let places = m.currency().minor_units() as usize;
        match text.split_once('.') {
            Some((_, fraction)) => prop_assert_eq!(fraction.len(), places),
            None => prop_assert_eq!(places, 0),
        }
        prop_assert_eq!(from_json::<Money>(&json.to_string()).unwrap(), m);
        prop_assert_eq!(Money::parse(&text, m.currency()).unwrap(), m);
    }

    #[test]
    fn an_extra_decimal_place_is_refused_not_rounded(m in money(), digit in 1_u8..=9) {
        let text = format!("{}{}{}", m.amount_text(), if m.currency().minor_units() == 0 { "." } else { "" }, digit);
        prop_assert!(Money::parse(&text, m.currency()).is_err());
    }

    #[test]
    fn codes_normalise_idempotently_and_ignore_case(raw in "[ ]{0,2}[A-Za-z0-9_-]{1,64}[ ]{0,2}") {
        let code = Code::parse(&raw).unwrap();
        prop_assert_eq!(Code::parse(code.as_str()).unwrap(), code.clone());
        prop_assert_eq!(Code::parse(&raw.to_lowercase()).unwrap(), code.clone());
        prop_assert_eq!(code.as_str(), raw.trim().to_uppercase());
    }

    #[test]
    fn timestamps_round_trip_through_rfc3339(millis in -62_167_219_200_000_i64..253_402_300_800_000) {
        let t = promocodes::Timestamp::from_unix_millis(millis).unwrap();
        let text = t.to_string();
        prop_assert_eq!(promocodes::Timestamp::parse(&text).unwrap(), t);
        prop_assert_eq!(t.as_unix_millis(), millis);
        prop_assert!(text.ends_with('Z') && text.len() >= 20);
    }

    #[test]
    fn parsing_arbitrary_text_never_panics(text in "\\PC{0,80}") {
        let _ = Code::parse(&text);
        let _ = Money::parse(&text, Currency::EUR);
        let _ = PromoCode::from_json(&text);
        let _ = promocodes::Timestamp::parse(&text);
    }
}
