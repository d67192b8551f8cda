//! `docs/openapi.json`, generated: its schemas from the Rust types
//! ([`promocodes::wire`], [`promocodes::api`] and the core's values, through
//! schemars and [`promocodes::schema`]), its paths from the route table
//! ([`ROUTES`], [`TEST_ROUTES`]: each row's [`Handler::operation`], its
//! `x-allow` from the table as the Worker answers a 405, its `HEAD` from its
//! `GET`, a public path's `OPTIONS` preflight from its access).
//!
//! `cargo test -p promocodes-worker` is the command that writes it (as
//! rust-analyzer's sourcegen tests do): [`the_description_is_generated`]
//! writes the file when it differs from what the generator makes, and fails
//! so that the change is seen and committed. Native tests only: schemars is
//! a dev-dependency of the Worker and never reaches its wasm.
//!
//! [`Handler::operation`]: crate::routes::Handler::operation

mod document;
mod operation;
mod problems;

use std::collections::BTreeSet;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{json, Map, Value};
use worker::Method;

pub use operation::Operation;

use crate::routes::{allow, Access, Route, ROUTES, TEST_ROUTES};

/// Where the description is committed.
const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/openapi.json");

/// A `$ref` to `T`'s schema, registering it.
pub fn r<T: JsonSchema + ?Sized>(g: &mut SchemaGenerator) -> Value {
    g.subschema_for::<T>().to_value()
}

/// A `$ref` to `T`'s schema with more keywords beside it (a description, a `const`).
pub fn with_ref<T: JsonSchema + ?Sized>(g: &mut SchemaGenerator, more: Value) -> Value {
    let mut value = r::<T>(g);
    if let (Some(object), Value::Object(more)) = (value.as_object_mut(), more) {
        object.extend(more);
    }
    value
}

fn method_key(method: &Method) -> &'static str {
    match method {
        Method::Get => "get",
        Method::Post => "post",
        Method::Put => "put",
        Method::Patch => "patch",
        Method::Delete => "delete",
        other => panic!("no route takes {other:?}"),
    }
}

/// A `GET`'s `HEAD`: the same answers, headers only.
fn head_of(get: &Value) -> Value {
    let mut head = get.clone();
    let id = get["operationId"].as_str().expect("an operationId");
    let name = id
        .strip_prefix("get")
        .map_or_else(|| id[..1].to_uppercase() + &id[1..], str::to_owned);
    head["operationId"] = format!("head{name}").into();
    let summary = get["summary"].as_str().expect("a summary");
    head["summary"] = match summary.strip_suffix(')') {
        Some(open) => format!("{open}; headers only)"),
        None => format!("{summary} (headers only)"),
    }
    .into();
    head["description"] = "As `GET`, without a body.".into();
    head
}

/// A public path's CORS preflight, for `methods` (an `Allow` value).
fn options_of(path: &str, tag: &Value, methods: &str, g: &mut SchemaGenerator) -> Value {
    let mut segments = path.rsplit('/').filter(|s| !s.starts_with('{'));
    let last = segments.next().unwrap_or_default();
    let name = if path.ends_with('}') {
        last.trim_end_matches('s')
    } else {
        last
    };
    let name = name[..1].to_uppercase() + &name[1..];
    json!({
        "operationId": format!("options{name}"),
        "tags": tag,
        "summary": "CORS preflight",
        "security": [{}],
        "description": format!("204 with `Allow: {methods}`; for an origin in `ALLOWED_ORIGINS`, the preflight headers too."),
        "responses": {
            "204": {
                "description": "No content.",
                "headers": {
                    "Allow": {"description": "The methods a browser may use.", "required": true, "schema": {"type": "string", "const": methods}},
                    "Access-Control-Allow-Origin": {"$ref": "#/components/headers/AccessControlAllowOrigin"},
                    "Access-Control-Allow-Methods": {"description": "With an allowed origin.", "schema": {"type": "string", "const": methods}},
                    "Access-Control-Allow-Headers": {"$ref": "#/components/headers/AccessControlAllowHeaders"},
                    "Access-Control-Max-Age": {"$ref": "#/components/headers/AccessControlMaxAge"},
                    "Vary": {"$ref": "#/components/headers/Vary"}
                }
            },
            "500": {
                "description": "A runtime error.",
                "content": {"application/problem+json": {"schema": operation::problem_of(&["internal"], g)}},
                "headers": {"Access-Control-Allow-Origin": {"$ref": "#/components/headers/AccessControlAllowOrigin"}}
            }
        }
    })
}

/// The path item of one path of the table: its rows' operations.
fn path_item(path: &str, rows: &[&Route], test_only: bool, g: &mut Generators) -> Value {
    let mut item = Map::new();
    let public = rows
        .iter()
        .filter(|r| r.access == Access::Public)
        .map(|r| r.method.clone());
    let public = allow(public);
    let mut methods: Vec<Method> = rows.iter().map(|r| r.method.clone()).collect();
    if !public.is_empty() {
        methods.push(Method::Options);
    }
    item.insert("x-allow".into(), allow(methods.into_iter()).into());
    if path.starts_with("/demo/") {
        item.insert("x-demo-only".into(), true.into());
    }
    if test_only {
        item.insert("x-test-only".into(), true.into());
    }
    if path.contains("{code}") {
        item.insert("parameters".into(), json!([{"$ref": "#/components/parameters/code"}]));
    }
    if path.contains("{id}") {
        item.insert(
            "parameters".into(),
            json!([{"$ref": "#/components/parameters/webhookId"}]),
        );
    }
    for row in rows {
        let op = row
            .handler
            .operation()
            .to_json(row.access, &mut g.answers, &mut g.requests);
        let g = &mut g.answers;
        if row.method == Method::Get {
            item.insert("head".into(), head_of(&op));
        }
        if row.access == Access::Public && !item.contains_key("options") {
            item.insert("options".into(), options_of(path, &op["tags"], &public, g));
        }
        item.insert(method_key(&row.method).into(), op);
    }
    item.into()
}

/// The schema generators: answers as the Worker writes them (serde's
/// serialization), request bodies as it reads them (its deserialization:
/// a field with a default is optional there).
struct Generators {
    answers: SchemaGenerator,
    requests: SchemaGenerator,
}

/// The width formats schemars writes for Rust's integers and floats
/// (`uint64`, ...): not JSON Schema's, so strict validators refuse them.
fn drop_width_formats(schema: &mut schemars::Schema) {
    const WIDTHS: [&str; 12] = [
        "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "int", "float", "double",
    ];
    if schema
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| WIDTHS.contains(&f))
    {
        schema.remove("format");
    }
}

/// A doc comment's description as one line a paragraph: its lines joined,
/// as Markdown renders them.
fn unwrap_description(schema: &mut schemars::Schema) {
    if let Some(Value::String(text)) = schema.get_mut("description") {
        if text.contains('\n') {
            *text = text
                .split("\n\n")
                .map(|p| p.split('\n').collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>()
                .join("\n\n");
        }
    }
}

/// The description, as `docs/openapi.json` holds it.
pub fn generate() -> String {
    let settings = SchemaSettings::draft2020_12()
        .with(|s| {
            s.definitions_path = "/components/schemas".into();
            s.meta_schema = None;
        })
        .with_transform(schemars::transform::RecursiveTransform(drop_width_formats))
        .with_transform(schemars::transform::RecursiveTransform(unwrap_description));
    let mut generators = Generators {
        answers: settings.clone().for_serialize().into_generator(),
        requests: settings.for_deserialize().into_generator(),
    };
    let mut paths = Map::new();
    for (table, test_only) in [(ROUTES, false), (TEST_ROUTES, true)] {
        let templates: BTreeSet<&str> = table.iter().map(|r| r.path).collect();
        for path in templates {
            let rows: Vec<&Route> = table.iter().filter(|r| r.path == path).collect();
            paths.insert(path.to_owned(), path_item(path, &rows, test_only, &mut generators));
        }
    }
    let g = &mut generators.answers;
    if let Value::Object(assets) = document::static_paths(g) {
        paths.extend(assets);
    }
    let mut doc = json!({
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": document::info(g),
        "tags": document::tags(g),
        "paths": paths,
        "x-other-paths": document::other_paths(g),
        "components": {
            "responses": document::responses(g),
            "parameters": document::parameters(g),
            "headers": document::headers(g),
            "securitySchemes": document::security_schemes(g),
        },
    });
    let mut schemas = g.take_definitions(true);
    for (name, schema) in generators.requests.take_definitions(true) {
        match schemas.get(&name) {
            Some(answer) => assert_eq!(
                answer, &schema,
                "{name}: a request's schema and an answer's differ; name them apart"
            ),
            None => {
                schemas.insert(name, schema);
            }
        }
    }
    problems::complete(&mut schemas);
    doc["components"]["schemas"] = schemas.into();
    let mut text = serde_json::to_string_pretty(&doc).expect("the description is JSON");
    text.push('\n');
    text
}

/// Every `$ref` in `value`.
fn refs<'v>(value: &'v Value, found: &mut Vec<&'v str>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(target)) = map.get("$ref") {
                found.push(target);
            }
            map.values().for_each(|v| refs(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, found)),
        _ => {}
    }
}

/// `docs/openapi.json` is what [`generate`] writes: when it is not, the test
/// rewrites it and fails (commit the file, then run `npm run generate` in
/// `clients/typescript`). This test is the command that makes the description.
#[test]
fn the_description_is_generated() {
    let fresh = generate();
    let committed = std::fs::read_to_string(PATH).unwrap_or_default();
    if committed != fresh {
        std::fs::write(PATH, &fresh).expect("docs/openapi.json is writable");
        panic!("docs/openapi.json was stale and has been rewritten: review and commit it");
    }
}

/// Every `$ref` of the description resolves, and every problem type an
/// answer names is one of `ProblemType`'s.
#[test]
fn the_description_refers_only_to_what_it_has() {
    let doc: Value = serde_json::from_str(&generate()).expect("JSON");
    let mut found = Vec::new();
    refs(&doc, &mut found);
    for target in found {
        let pointer = target.strip_prefix('#').expect("a reference inside the description");
        assert!(doc.pointer(pointer).is_some(), "{target} resolves");
    }
    let types = &doc["components"]["schemas"]["ProblemType"]["enum"];
    for row in ROUTES.iter().chain(TEST_ROUTES) {
        for slug in row.handler.operation().problem_slugs() {
            let name = format!("/problems/{slug}");
            assert!(
                types.as_array().expect("an enum").iter().any(|t| t == name.as_str()),
                "{} {}: {name} is a ProblemType",
                row.path,
                method_key(&row.method)
            );
        }
    }
}
