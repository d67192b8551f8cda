//! The browser module in headless Chromium: the shared vectors, the result
//! shapes, the thrown errors, and that no input makes the module trap.
//!
//! `wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver --mode no-install -- --features wasm --test web`
//! (see `scripts/test-browser.sh`). Natively this file is empty.
#![cfg(all(target_arch = "wasm32", feature = "wasm"))]

use js_sys::{Error, JSON};
use promocodes::api::QuoteOptions;
use promocodes::wasm::{
    check, definition_fields, hold_ttl_bounds, is_basket_rejection, minor_units, normalize_code, quote, JsBasket,
    JsDefinition, JsQuoteOptions, PromoHandle,
};
use promocodes::{
    from_json, Basket, Code, Currency, InputError, PromoCode, Quote, Rejection, DEFAULT_HOLD_TTL_SECONDS,
    MAX_HOLD_TTL_SECONDS, MIN_HOLD_TTL_SECONDS,
};
use serde::Serialize;
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

/// The answer as the server would write it (serde, the core's shapes): the
/// referee for the exact JSON text of an answer, key order included.
#[derive(Serialize)]
struct Outcome<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    quote: Option<&'a Quote>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rejection: Option<Rejection>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
}

/// The JSON text of the core's answer to a case, for `quote` or for `check`.
fn servers_text(definition: &Value, basket: &Value, options: &Value, only_check: bool) -> String {
    let promo = PromoCode::from_json(&definition.to_string()).unwrap();
    let basket = Basket::from_json(&basket.to_string()).unwrap();
    let options: QuoteOptions = from_json(&options.to_string()).unwrap();
    let basket = options.basket(basket);
    let usage = options.usage.unwrap_or_default();
    let now = options.now.unwrap();
    let answer = match only_check {
        false => promo.quote(options.customer.as_ref(), usage, &basket, now).map(Some),
        true => promo
            .validate(options.customer.as_ref(), usage, &basket, now)
            .map(|()| None),
    };
    let outcome = match &answer {
        Ok(quote) => Outcome {
            ok: true,
            quote: quote.as_ref(),
            rejection: None,
            message: None,
        },
        Err(refused) => Outcome {
            ok: false,
            quote: None,
            rejection: Some(refused.rejection()),
            message: Some(refused.message()),
        },
    };
    serde_json::to_string(&outcome).unwrap()
}

/// A value's JSON text, as the page would see it.
fn text_of(value: &JsValue) -> String {
    JSON::stringify(value).unwrap().into()
}

/// The same data with every object an instance of a class: the module's fast
/// road for plain data does not take it, so it is read from its JSON text.
fn by_json(value: &JsValue) -> JsValue {
    let convert = eval(
        "(function convert(v) { class Data {} \
           if (Array.isArray(v)) return v.map(convert); \
           if (v && typeof v === 'object') { const o = new Data(); \
             for (const k of Object.keys(v)) o[k] = convert(v[k]); return o; } \
           return v; })",
    );
    let convert: js_sys::Function = convert.unchecked_into();
    convert.call1(&JsValue::NULL, value).unwrap()
}

/// A way to hand the module a value: as it is, or otherwise.
type Road = (&'static str, fn(&JsValue) -> JsValue);

/// The two ways a page's argument is read: plain data, and anything else.
const ROADS: [Road; 2] = [("plain", |v| v.clone()), ("by JSON", by_json)];

#[wasm_bindgen_test]
fn every_vector_answers_the_servers_json_on_both_roads() {
    let vectors = vectors();
    for case in vectors["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let definition = definition_of(&vectors, case);
        let expect_quote = servers_text(definition, &case["basket"], &case["options"], false);
        let expect_check = servers_text(definition, &case["basket"], &case["options"], true);
        let promo = PromoHandle::parse(js(definition).unchecked_into()).unwrap();
        for (road, data) in ROADS {
            let basket = || data(&js(&case["basket"])).unchecked_into::<JsBasket>();
            let options = || Some(data(&js(&case["options"])).unchecked_into::<JsQuoteOptions>());
            let quoted = promo.quote(basket(), options()).unwrap();
            assert!(is_plain_object(&quoted), "{name} ({road}): not a plain object");
            assert_eq!(text_of(&quoted), expect_quote, "{name} ({road}): handle quote");
            assert_eq!(
                text_of(&promo.check(basket(), options()).unwrap()),
                expect_check,
                "{name} ({road}): handle check"
            );
            let one_shot = quote(js(definition).unchecked_into(), basket(), options()).unwrap();
            assert_eq!(text_of(&one_shot), expect_quote, "{name} ({road}): quote");
            let one_shot = check(js(definition).unchecked_into(), basket(), options()).unwrap();
            assert_eq!(text_of(&one_shot), expect_check, "{name} ({road}): check");
        }
    }
}

/// The message of what `call` threw, after checking that it is a `PromoInputError` naming its field.
fn refusal(call: Result<JsValue, Error>, name: &str) -> String {
    let err = thrown(call);
    let text = message(&err);
    assert_eq!(String::from(err.name()), "PromoInputError", "{name}");
    let field = js_sys::Reflect::get(&err, &"field".into())
        .unwrap()
        .as_string()
        .unwrap();
    assert!(
        text.starts_with(&format!("{field}: ")),
        "{name}: field {field:?} of {text:?}"
    );
    text
}

#[wasm_bindgen_test]
fn every_malformed_vector_is_refused_alike_by_a_parsed_code_on_both_roads() {
    let vectors = vectors();
    let default_options = at(NOW);
    for case in vectors["malformed"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let expected = case["error"].as_str().unwrap();
        let definition = definition_of(&vectors, case);
        let options = case.get("options").unwrap_or(&default_options);
        for (road, data) in ROADS {
            let parsed = PromoHandle::parse(data(&js(definition)).unchecked_into());
            if expected.starts_with("definition") {
                let got = refusal(parsed.map(JsValue::from), name);
                assert_eq!(got, expected, "{name} ({road}): parse");
                continue;
            }
            let promo = parsed.unwrap_or_else(|e| panic!("{name}: {}", message(&e)));
            let basket = || data(&js(&case["basket"])).unchecked_into::<JsBasket>();
            let options = || Some(data(&js(options)).unchecked_into::<JsQuoteOptions>());
            assert_eq!(
                refusal(promo.quote(basket(), options()), name),
                expected,
                "{name} ({road}): quote"
            );
            assert_eq!(
                refusal(promo.check(basket(), options()), name),
                expected,
                "{name} ({road}): check"
            );
            let one_shot = quote(js(definition).unchecked_into(), basket(), options());
            assert_eq!(refusal(one_shot, name), expected, "{name} ({road}): one-shot quote");
        }
    }
}

/// What a call answered, as text: the answer's JSON, or the thrown message.
fn answer_text(call: Result<JsValue, Error>) -> String {
    match call {
        Ok(answer) => text_of(&answer),
        Err(err) => format!("threw {}", message(&err)),
    }
}

/// JavaScript values whose JSON text is not a plain copy of them: the answer
/// must be the one for their JSON text, whichever road the module takes.
const JAVASCRIPT_BASKETS: &[&str] = &[
    "({ total: { amount: '80.00', currency: 'EUR' } })",
    "Object.assign(Object.create(null), { total: { amount: '80.00', currency: 'EUR' } })",
    "({ total: { amount: '80.00', currency: 'EUR' }, lines: undefined, shipping: null })",
    "({ total: { amount: '80.00', currency: 'EUR' }, lines() { return 1; } })",
    "({ total: { amount: new String('80.00'), currency: 'EUR' } })",
    "({ total: { amount: '80.00', currency: 'EUR', [Symbol('x')]: 1 } })",
    "({ toJSON() { return { total: { amount: '80.00', currency: 'EUR' } }; } })",
    "({ total: { amount: '80.00', currency: 'EUR', toJSON: 5 } })",
    "({ get total() { return { amount: '80.00', currency: 'EUR' }; } })",
    "Object.defineProperty({ total: { amount: '80.00', currency: 'EUR' } }, 'x', { value: 1, enumerable: false })",
    "({ total: { amount: '80.00', currency: 'EUR\\ud800' } })",
    "({ total: { amount: '80.00', currency: 'EUR\\u0001' } })",
    "({ total: { amount: '80.0\\u0001', currency: 'EUR' } })",
    "({ total: { currency: 'EUR', amount: '80.00' } })",
    "({ lines: [{ sku: 'MUG', quantity: 2, unit_price: { amount: '12.50', currency: 'EUR' }, categories: ['mugs'] }] })",
    "({ lines: [{ sku: 'MUG', quantity: 2.0, unit_price: { amount: '12.50', currency: 'EUR' } }] })",
    "({ lines: [{ sku: 'MUG', quantity: -0, unit_price: { amount: '12.50', currency: 'EUR' } }] })",
    "({ lines: [{ sku: 'MUG', quantity: 1e21, unit_price: { amount: '12.50', currency: 'EUR' } }] })",
    "({ lines: [{ sku: 'MUG', quantity: 2 ** 53, unit_price: { amount: '12.50', currency: 'EUR' } }] })",
    "({ lines: [{ sku: 'MUG', quantity: 2, unit_price: { amount: '12.50', currency: 'EUR' }, categories: [undefined] }] })",
    "({ lines: [{ sku: 'MUG', quantity: 2, unit_price: { amount: '12.50', currency: 'EUR' }, categories: null }] })",
    "({ lines: Object.assign([{ sku: 'MUG', quantity: 2, unit_price: { amount: '12.50', currency: 'EUR' } }], { x: 1 }) })",
    "({ lines: [, { sku: 'MUG', quantity: 2, unit_price: { amount: '12.50', currency: 'EUR' } }] })",
    "({ lines: [{ sku: 'M\\ud83d\\ude00', quantity: 2, unit_price: { amount: '12.50', currency: 'EUR' } }] })",
    "({ lines: new Proxy([{ sku: 'MUG', quantity: 2, unit_price: { amount: '12.50', currency: 'EUR' } }], {}) })",
    "new Proxy({ total: { amount: '80.00', currency: 'EUR' } }, {})",
    "({ lines: [{ sku: 'MUG', quantity: 2, unit_price: { amount: '1.00', currency: 'EUR' } }], shipping: { amount: '4.90', currency: 'EUR' } })",
];

const JAVASCRIPT_OPTIONS: &[&str] = &[
    "({ now: '2026-12-02T10:00:00Z' })",
    "({ now: new Date('2026-12-02T10:00:00Z') })",
    "({ now: '2026-12-02T10:00:00Z', customer: 'alice', usage: { total: 3, per_customer: 1 } })",
    "({ now: '2026-12-02T10:00:00Z', customer: undefined, usage: null })",
    "({ now: '2026-12-02T10:00:00Z', usage: { total: 1.5, per_customer: 0 } })",
    "({ now: '2026-12-02T10:00:00Z', usage: { total: 2 ** 60, per_customer: 0 } })",
    "({ now: '2026-12-02T10:00:00Z', customer: ' bob ' })",
    "({ now: '2026-12-02T10:00:00Z', customer: 'al\\u0001ce' })",
    "Object.assign(Object.create({ customer: 'mallory' }), { now: '2026-12-02T10:00:00Z' })",
    "({ now: '2026-12-02T10:00:00Z', customer: 'd\\u00f6rte \\u4e2d\\u6587 \\ud83d\\ude00' })",
    "({ now: '2026-12-02T10:00:00Z', customer: 'alice\\ud83d' })",
    "({ now: '2026-12-02T10:00:00Z', customer: '\\ude00alice' })",
    "({ now: '2026-12-02T10:00:00Z', customer: ' '.repeat(200000) + 'a' })",
];

#[wasm_bindgen_test]
fn the_plain_road_answers_as_the_json_text_of_any_javascript_value() {
    let promo = PromoHandle::parse(js(&save10()).unchecked_into()).unwrap();
    for basket_source in JAVASCRIPT_BASKETS {
        for options_source in JAVASCRIPT_OPTIONS {
            let (basket, options) = (eval(basket_source), eval(options_source));
            // The referee: the arguments' JSON text, read as such (not plain data).
            let canonical = |v: &JsValue| by_json(&JSON::parse(&text_of(v)).unwrap());
            let expected = answer_text(promo.quote(
                canonical(&basket).unchecked_into(),
                Some(canonical(&options).unchecked_into()),
            ));
            let got = answer_text(promo.quote(basket.clone().unchecked_into(), Some(options.clone().unchecked_into())));
            assert_eq!(got, expected, "{basket_source} with {options_source}");
        }
    }
    // Properties inherited from a polluted Object.prototype are not the page's data.
    let lines = serde_json::json!({"lines": [{"sku": "MUG", "quantity": 2,
        "unit_price": {"amount": "12.50", "currency": "EUR"}}]});
    let answers = || {
        [eur("80.00"), lines.clone()]
            .iter()
            .map(|basket| answer_text(promo.quote(js(basket).unchecked_into(), Some(js(&at(NOW)).unchecked_into()))))
            .collect::<Vec<_>>()
    };
    eval("Object.prototype.shipping = { amount: '4.90', currency: 'EUR' }; Object.prototype.customer = 'x'");
    let polluted = answers();
    eval("delete Object.prototype.shipping; delete Object.prototype.customer");
    let clean = answers();
    assert_eq!(polluted, clean);
    assert!(clean[0].contains("\"payable\":{\"amount\":\"72.00\""), "{clean:?}");
    assert!(!clean[1].contains("shipping"), "{clean:?}");
}

#[wasm_bindgen_test]
fn no_input_makes_a_parsed_code_trap() {
    let promo = PromoHandle::parse(js(&save10()).unchecked_into()).unwrap();
    let answered = |r: Result<JsValue, Error>| match r {
        Ok(v) => assert!(v.is_object()),
        Err(e) => assert!(JsValue::from(e).is_instance_of::<Error>()),
    };
    for source in HOSTILE {
        let bad = eval(source);
        answered(promo.quote(bad.clone().unchecked_into(), None));
        answered(promo.quote(js(&eur("80.00")).unchecked_into(), Some(bad.clone().unchecked_into())));
        answered(promo.check(bad.clone().unchecked_into(), Some(bad.clone().unchecked_into())));
        answered(PromoHandle::parse(bad.unchecked_into()).map(JsValue::from));
    }
    let r = promo.quote(js(&eur("80.00")).unchecked_into(), Some(js(&at(NOW)).unchecked_into()));
    assert_eq!(json(&r.unwrap())["quote"]["payable"]["amount"], "72.00");
}

/// `error.problem` of a thrown `PromoInputError`, as JSON (`null` when it has none).
fn problem(err: &Error) -> Value {
    let problem = js_sys::Reflect::get(err, &"problem".into()).unwrap();
    if problem.is_undefined() {
        Value::Null
    } else {
        json(&problem)
    }
}

#[wasm_bindgen_test]
fn a_malformed_code_says_what_the_cores_error_says() {
    let vectors = vectors();
    let mut inputs: Vec<String> = vectors["codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| case["input"].as_str().unwrap().to_owned())
        .collect();
    inputs.extend(["AB\u{1F600}C", "A\u{1}", " sa ve", "\u{85}", &"A".repeat(100)].map(String::from));
    for input in inputs {
        let Err(native) = Code::parse(&input) else { continue };
        let expect = match native {
            InputError::EmptyCode => serde_json::json!({"kind": "empty_code"}),
            InputError::CodeTooLong { length, max } => {
                serde_json::json!({"kind": "code_too_long", "length": length, "max": max})
            }
            InputError::CodeCharacter { character, position } => {
                serde_json::json!({"kind": "code_character", "character": character.to_string(), "position": position})
            }
            other => panic!("{input:?}: {other:?}"),
        };
        let err = thrown(normalize_code(JsValue::from_str(&input)).map(JsValue::from));
        assert_eq!(problem(&err), expect, "{input:?}");
        let mut definition = save10();
        definition["code"] = Value::String(input.clone());
        let err = thrown(PromoHandle::parse(js(&definition).unchecked_into()).map(|_| JsValue::NULL));
        assert_eq!(problem(&err), expect, "definition {input:?}");
    }
    // Any other refusal has no problem.
    let (d, b, o) = args(&save10(), &eur("8x"), Some(&at(NOW)));
    assert_eq!(problem(&thrown(quote(d, b, o))), Value::Null);
    assert_eq!(
        problem(&thrown(normalize_code(JsValue::from(5)).map(JsValue::from))),
        Value::Null
    );
}

#[wasm_bindgen_test]
fn the_module_answers_what_the_core_knows() {
    assert_eq!(
        json(&hold_ttl_bounds()),
        serde_json::json!({"min": MIN_HOLD_TTL_SECONDS, "max": MAX_HOLD_TTL_SECONDS, "default": DEFAULT_HOLD_TTL_SECONDS})
    );
    for currency in Currency::all() {
        assert_eq!(
            minor_units(currency.code().into()),
            Some(currency.minor_units()),
            "{currency:?}"
        );
    }
    for other in [
        JsValue::from_str("eur"),
        JsValue::from_str("XYZ"),
        JsValue::from(2),
        JsValue::NULL,
    ] {
        assert_eq!(minor_units(other.clone()), None, "{other:?}");
    }
    for rejection in Rejection::ALL {
        assert_eq!(
            is_basket_rejection(rejection.code().into()),
            rejection.is_about_the_basket()
        );
    }
    for other in [
        JsValue::from_str("BELOW_MINIMUM"),
        JsValue::from_str(""),
        JsValue::UNDEFINED,
        JsValue::from(1),
    ] {
        assert!(!is_basket_rejection(other.clone()), "{other:?}");
    }
    assert_eq!(json(&definition_fields()), serde_json::json!(PromoCode::FIELDS));
}

/// A stack's answer as the server would write it (serde, the core's shapes), key order included.
#[derive(Serialize)]
struct StackOutcome<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    quote: Option<&'a promocodes::StackQuote>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rejections: Option<&'a [promocodes::StackRefusal]>,
}

#[wasm_bindgen_test]
fn every_stack_vector_quotes_as_natively_in_the_same_text() {
    use promocodes::wasm::StackHandle;
    let vectors = vectors();
    let stacks = vectors["stacks"].as_array().unwrap();
    assert!(stacks.len() >= 8);
    for case in stacks {
        let name = case["name"].as_str().unwrap();
        let definitions: Vec<Value> = case["definitions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| match d {
                Value::String(n) => vectors["definitions"][n.as_str()].clone(),
                inline => inline.clone(),
            })
            .collect();
        let parsed = StackHandle::parse(js(&Value::Array(definitions.clone())).unchecked_into(), None);
        let stack = match (parsed, case.get("error")) {
            (Ok(stack), None) => stack,
            (Err(err), Some(error)) => {
                assert_eq!(message(&err), error.as_str().unwrap(), "{name}");
                continue;
            }
            (Ok(_), Some(_)) => panic!("{name}: accepted"),
            (Err(err), None) => panic!("{name}: {}", message(&err)),
        };
        let answer = stack
            .quote(
                js(&case["basket"]).unchecked_into(),
                Some(js(&case["options"]).unchecked_into()),
            )
            .unwrap_or_else(|e| panic!("{name}: {}", message(&e)));
        assert_eq!(json(&answer), case["expect"], "{name}");
        // The exact text, key order included, is the server's.
        let codes: Vec<PromoCode> = definitions.iter().map(|d| from_json(&d.to_string()).unwrap()).collect();
        let native = promocodes::Stack::new(codes).unwrap();
        let options: promocodes::api::StackOptions = from_json(&case["options"].to_string()).unwrap();
        let basket: Basket = from_json(&case["basket"].to_string()).unwrap();
        let expected = match native.quote(None, options.usage(), &basket, options.now.unwrap()) {
            Ok(q) => serde_json::to_string(&StackOutcome {
                ok: true,
                quote: Some(&q),
                rejections: None,
            }),
            Err(r) => serde_json::to_string(&StackOutcome {
                ok: false,
                quote: None,
                rejections: Some(r.refusals()),
            }),
        }
        .unwrap();
        let text: String = JSON::stringify(&answer).unwrap().into();
        assert_eq!(text, expected, "{name}");
    }
}

#[wasm_bindgen_test]
fn a_stack_that_is_not_a_list_or_too_long_is_refused_by_name() {
    use promocodes::wasm::StackHandle;
    let err = thrown(StackHandle::parse(js(&save10()).unchecked_into(), None).map(|_| JsValue::NULL));
    assert_eq!(message(&err), "definitions: expected an array, got an object");
    let seven: Vec<Value> = (0..7)
        .map(|i| serde_json::json!({"code": format!("O{i}"), "discount": {"kind": "percent", "percent": "1"}}))
        .collect();
    let err = thrown(StackHandle::parse(js(&Value::Array(seven)).unchecked_into(), None).map(|_| JsValue::NULL));
    assert_eq!(message(&err), "definitions: codes may have at most 5 entries, not 7");
    let err =
        thrown(StackHandle::parse(js(&serde_json::json!([save10(), 7])).unchecked_into(), None).map(|_| JsValue::NULL));
    assert_eq!(message(&err), "definitions[1]: expected an object, got a number");
}

/// Automatic promotions as `GET /v1/automatic` serves them (fields filtered as the page does):
/// the module decides which join as the core does, in the same text, key order included.
#[wasm_bindgen_test]
fn a_stack_with_automatic_promotions_quotes_as_natively_in_the_same_text() {
    use promocodes::wasm::StackHandle;
    let save10 = serde_json::json!({"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"},
        "combines_with": ["product", "shipping"]});
    let automatic = serde_json::json!([
        {"code": "AUTO10", "discount": {"kind": "percent", "percent": "10"}, "automatic": true, "priority": 20,
         "combines_with": ["shipping"]},
        {"code": "MUGS10", "discount": {"kind": "percent", "percent": "10"}, "automatic": true, "priority": 30,
         "applies_to": {"categories": ["mugs"]}, "combines_with": ["order", "shipping"]},
        {"code": "SHIP50", "discount": {"kind": "free_shipping"}, "automatic": true, "priority": 10,
         "minimum": {"amount": "50.00", "currency": "EUR"}, "combines_with": ["product", "order"]},
    ]);
    let basket = serde_json::json!({"lines": [
        {"sku": "MUG", "quantity": 2, "unit_price": {"amount": "12.50", "currency": "EUR"}, "categories": ["mugs"]},
        {"sku": "GRINDER", "quantity": 1, "unit_price": {"amount": "46.50", "currency": "EUR"}}],
        "shipping": {"amount": "4.90", "currency": "EUR"}});
    let small = serde_json::json!({"lines": [
        {"sku": "GRINDER", "quantity": 1, "unit_price": {"amount": "30.00", "currency": "EUR"}}],
        "shipping": {"amount": "4.90", "currency": "EUR"}});
    let options = serde_json::json!({"now": "2026-12-02T10:00:00Z"});
    let offered: Vec<PromoCode> = automatic
        .as_array()
        .unwrap()
        .iter()
        .map(|d| from_json(&d.to_string()).unwrap())
        .collect();
    for (typed, basket, parts, skipped) in [
        (
            vec![save10.clone()],
            &basket,
            vec!["MUGS10", "SAVE10", "SHIP50"],
            vec!["AUTO10"],
        ),
        (vec![], &basket, vec!["AUTO10", "SHIP50"], vec!["MUGS10"]),
        (vec![], &small, vec!["AUTO10"], vec!["SHIP50", "MUGS10"]),
    ] {
        let stack = StackHandle::parse(
            js(&Value::Array(typed.clone())).unchecked_into(),
            Some(js(&automatic).unchecked_into()),
        )
        .unwrap_or_else(|e| panic!("{}", message(&e)));
        let answer = stack
            .quote(js(basket).unchecked_into(), Some(js(&options).unchecked_into()))
            .unwrap_or_else(|e| panic!("{}", message(&e)));
        let got = json(&answer);
        let codes: Vec<&str> = got["quote"]["codes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes, parts);
        let left: Vec<&str> = got["quote"]["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["code"].as_str().unwrap())
            .collect();
        assert_eq!(left, skipped);
        let native = promocodes::Stack::with_automatic(
            typed.iter().map(|d| from_json(&d.to_string()).unwrap()).collect(),
            offered.clone(),
        )
        .unwrap();
        let basket: Basket = from_json(&basket.to_string()).unwrap();
        let quote = native
            .quote(None, &[], &basket, "2026-12-02T10:00:00Z".parse().unwrap())
            .unwrap();
        let expected = serde_json::to_string(&StackOutcome {
            ok: true,
            quote: Some(&quote),
            rejections: None,
        })
        .unwrap();
        let text: String = JSON::stringify(&answer).unwrap().into();
        assert_eq!(text, expected);
    }
    // Bad input names the list it is in.
    let err = thrown(
        StackHandle::parse(
            js(&serde_json::json!([])).unchecked_into(),
            Some(js(&serde_json::json!([{"code": "X"}])).unchecked_into()),
        )
        .map(|_| JsValue::NULL),
    );
    assert!(message(&err).starts_with("automatic[0]: "), "{}", message(&err));
    // Without automatic promotions, an empty list is refused as before.
    let err = thrown(StackHandle::parse(js(&serde_json::json!([])).unchecked_into(), None).map(|_| JsValue::NULL));
    assert_eq!(message(&err), "definitions: a basket's codes name at least one code");
}
