//! The shared test vectors (`tests/vectors.json`), run natively through the core.
//!
//! `tests/web.rs` runs the same file through the browser module in Chromium;
//! both must give exactly the results written in it.

use promocodes::api::QuoteOptions;
use promocodes::{from_json, Basket, Code, InputError, PromoCode, UsageCounts};
use serde_json::{json, Value};

const VECTORS: &str = include_str!("vectors.json");

fn vectors() -> Value {
    serde_json::from_str(VECTORS).expect("tests/vectors.json is JSON")
}

/// A case's definition: a name in `definitions`, or inline.
fn definition<'a>(vectors: &'a Value, case: &'a Value) -> &'a Value {
    match &case["definition"] {
        Value::String(name) => &vectors["definitions"][name.as_str()],
        inline => inline,
    }
}

/// `"<argument>.<path>: <message>"`, as the browser module throws it.
fn message(argument: &str, err: InputError) -> String {
    err.at(argument).to_string()
}

fn read<T: serde::de::DeserializeOwned>(argument: &str, value: &Value) -> Result<T, String> {
    from_json(&value.to_string()).map_err(|err| message(argument, err))
}

/// What quote() and check() answer for a case, in the browser module's result shape.
fn run(vectors: &Value, case: &Value) -> Result<(Value, Value), String> {
    let promo: PromoCode = read("definition", definition(vectors, case))?;
    let basket: Basket = read("basket", &case["basket"])?;
    let options: QuoteOptions = match case.get("options") {
        None => QuoteOptions::default(),
        Some(options) => read("options", options)?,
    };
    let basket = options.basket(basket);
    let now = options.now.expect("every vector gives `now`");
    let usage = options.usage.unwrap_or(UsageCounts::ZERO);
    let customer = options.customer.as_ref();
    let quoted = match promo.quote(customer, usage, &basket, now) {
        Ok(quote) => json!({"ok": true, "quote": quote}),
        Err(r) => json!({"ok": false, "rejection": r.rejection(), "message": r.message()}),
    };
    let checked = match promo.validate(customer, usage, &basket, now) {
        Ok(()) => json!({"ok": true}),
        Err(r) => json!({"ok": false, "rejection": r.rejection(), "message": r.message()}),
    };
    Ok((quoted, checked))
}

#[test]
fn every_case_quotes_and_checks_as_written() {
    let vectors = vectors();
    let cases = vectors["cases"].as_array().unwrap();
    assert!(cases.len() >= 50, "only {} cases", cases.len());
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let (quoted, checked) = run(&vectors, case).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(quoted, case["expect"], "{name}: quote");
        let mut expect_check = case["expect"].clone();
        expect_check.as_object_mut().unwrap().remove("quote");
        assert_eq!(checked, expect_check, "{name}: check");
    }
}

#[test]
fn the_vectors_cover_every_rejection_currency_and_rule_order() {
    let vectors = vectors();
    let cases = vectors["cases"].as_array().unwrap();
    let rejections: Vec<&str> = cases.iter().filter_map(|c| c["expect"]["rejection"].as_str()).collect();
    // quote_changed is a capture's answer, never a quote's: the Worker tests cover it.
    // not_combinable needs two codes: the stacks cover it.
    for rejection in promocodes::Rejection::ALL.into_iter().filter(|r| {
        !matches!(
            r,
            promocodes::Rejection::QuoteChanged | promocodes::Rejection::NotCombinable
        )
    }) {
        assert!(
            rejections.contains(&rejection.code()),
            "no case for {}",
            rejection.code()
        );
    }
    let currencies: Vec<&str> = cases
        .iter()
        .filter_map(|c| c["basket"]["total"]["currency"].as_str())
        .collect();
    for currency in ["EUR", "USD", "JPY", "KWD"] {
        assert!(currencies.contains(&currency), "no case in {currency}");
    }
    // The STRICT chain walks every rule in the documented order.
    let order: Vec<&str> = cases
        .iter()
        .filter(|c| c["name"].as_str().unwrap().starts_with("order "))
        .filter_map(|c| c["expect"]["rejection"].as_str())
        .collect();
    // A percent code is never short of items, and STRICT is not a first-order code.
    let all: Vec<&str> = promocodes::Rejection::ALL
        .iter()
        .filter(|r| {
            !matches!(
                r,
                promocodes::Rejection::NotEnoughItems | promocodes::Rejection::NotFirstOrder
            )
        })
        .take(11)
        .map(|r| r.code())
        .collect();
    assert_eq!(order, all);
}

#[test]
fn every_code_normalises_or_fails_as_written() {
    let vectors = vectors();
    for case in vectors["codes"].as_array().unwrap() {
        let input = case["input"].as_str().unwrap();
        let got = Code::parse(input)
            .map(|code| code.as_str().to_owned())
            .map_err(|err| message("code", err));
        match (case.get("output"), case.get("error")) {
            (Some(output), None) => assert_eq!(got, Ok(output.as_str().unwrap().to_owned()), "{input:?}"),
            (None, Some(error)) => assert_eq!(got, Err(error.as_str().unwrap().to_owned()), "{input:?}"),
            _ => panic!("{input:?}: a code case has an output or an error"),
        }
    }
}

#[test]
fn every_malformed_case_fails_with_its_message() {
    let vectors = vectors();
    let cases = vectors["malformed"].as_array().unwrap();
    assert!(cases.len() >= 30);
    let mut wrong = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let mut case = case.clone();
        if case.get("options").is_none() {
            case["options"] = json!({"now": "2026-12-02T10:00:00Z"});
        }
        match run(&vectors, &case) {
            Ok(result) => wrong.push(format!("{name}: accepted as {result:?}")),
            Err(error) if error != case["error"].as_str().unwrap() => {
                wrong.push(format!("{name}:\n  got      {error}\n  expected {}", case["error"]))
            }
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What a stack case answers: `{ok, quote}`, `{ok: false, rejections}`, or the bad input's message.
fn run_stack(vectors: &Value, case: &Value) -> Result<Value, String> {
    let mut codes = Vec::new();
    for (i, entry) in case["definitions"].as_array().unwrap().iter().enumerate() {
        let definition = match entry {
            Value::String(name) => &vectors["definitions"][name.as_str()],
            inline => inline,
        };
        codes.push(read::<PromoCode>(&format!("definitions[{i}]"), definition)?);
    }
    let stack = promocodes::Stack::new(codes).map_err(|err| message("definitions", err))?;
    let basket: Basket = read("basket", &case["basket"])?;
    let options: promocodes::api::StackOptions = read("options", &case["options"])?;
    let basket = options.basket(basket);
    let now = options.now.expect("every vector gives `now`");
    Ok(
        match stack.quote(options.customer.as_ref(), options.usage(), &basket, now) {
            Ok(quote) => json!({"ok": true, "quote": quote}),
            Err(refused) => json!({"ok": false, "rejections": refused.refusals()}),
        },
    )
}

#[test]
fn every_stack_quotes_as_written() {
    let vectors = vectors();
    let stacks = vectors["stacks"].as_array().unwrap();
    assert!(stacks.len() >= 8, "only {} stacks", stacks.len());
    for case in stacks {
        let name = case["name"].as_str().unwrap();
        match (run_stack(&vectors, case), case.get("error")) {
            (Ok(answer), None) => assert_eq!(answer, case["expect"], "{name}"),
            (Err(message), Some(error)) => assert_eq!(message, error.as_str().unwrap(), "{name}"),
            (got, _) => panic!("{name}: {got:?}"),
        }
    }
}

#[test]
fn the_stacks_cover_not_combinable_and_the_issues_example() {
    let vectors = vectors();
    let stacks = vectors["stacks"].as_array().unwrap();
    let rejections: Vec<&str> = stacks
        .iter()
        .filter_map(|c| c["expect"]["rejections"].as_array())
        .flatten()
        .filter_map(|r| r["rejection"].as_str())
        .collect();
    assert!(rejections.contains(&"not_combinable"), "{rejections:?}");
    let example = &stacks[0]["expect"]["quote"];
    assert_eq!(example["discount"]["amount"], "16.55");
    assert_eq!(example["payable"]["amount"], "59.85");
}
