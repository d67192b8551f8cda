//! The Durable Object: one [`Ledger`] per normalised promo code.
//!
//! The Worker validates and authenticates, then forwards a small internal
//! request (`https://ledger/<op>`) to the code's object. The object reads
//! the body (the only `await`), then runs the core synchronously against
//! its [`SqliteRedemptionStore`].

use promocodes::api::BasketRequest;
use promocodes::{capture, CaptureOptions, Code, IdempotencyKey, PromoCode, RedemptionStore, Timestamp};
use serde_json::json;
use worker::{durable_object, DurableObject, Env, Method, Request, Response, Result, State};

use crate::problem::Problem;
use crate::sqlite::SqliteRedemptionStore;

/// The most receipts one page of the admin list returns.
pub const MAX_PAGE: u32 = 1000;

/// The Durable Object holding one code's definition, counts, idempotency keys and receipts.
#[durable_object]
pub struct Ledger {
    state: State,
}

impl DurableObject for Ledger {
    fn new(state: State, _env: Env) -> Self {
        Ledger { state }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        match self.dispatch(req).await {
            Ok(response) => Ok(response),
            Err(problem) => problem.into_response(),
        }
    }
}

/// Now, from the runtime's clock.
pub fn now() -> std::result::Result<Timestamp, Problem> {
    let millis = i64::try_from(worker::Date::now().as_millis()).map_err(|e| Problem::Internal(e.to_string()))?;
    Timestamp::from_unix_millis(millis).map_err(|e| Problem::Internal(e.to_string()))
}

fn json_response(value: &impl serde::Serialize, status: u16) -> std::result::Result<Response, Problem> {
    Ok(Response::from_json(value)?.with_status(status))
}

impl Ledger {
    fn store(&self) -> std::result::Result<SqliteRedemptionStore, Problem> {
        Ok(SqliteRedemptionStore::open(self.state.storage())?)
    }

    async fn dispatch(&self, mut req: Request) -> std::result::Result<Response, Problem> {
        let path = req.path();
        match (req.method(), path.as_str()) {
            (Method::Put, "/definition") => {
                let body = req.text().await?;
                self.handle_put_definition(&body)
            }
            (Method::Get, "/definition") => self.handle_get_definition(&req),
            (Method::Post, "/quote") => {
                let body = req.text().await?;
                self.handle_quote(&body)
            }
            (Method::Post, "/capture") => {
                let key = req
                    .headers()
                    .get("idempotency-key")?
                    .ok_or(Problem::MissingIdempotencyKey)?;
                let body = req.text().await?;
                self.handle_capture(&IdempotencyKey::parse(&key)?, &body)
            }
            (Method::Get, "/redemptions") => self.handle_redemptions(&req),
            #[cfg(feature = "conformance")]
            (Method::Post, "/conformance") => self.handle_conformance(),
            _ => Err(Problem::NotFound),
        }
    }

    fn code_param(req: &Request) -> std::result::Result<Code, Problem> {
        let url = req.url()?;
        let code = url
            .query_pairs()
            .find(|(k, _)| k == "code")
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default();
        Ok(Code::parse(&code)?)
    }

    fn definition(store: &SqliteRedemptionStore, code: &Code) -> std::result::Result<PromoCode, Problem> {
        store
            .definition(code)?
            .ok_or_else(|| Problem::UnknownCode(code.clone()))
    }

    fn handle_put_definition(&self, body: &str) -> std::result::Result<Response, Problem> {
        let promo = PromoCode::from_json(body)?;
        let replaced = self.store()?.put_definition(&promo)?;
        json_response(&promo, if replaced { 200 } else { 201 })
    }

    fn handle_get_definition(&self, req: &Request) -> std::result::Result<Response, Problem> {
        let code = Self::code_param(req)?;
        let store = self.store()?;
        let promo = Self::definition(&store, &code)?;
        let usage = store.usage_for(&code, None)?;
        let mut view = serde_json::to_value(promo.public_view()).map_err(|e| Problem::Internal(e.to_string()))?;
        view["usage"] = json!({ "total": usage.total() });
        if let Some(cap) = promo.limits().total() {
            view["remaining"] = json!(cap.saturating_sub(usage.total()));
        }
        json_response(&view, 200)
    }

    fn handle_quote(&self, body: &str) -> std::result::Result<Response, Problem> {
        let basket = BasketRequest::from_json(body)?;
        let store = self.store()?;
        let promo = Self::definition(&store, &basket.code)?;
        let usage = store.usage_for(&basket.code, basket.customer.as_ref())?;
        let quote = promo
            .quote(basket.customer.as_ref(), usage, &basket.total, now()?)
            .map_err(|rejected| Problem::rejected(rejected, None))?;
        json_response(&quote, 200)
    }

    fn handle_capture(&self, key: &IdempotencyKey, body: &str) -> std::result::Result<Response, Problem> {
        let basket = BasketRequest::from_json(body)?;
        let store = self.store()?;
        let promo = Self::definition(&store, &basket.code)?;
        let now = now()?;
        // No page quote reaches the Worker: what the buyer would have been quoted stands in for it.
        let quoted = match promo.price(&basket.total, now) {
            Ok(quoted) => quoted,
            // Pricing refuses only a basket in another currency than the code's. A key recorded
            // before the definition changed currency still answers with its receipt.
            Err(rejected) => match store.reservation(&basket.code, key)? {
                Some(earlier) if earlier.is_same_request(basket.customer.as_ref(), &basket.total) => {
                    return json_response(&earlier.into_receipt(), 200);
                }
                Some(_) => return Err(Problem::IdempotencyKeyReused(key.clone())),
                None => return Err(Problem::rejected(rejected, None)),
            },
        };
        let options = CaptureOptions::new().idempotency_key(key);
        let receipt = capture(&promo, &store, &quoted, basket.customer.as_ref(), now, options)?;
        json_response(&receipt, if receipt.replayed { 200 } else { 201 })
    }

    fn handle_redemptions(&self, req: &Request) -> std::result::Result<Response, Problem> {
        let code = Self::code_param(req)?;
        let url = req.url()?;
        let param = |name: &str| url.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned());
        let after = match param("after") {
            None => 0,
            Some(text) => text.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| {
                Problem::Input(promocodes::InputError::Malformed {
                    path: "after".to_owned(),
                    message: format!("{text:?} is not a cursor from `next`"),
                })
            })?,
        };
        let limit = match param("limit") {
            None => 100,
            Some(text) => text
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=MAX_PAGE).contains(n))
                .ok_or_else(|| {
                    Problem::Input(promocodes::InputError::Malformed {
                        path: "limit".to_owned(),
                        message: format!("{text:?} is not a page size from 1 to {MAX_PAGE}"),
                    })
                })?,
        };
        let store = self.store()?;
        Self::definition(&store, &code)?;
        let (items, more) = store.redemptions(&code, after, limit)?;
        let next = if more {
            items.last().map(|r| r.seq.to_string())
        } else {
            None
        };
        json_response(&json!({ "code": code, "redemptions": items, "next": next }), 200)
    }

    #[cfg(feature = "conformance")]
    fn handle_conformance(&self) -> std::result::Result<Response, Problem> {
        let fresh = || {
            let store = SqliteRedemptionStore::open(self.state.storage()).expect("open the store");
            store.clear().expect("clear the store");
            store
        };
        // The suite panics on a failed check; with panic=abort that fails the request.
        promocodes::testing::run_conformance(fresh);
        let rolled_back = fresh().failed_transaction_rolls_back()?;
        json_response(
            &json!({ "conformance": "passed", "store": "sqlite", "failed_transaction_rolled_back": rolled_back }),
            200,
        )
    }
}
