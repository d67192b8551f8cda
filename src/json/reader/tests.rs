//! The reader against `from_json`, the referee: the shared vectors, hand-picked
//! edge cases, and many generated documents must give exactly the same answer.

use serde_json::Value;

use super::{basket, definition, options, pow10, usage};
use crate::api::QuoteOptions;
use crate::{from_json, Basket, InputError, PromoCode};

/// Both readers' answers for `text`, which must be equal.
fn same(text: &str) {
    let (ours, theirs) = (definition(text), from_json::<PromoCode>(text));
    assert_eq!(ours, theirs, "definition {text}");
    let (ours, theirs) = (basket(text), from_json::<Basket>(text));
    assert_eq!(ours, theirs, "basket {text}");
    let (ours, theirs) = (options(text), from_json::<QuoteOptions>(text));
    assert_eq!(ours, theirs, "options {text}");
    let (ours, theirs) = (usage(text), from_json::<crate::UsageCounts>(text));
    assert_eq!(ours, theirs, "usage {text}");
}

fn vectors() -> Value {
    serde_json::from_str(include_str!("../../../tests/vectors.json")).unwrap()
}

#[test]
fn powers_of_ten_are_serde_jsons_literals() {
    for exponent in 0..=308 {
        let literal: f64 = format!("1e{exponent}").parse().unwrap();
        assert_eq!(pow10(exponent), Some(literal), "1e{exponent}");
    }
    assert_eq!(pow10(309), None);
}

#[test]
fn every_vector_reads_as_from_json_reads_it() {
    let vectors = vectors();
    let mut documents = Vec::new();
    for definition in vectors["definitions"].as_object().unwrap().values() {
        documents.push(definition.clone());
    }
    for case in vectors["cases"]
        .as_array()
        .unwrap()
        .iter()
        .chain(vectors["malformed"].as_array().unwrap())
    {
        for field in ["definition", "basket", "options"] {
            if let Some(value) = case.get(field).filter(|v| v.is_object()) {
                documents.push(value.clone());
            }
        }
    }
    for case in vectors["stacks"].as_array().unwrap() {
        documents.push(case["options"].clone());
        if let Some(usage) = case["options"]["usage"].as_array() {
            documents.extend(usage.iter().cloned());
        }
        documents.extend(
            case["definitions"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d.is_object())
                .cloned(),
        );
    }
    assert!(documents.len() > 150);
    for document in documents {
        same(&document.to_string());
    }
    // And the malformed vectors give the messages they name.
    for case in vectors["malformed"].as_array().unwrap() {
        let error = case["error"].as_str().unwrap();
        let (argument, text) = match error.split(['.', ':', '[']).next().unwrap() {
            "definition" if case["definition"].is_object() => ("definition", case["definition"].to_string()),
            "basket" => ("basket", case["basket"].to_string()),
            "options" => ("options", case["options"].to_string()),
            _ => continue,
        };
        let err = match argument {
            "definition" => definition(&text).unwrap_err(),
            "basket" => basket(&text).unwrap_err(),
            _ => options(&text).unwrap_err(),
        };
        assert_eq!(err.at(argument).to_string(), error, "{}", case["name"]);
    }
}

/// Documents chosen to reach every branch of serde_json and serde's derive that the reader mirrors.
const EDGES: &[&str] = &[
    // Structs from arrays, short, long, empty; duplicates; unknown fields.
    r#"{"total":["80.00","EUR"]}"#,
    r#"{"total":["80.00"]}"#,
    r#"{"total":[]}"#,
    r#"{"total":["80.00","EUR","x"]}"#,
    r#"{"total":["80.00","EUR",]}"#,
    r#"["x"]"#,
    r#"[null,[{"sku":"A","quantity":1,"unit_price":["1","EUR"]}]]"#,
    r#"[null,[["A",1,["1","EUR"],["c"]]],["1","EUR"]]"#,
    r#"[null,[["A",1,["1","EUR"],["c"],5]]]"#,
    r#"{"total":{"amount":"1","currency":"EUR","amount":"2"}}"#,
    r#"{"total":{"amount":"1","currency":"EUR"},"total":null}"#,
    r#"{"total":{"amount":"1","currency":"EUR"},"x":1,"y":2}"#,
    r#"{"total":{"amount":"1","currency":"EUR"},"lines":null,"shipping":null}"#,
    r#"{"total":null}"#,
    r#"{}"#,
    r#"[]"#,
    r#"null"#,
    r#""x""#,
    r#"5"#,
    r#"{"total":{"amount":"1","currency":"EUR"}} x"#,
    r#"{"total":{"amount":"1","currency":"EUR"}}   "#,
    // Discount kinds, as strings and as objects.
    r#"{"code":"A","discount":{"kind":{"percent":null},"percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":{"percent":5},"percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":{"percent":{}},"percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":{},"percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":{"bogus":null},"percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":{"percent":null,"x":1},"percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":{"percent" null},"percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":{5:null},"percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":5,"percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":null,"percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":[],"percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":"bogus","percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":"fixed","amount":{"amount":"0","currency":"EUR"}}}"#,
    r#"{"code":"A","discount":{"kind":"fixed","amount":{"amount":"5","currency":"EUR"},"max":null}}"#,
    r#"{"code":"A","discount":{"kind":"fixed","amount":{"amount":"5","currency":"EUR"},"max":{"amount":"1","currency":"EUR"}}}"#,
    r#"{"code":"A","discount":{"kind":"percent","percent":"10","max":{"amount":"0","currency":"EUR"}}}"#,
    r#"{"code":"A","discount":{"kind":"percent","percent":"10","amount":{"amount":"1","currency":"EUR"}}}"#,
    r#"{"code":"A","discount":{"kind":"free_shipping","percent":"10"}}"#,
    r#"{"code":"A","discount":{"kind":"percent"}}"#,
    r#"{"code":"A","discount":["percent","10"]}"#,
    r#"{"code":"A","discount":[{"fixed":null},null,null,["5","EUR"]]}"#,
    // Strings: escapes, surrogates, control characters.
    r#"{"code":"\ud800","discount":{"kind":"percent","percent":"10"}}"#,
    r#"{"code":"\udc00","discount":{"kind":"percent","percent":"10"}}"#,
    r#"{"code":"\ud800\u0041","discount":{"kind":"percent","percent":"10"}}"#,
    r#"{"code":"\ud800x","discount":{"kind":"percent","percent":"10"}}"#,
    r#"{"code":"\ud800\n","discount":{"kind":"percent","percent":"10"}}"#,
    r#"{"code":"\ud800","#,
    r#"{"code":"\ud83d\ude00","discount":{"kind":"percent","percent":"10"}}"#,
    r#"{"code":"\u00e9\/\b\f\n\r\t\"\\","discount":{"kind":"percent","percent":"10"}}"#,
    r#"{"code":"\q","discount":{"kind":"percent","percent":"10"}}"#,
    r#"{"code":"\u12G4","discount":{"kind":"percent","percent":"10"}}"#,
    "{\"code\":\"a\u{1}b\",\"discount\":{\"kind\":\"percent\",\"percent\":\"10\"}}",
    r#"{"\ud800":1}"#,
    r#"{"total":{"amount":"\ud800","currency":"EUR"}}"#,
    r#"{"total":{"amount":5,"currency":"\ud800"}}"#,
    r#"{"total":"\udfff"}"#,
    // Numbers where strings go, and strings where numbers go.
    r#"{"total":{"amount":1.5,"currency":"EUR"}}"#,
    r#"{"total":{"amount":-0,"currency":"EUR"}}"#,
    r#"{"total":{"amount":-1,"currency":"EUR"}}"#,
    r#"{"total":{"amount":1e400,"currency":"EUR"}}"#,
    r#"{"total":{"amount":1e-400,"currency":"EUR"}}"#,
    r#"{"total":{"amount":-1e-400,"currency":"EUR"}}"#,
    r#"{"total":{"amount":1e99999999999,"currency":"EUR"}}"#,
    r#"{"total":{"amount":0e99999999999,"currency":"EUR"}}"#,
    r#"{"total":{"amount":1e-99999999999,"currency":"EUR"}}"#,
    r#"{"total":{"amount":18446744073709551616,"currency":"EUR"}}"#,
    r#"{"total":{"amount":-9223372036854775809,"currency":"EUR"}}"#,
    r#"{"total":{"amount":-9223372036854775808,"currency":"EUR"}}"#,
    r#"{"total":{"amount":123456789012345678901234567890.5e-3,"currency":"EUR"}}"#,
    r#"{"total":{"amount":1.00000000000000000000000000001,"currency":"EUR"}}"#,
    r#"{"total":{"amount":1.7976931348623157e308,"currency":"EUR"}}"#,
    r#"{"total":{"amount":5e-324,"currency":"EUR"}}"#,
    r#"{"total":{"amount":01,"currency":"EUR"}}"#,
    r#"{"total":{"amount":1.,"currency":"EUR"}}"#,
    r#"{"total":{"amount":1.e5,"currency":"EUR"}}"#,
    r#"{"total":{"amount":1e,"currency":"EUR"}}"#,
    r#"{"total":{"amount":1e+,"currency":"EUR"}}"#,
    r#"{"total":{"amount":-,"currency":"EUR"}}"#,
    r#"{"total":{"amount":-x,"currency":"EUR"}}"#,
    r#"{"total":{"amount":true,"currency":"EUR"}}"#,
    r#"{"total":{"amount":tru,"currency":"EUR"}}"#,
    r#"{"total":{"amount":nul,"currency":"EUR"}}"#,
    r#"{"total":{"amount":null,"currency":"EUR"}}"#,
    r#"{"total":{"amount":[],"currency":"EUR"}}"#,
    r#"{"total":{"amount":{},"currency":"EUR"}}"#,
    r#"{"total":{"amount":x,"currency":"EUR"}}"#,
    r#"{"lines":[{"sku":"A","quantity":"1","unit_price":{"amount":"1","currency":"EUR"}}]}"#,
    r#"{"lines":[{"sku":"A","quantity":-3,"unit_price":{"amount":"1","currency":"EUR"}}]}"#,
    r#"{"lines":[{"sku":"A","quantity":-0,"unit_price":{"amount":"1","currency":"EUR"}}]}"#,
    r#"{"lines":[{"sku":"A","quantity":1e3,"unit_price":{"amount":"1","currency":"EUR"}}]}"#,
    r#"{"lines":[{"sku":"A","quantity":18446744073709551616,"unit_price":{"amount":"1","currency":"EUR"}}]}"#,
    r#"{"lines":[{"sku":"A","quantity":4294967297,"unit_price":{"amount":"1","currency":"EUR"}}]}"#,
    r#"{"lines":[{"sku":"A","quantity":2,"unit_price":{"amount":"1","currency":"EUR"},"categories":null}]}"#,
    r#"{"lines":[{"sku":"A","quantity":2,"unit_price":{"amount":"1","currency":"EUR"},"categories":"x"}]}"#,
    r#"{"lines":[{"sku":"A","quantity":2,"unit_price":{"amount":"1","currency":"EUR"},"categories":[1]}]}"#,
    r#"{"lines":[{"sku":"A","quantity":2,"unit_price":{"amount":"1","currency":"EUR"}},]}"#,
    r#"{"lines":[{"sku":"A","quantity":2,"unit_price":{"amount":"1","currency":"EUR"}} {}]}"#,
    r#"{"lines":[,]}"#,
    r#"{"lines":[]}"#,
    r#"{"lines":{}}"#,
    r#"{"lines":[{"sku":"A","quantity":2,"unit_price":{"amount":"1","currency":"EUR"}}"#,
    r#"{"total":{"amount":"1","currency":"EUR"},}"#,
    r#"{"total":{"amount":"1","currency":"EUR"} "lines":null}"#,
    r#"{"total" {"amount":"1","currency":"EUR"}}"#,
    r#"{"total":{"amount":"1","currency":"EUR"},5:1}"#,
    r#"{"total":{"amount":"1","currency":"EUR""#,
    r#"{"total":"#,
    r#"{"#,
    r#"{,}"#,
    "",
    // Options.
    r#"{"usage":{"total":1,"per_customer":2}}"#,
    r#"{"usage":{"total":-1,"per_customer":0}}"#,
    r#"{"usage":{"total":1.5,"per_customer":0}}"#,
    r#"{"usage":{"total":1}}"#,
    r#"{"usage":[1,0]}"#,
    r#"{"usage":[1]}"#,
    r#"{"usage":{"total":18446744073709551615,"per_customer":18446744073709551615}}"#,
    r#"{"now":null,"customer":null,"usage":null}"#,
    r#"{"now":"2026-12-01T00:00:00+01:00","customer":" alice "}"#,
    r#"{"now":5}"#,
    r#"{"customer":""}"#,
    r#"{"customer":"\u0000"}"#,
    // Definitions.
    r#"{"code":"A","discount":{"kind":"percent","percent":"10"},"active":"yes"}"#,
    r#"{"code":"A","discount":{"kind":"percent","percent":"10"},"active":null,"limits":null,"audience":null}"#,
    r#"{"code":"A","discount":{"kind":"percent","percent":"10"},"limits":{"total":0}}"#,
    r#"{"code":"A","discount":{"kind":"percent","percent":"10"},"limits":{"per_customer":0}}"#,
    r#"{"code":"A","discount":{"kind":"percent","percent":"10"},"applies_to":{}}"#,
    r#"{"code":"A","discount":{"kind":"percent","percent":"10"},"applies_to":{"skus":null}}"#,
    r#"{"code":"A","discount":{"kind":"percent","percent":"10"},"applies_to":{"skus":["A"],"categories":["a b"]}}"#,
    r#"{"code":"A","discount":{"kind":"percent","percent":"10"},"audience":[]}"#,
    r#"{"code":"A","discount":{"kind":"percent","percent":"10"},"audience":["a",7]}"#,
    r#"{"code":"A","discount":{"kind":"percent","percent":"10"},"starts_at":"2027-01-01T00:00:00Z","ends_at":"2026-01-01T00:00:00Z"}"#,
    r#"{"code":"A","discount":{"kind":"fixed","amount":{"amount":"5","currency":"EUR"}},"minimum":{"amount":"5","currency":"USD"}}"#,
    r#"{"discount":{"kind":"percent","percent":"10"}}"#,
    r#"{"code":"A"}"#,
    // Whitespace, and lines for the positions of syntax errors.
    " { \"total\" : { \"amount\" : \"1\" , \"currency\" : \"EUR\" } } ",
    "{\n\"code\":\"A\",\n\"discount\":{\"kind\":7}}",
    "{\r\n\t\"code\":\"\\ud800\"}",
];

#[test]
fn edge_cases_read_as_from_json_reads_them() {
    for text in EDGES {
        same(text);
    }
}

#[test]
fn deep_nesting_reads_as_from_json_reads_it() {
    for depth in [1, 5, 126, 127, 128, 129, 200] {
        let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        same(&format!(r#"{{"total":{arrays}}}"#));
        same(&format!(r#"{{"lines":{arrays}}}"#));
        same(&format!(
            r#"{{"code":"A","discount":{{"kind":{}}}}}"#,
            "{\"percent\":".repeat(depth)
        ));
    }
}

/// A small deterministic generator (xorshift64*): no test depends on chance.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// Mostly one of the first three (the valid ones, in every pool below), sometimes any.
    fn mostly<'a>(&mut self, items: &[&'a str]) -> &'a str {
        let valid = if self.chance(85) {
            3.min(items.len())
        } else {
            items.len()
        };
        items[self.below(valid)]
    }
}

/// What a generated document is shaped like.
#[derive(Clone, Copy)]
enum Schema {
    Struct(&'static [(&'static str, Schema, bool)]),
    List(&'static Schema),
    Text(&'static [&'static str]),
    Number(&'static [&'static str]),
    Bool,
    Kind,
    /// A discount whose fields mostly agree with its kind.
    Discount,
}

const AMOUNTS: &[&str] = &[
    "80.00",
    "8",
    "0",
    "0.00",
    "1.005",
    "12.5",
    "4.90",
    "-1",
    "-0",
    "-0.00",
    "1e3",
    "",
    "x",
    "1000000000000000",
    "1000000000000000.01",
    "99999999999999999999999999999999",
    "0.0000000000000000000000000001",
    "\u{ff19}",
];
const CURRENCIES: &[&str] = &[
    "EUR", "EUR", "USD", "JPY", "KWD", "CLF", "eur", "XYZ", "", "EURO", "\u{e9}UR",
];
const SKUS: &[&str] = &["MUG", "BEANS", "GRINDER", "mug enamel", "", "\u{e9}"];
const CATEGORIES: &[&str] = &["mugs", "grinders", "tools", "tea\tcups", ""];
const QUANTITIES: &[&str] = &[
    "1",
    "2",
    "3",
    "0",
    "10000",
    "10001",
    "-1",
    "1.5",
    "1e3",
    "18446744073709551616",
    "-0",
];
const COUNTS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "1000",
    "-1",
    "1.5",
    "18446744073709551615",
    "18446744073709551616",
    "1e21",
];
const CUSTOMERS: &[&str] = &["alice", "bob", "d\u{f6}ra", " ", "", "\u{0}"];
const CLASSES: &[&str] = &["product", "order", "shipping", "Order", "", "orders"];
const TIMES: &[&str] = &[
    "2026-12-02T10:00:00Z",
    "2026-12-01T00:00:00Z",
    "2027-01-01T00:00:00Z",
    "2026-02-30T00:00:00Z",
    "yesterday",
    "2026-12-01T00:00:00+01:00",
    "9999-12-31T23:59:59Z",
    "2026-12-01T00:00:00.5Z",
];
const CODES: &[&str] = &["SAVE10", "save10", " x ", "", "SAVE 10", "\u{c9}T\u{c9}"];
const PERCENTS: &[&str] = &[
    "10",
    "12.5",
    "100",
    "0",
    "100.00001",
    "150",
    "-5",
    "-0",
    "12.5",
    "12.12345",
    "1e1",
    "x",
    "",
];
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "7",
    "1.5",
    "-1.5",
    "1e400",
    "1e-400",
    "1e+21",
    "1.7976931348623157e308",
    "5e-324",
    "18446744073709551616",
    "-9223372036854775809",
    "123456789012345678901234567890.5",
    "0.1",
    "2.5e-7",
    "1E2",
];
/// String bodies written as JSON (escapes included).
const RAW_STRINGS: &[&str] = &[
    r"\ud800",
    r"\udc00",
    r"\ud800\u0041",
    r"\ud83d\ude00",
    r"\n",
    r"\u0001",
    r#"a\"b"#,
    r"\\",
    "percent",
    "fixed",
    "EUR",
    "amount",
    "total",
];

const MONEY: Schema = Schema::Struct(&[
    ("amount", Schema::Text(AMOUNTS), true),
    ("currency", Schema::Text(CURRENCIES), true),
]);
const LINE: Schema = Schema::Struct(&[
    ("sku", Schema::Text(SKUS), true),
    ("quantity", Schema::Number(QUANTITIES), true),
    ("unit_price", MONEY, true),
    ("categories", Schema::List(&Schema::Text(CATEGORIES)), false),
]);
const BASKET: Schema = Schema::Struct(&[
    ("total", MONEY, false),
    ("lines", Schema::List(&LINE), false),
    ("shipping", MONEY, false),
]);
const OPTIONS: Schema = Schema::Struct(&[
    ("customer", Schema::Text(CUSTOMERS), false),
    (
        "usage",
        Schema::Struct(&[
            ("total", Schema::Number(COUNTS), true),
            ("per_customer", Schema::Number(COUNTS), true),
        ]),
        false,
    ),
    ("now", Schema::Text(TIMES), false),
]);
const DISCOUNT: Schema = Schema::Struct(&[
    ("kind", Schema::Kind, true),
    ("percent", Schema::Text(PERCENTS), false),
    ("max", MONEY, false),
    ("amount", MONEY, false),
]);
const DEFINITION: Schema = Schema::Struct(&[
    ("code", Schema::Text(CODES), true),
    ("active", Schema::Bool, false),
    ("discount", Schema::Discount, true),
    (
        "applies_to",
        Schema::Struct(&[
            ("skus", Schema::List(&Schema::Text(SKUS)), false),
            ("categories", Schema::List(&Schema::Text(CATEGORIES)), false),
        ]),
        false,
    ),
    (
        "limits",
        Schema::Struct(&[
            ("total", Schema::Number(COUNTS), false),
            ("per_customer", Schema::Number(COUNTS), false),
        ]),
        false,
    ),
    ("starts_at", Schema::Text(TIMES), false),
    ("ends_at", Schema::Text(TIMES), false),
    ("minimum", MONEY, false),
    ("audience", Schema::List(&Schema::Text(CUSTOMERS)), false),
    ("combines_with", Schema::List(&Schema::Text(CLASSES)), false),
]);

/// Writes `text` as `JSON.stringify` would (the characters it escapes, lowercase hex).
fn string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A random float written as JavaScript or Rust might write it.
fn random_number(rng: &mut Rng) -> String {
    let value = f64::from_bits(rng.next());
    let value = if value.is_finite() {
        value
    } else {
        rng.below(1000) as f64 / 8.0
    };
    match rng.below(3) {
        0 => format!("{value:e}"),
        1 => format!("{value}"),
        _ => format!("{}", rng.next() >> rng.below(64)),
    }
}

/// Anything at all, a little nested.
fn any(rng: &mut Rng, out: &mut String, depth: usize) {
    match rng.below(if depth > 2 { 5 } else { 8 }) {
        0 => out.push_str("null"),
        1 => out.push_str(if rng.chance(50) { "true" } else { "false" }),
        2 => out.push_str(rng.pick(NUMBERS)),
        3 => {
            out.push('"');
            out.push_str(rng.pick(RAW_STRINGS));
            out.push('"');
        }
        4 => out.push_str(&random_number(rng)),
        5 | 6 => {
            out.push('[');
            for i in 0..rng.below(3) {
                if i > 0 {
                    out.push(',');
                }
                any(rng, out, depth + 1);
            }
            out.push(']');
        }
        _ => {
            out.push('{');
            for i in 0..rng.below(3) {
                if i > 0 {
                    out.push(',');
                }
                string(out, rng.pick(&["amount", "x", "percent", "total", ""]));
                out.push(':');
                any(rng, out, depth + 1);
            }
            out.push('}');
        }
    }
}

/// A document of `schema`, with mistakes of every kind sprinkled in.
fn document(rng: &mut Rng, out: &mut String, schema: Schema, depth: usize) {
    if rng.chance(1) {
        return any(rng, out, depth);
    }
    match schema {
        Schema::Text(pool) => string(out, rng.mostly(pool)),
        Schema::Number(pool) => {
            if rng.chance(5) {
                out.push_str(&random_number(rng));
            } else {
                out.push_str(rng.mostly(pool));
            }
        }
        Schema::Discount => {
            let (kind, fields): (&str, &[&str]) = match rng.below(3) {
                0 => ("percent", &["percent", "max"]),
                1 => ("fixed", &["amount"]),
                _ => ("free_shipping", &["max"]),
            };
            if rng.chance(30) {
                return document(rng, out, DISCOUNT, depth);
            }
            out.push_str(r#"{"kind":"#);
            string(out, kind);
            for field in fields {
                if *field == "max" && rng.chance(50) {
                    continue;
                }
                out.push(',');
                string(out, field);
                out.push(':');
                let schema = if *field == "percent" {
                    Schema::Text(PERCENTS)
                } else {
                    MONEY
                };
                document(rng, out, schema, depth + 1);
            }
            out.push('}');
        }
        Schema::Bool => out.push_str(if rng.chance(50) { "true" } else { "false" }),
        Schema::Kind => match rng.below(10) {
            0 => out.push_str(r#"{"percent":null}"#),
            1 => {
                out.push('{');
                string(out, rng.pick(&["fixed", "bogus", "free_shipping"]));
                out.push(':');
                any(rng, out, depth + 1);
                out.push('}');
            }
            _ => string(
                out,
                rng.mostly(&["percent", "fixed", "free_shipping", "bogus", "Percent"]),
            ),
        },
        Schema::List(item) => {
            out.push('[');
            let count = if depth > 3 { rng.below(2) } else { rng.below(4) };
            for i in 0..count {
                if i > 0 {
                    out.push(',');
                }
                document(rng, out, *item, depth + 1);
            }
            out.push(']');
        }
        Schema::Struct(fields) => {
            if rng.chance(2) {
                // derive also reads a struct from an array of its fields.
                out.push('[');
                let count = rng.below(fields.len() + 2);
                for i in 0..count {
                    if i > 0 {
                        out.push(',');
                    }
                    match fields.get(i) {
                        Some((_, field, _)) if !rng.chance(20) => document(rng, out, *field, depth + 1),
                        _ => out.push_str("null"),
                    }
                }
                out.push(']');
                return;
            }
            let mut chosen: Vec<usize> = (0..fields.len())
                .filter(|&i| rng.chance(if fields[i].2 { 96 } else { 45 }))
                .collect();
            if rng.chance(20) {
                // Any order: what a page's object literal gives.
                for i in (1..chosen.len()).rev() {
                    chosen.swap(i, rng.below(i + 1));
                }
            }
            if rng.chance(2) && !chosen.is_empty() {
                chosen.push(chosen[rng.below(chosen.len())]);
            }
            out.push('{');
            let mut first = true;
            for i in chosen {
                if !first {
                    out.push(',');
                }
                first = false;
                if rng.chance(1) {
                    string(out, rng.pick(&["colour", "Total", "per-customer", "now ", ""]));
                    out.push(':');
                    any(rng, out, depth + 1);
                    out.push(',');
                }
                let (name, field, _) = fields[i];
                string(out, name);
                out.push(':');
                if !fields[i].2 && rng.chance(5) {
                    out.push_str("null");
                } else {
                    document(rng, out, field, depth + 1);
                }
            }
            out.push('}');
        }
    }
}

/// Spaces and newlines between some tokens (outside strings): serde_json's positions count lines.
fn spaced(rng: &mut Rng, text: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        out.push(c);
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if matches!(c, '{' | '[' | ',' | ':') && rng.chance(30) {
            out.push_str(rng.pick(&[" ", "\n", "\t", "\r\n  "]));
        }
    }
    out
}

fn generated(schema: Schema, seed: u64, count: usize, read: fn(&str) -> (String, String)) {
    let mut rng = Rng(seed);
    let mut refusals = 0;
    for _ in 0..count {
        let mut text = String::new();
        document(&mut rng, &mut text, schema, 0);
        if rng.chance(10) {
            text = spaced(&mut rng, &text);
        }
        let (ours, theirs) = read(&text);
        assert_eq!(ours, theirs, "{text}");
        if ours.starts_with("Err") {
            refusals += 1;
        }
    }
    // The documents hit both sides: accepted ones and every kind of refusal.
    assert!(
        refusals > count / 10 && refusals < count * 9 / 10,
        "{refusals} of {count} refused"
    );
}

#[test]
fn generated_baskets_read_as_from_json_reads_them() {
    generated(BASKET, 0x9E37_79B9_7F4A_7C15, 30_000, |text| {
        (
            format!("{:?}", basket(text)),
            format!("{:?}", from_json::<Basket>(text)),
        )
    });
}

#[test]
fn generated_definitions_read_as_from_json_reads_them() {
    generated(DEFINITION, 0xD1B5_4A32_D192_ED03, 30_000, |text| {
        (
            format!("{:?}", definition(text)),
            format!("{:?}", from_json::<PromoCode>(text)),
        )
    });
}

#[test]
fn generated_options_read_as_from_json_reads_them() {
    generated(OPTIONS, 0x8CB9_2BA7_2F3D_8DD7, 20_000, |text| {
        (
            format!("{:?}", options(text)),
            format!("{:?}", from_json::<QuoteOptions>(text)),
        )
    });
}

#[test]
fn a_refusal_names_the_same_variant_and_path() {
    let text = r#"{"lines":[{"sku":"A","quantity":1,"unit_price":{"amount":"1","currency":"EUR"}},
        {"sku":"B","quantity":1,"unit_price":{"amount":"1","currency":"USD"}}]}"#;
    let err = basket(text).unwrap_err();
    assert_eq!(err, from_json::<Basket>(text).unwrap_err());
    assert_eq!(err.path(), Some("lines[1].unit_price"));
    assert!(matches!(err.kind(), InputError::MixedCurrencies { .. }));
}
