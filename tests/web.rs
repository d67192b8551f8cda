//! The browser module in headless Chromium: the shared vectors, the result
//! shapes, the thrown errors, and that no input makes the module trap.
//!
//! `wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver --mode no-install -- --features wasm --test web`
//! (see `scripts/test-browser.sh`). Natively this file is empty.
#![cfg(all(target_arch = "wasm32", feature = "wasm"))]

use js_sys::{Error, JSON};
use promocodes::wasm::{check, normalize_code, quote, JsBasket, JsDefinition, JsQuoteOptions};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const VECTORS: &str = include_str!("vectors.json");
const NOW: &str = "2026-12-02T10:00:00Z";

fn vectors() -> Value {
    serde_json::from_str(VECTORS).unwrap()
}

/// A Rust JSON value as the JavaScript value a page would pass.
fn js(value: &Value) -> JsValue {
    JSON::parse(&value.to_string()).unwrap()
}

/// A JavaScript expression's value.
fn eval(source: &str) -> JsValue {
    js_sys::eval(source).unwrap_or_else(|e| panic!("{source}: {e:?}"))
}

/// A JavaScript result as JSON, to compare with the vectors.
fn json(value: &JsValue) -> Value {
    let text: String = JSON::stringify(value).unwrap().into();
    serde_json::from_str(&text).unwrap()
}

/// `Object.keys(value)`, joined with commas.
fn keys(value: &JsValue) -> String {
    js_sys::Reflect::set(&js_sys::global(), &"__promocodes_probe".into(), value).unwrap();
    eval("Object.keys(globalThis.__promocodes_probe).join(',')")
        .as_string()
        .unwrap()
}

fn is_plain_object(value: &JsValue) -> bool {
    js_sys::Reflect::set(&js_sys::global(), &"__promocodes_probe".into(), value).unwrap();
    eval("Object.getPrototypeOf(globalThis.__promocodes_probe) === Object.prototype") == JsValue::TRUE
}

fn definition_of<'a>(vectors: &'a Value, case: &'a Value) -> &'a Value {
    match &case["definition"] {
        Value::String(name) => &vectors["definitions"][name.as_str()],
        inline => inline,
    }
}

fn args(
    definition: &Value,
    basket: &Value,
    options: Option<&Value>,
) -> (JsDefinition, JsBasket, Option<JsQuoteOptions>) {
    (
        js(definition).unchecked_into(),
        js(basket).unchecked_into(),
        options.map(|o| js(o).unchecked_into()),
    )
}

fn save10() -> Value {
    serde_json::json!({"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"}})
}

fn eur(amount: &str) -> Value {
    serde_json::json!({"total": {"amount": amount, "currency": "EUR"}})
}

fn at(now: &str) -> Value {
    serde_json::json!({ "now": now })
}

/// The thrown value of a call that must fail: a real `Error`.
fn thrown(result: Result<JsValue, Error>) -> Error {
    let value: JsValue = match result {
        Ok(ok) => panic!("accepted: {}", json(&ok)),
        Err(err) => err.into(),
    };
    assert!(value.is_instance_of::<Error>(), "not an Error: {value:?}");
    value.dyn_into::<Error>().unwrap()
}

fn message(err: &Error) -> String {
    err.message().into()
}

#[wasm_bindgen_test]
fn every_vector_quotes_and_checks_as_natively() {
    let vectors = vectors();
    let cases = vectors["cases"].as_array().unwrap();
    assert!(cases.len() >= 50);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let definition = definition_of(&vectors, case);
        let (d, b, o) = args(definition, &case["basket"], case.get("options"));
        let quoted = quote(d, b, o).unwrap_or_else(|e| panic!("{name}: threw {}", message(&e)));
        assert!(is_plain_object(&quoted), "{name}: not a plain object");
        assert_eq!(json(&quoted), case["expect"], "{name}: quote");

        let (d, b, o) = args(definition, &case["basket"], case.get("options"));
        let checked = check(d, b, o).unwrap_or_else(|e| panic!("{name}: threw {}", message(&e)));
        let mut expect = case["expect"].clone();
        expect.as_object_mut().unwrap().remove("quote");
        assert_eq!(json(&checked), expect, "{name}: check");
    }
}

#[wasm_bindgen_test]
fn every_code_vector_normalises_as_natively() {
    let vectors = vectors();
    for case in vectors["codes"].as_array().unwrap() {
        let input = case["input"].as_str().unwrap();
        let got = normalize_code(JsValue::from_str(input));
        match (case.get("output"), case.get("error")) {
            (Some(output), None) => assert_eq!(got.ok().as_deref(), output.as_str(), "{input:?}"),
            (None, Some(error)) => {
                let err = thrown(got.map(JsValue::from));
                assert_eq!(message(&err), error.as_str().unwrap(), "{input:?}");
                assert_eq!(String::from(err.name()), "PromoInputError");
            }
            _ => panic!("{input:?}: a code case has an output or an error"),
        }
    }
}

#[wasm_bindgen_test]
fn every_malformed_vector_throws_an_error_naming_the_field() {
    let vectors = vectors();
    let cases = vectors["malformed"].as_array().unwrap();
    assert!(cases.len() >= 30);
    let default_options = at(NOW);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let expected = case["error"].as_str().unwrap();
        let options = case.get("options").unwrap_or(&default_options);
        let (d, b, o) = args(definition_of(&vectors, case), &case["basket"], Some(options));
        let err = thrown(quote(d, b, o));
        assert_eq!(message(&err), expected, "{name}");
        assert_eq!(String::from(err.name()), "PromoInputError", "{name}");
        let field = js_sys::Reflect::get(&err, &"field".into())
            .unwrap()
            .as_string()
            .unwrap();
        assert_eq!(format!("{field}: "), expected[..field.len() + 2], "{name}: field");

        let (d, b, o) = args(definition_of(&vectors, case), &case["basket"], Some(options));
        assert_eq!(message(&thrown(check(d, b, o))), expected, "{name}: check");
    }
}

#[wasm_bindgen_test]
fn a_quote_has_exactly_the_documented_shape() {
    let (d, b, o) = args(&save10(), &eur("80.00"), Some(&at(NOW)));
    let r = quote(d, b, o).unwrap();
    assert_eq!(keys(&r), "ok,quote");
    assert_eq!(js_sys::Reflect::get(&r, &"ok".into()).unwrap(), JsValue::TRUE);
    let q = js_sys::Reflect::get(&r, &"quote".into()).unwrap();
    assert!(is_plain_object(&q));
    assert_eq!(keys(&q), "code,total,discount,payable,quoted_at");
    let discount = js_sys::Reflect::get(&q, &"discount".into()).unwrap();
    assert_eq!(keys(&discount), "amount,currency");
    // Amounts stay strings: never a float.
    assert_eq!(
        js_sys::Reflect::get(&discount, &"amount".into())
            .unwrap()
            .as_string()
            .as_deref(),
        Some("8.00")
    );
}

#[wasm_bindgen_test]
fn a_rejection_is_a_result_not_an_exception() {
    let minimum = serde_json::json!({"code": "MIN50", "discount": {"kind": "percent", "percent": "10"},
        "minimum": {"amount": "50.00", "currency": "EUR"}});
    let (d, b, o) = args(&minimum, &eur("20.00"), Some(&at(NOW)));
    let r = quote(d, b, o).unwrap();
    assert_eq!(keys(&r), "ok,rejection,message");
    assert_eq!(js_sys::Reflect::get(&r, &"ok".into()).unwrap(), JsValue::FALSE);
    assert_eq!(
        json(&r),
        serde_json::json!({"ok": false, "rejection": "below_minimum",
            "message": "this code needs a basket of at least EUR 50.00"})
    );

    let (d, b, o) = args(&minimum, &eur("80.00"), Some(&at(NOW)));
    let r = check(d, b, o).unwrap();
    assert_eq!(keys(&r), "ok");
    assert_eq!(js_sys::Reflect::get(&r, &"ok".into()).unwrap(), JsValue::TRUE);
}

#[wasm_bindgen_test]
fn without_a_time_the_browser_clock_decides() {
    let ended = serde_json::json!({"code": "OLD", "discount": {"kind": "percent", "percent": "10"},
        "ends_at": "2001-01-01T00:00:00Z"});
    let future = serde_json::json!({"code": "LATER", "discount": {"kind": "percent", "percent": "10"},
        "starts_at": "9000-01-01T00:00:00Z"});
    let (d, b, _) = args(&ended, &eur("10.00"), None);
    assert_eq!(json(&check(d, b, None).unwrap())["rejection"], "expired");
    let (d, b, _) = args(&future, &eur("10.00"), None);
    assert_eq!(json(&check(d, b, None).unwrap())["rejection"], "not_started");
    // Options without `now` also use the clock, and the quote says when it was made.
    let (d, b, o) = args(
        &save10(),
        &eur("10.00"),
        Some(&serde_json::json!({"customer": "alice"})),
    );
    let r = json(&quote(d, b, o).unwrap());
    let quoted_at: promocodes::Timestamp = r["quote"]["quoted_at"].as_str().unwrap().parse().unwrap();
    assert!(quoted_at > "2026-01-01T00:00:00Z".parse().unwrap());
    // `null` options and fields are the same as none.
    let (d, b, o) = args(
        &ended,
        &eur("10.00"),
        Some(&serde_json::json!({"now": null, "customer": null})),
    );
    assert_eq!(json(&check(d, b, o).unwrap())["rejection"], "expired");
}

#[wasm_bindgen_test]
fn an_argument_that_is_not_an_object_is_named() {
    for (source, kind) in [
        ("null", "null"),
        ("undefined", "undefined"),
        ("5", "a number"),
        ("'SAVE10'", "a string"),
        ("true", "a boolean"),
        ("[]", "an array"),
        ("(() => 1)", "a function"),
        ("Symbol('x')", "a symbol"),
        ("10n", "a bigint"),
    ] {
        let bad = eval(source);
        let (_, b, o) = args(&save10(), &eur("1.00"), Some(&at(NOW)));
        let err = thrown(quote(bad.clone().unchecked_into(), b, o));
        assert_eq!(
            message(&err),
            format!("definition: expected an object, got {kind}"),
            "{source}"
        );
        let (d, _, o) = args(&save10(), &eur("1.00"), Some(&at(NOW)));
        let err = thrown(quote(d, bad.clone().unchecked_into(), o));
        assert_eq!(
            message(&err),
            format!("basket: expected an object, got {kind}"),
            "{source}"
        );
        let (d, b, _) = args(&save10(), &eur("1.00"), None);
        let err = thrown(check(d, b, Some(bad.clone().unchecked_into())));
        assert_eq!(
            message(&err),
            format!("options: expected an object, got {kind}"),
            "{source}"
        );
        if source != "'SAVE10'" {
            let err = thrown(normalize_code(bad).map(JsValue::from));
            assert_eq!(
                message(&err),
                format!("code: expected a string, got {kind}"),
                "{source}"
            );
        }
    }
}

/// Values built to break a parser: each must be an answer or a thrown `Error`, never a trap.
const HOSTILE: &[&str] = &[
    "null",
    "undefined",
    "NaN",
    "-0",
    "Infinity",
    "1e308",
    "2n ** 70n",
    "Symbol.iterator",
    "(function () {})",
    "new Date(NaN)",
    "new Map([['total', 1]])",
    "new Uint8Array(16)",
    "Object.create(null)",
    "(() => { const o = {}; o.self = o; return o; })()",
    "({ toJSON() { throw new Error('boom'); } })",
    "({ get total() { throw new RangeError('getter'); } })",
    "new Proxy({}, { ownKeys() { throw new Error('trap'); } })",
    "({ total: { amount: '9'.repeat(5000), currency: 'EUR' } })",
    "({ total: { amount: '1'.repeat(2000000), currency: 'EUR' } })",
    "({ total: { amount: '80.00', currency: 'E'.repeat(2000000) } })",
    "({ total: { amount: '\\ud800', currency: '\\udfff' } })",
    "({ total: { amount: '1e3', currency: 'EUR' } })",
    "({ total: { amount: '79228162514264337593543950335', currency: 'EUR' } })",
    "({ total: { amount: '0.0000000000000000000000000001', currency: 'EUR' } })",
    "({ total: { amount: '-0', currency: 'EUR' } })",
    "({ total: JSON.parse('['.repeat(200) + ']'.repeat(200)) })",
    "(() => { let v = []; for (let i = 0; i < 100000; i++) v = [v]; return { total: v }; })()",
    "({ code: 'X'.repeat(1000000), discount: { kind: 'percent', percent: '10' } })",
    "({ code: 'X', discount: { kind: 'percent', percent: '100.00001' } })",
    "({ code: 'X', discount: { kind: 'percent', percent: '1'.repeat(39) } })",
    "({ code: 'X', discount: { kind: 'fixed', amount: { amount: '1000000000000000', currency: 'JPY' } } })",
    "({ code: 'X', discount: { kind: 'percent', percent: '10' }, limits: { total: 2 ** 64, per_customer: 1e300 } })",
    "({ code: 'X', discount: { kind: 'percent', percent: '10' }, limits: { total: 9007199254740993 } })",
    "({ code: 'X', discount: { kind: 'percent', percent: '10' }, starts_at: '-262144-01-01T00:00:00Z' })",
    "({ code: 'X', discount: { kind: 'percent', percent: '10' }, ends_at: '+275760-09-13T00:00:00Z' })",
    "({ code: 'X', discount: { kind: 'percent', percent: '10' }, audience: Array(50000).fill('a') })",
    "({ customer: 'a'.repeat(300), usage: { total: 1.5, per_customer: -1 }, now: '2026-12-02T10:00:00.123456789Z' })",
    "({ usage: { total: 18446744073709551615, per_customer: 18446744073709551615 } })",
    "({ now: '9999-12-31T23:59:59Z' })",
    "({ now: '0000-01-01T00:00:00Z' })",
    "({ customer: '\\u0000' })",
];

#[wasm_bindgen_test]
fn no_input_makes_the_module_trap() {
    let ok_def = || js(&save10());
    let ok_basket = || js(&eur("80.00"));
    let ok_options = || js(&at(NOW));
    let answered = |r: Result<JsValue, Error>| match r {
        Ok(v) => assert!(v.is_object()),
        Err(e) => assert!(JsValue::from(e).is_instance_of::<Error>()),
    };
    for source in HOSTILE {
        let bad = eval(source);
        answered(quote(bad.clone().unchecked_into(), ok_basket().unchecked_into(), None));
        answered(quote(ok_def().unchecked_into(), bad.clone().unchecked_into(), None));
        answered(quote(
            ok_def().unchecked_into(),
            ok_basket().unchecked_into(),
            Some(bad.clone().unchecked_into()),
        ));
        answered(check(
            bad.clone().unchecked_into(),
            bad.clone().unchecked_into(),
            Some(bad.clone().unchecked_into()),
        ));
        answered(normalize_code(bad).map(JsValue::from));
    }
    // Huge strings everywhere a string goes.
    let huge = eval("'a'.repeat(3000000)");
    answered(normalize_code(huge.clone()).map(JsValue::from));
    let huge_code = eval("' '.repeat(3000000) + 'x'");
    assert!(message(&thrown(normalize_code(huge_code).map(JsValue::from))).starts_with("code: is 3000001 characters"));
    // The module still answers normally afterwards.
    let r = quote(
        ok_def().unchecked_into(),
        ok_basket().unchecked_into(),
        Some(ok_options().unchecked_into()),
    );
    assert_eq!(json(&r.unwrap())["quote"]["payable"]["amount"], "72.00");
}

#[wasm_bindgen_test]
fn oversized_and_unserialisable_input_is_refused_by_name() {
    let cyclic = eval("(() => { const o = { total: {} }; o.total.self = o; return o; })()");
    let (d, _, o) = args(&save10(), &eur("1.00"), Some(&at(NOW)));
    assert_eq!(
        message(&thrown(quote(d, cyclic.unchecked_into(), o))),
        "basket: is not JSON data (a cycle, a BigInt, or a toJSON that throws)"
    );
    let big = eval("({ total: { amount: '1'.repeat(2000000), currency: 'EUR' } })");
    let (d, _, o) = args(&save10(), &eur("1.00"), Some(&at(NOW)));
    let m = message(&thrown(quote(d, big.unchecked_into(), o)));
    assert!(
        m.starts_with("basket: is 2000040 characters of JSON; the most is"),
        "{m}"
    );
    let deep = eval("(() => { let v = []; for (let i = 0; i < 1000; i++) v = [v]; return { total: v }; })()");
    let (d, _, o) = args(&save10(), &eur("1.00"), Some(&at(NOW)));
    let m = message(&thrown(quote(d, deep.unchecked_into(), o)));
    assert!(m.starts_with("basket.total"), "{m}");
}

#[wasm_bindgen_test]
fn a_parsed_code_quotes_lines_as_the_one_shot_function_does() {
    use promocodes::wasm::PromoHandle;
    let vectors = vectors();
    let mut lines_cases = 0;
    for case in vectors["cases"].as_array().unwrap() {
        let definition = definition_of(&vectors, case);
        let (d, b, o) = args(definition, &case["basket"], case.get("options"));
        let promo = PromoHandle::parse(d).unwrap_or_else(|e| panic!("{}: {}", case["name"], message(&e)));
        let quoted = promo.quote(b, o).unwrap();
        assert_eq!(json(&quoted), case["expect"], "{}", case["name"]);
        if case["basket"].get("lines").is_some() {
            lines_cases += 1;
        }
    }
    assert!(lines_cases >= 10, "the vectors have baskets with lines");
}
