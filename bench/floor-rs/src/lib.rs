//! The capture floor in Rust: `bench/floor/worker.mjs` statement for statement, built with
//! workers-rs and worker-build as the product's Worker is, and with none of the product's code.
//!
//! Bench-only (`scripts/bench.sh` runs it under Miniflare next to the Worker and the JavaScript
//! floor); never part of the product's routes. `POST /floor/{name}` with an `Idempotency-Key`
//! goes from the front Worker to the object named `{name}`, which in ONE `transactionSync` looks
//! the key up, reads the count, writes count+1 only if the count is still the one it read, and
//! inserts the key. Answers: 201 `{"count"}` recorded, 200 `{"count","replayed":true}` known key,
//! 400 no key, 409 the compare-and-set lost.
//!
//! Its throughput against the JavaScript floor's is what the glue between workers-rs,
//! wasm-bindgen and the runtime costs a Rust Worker per capture before any product code runs.

use serde::Deserialize;
use wasm_bindgen::closure::ScopedClosure;
use wasm_bindgen::{JsCast, JsValue};
use worker::{
    durable_object, event, Context, DurableObject, Env, Method, Request, RequestInit, Response, Result, State,
};

/// The object's tables, created when the object starts.
const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS counts(name TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS keys(name TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(name, key));";

/// A row of one count.
#[derive(Deserialize)]
struct Count {
    n: i64,
}

/// The floor's Durable Object: one counter per name, and the keys recorded.
#[durable_object]
pub struct Floor {
    state: State,
}

impl DurableObject for Floor {
    fn new(state: State, _env: Env) -> Self {
        if let Err(err) = state.storage().sql().exec(SCHEMA, None) {
            worker::console_error!("floor schema: {err}");
        }
        Floor { state }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        let path = req.path();
        let name = path.trim_start_matches('/');
        let Some(key) = req.headers().get("idempotency-key")? else {
            return Response::error("missing Idempotency-Key", 400);
        };
        let (status, count) = self.record(name, &key)?;
        let body = if status == 200 {
            serde_json::json!({ "count": count, "replayed": true })
        } else {
            serde_json::json!({ "count": count })
        };
        Ok(Response::from_json(&body)?.with_status(status))
    }
}

impl Floor {
    /// The compare-and-set and the key, in one transaction: the status and the count.
    fn record(&self, name: &str, key: &str) -> Result<(u16, i64)> {
        let storage = self.state.storage();
        let sql = storage.sql();
        let one = |query: &str, values: Vec<worker::SqlStorageValue>| -> Result<Option<i64>> {
            let rows: Vec<Count> = sql.exec(query, values)?.to_array()?;
            Ok(rows.first().map(|row| row.n))
        };
        transaction_sync(&storage, || {
            if let Some(n) = one(
                "SELECT n FROM keys WHERE name = ? AND key = ?",
                vec![name.into(), key.into()],
            )? {
                return Ok((200, n));
            }
            let expected = one("SELECT n FROM counts WHERE name = ?", vec![name.into()])?.unwrap_or(0);
            let written = one(
                "INSERT INTO counts(name, n) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET n = n + 1 WHERE n = ? RETURNING n",
                vec![name.into(), expected.into()],
            )?;
            if written.is_none() {
                return Ok((409, expected));
            }
            one(
                "INSERT INTO keys(name, key, n) VALUES (?, ?, ?)",
                vec![name.into(), key.into(), (expected + 1).into()],
            )?;
            Ok((201, expected + 1))
        })
    }
}

/// Runs `f` inside `storage.transactionSync`, as the product's SQLite store does.
fn transaction_sync<T>(storage: &worker::Storage, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let raw: &JsValue = storage.as_raw().as_ref();
    let tx: js_sys::Function = js_sys::Reflect::get(raw, &JsValue::from_str("transactionSync"))?
        .dyn_into()
        .map_err(|_| worker::Error::RustError("storage.transactionSync is missing".into()))?;
    let mut out = None;
    let mut f = Some(f);
    let mut callback = || -> std::result::Result<JsValue, JsValue> {
        let f = f
            .take()
            .ok_or_else(|| JsValue::from_str("transactionSync called back twice"))?;
        let value = f().map_err(|err| JsValue::from(js_sys::Error::new(&err.to_string())))?;
        out = Some(value);
        Ok(JsValue::UNDEFINED)
    };
    let closure = ScopedClosure::<dyn FnMut() -> std::result::Result<JsValue, JsValue>>::borrow_mut(&mut callback);
    let result = tx.call1(raw, closure.as_ref());
    drop(closure);
    result?;
    out.ok_or_else(|| worker::Error::RustError("transactionSync did not call back".into()))
}

/// The front Worker: `POST /floor/{name}` to the object named `{name}`, with the request's headers.
#[event(fetch)]
async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let path = req.path();
    let name = path.strip_prefix("/floor/").unwrap_or_default();
    let valid = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if req.method() != Method::Post || !valid {
        return Response::error("not found", 404);
    }
    let stub = env.durable_object("FLOOR")?.id_from_name(name)?.get_stub()?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post).with_headers(req.headers().clone());
    stub.fetch_with_request(Request::new_with_init(&format!("https://floor/{name}"), &init)?)
        .await
}
