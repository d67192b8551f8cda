//! The capture floor through raw bindings: `bench/floor-rs` statement for statement, with
//! wasm-bindgen's own declarations of the Durable Object's storage API (`transactionSync`,
//! `sql.exec`, a cursor's `toArray`) and web-sys's `Request` and `Response`, and no workers-rs.
//!
//! Bench-only (`scripts/bench.sh` builds it with `wasm-bindgen --target web` into
//! `bench/floor-raw/build/`; `bench/floor-raw/shim.mjs` is its module, which makes the Durable
//! Object class and the front Worker from the exports below). Its throughput against
//! `bench/floor-rs`'s (the same work through workers-rs) is what workers-rs's glue costs per
//! capture; against `bench/floor/` (JavaScript) what crossing into wasm costs at all.
//!
//! `POST /floor/{name}` with an `Idempotency-Key`: in ONE `transactionSync` the key looked up, the
//! count read, count+1 written only if the count is still the one read, and the key inserted.
//! Answers: 201 `{"count":n}` recorded, 200 `{"count":n,"replayed":true}` known key, 400 no key,
//! 409 the compare-and-set lost.

use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::{Request, Response, ResponseInit};

#[wasm_bindgen]
extern "C" {
    /// `ctx.storage`.
    pub type Storage;
    #[wasm_bindgen(method, getter)]
    fn sql(this: &Storage) -> Sql;
    #[wasm_bindgen(method, catch, js_name = transactionSync)]
    fn transaction_sync(this: &Storage, closure: &Function) -> Result<JsValue, JsValue>;

    /// `ctx.storage.sql`.
    type Sql;
    #[wasm_bindgen(method, catch, variadic)]
    fn exec(this: &Sql, query: &str, values: &Array) -> Result<Cursor, JsValue>;

    /// What `sql.exec` returns.
    type Cursor;
    #[wasm_bindgen(method, js_name = toArray)]
    fn to_array(this: &Cursor) -> Array;

    /// The front Worker's `env.FLOOR` (a Durable Object namespace).
    pub type Namespace;
    #[wasm_bindgen(method, js_name = idFromName)]
    fn id_from_name(this: &Namespace, name: &str) -> JsValue;
    #[wasm_bindgen(method)]
    fn get(this: &Namespace, id: &JsValue) -> Stub;

    /// An object's stub.
    type Stub;
    #[wasm_bindgen(method)]
    fn fetch(this: &Stub, url: &str, init: &Object) -> js_sys::Promise;
}

/// The front Worker: `POST /floor/{name}` to the object named `{name}`, with the request's headers.
///
/// # Errors
///
/// The object's fetch failed.
#[wasm_bindgen]
pub async fn front(request: Request, floor: Namespace) -> Result<Response, JsValue> {
    let url = request.url();
    let path = url.splitn(4, '/').nth(3).map(|p| format!("/{p}")).unwrap_or_default();
    let name = path.strip_prefix("/floor/").unwrap_or_default();
    let valid = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if request.method() != "POST" || !valid {
        return answer("not found", 404);
    }
    let stub = floor.get(&floor.id_from_name(name));
    let init = Object::new();
    Reflect::set(&init, &"method".into(), &"POST".into())?;
    Reflect::set(&init, &"headers".into(), &request.headers())?;
    let answered = wasm_bindgen_futures::JsFuture::from(stub.fetch(&format!("https://floor/{name}"), &init)).await?;
    Ok(answered.unchecked_into())
}

/// The object's tables.
const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS counts(name TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS keys(name TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(name, key));";

/// The floor's Durable Object: its storage only.
#[wasm_bindgen]
pub struct Floor {
    storage: Storage,
    sql: Sql,
}

#[wasm_bindgen]
impl Floor {
    /// The object over `storage` (`ctx.storage`), its tables created.
    ///
    /// # Errors
    ///
    /// The schema's statement failed.
    #[wasm_bindgen(constructor)]
    pub fn new(storage: Storage) -> Result<Floor, JsValue> {
        let sql = storage.sql();
        sql.exec(SCHEMA, &Array::new())?;
        Ok(Floor { storage, sql })
    }

    /// `POST /{name}` with an `Idempotency-Key`: the compare-and-set and the key, answered.
    ///
    /// # Errors
    ///
    /// A statement or the response failed.
    pub fn fetch(&self, request: &Request) -> Result<Response, JsValue> {
        let url = request.url();
        let name = url.rsplit('/').next().unwrap_or_default().to_owned();
        let Some(key) = request.headers().get("idempotency-key")? else {
            return answer("missing Idempotency-Key", 400);
        };
        let (status, count) = self.record(&name, &key)?;
        let body = if status == 200 {
            format!("{{\"count\":{count},\"replayed\":true}}")
        } else {
            format!("{{\"count\":{count}}}")
        };
        answer(&body, status)
    }
}

impl Floor {
    /// The first row's `n` of `query` with `values`, if any.
    fn one(&self, query: &str, values: &[JsValue]) -> Result<Option<i64>, JsValue> {
        let rows = self.sql.exec(query, &values.iter().collect::<Array>())?.to_array();
        if rows.length() == 0 {
            return Ok(None);
        }
        let n = Reflect::get(&rows.get(0), &JsValue::from_str("n"))?;
        Ok(n.as_f64().map(|n| n as i64))
    }

    /// The compare-and-set and the key, in one `transactionSync`: the status and the count.
    fn record(&self, name: &str, key: &str) -> Result<(u16, i64), JsValue> {
        let mut out: Result<(u16, i64), JsValue> = Err(JsValue::from_str("transactionSync did not call back"));
        {
            let mut body = || -> Result<JsValue, JsValue> {
                out = self.decide(name, key);
                out.as_ref().map(|_| JsValue::UNDEFINED).map_err(Clone::clone)
            };
            let closure =
                wasm_bindgen::closure::ScopedClosure::<dyn FnMut() -> Result<JsValue, JsValue>>::borrow_mut(&mut body);
            self.storage.transaction_sync(closure.as_ref().unchecked_ref())?;
        }
        out
    }

    /// The transaction's work: the key, the count, the compare-and-set, the key written.
    fn decide(&self, name: &str, key: &str) -> Result<(u16, i64), JsValue> {
        let (name_v, key_v) = (JsValue::from_str(name), JsValue::from_str(key));
        if let Some(n) = self.one(
            "SELECT n FROM keys WHERE name = ? AND key = ?",
            &[name_v.clone(), key_v.clone()],
        )? {
            return Ok((200, n));
        }
        let expected = self
            .one("SELECT n FROM counts WHERE name = ?", std::slice::from_ref(&name_v))?
            .unwrap_or(0);
        let written = self.one(
            "INSERT INTO counts(name, n) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET n = n + 1 WHERE n = ? RETURNING n",
            &[name_v.clone(), JsValue::from_f64(expected as f64)],
        )?;
        if written.is_none() {
            return Ok((409, expected));
        }
        self.one(
            "INSERT INTO keys(name, key, n) VALUES (?, ?, ?)",
            &[name_v, key_v, JsValue::from_f64((expected + 1) as f64)],
        )?;
        Ok((201, expected + 1))
    }
}

/// A JSON (or text) answer with `status`.
fn answer(body: &str, status: u16) -> Result<Response, JsValue> {
    let init = ResponseInit::new();
    init.set_status(status);
    let headers = Object::new();
    Reflect::set(&headers, &"content-type".into(), &"application/json".into())?;
    init.set_headers(&headers);
    Response::new_with_opt_str_and_init(Some(body), &init)
}
