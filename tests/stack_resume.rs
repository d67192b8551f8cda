//! A stack retried under its key (issue 32): `Stack::resume` takes each
//! code's recorded use as it is and prices only the others.

use promocodes::{from_json, Basket, PromoCode, Quote, Rejection, Stack, StackResumeError, Timestamp, UsageCounts};
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

/// A product code (20% on mugs), an order code (10%) and a shipping code, all combining;
/// the product code with a budget of `budget` that takes a partial discount.
fn codes(percent: &str, budget: &str) -> Vec<PromoCode> {
    vec![
        code(
            json!({"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"},
                    "combines_with": ["product", "shipping"], "limits": {"total": 1}}),
        ),
        code(json!({"code": "SHIPFREE", "discount": {"kind": "free_shipping"},
                    "combines_with": ["product", "order"]})),
        code(
            json!({"code": "MUGS", "discount": {"kind": "percent", "percent": percent},
                    "applies_to": {"categories": ["mugs"]}, "combines_with": ["order", "shipping"],
                    "limits": {"budget": eur(budget), "when_budget_short": "partial"}}),
        ),
    ]
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

/// Each code's recorded quote, as listed, from a first quote of the stack.
fn recorded(stack: &Stack, first: &promocodes::StackQuote, which: &[&str]) -> Vec<Option<Quote>> {
    stack
        .codes()
        .iter()
        .map(|promo| {
            let part = first.codes().iter().find(|p| p.code() == promo.code()).unwrap();
            which.contains(&promo.code().as_str()).then(|| part.quote().clone())
        })
        .collect()
}

#[test]
fn with_nothing_changed_every_subset_of_recorded_codes_resumes_to_the_quote() {
    let stack = Stack::new(codes("20", "100.00")).unwrap();
    let usage = [UsageCounts::ZERO; 3];
    let first = stack.quote(None, &usage, &basket(), now()).unwrap();
    let names = ["SAVE10", "SHIPFREE", "MUGS"];
    for mask in 0..8_usize {
        let which: Vec<&str> = (0..3).filter(|i| mask & (1 << i) != 0).map(|i| names[i]).collect();
        let resumed = stack
            .resume(None, &usage, &recorded(&stack, &first, &which), &basket(), now())
            .unwrap();
        assert!(resumed.charges_as(&first), "recorded {which:?}");
        assert_eq!(resumed.lines(), first.lines(), "recorded {which:?}");
    }
}

#[test]
fn a_stack_recorded_whole_is_its_records_whatever_changed_since() {
    let stack = Stack::new(codes("20", "8.00")).unwrap();
    let first = stack.quote(None, &[UsageCounts::ZERO; 3], &basket(), now()).unwrap();
    let parts: Vec<String> = first
        .codes()
        .iter()
        .map(|p| format!("{} {}", p.code(), p.discount().amount_text()))
        .collect();
    assert_eq!(parts, ["MUGS 5.00", "SAVE10 6.65", "SHIPFREE 4.90"]);
    // Since: MUGS is edited to 40% and its budget is spent, SAVE10's one use is taken.
    let edited = Stack::new(codes("40", "8.00")).unwrap();
    let spent: UsageCounts = from_json(r#"{"total": 1, "per_customer": 0, "discounted": "8.00"}"#).unwrap();
    let usage = [spent, UsageCounts::ZERO, spent];
    let fresh = edited.quote(None, &usage, &basket(), now()).unwrap_err();
    let refused: Vec<Rejection> = fresh.refusals().iter().map(|r| r.rejection()).collect();
    assert_eq!(refused, [Rejection::BudgetExhausted, Rejection::Exhausted]);
    let all = recorded(&edited, &first, &["SAVE10", "SHIPFREE", "MUGS"]);
    let resumed = edited.resume(None, &usage, &all, &basket(), now()).unwrap();
    assert!(resumed.charges_as(&first));
    assert_eq!(resumed.codes(), first.codes());
}

#[test]
fn a_stack_stopped_half_way_prices_the_rest_on_what_its_records_left() {
    let first = Stack::new(codes("20", "100.00"))
        .unwrap()
        .quote(None, &[UsageCounts::ZERO; 3], &basket(), now())
        .unwrap();
    // MUGS (applied first) was recorded at 20%; it is 40% now, SAVE10 is priced on what 20% left.
    let edited = Stack::new(codes("40", "100.00")).unwrap();
    let half = recorded(&edited, &first, &["MUGS"]);
    let resumed = edited
        .resume(None, &[UsageCounts::ZERO; 3], &half, &basket(), now())
        .unwrap();
    let parts: Vec<String> = resumed
        .codes()
        .iter()
        .map(|p| format!("{} {}", p.code(), p.discount().amount_text()))
        .collect();
    assert_eq!(parts, ["MUGS 5.00", "SAVE10 6.65", "SHIPFREE 4.90"]);
    // A code priced now is still refused by its own rules: SAVE10's one use is taken.
    let taken: UsageCounts = from_json(r#"{"total": 1, "per_customer": 0}"#).unwrap();
    let usage = [taken, UsageCounts::ZERO, UsageCounts::ZERO];
    match edited.resume(None, &usage, &half, &basket(), now()) {
        Err(StackResumeError::Rejected(refused)) => {
            let codes: Vec<&str> = refused.refusals().iter().map(|r| r.code().as_str()).collect();
            assert_eq!(codes, ["SAVE10"]);
        }
        other => panic!("expected SAVE10 refused, got {other:?}"),
    }
}

#[test]
fn a_record_for_another_basket_is_a_reused_key() {
    let stack = Stack::new(codes("20", "100.00")).unwrap();
    let first = stack.quote(None, &[UsageCounts::ZERO; 3], &basket(), now()).unwrap();
    // SAVE10 applies after MUGS: recorded on its own, for the whole basket, it is for another one.
    let alone = Stack::new(vec![codes("20", "100.00").remove(0)]).unwrap();
    let save_alone = alone.quote(None, &[UsageCounts::ZERO], &basket(), now()).unwrap();
    let mut records = recorded(&stack, &first, &["MUGS"]);
    records[0] = Some(save_alone.codes()[0].quote().clone());
    match stack.resume(None, &[UsageCounts::ZERO; 3], &records, &basket(), now()) {
        Err(StackResumeError::KeyReused { code }) => assert_eq!(code.as_str(), "SAVE10"),
        other => panic!("expected a reused key, got {other:?}"),
    }
    // Another basket altogether: the first code's record is not for it.
    let other: Basket = from_json(&json!({"total": eur("30.00")}).to_string()).unwrap();
    let all = recorded(&stack, &first, &["SAVE10", "SHIPFREE", "MUGS"]);
    match stack.resume(None, &[UsageCounts::ZERO; 3], &all, &other, now()) {
        Err(StackResumeError::KeyReused { code }) => assert_eq!(code.as_str(), "MUGS"),
        other => panic!("expected a reused key, got {other:?}"),
    }
}

#[test]
fn a_stack_recorded_whole_replays_after_an_edit_moved_a_code_to_another_class() {
    let stack = Stack::new(codes("20", "100.00")).unwrap();
    let first = stack.quote(None, &[UsageCounts::ZERO; 3], &basket(), now()).unwrap();
    // SAVE10, an order code applied after MUGS, is now a product code (for grinders), applied first.
    let mut edited = codes("20", "100.00");
    edited[0] = code(
        json!({"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"},
                            "applies_to": {"skus": ["GRINDER"]}, "combines_with": ["product", "shipping"]}),
    );
    let edited = Stack::new(edited).unwrap();
    let all = recorded(&edited, &first, &["SAVE10", "SHIPFREE", "MUGS"]);
    let resumed = edited
        .resume(None, &[UsageCounts::ZERO; 3], &all, &basket(), now())
        .unwrap();
    assert!(resumed.charges_as(&first));
    let order: Vec<&str> = resumed.codes().iter().map(|p| p.code().as_str()).collect();
    assert_eq!(order, ["MUGS", "SAVE10", "SHIPFREE"]);
    // Half recorded, the rest is priced in today's order: SAVE10's record is not for the whole basket.
    let half = recorded(&edited, &first, &["SAVE10"]);
    assert!(matches!(
        edited.resume(None, &[UsageCounts::ZERO; 3], &half, &basket(), now()),
        Err(StackResumeError::KeyReused { .. })
    ));
}
