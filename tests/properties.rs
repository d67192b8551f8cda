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
        let quote = promo.quote(None, UsageCounts::ZERO, &promocodes::Basket::from(total), start()).unwrap();

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
        let quote = promo.quote(None, UsageCounts::ZERO, &promocodes::Basket::from(total), start()).unwrap();
        // Exact integer arithmetic: minor * (units / 10_000) / 100, rounded half up.
        let expected = round_half_up(minor_units(&total) * i128::from(units), 1_000_000);
        prop_assert_eq!(minor_units(quote.discount()), expected);
    }

    #[test]
    fn fixed_discounts_take_the_smaller_of_amount_and_total(total in money(), off in 1_i64..=100_000_000) {
        let amount = Money::new(Decimal::new(off, total.currency().minor_units()), total.currency()).unwrap();
        let promo = PromoCode::builder(Code::parse("FIXED").unwrap(), Discount::fixed(amount).unwrap()).build().unwrap();
        let quote = promo.quote(None, UsageCounts::ZERO, &promocodes::Basket::from(total), start()).unwrap();
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

mod baskets_with_lines {
    //! The split laws: for any basket with lines and any code, the parts add up
    //! to the discount exactly, no part is negative or above its line, and the
    //! discount never exceeds what is eligible.

    use super::*;
    use promocodes::{Basket, Category, Line, Sku};

    const CATEGORIES: [&str; 3] = ["mugs", "coffee", "grinders"];

    /// A basket of 1 to 12 lines, each in one of three categories, maybe with shipping.
    fn basket() -> impl Strategy<Value = Basket> {
        let line = (0_usize..3, 1_u32..=20, 0_i64..=5_000_000);
        (
            currency(),
            proptest::collection::vec(line, 1..=12),
            proptest::option::of(0_i64..=100_000),
        )
            .prop_map(|(currency, lines, shipping)| {
                let places = currency.minor_units();
                let lines = lines
                    .into_iter()
                    .enumerate()
                    .map(|(i, (category, quantity, price))| {
                        let price = Money::new(Decimal::new(price, places), currency).unwrap();
                        Line::new(Sku::parse(&format!("SKU-{i}")).unwrap(), quantity, price)
                            .unwrap()
                            .with_categories([Category::parse(CATEGORIES[category]).unwrap()])
                            .unwrap()
                    })
                    .collect();
                let shipping = shipping.map(|s| Money::new(Decimal::new(s, places), currency).unwrap());
                Basket::from_lines(lines, shipping).unwrap()
            })
    }

    /// A code: percent (maybe capped), fixed, or free shipping (maybe capped), maybe scoped to one category.
    fn code(currency: Currency) -> impl Strategy<Value = PromoCode> {
        let places = currency.minor_units();
        let amount = move |minor: i64| Money::new(Decimal::new(minor, places), currency).unwrap();
        (
            0_u8..3,
            super::percent(),
            1_i64..=10_000_000,
            proptest::option::of(1_i64..=10_000_000),
            proptest::option::of(0_usize..3),
        )
            .prop_map(move |(kind, (_, percent), fixed, max, scope)| {
                let discount = match kind {
                    0 => Discount::percent(percent).unwrap(),
                    1 => Discount::fixed(amount(fixed)).unwrap(),
                    _ => Discount::free_shipping(),
                };
                let discount = match max {
                    Some(max) => discount.with_max(amount(max)).unwrap(),
                    None => discount,
                };
                let mut builder = PromoCode::builder(Code::parse("PROP").unwrap(), discount);
                if let Some(scope) = scope {
                    let scope = promocodes::AppliesTo::new([], [Category::parse(CATEGORIES[scope]).unwrap()]).unwrap();
                    builder = builder.applies_to(scope);
                }
                builder.build().unwrap()
            })
    }

    fn basket_and_code() -> impl Strategy<Value = (Basket, PromoCode)> {
        basket().prop_flat_map(|basket| {
            let currency = basket.currency();
            (Just(basket), code(currency))
        })
    }

    proptest! {
        #[test]
        fn the_split_adds_up_and_no_part_exceeds_its_line((basket, promo) in basket_and_code()) {
            let quote = promo.price(&basket, start()).unwrap();
            let lines = quote.lines().expect("a basket with lines is quoted with lines");
            prop_assert_eq!(lines.len(), basket.lines().len());
            let shipping_part = quote.shipping().map_or(0, |s| minor_units(&s.discount));
            let parts: i128 = lines.iter().map(|l| minor_units(&l.discount)).sum::<i128>() + shipping_part;
            prop_assert_eq!(parts, minor_units(quote.discount()), "the parts add up to the discount exactly");
            for (part, line) in lines.iter().zip(basket.lines()) {
                prop_assert!(minor_units(&part.discount) >= 0);
                prop_assert!(part.discount.amount() <= line.amount().amount(), "no part above its line");
                prop_assert_eq!(&part.amount, line.amount());
                let eligible = promo.applies_to().is_none_or(|scope| scope.includes(line));
                if !eligible || promo.discount().kind() == promocodes::DiscountKind::FreeShipping {
                    prop_assert!(part.discount.is_zero(), "only eligible lines take a part");
                }
            }
            prop_assert_eq!(minor_units(quote.discount()) + minor_units(quote.payable()), minor_units(basket.total()));
        }

        #[test]
        fn the_discount_never_exceeds_what_is_eligible((basket, promo) in basket_and_code()) {
            let quote = promo.price(&basket, start()).unwrap();
            let eligible: i128 = basket
                .lines()
                .iter()
                .filter(|l| promo.applies_to().is_none_or(|scope| scope.includes(l)))
                .map(|l| minor_units(l.amount()))
                .sum();
            let bound = match promo.discount().kind() {
                promocodes::DiscountKind::FreeShipping => basket.shipping().map_or(0, minor_units),
                _ => eligible,
            };
            prop_assert!(minor_units(quote.discount()) <= bound);
            if let Some(max) = promo.discount().max() {
                prop_assert!(minor_units(quote.discount()) <= minor_units(max), "max caps every kind");
            }
            if let Some(shipping) = quote.shipping() {
                prop_assert!(shipping.discount.amount() <= shipping.amount.amount());
            }
        }

        #[test]
        fn a_total_is_priced_as_a_one_line_basket_of_that_amount(total in super::money(), kind in 0_u8..2, (_, p) in super::percent()) {
            let discount = if kind == 0 { Discount::percent(p).unwrap() } else { Discount::fixed(total.checked_percent(p).filter(|m| !m.is_zero()).unwrap_or(Money::new(Decimal::new(1, 0), total.currency()).unwrap())).unwrap() };
            let promo = PromoCode::builder(Code::parse("SAME").unwrap(), discount).build().unwrap();
            let one_line = Basket::from_lines(vec![Line::new(Sku::parse("ALL").unwrap(), 1, total).unwrap()], None).unwrap();
            let by_total = promo.quote(None, UsageCounts::ZERO, &Basket::from(total), start()).unwrap();
            let by_line = promo.quote(None, UsageCounts::ZERO, &one_line, start()).unwrap();
            prop_assert_eq!(by_total.discount(), by_line.discount());
            prop_assert_eq!(by_total.payable(), by_line.payable());
            prop_assert_eq!(&by_line.lines().unwrap()[0].discount, by_line.discount());
        }
    }
}

/// A stack of 1 to 5 codes of random classes, each combining with every class, and a basket of
/// 1 to 6 lines (some in `mugs`) with or without shipping, in EUR.
fn stack_and_basket() -> impl Strategy<Value = (Vec<PromoCode>, promocodes::Basket)> {
    let code = (0_u8..6, 1_i64..=10_000, 1_i64..=100_000);
    let line = (1_u32..=5, 0_i64..=100_000, any::<bool>());
    (
        proptest::collection::vec(code, 1..=5),
        proptest::collection::vec(line, 1..=6),
        proptest::option::of(0_i64..=2_000),
    )
        .prop_map(|(codes, lines, shipping)| {
            let codes = codes
                .into_iter()
                .enumerate()
                .map(|(i, (kind, percent, fixed))| {
                    let discount = match kind % 3 {
                        0 => serde_json::json!({"kind": "percent", "percent": Decimal::new(percent, 2).to_string()}),
                        1 => serde_json::json!({"kind": "fixed",
                            "amount": {"amount": Decimal::new(fixed, 2).to_string(), "currency": "EUR"}}),
                        _ => serde_json::json!({"kind": "free_shipping"}),
                    };
                    let mut definition = serde_json::json!({"code": format!("C{i}"), "discount": discount,
                        "combines_with": ["product", "order", "shipping"]});
                    if kind >= 3 {
                        definition["applies_to"] = serde_json::json!({"categories": ["mugs"]});
                    }
                    from_json::<PromoCode>(&definition.to_string()).unwrap()
                })
                .collect();
            let lines: Vec<serde_json::Value> = lines
                .into_iter()
                .enumerate()
                .map(|(i, (quantity, price, mug))| {
                    let mut line = serde_json::json!({"sku": format!("L{i}"), "quantity": quantity,
                        "unit_price": {"amount": Decimal::new(price, 2).to_string(), "currency": "EUR"}});
                    if mug {
                        line["categories"] = serde_json::json!(["mugs"]);
                    }
                    line
                })
                .collect();
            let mut basket = serde_json::json!({"lines": lines});
            if let Some(shipping) = shipping {
                basket["shipping"] =
                    serde_json::json!({"amount": Decimal::new(shipping, 2).to_string(), "currency": "EUR"});
            }
            (codes, from_json(&basket.to_string()).unwrap())
        })
}

proptest! {
    #[test]
    fn a_stacks_splits_add_up_and_never_pass_an_amount((codes, basket) in stack_and_basket()) {
        let usage = vec![UsageCounts::ZERO; codes.len()];
        let listed: Vec<promocodes::CodeClass> = codes.iter().map(PromoCode::class).collect();
        let names: Vec<Code> = codes.iter().map(|c| c.code().clone()).collect();
        let stack = promocodes::Stack::new(codes).unwrap();
        // A product code finds nothing eligible in a basket without mugs: that refusal is its own.
        let quote = match stack.quote(None, &usage, &basket, start()) {
            Ok(quote) => quote,
            Err(refused) => {
                for r in refused.refusals() {
                    prop_assert_eq!(r.rejection(), promocodes::Rejection::NoEligibleItems);
                }
                return Ok(());
            }
        };
        prop_assert!(!quote.payable().amount().is_sign_negative(), "payable never below zero");
        prop_assert_eq!(quote.discount().checked_add(quote.payable()), Some(*quote.total()));
        let mut sum = 0_i128;
        for part in quote.codes() {
            let q = part.quote();
            let lines = q.lines().unwrap();
            let parts: i128 = lines.iter().map(|l| l.discount.minor()).sum::<i128>()
                + q.shipping().map_or(0, |s| s.discount.minor());
            prop_assert_eq!(parts, part.discount().minor(), "{}'s lines add up to its discount", part.code());
            for line in lines {
                prop_assert!(line.discount.minor() >= 0 && line.discount.minor() <= line.amount.minor());
            }
            sum += part.discount().minor();
        }
        prop_assert_eq!(sum, quote.discount().minor());
        let lines = quote.lines().unwrap();
        for (line, original) in lines.iter().zip(basket.lines()) {
            prop_assert_eq!(&line.amount, original.amount());
            prop_assert!(line.discount.minor() >= 0 && line.discount.minor() <= line.amount.minor(), "no line's discount passes its amount");
        }
        if let Some(shipping) = quote.shipping() {
            prop_assert!(shipping.discount.minor() <= shipping.amount.minor());
        }
        // Applied by class, and within a class as listed.
        let applied: Vec<Code> = quote.codes().iter().map(|p| p.code().clone()).collect();
        let mut expected: Vec<usize> = (0..names.len()).collect();
        expected.sort_by_key(|&i| listed[i]);
        let expected: Vec<Code> = expected.into_iter().map(|i| names[i].clone()).collect();
        prop_assert_eq!(applied, expected);
    }
}
