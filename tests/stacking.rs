//! Several codes in one basket (issue 21): classes, `combines_with`, the
//! order of application, per-code minimums, splits, and bad input.

use promocodes::{
    from_json, Basket, CodeClass, InputError, PromoCode, Rejection, Stack, StackQuote, StackRejected, Timestamp,
    UsageCounts,
};
use serde_json::{json, Value};

fn now() -> Timestamp {
    "2026-12-02T10:00:00Z".parse().unwrap()
}

fn code(value: Value) -> PromoCode {
    from_json(&value.to_string()).unwrap()
}

fn eur(amount: &str) -> Value {
    json!({"amount": amount, "currency": "EUR"})
}

fn mugs20() -> PromoCode {
    code(
        json!({"code": "MUGS20", "discount": {"kind": "percent", "percent": "20"},
                "applies_to": {"categories": ["mugs"]}, "combines_with": ["order", "shipping"]}),
    )
}

fn save10() -> PromoCode {
    code(
        json!({"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"},
                "combines_with": ["product", "shipping"]}),
    )
}

fn shipfree() -> PromoCode {
    code(json!({"code": "SHIPFREE", "discount": {"kind": "free_shipping"},
                "combines_with": ["product", "order"]}))
}

fn basket() -> Basket {
    from_json(
        &json!({"lines": [
            {"sku": "MUG", "quantity": 2, "unit_price": eur("12.50"), "categories": ["mugs"]},
            {"sku": "GRINDER", "quantity": 1, "unit_price": eur("46.50")}],
            "shipping": eur("4.90")})
        .to_string(),
    )
    .unwrap()
}

fn quote(codes: Vec<PromoCode>, basket: &Basket) -> Result<StackQuote, StackRejected> {
    let usage = vec![UsageCounts::ZERO; codes.len()];
    Stack::new(codes).unwrap().quote(None, &usage, basket, now())
}

fn refusals(refused: &StackRejected) -> Vec<(String, Rejection, Option<String>)> {
    refused
        .refusals()
        .iter()
        .map(|r| (r.code().to_string(), r.rejection(), r.with().map(ToString::to_string)))
        .collect()
}

#[test]
fn the_issues_example_comes_out_exactly() {
    let q = quote(vec![save10(), shipfree(), mugs20()], &basket()).unwrap();
    assert_eq!(
        serde_json::to_value(&q).unwrap(),
        json!({
            "codes": [
                {"code": "MUGS20", "class": "product", "discount": eur("5.00"),
                 "lines": [{"sku": "MUG", "amount": eur("25.00"), "discount": eur("5.00")},
                           {"sku": "GRINDER", "amount": eur("46.50"), "discount": eur("0.00")}],
                 "shipping": {"amount": eur("4.90"), "discount": eur("0.00")}},
                {"code": "SAVE10", "class": "order", "discount": eur("6.65"),
                 "lines": [{"sku": "MUG", "amount": eur("20.00"), "discount": eur("2.00")},
                           {"sku": "GRINDER", "amount": eur("46.50"), "discount": eur("4.65")}],
                 "shipping": {"amount": eur("4.90"), "discount": eur("0.00")}},
                {"code": "SHIPFREE", "class": "shipping", "discount": eur("4.90"),
                 "lines": [{"sku": "MUG", "amount": eur("18.00"), "discount": eur("0.00")},
                           {"sku": "GRINDER", "amount": eur("41.85"), "discount": eur("0.00")}],
                 "shipping": {"amount": eur("4.90"), "discount": eur("4.90")}}
            ],
            "total": eur("76.40"),
            "discount": eur("16.55"),
            "payable": eur("59.85"),
            "quoted_at": "2026-12-02T10:00:00Z",
            "lines": [{"sku": "MUG", "amount": eur("25.00"), "discount": eur("7.00")},
                      {"sku": "GRINDER", "amount": eur("46.50"), "discount": eur("4.65")}],
            "shipping": {"amount": eur("4.90"), "discount": eur("4.90")}
        })
    );
}

#[test]
fn one_code_a_class_gives_the_same_quote_in_any_order() {
    let first = quote(vec![save10(), shipfree(), mugs20()], &basket()).unwrap();
    let orders: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    for order in orders {
        let all = [mugs20(), save10(), shipfree()];
        let listed: Vec<PromoCode> = order.iter().map(|&i| all[i].clone()).collect();
        assert_eq!(quote(listed, &basket()).unwrap(), first, "{order:?}");
    }
}

#[test]
fn the_class_follows_from_the_definition() {
    assert_eq!(mugs20().class(), CodeClass::Product);
    assert_eq!(save10().class(), CodeClass::Order);
    assert_eq!(shipfree().class(), CodeClass::Shipping);
    let scoped_shipping = code(json!({"code": "S", "discount": {"kind": "free_shipping"},
                                      "applies_to": {"skus": ["MUG"]}}));
    assert_eq!(scoped_shipping.class(), CodeClass::Shipping);
}

/// A code of `class` (a second one of the same class has another name) that combines with `with`.
fn of_class(class: CodeClass, name: &str, with: &[&str]) -> PromoCode {
    let mut definition = match class {
        CodeClass::Product => json!({"discount": {"kind": "fixed", "amount": eur("1.00")},
                                     "applies_to": {"categories": ["mugs"]}}),
        CodeClass::Order => json!({"discount": {"kind": "fixed", "amount": eur("2.00")}}),
        CodeClass::Shipping => json!({"discount": {"kind": "free_shipping"}}),
    };
    definition["code"] = json!(name);
    definition["combines_with"] = json!(with);
    code(definition)
}

#[test]
fn every_pair_of_classes_combines_only_when_each_lists_the_other() {
    for a in CodeClass::ALL {
        for b in CodeClass::ALL {
            for (a_lists, b_lists) in [(true, true), (true, false), (false, true), (false, false)] {
                let (a_names, b_names) = ([b.as_str()], [a.as_str()]);
                let first = of_class(a, "FIRST", if a_lists { &a_names } else { &[] });
                let second = of_class(b, "SECOND", if b_lists { &b_names } else { &[] });
                let result = quote(vec![first, second], &basket());
                let case = format!("{a} ({a_lists}) + {b} ({b_lists})");
                if a_lists && b_lists {
                    let q = result.unwrap_or_else(|e| panic!("{case}: {e}"));
                    assert_eq!(q.codes().len(), 2, "{case}");
                } else {
                    let refused = result.expect_err(&case);
                    assert_eq!(
                        refusals(&refused),
                        [("SECOND".to_owned(), Rejection::NotCombinable, Some("FIRST".to_owned()))],
                        "{case}"
                    );
                    assert_eq!(
                        refused.refusals()[0].message(),
                        "this code cannot be combined with FIRST"
                    );
                }
            }
        }
    }
}

#[test]
fn a_code_that_combines_with_everything_still_needs_the_others_consent() {
    let open = of_class(CodeClass::Order, "OPEN", &["product", "order", "shipping"]);
    let closed = of_class(CodeClass::Product, "CLOSED", &[]);
    let refused = quote(vec![closed.clone(), open.clone()], &basket()).unwrap_err();
    assert_eq!(
        refusals(&refused),
        [("OPEN".to_owned(), Rejection::NotCombinable, Some("CLOSED".to_owned()))]
    );
    let refused = quote(vec![open, closed], &basket()).unwrap_err();
    assert_eq!(
        refusals(&refused),
        [("CLOSED".to_owned(), Rejection::NotCombinable, Some("OPEN".to_owned()))]
    );
}

#[test]
fn every_code_that_refuses_is_named_with_its_own_first_rule() {
    let expired = code(json!({"code": "OLD", "discount": {"kind": "percent", "percent": "5"},
                              "ends_at": "2026-01-01T00:00:00Z", "combines_with": ["order", "product"]}));
    let loner = of_class(CodeClass::Shipping, "LONER", &[]);
    let refused = quote(vec![mugs20(), expired, loner], &basket()).unwrap_err();
    assert_eq!(
        refusals(&refused),
        [
            ("OLD".to_owned(), Rejection::Expired, None),
            ("LONER".to_owned(), Rejection::NotCombinable, Some("MUGS20".to_owned())),
        ]
    );
    let text = refused.to_string();
    assert!(text.starts_with("OLD: this code expired at"), "{text}");
}

#[test]
fn each_codes_minimum_applies_after_the_codes_before_it() {
    // SAVE10 needs 50.00 of order: 71.50 of lines, less MUGS20's 5.00, is 66.50.
    let needs = |minimum: &str| {
        code(
            json!({"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"},
                    "minimum": eur(minimum), "combines_with": ["product", "shipping"]}),
        )
    };
    assert!(quote(vec![needs("66.50"), mugs20()], &basket()).is_ok());
    let refused = quote(vec![needs("66.51"), mugs20()], &basket()).unwrap_err();
    assert_eq!(
        refusals(&refused),
        [("SAVE10".to_owned(), Rejection::BelowMinimum, None)]
    );
    // Alone, the same code sees the whole 71.50.
    assert!(quote(vec![needs("66.51")], &basket()).is_ok());
}

#[test]
fn product_codes_apply_one_after_another_and_never_past_a_line() {
    let more = code(
        json!({"code": "MUGS30", "discount": {"kind": "fixed", "amount": eur("30.00")},
                           "applies_to": {"skus": ["MUG"]}, "combines_with": ["product", "order"]}),
    );
    let mugs = code(
        json!({"code": "MUGS20", "discount": {"kind": "percent", "percent": "20"},
                           "applies_to": {"categories": ["mugs"]}, "combines_with": ["product"]}),
    );
    let q = quote(vec![mugs, more], &basket()).unwrap();
    let parts: Vec<String> = q.codes().iter().map(|p| p.discount().amount_text()).collect();
    // 20% of 25.00, then the fixed 30.00 capped at the 20.00 left.
    assert_eq!(parts, ["5.00", "20.00"]);
    let lines = q.lines().unwrap();
    assert_eq!(lines[0].discount.amount_text(), "25.00");
    assert_eq!(lines[1].discount.amount_text(), "0.00");
    assert_eq!(q.payable().amount_text(), "51.40");
}

#[test]
fn five_codes_fit_and_bad_lists_are_input_errors() {
    let all = ["product", "order", "shipping"];
    let five: Vec<PromoCode> = (1..=5)
        .map(|i| of_class(CodeClass::Order, &format!("ORDER{i}"), &all))
        .collect();
    let q = quote(five.clone(), &basket()).unwrap();
    assert_eq!(q.discount().amount_text(), "10.00");
    assert_eq!(q.codes().len(), 5);

    let mut six = five.clone();
    six.push(of_class(CodeClass::Order, "ORDER6", &all));
    assert_eq!(
        Stack::new(six).unwrap_err(),
        InputError::TooMany {
            field: "codes",
            count: 6,
            max: 5
        }
    );
    let twice = vec![five[0].clone(), five[1].clone(), five[0].clone()];
    let err = Stack::new(twice).unwrap_err();
    assert_eq!(err.to_string(), "ORDER1 is listed twice; a basket takes each code once");
    assert_eq!(Stack::new(Vec::new()).unwrap_err(), InputError::EmptyStack);
}

#[test]
fn a_basket_of_one_total_takes_order_codes_in_turn() {
    let total: Basket = from_json(&json!({"total": eur("10.00")}).to_string()).unwrap();
    let big = code(
        json!({"code": "BIG", "discount": {"kind": "fixed", "amount": eur("8.00")},
                          "combines_with": ["order"]}),
    );
    let half = code(json!({"code": "HALF", "discount": {"kind": "percent", "percent": "50"},
                           "combines_with": ["order"]}));
    let q = quote(vec![big, half], &total).unwrap();
    assert_eq!(q.discount().amount_text(), "9.00");
    assert_eq!(q.payable().amount_text(), "1.00");
    assert!(q.lines().is_none());
}

#[test]
fn usage_is_each_codes_own() {
    let capped = code(
        json!({"code": "CAPPED", "discount": {"kind": "percent", "percent": "10"},
                             "limits": {"total": 3}, "combines_with": ["product"]}),
    );
    let stack = Stack::new(vec![mugs20(), capped]).unwrap();
    let fresh = [UsageCounts::new(100, 0).unwrap(), UsageCounts::new(2, 0).unwrap()];
    assert!(stack.quote(None, &fresh, &basket(), now()).is_ok());
    let spent = [UsageCounts::ZERO, UsageCounts::new(3, 0).unwrap()];
    let refused = stack.quote(None, &spent, &basket(), now()).unwrap_err();
    assert_eq!(refusals(&refused), [("CAPPED".to_owned(), Rejection::Exhausted, None)]);
}

#[test]
fn combines_with_is_read_checked_and_written_back() {
    let promo = save10();
    let written = serde_json::to_value(&promo).unwrap();
    assert_eq!(written["combines_with"], json!(["product", "shipping"]));
    let again: PromoCode = from_json(&written.to_string()).unwrap();
    assert_eq!(again, promo);
    // Without it, the definition is written as before.
    let plain = code(json!({"code": "P", "discount": {"kind": "percent", "percent": "10"}}));
    assert!(serde_json::to_value(&plain).unwrap().get("combines_with").is_none());
    let err = from_json::<PromoCode>(
        &json!({"code": "P", "discount": {"kind": "percent", "percent": "10"}, "combines_with": ["orders"]})
            .to_string(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"combines_with: "orders" is not a class of code: "product", "order" or "shipping""#
    );
    assert!(PromoCode::FIELDS.contains(&"combines_with"));
}

#[test]
fn not_combinable_follows_below_minimum_in_the_order() {
    let all = Rejection::ALL;
    let at = |r| all.iter().position(|x| *x == r).unwrap();
    assert_eq!(at(Rejection::NotCombinable), at(Rejection::BelowMinimum) + 1);
    assert_eq!(Rejection::NotCombinable.code(), "not_combinable");
    assert_eq!(Rejection::from_code("not_combinable"), Some(Rejection::NotCombinable));
}

#[test]
fn each_part_quotes_alone_on_the_basket_it_applied_to() {
    let basket = basket();
    let q = quote(vec![save10(), shipfree(), mugs20()], &basket).unwrap();
    let baskets = q.baskets_applied_to(&basket);
    assert_eq!(baskets.len(), 3);
    assert_eq!(baskets[0], basket);
    for (part, applied) in q.codes().iter().zip(&baskets) {
        let promo = [mugs20(), save10(), shipfree()]
            .into_iter()
            .find(|p| p.code() == part.code())
            .unwrap();
        let alone = promo.quote(None, UsageCounts::ZERO, applied, now()).unwrap();
        assert_eq!(&alone, part.quote(), "{}", part.code());
    }
    assert_eq!(baskets[1].total().amount_text(), "71.40");
    assert_eq!(baskets[2].total().amount_text(), "64.75");
}

#[test]
fn a_pinned_stack_is_changed_when_any_part_or_the_payable_is() {
    let basket = basket();
    let q = quote(vec![save10(), shipfree(), mugs20()], &basket).unwrap();
    let shown: promocodes::ShownStack = from_json(&serde_json::to_string(&q).unwrap()).unwrap();
    assert!(q.changed_from(&shown).is_none());
    let mut parts = shown.parts().to_vec();
    parts[1].1 = promocodes::Money::parse("6.64", promocodes::Currency::EUR).unwrap();
    let changed = q
        .changed_from(&promocodes::ShownStack::new(parts, *shown.payable()))
        .unwrap();
    assert_eq!(
        refusals(&changed),
        [("SAVE10".to_owned(), Rejection::QuoteChanged, None)]
    );
    let cheaper = promocodes::Money::parse("59.84", promocodes::Currency::EUR).unwrap();
    let changed = q
        .changed_from(&promocodes::ShownStack::new(shown.parts().to_vec(), cheaper))
        .unwrap();
    assert_eq!(changed.refusals().len(), 3);
    assert_eq!(
        changed.refusals()[0].message(),
        "the price changed since it was quoted: EUR 59.84 to pay then, EUR 59.85 now"
    );
}
