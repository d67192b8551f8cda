//! Automatic promotions (issue 34, item 4): the definition's `automatic`
//! and `priority`, which promotions join a stack beside the typed codes,
//! the skipped ones, and retries under a key.
// Native only: proptest is a native dev-dependency, and `wasm-pack test` builds every test target.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::start;
use promocodes::{
    from_json, Basket, Campaign, InputError, PromoCode, Quote, Rejection, Stack, StackQuote, StackResumeError,
    UsageCounts,
};
use proptest::prelude::*;
use serde_json::{json, Value};

fn promo(definition: Value) -> PromoCode {
    from_json(&definition.to_string()).expect("a valid definition")
}

fn eur(amount: &str) -> Value {
    json!({"amount": amount, "currency": "EUR"})
}

/// `MUG` 2 x 12.50 (mugs), `GRINDER` 1 x 46.50, shipping 4.90: 71.50 and 4.90.
fn basket() -> Basket {
    from_json(
        &json!({"lines": [
            {"sku": "MUG", "quantity": 2, "unit_price": eur("12.50"), "categories": ["mugs"]},
            {"sku": "GRINDER", "quantity": 1, "unit_price": eur("46.50")}],
            "shipping": eur("4.90")})
        .to_string(),
    )
    .expect("a valid basket")
}

const ALL: [&str; 3] = ["product", "order", "shipping"];

fn ship_free(minimum: &str, priority: u32) -> PromoCode {
    promo(
        json!({"code": "SHIPFREE", "discount": {"kind": "free_shipping"}, "automatic": true,
        "priority": priority, "minimum": eur(minimum), "combines_with": ALL}),
    )
}

fn mugs(percent: &str, priority: u32) -> PromoCode {
    promo(
        json!({"code": "MUGS", "discount": {"kind": "percent", "percent": percent}, "automatic": true,
        "priority": priority, "applies_to": {"categories": ["mugs"]}, "combines_with": ALL}),
    )
}

fn parts(quote: &StackQuote) -> Vec<String> {
    let each = quote.codes().iter();
    each.map(|p| {
        let how = if p.is_automatic() { "auto" } else { "typed" };
        format!("{} {} {how}", p.code(), p.discount().amount_text())
    })
    .collect()
}

fn skipped(quote: &StackQuote) -> Vec<(String, Rejection)> {
    let each = quote.skipped().iter();
    each.map(|s| (s.code().to_string(), s.rejection())).collect()
}

#[test]
fn the_definition_reads_and_writes_automatic_and_priority() {
    let written = serde_json::to_value(ship_free("50.00", 7)).expect("serialises");
    assert_eq!(written["automatic"], json!(true));
    assert_eq!(written["priority"], json!(7));
    let plain = promo(json!({"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"}}));
    assert!(!plain.is_automatic());
    assert_eq!(plain.priority(), PromoCode::DEFAULT_PRIORITY);
    let plain = serde_json::to_value(&plain).expect("serialises");
    assert!(plain.get("automatic").is_none() && plain.get("priority").is_none());
    // Read back as written.
    assert_eq!(promo(written), ship_free("50.00", 7));

    let too_high = json!({"code": "X", "discount": {"kind": "free_shipping"}, "priority": 1_000_001});
    let err = from_json::<PromoCode>(&too_high.to_string()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("priority: priority must be a whole number from 0 to 1000000"),
        "{err}"
    );
    let negative = json!({"code": "X", "discount": {"kind": "free_shipping"}, "priority": -1});
    let err = from_json::<PromoCode>(&negative.to_string()).unwrap_err();
    assert!(err.to_string().starts_with("priority:"), "{err}");
    let not_bool = json!({"code": "X", "discount": {"kind": "free_shipping"}, "automatic": "yes"});
    let err = from_json::<PromoCode>(&not_bool.to_string()).unwrap_err();
    assert!(err.to_string().starts_with("automatic:"), "{err}");
}

#[test]
fn a_campaign_cannot_be_automatic() {
    let err = Campaign::from_json(
        promocodes::Code::parse("BF").unwrap(),
        &json!({"discount": {"kind": "free_shipping"}, "automatic": true}).to_string(),
    )
    .unwrap_err();
    assert!(
        err.to_string().starts_with("automatic: a campaign cannot be automatic"),
        "{err}"
    );
    assert_eq!(
        Campaign::new(ship_free("1.00", 1), 1).unwrap_err(),
        InputError::AutomaticCampaign
    );
}

#[test]
fn automatic_promotions_join_by_priority_and_apply_by_class() {
    let stack = Stack::with_automatic(vec![], vec![ship_free("50.00", 10), mugs("20", 20)]).unwrap();
    let quote = stack.quote(None, &[], &basket(), start()).unwrap();
    assert_eq!(parts(&quote), ["MUGS 5.00 auto", "SHIPFREE 4.90 auto"]);
    assert!(quote.skipped().is_empty());
    assert_eq!(quote.payable().to_string(), "EUR 66.50");
    let json = serde_json::to_value(&quote).unwrap();
    assert_eq!(json["codes"][0]["automatic"], json!(true));
    assert!(json.get("skipped").is_none());
}

#[test]
fn a_skipped_promotion_says_why_and_the_rest_still_join() {
    // Free shipping from 80.00: the basket is 71.50 after the mugs' 5.00 → below its minimum.
    let stack = Stack::with_automatic(vec![], vec![ship_free("80.00", 1), mugs("20", 2)]).unwrap();
    let quote = stack.quote(None, &[], &basket(), start()).unwrap();
    assert_eq!(parts(&quote), ["MUGS 5.00 auto"]);
    assert_eq!(skipped(&quote), [("SHIPFREE".to_owned(), Rejection::BelowMinimum)]);
    assert_eq!(
        quote.skipped()[0].detail(),
        "this code needs a basket of at least EUR 80.00"
    );
    let json = serde_json::to_value(&quote).unwrap();
    assert_eq!(
        json["skipped"],
        json!([{"code": "SHIPFREE", "rejection": "below_minimum",
                "detail": "this code needs a basket of at least EUR 80.00"}])
    );
    // Expired, inactive, or used up: skipped the same, never an error.
    let expired = promo(
        json!({"code": "OLD", "discount": {"kind": "percent", "percent": "5"}, "automatic": true,
        "ends_at": "2026-01-01T00:00:00Z", "combines_with": ALL}),
    );
    let capped = promo(
        json!({"code": "CAPPED", "discount": {"kind": "percent", "percent": "5"}, "automatic": true,
        "limits": {"total": 3}, "combines_with": ALL}),
    );
    let off = mugs("20", 1).with_active(false);
    let stack = Stack::with_automatic(vec![], vec![expired, capped, off]).unwrap();
    let usage = [UsageCounts::ZERO, UsageCounts::new(3, 0).unwrap(), UsageCounts::ZERO];
    let quote = stack.quote(None, &usage, &basket(), start()).unwrap();
    assert!(quote.codes().is_empty());
    assert_eq!(quote.discount().amount_text(), "0.00");
    assert_eq!(
        skipped(&quote),
        [
            ("MUGS".to_owned(), Rejection::Inactive),
            ("CAPPED".to_owned(), Rejection::Exhausted),
            ("OLD".to_owned(), Rejection::Expired)
        ]
    );
}

#[test]
fn a_typed_code_is_never_dropped_for_an_automatic_one() {
    // SAVE10 combines with nothing: every automatic promotion is skipped, SAVE10 applies.
    let save10 = promo(json!({"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"}}));
    let stack = Stack::with_automatic(vec![save10], vec![ship_free("1.00", 1), mugs("20", 2)]).unwrap();
    let quote = stack.quote(None, &[], &basket(), start()).unwrap();
    assert_eq!(parts(&quote), ["SAVE10 7.15 typed"]);
    assert_eq!(
        skipped(&quote),
        [
            ("SHIPFREE".to_owned(), Rejection::NotCombinable),
            ("MUGS".to_owned(), Rejection::NotCombinable)
        ]
    );
    assert_eq!(quote.skipped()[0].detail(), "this code cannot be combined with SAVE10");

    // An order code with a minimum of 70.00 that the mugs' automatic 20% would take below it: the
    // mugs are skipped, the typed code stays.
    let big = promo(json!({"code": "BIG", "discount": {"kind": "percent", "percent": "10"},
        "minimum": eur("70.00"), "combines_with": ALL}));
    let stack = Stack::with_automatic(vec![big], vec![mugs("20", 1)]).unwrap();
    let quote = stack.quote(None, &[], &basket(), start()).unwrap();
    assert_eq!(parts(&quote), ["BIG 7.15 typed"]);
    assert_eq!(skipped(&quote), [("MUGS".to_owned(), Rejection::NotCombinable)]);
    assert!(
        quote.skipped()[0].detail().contains("BIG"),
        "{}",
        quote.skipped()[0].detail()
    );

    // A typed code that refuses refuses the stack, as without automatic promotions.
    let later = promo(
        json!({"code": "LATER", "discount": {"kind": "percent", "percent": "10"},
        "starts_at": "2027-01-01T00:00:00Z", "combines_with": ALL}),
    );
    let stack = Stack::with_automatic(vec![later], vec![mugs("20", 1)]).unwrap();
    let refused = stack.quote(None, &[], &basket(), start()).unwrap_err();
    let codes: Vec<String> = refused.refusals().iter().map(|r| r.code().to_string()).collect();
    assert_eq!(codes, ["LATER"]);

    // A typed automatic code is typed: not offered again, not marked automatic.
    let stack = Stack::with_automatic(vec![mugs("20", 1)], vec![mugs("20", 1), ship_free("1.00", 2)]).unwrap();
    let quote = stack.quote(None, &[], &basket(), start()).unwrap();
    assert_eq!(parts(&quote), ["MUGS 5.00 typed", "SHIPFREE 4.90 auto"]);
}

#[test]
fn a_stack_takes_lists_within_bounds() {
    let many: Vec<PromoCode> = (0..=Stack::MAX_AUTOMATIC)
        .map(|i| promo(json!({"code": format!("A{i}"), "discount": {"kind": "free_shipping"}, "automatic": true})))
        .collect();
    let err = Stack::with_automatic(vec![], many).unwrap_err();
    assert!(matches!(err, InputError::TooMany { field: "automatic", .. }), "{err}");
    let err = Stack::with_automatic(vec![], vec![mugs("20", 1), mugs("10", 2)]).unwrap_err();
    assert!(matches!(err, InputError::DuplicateCode { .. }), "{err}");
    // Nothing typed, nothing offered: a quote of nothing.
    let quote = Stack::with_automatic(vec![], vec![])
        .unwrap()
        .quote(None, &[], &basket(), start());
    assert_eq!(quote.unwrap().payable().to_string(), "EUR 76.40");
}

#[test]
fn a_retry_replays_the_automatic_promotions_it_recorded() {
    let first = Stack::with_automatic(vec![], vec![mugs("20", 1)]).unwrap();
    let quote = first.quote(None, &[], &basket(), start()).unwrap();
    let recorded: Vec<Option<Quote>> = vec![Some(quote.codes()[0].quote().clone()), None];

    // Since then: the mugs went to 40% and free shipping turned automatic.
    let now = Stack::with_automatic(vec![], vec![mugs("40", 1), ship_free("1.00", 2)]).unwrap();
    // Replayed: the mugs as recorded, free shipping not taken.
    let replayed = now.replay(None, &[], &recorded, &basket(), start()).unwrap();
    assert_eq!(parts(&replayed), ["MUGS 5.00 auto"]);
    // Resumed (a capture of holds): the mugs as held, free shipping decided afresh.
    let resumed = now.resume(None, &[], &recorded, &basket(), start()).unwrap();
    assert_eq!(parts(&resumed), ["MUGS 5.00 auto", "SHIPFREE 4.90 auto"]);
    // A record for another basket is the key reused.
    let other: Basket = from_json(&json!({"total": eur("10.00")}).to_string()).unwrap();
    let reused = now.replay(None, &[], &recorded, &other, start()).unwrap_err();
    assert!(matches!(reused, StackResumeError::KeyReused { .. }), "{reused}");
}

/// A random automatic promotion: class, discount, priority, minimum, what it combines with.
fn automatic_promotion() -> impl Strategy<Value = (u8, u8, u32, Option<u32>, u8)> {
    (0u8..3, 1u8..40, 0u32..5, proptest::option::of(30u32..90), 0u8..8)
}

fn definition(i: usize, (kind, percent, priority, minimum, combines): (u8, u8, u32, Option<u32>, u8)) -> PromoCode {
    let classes: Vec<&str> = ALL
        .iter()
        .enumerate()
        .filter(|(bit, _)| combines & (1 << bit) != 0)
        .map(|(_, c)| *c)
        .collect();
    let mut d = json!({"code": format!("AUTO{i}"), "automatic": true, "priority": priority, "combines_with": classes,
        "discount": {"kind": "percent", "percent": percent.to_string()}});
    match kind {
        0 => d["applies_to"] = json!({"categories": ["mugs"]}),
        1 => {}
        _ => d["discount"] = json!({"kind": "free_shipping"}),
    }
    if let Some(minimum) = minimum {
        d["minimum"] = eur(&format!("{minimum}.00"));
    }
    promo(d)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The order the promotions are given in changes nothing; a typed code
    /// that applies alone is always in the quote, with the same discount
    /// when it applies first; parts and skipped ones account
    /// for every promotion once.
    #[test]
    fn the_given_order_is_irrelevant_and_typed_codes_stay(
        specs in proptest::collection::vec(automatic_promotion(), 0..7),
        typed in proptest::option::of((0u8..3, 1u8..40, 0u8..8)),
        seed in any::<u64>(),
    ) {
        let automatic: Vec<PromoCode> = specs.iter().enumerate().map(|(i, s)| definition(i, *s)).collect();
        let typed: Vec<PromoCode> = typed
            .map(|(kind, percent, combines)| {
                let mut p = definition(99, (kind, percent, 0, None, combines));
                p = promo({
                    let mut d = serde_json::to_value(&p).unwrap();
                    d["code"] = json!("TYPED");
                    d.as_object_mut().unwrap().remove("automatic");
                    d.as_object_mut().unwrap().remove("priority");
                    d
                });
                p
            })
            .into_iter()
            .collect();
        let quote = Stack::with_automatic(typed.clone(), automatic.clone()).unwrap()
            .quote(None, &[], &basket(), start()).unwrap();
        // Shuffled (a permutation from the seed).
        let mut shuffled = automatic.clone();
        let mut s = seed;
        for i in (1..shuffled.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            shuffled.swap(i, (s >> 33) as usize % (i + 1));
        }
        let again = Stack::with_automatic(typed.clone(), shuffled).unwrap()
            .quote(None, &[], &basket(), start()).unwrap();
        prop_assert_eq!(&quote, &again);
        if let Some(t) = typed.first() {
            prop_assert!(quote.codes().iter().any(|p| p.code() == t.code() && !p.is_automatic()));
            let alone = Stack::new(typed.clone()).unwrap().quote(None, &[], &basket(), start()).unwrap();
            if quote.codes()[0].code() == t.code() {
                prop_assert_eq!(quote.codes()[0].discount(), alone.codes()[0].discount());
            }
        }
        prop_assert_eq!(quote.codes().len() + quote.skipped().len(), typed.len() + automatic.len());
        let sum = quote.codes().iter().try_fold(promocodes::Money::zero(promocodes::Currency::EUR), |a, p| a.checked_add(p.discount())).unwrap();
        prop_assert_eq!(&sum, quote.discount());
    }
}
