//! The Durable Object: one [`Ledger`] per normalised promo code.
//!
//! The Worker authenticates and routes, then forwards the request body as it
//! came to the code's object (`https://ledger/<op>`). The object reads the
//! body (its only `await` before deciding), parses it once with the core's
//! request shapes, and runs the core synchronously against its
//! [`SqliteRedemptionStore`]. It keeps the store and the parsed definition in
//! memory between requests (replaced on every change of the definition, and
//! read again from SQLite after the object is evicted), and creates its
//! tables only when the code is first defined: a lookup of a code that was
//! never defined writes nothing.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use promocodes::api::{BasketRequest, BasketRequestKind, CodePatch, ReleaseRequest};
use promocodes::{capture, hold, release, Basket, CaptureOptions, Code, Currency, CustomerId, RedemptionError};
use promocodes::{HoldOptions, IdempotencyKey, Line, Money, PromoCode, Quote, RedemptionStore};
use promocodes::{Reservation, ReservationState, Timestamp};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

use crate::etag::{self, Condition, ETAG_HEADER};
use crate::problem::Problem;
use crate::protocol::{
    Call, FOR_CACHE_HEADER, FRESH_FOR_HEADER, IDEMPOTENCY_KEY_HEADER, OUTCOME_HEADER, TEST_CONFLICT_HEADER,
};
use crate::sqlite::{SqliteRedemptionStore, StoredDefinition};
use crate::stats::{self, Event};

use crate::limits::MAX_PAGE;

/// The Durable Object holding one code's definition, counts, holds, idempotency keys, receipts and figures.
#[durable_object]
pub struct Ledger {
    state: State,
    cache: RefCell<Cache>,
    /// Whether a public lookup may sit in the edge cache with counts that a
    /// write has since changed: set when the object answers a lookup for
    /// the cache, cleared when a write tells the Worker to purge it. It starts
    /// set, since a lookup may have been cached before this instance began.
    lookup_cached: Cell<bool>,
}

/// What the object keeps in memory between requests.
#[derive(Default)]
struct Cache {
    store: Option<Rc<SqliteRedemptionStore>>,
    definition: Option<Rc<StoredDefinition>>,
    /// The expiry the alarm is set for, as far as this instance knows.
    alarm: Option<Timestamp>,
    /// The last minute whose old figures were pruned.
    pruned: i64,
}

impl DurableObject for Ledger {
    fn new(state: State, _env: Env) -> Self {
        Ledger {
            state,
            cache: RefCell::new(Cache::default()),
            lookup_cached: Cell::new(true),
        }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        OUTCOME.with(|slot| slot.borrow_mut().take());
        let op = Call::of(&req.method(), &req.path()).and_then(Call::log_name);
        let response = match self.dispatch(req).await {
            Ok(response) => response,
            Err(problem) => {
                if let Some(op) = op {
                    note_refused(op, &problem);
                }
                problem.into_response()?
            }
        };
        with_outcome(response)
    }

    async fn alarm(&self) -> Result<Response> {
        match self.handle_alarm().await {
            Ok(()) => Response::ok(""),
            Err(problem) => {
                worker::console_error!("alarm failed: {}", problem.body());
                Response::error("alarm failed", 500)
            }
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

fn minute(at: Timestamp) -> i64 {
    at.as_unix_seconds().div_euclid(60)
}

thread_local! {
    /// The outcome of the request being handled, for its log line: the object
    /// decides it, the Worker times the whole request (a Worker's clock only
    /// moves across I/O, so the object cannot) and writes the line.
    static OUTCOME: std::cell::RefCell<Option<Value>> = const { std::cell::RefCell::new(None) };
}

/// Notes the outcome of this request (`code`, `op`, `outcome`, and a
/// `rejection`, `problem` or other detail) for its one JSON log line.
fn log(code: &Code, op: &str, outcome: &str, detail: Option<(&str, &str)>) {
    let mut line = json!({ "code": code, "op": op, "outcome": outcome });
    if let Some((field, value)) = detail {
        line[field] = json!(value);
    }
    OUTCOME.with(|slot| *slot.borrow_mut() = Some(line));
}

/// Notes the outcome of a hold, capture or release refused before it noted
/// one (a body it cannot read, an unknown code): the Worker adds the code it
/// routed by.
fn note_refused(op: &str, problem: &Problem) {
    OUTCOME.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            *slot = Some(json!({ "code": null, "op": op, "outcome": "problem", "problem": problem.slug() }));
        }
    });
}

/// Whether a write that left the code's total at `total_after` moved it to
/// its total cap (`"reached"`) or, giving a use back, from it (`"freed"`).
fn cap_change(promo: &PromoCode, total_after: u64, released: bool) -> Option<&'static str> {
    let cap = promo.limits().total()?;
    match released {
        false if total_after >= cap => Some("reached"),
        true if total_after + 1 == cap => Some("freed"),
        _ => None,
    }
}

/// The entity tag of a stored definition (see [`etag`]): over the JSON the store keeps.
fn tag(definition: &StoredDefinition) -> std::result::Result<String, Problem> {
    let json = serde_json::to_string(&definition.promo).map_err(|e| Problem::Internal(e.to_string()))?;
    Ok(etag::of(&json, definition.archived))
}

/// The answer with the definition's `ETag`.
fn with_etag(mut response: Response, definition: &StoredDefinition) -> std::result::Result<Response, Problem> {
    response.headers_mut().set(ETAG_HEADER, &tag(definition)?)?;
    Ok(response)
}

/// Attaches the noted outcome, if any, to the answer.
fn with_outcome(mut response: Response) -> Result<Response> {
    if let Some(line) = OUTCOME.with(|slot| slot.borrow_mut().take()) {
        response.headers_mut().set(OUTCOME_HEADER, &line.to_string())?;
    }
    Ok(response)
}

impl Ledger {
    /// The store, if the code was ever defined (read only: nothing is created).
    fn store(&self) -> std::result::Result<Option<Rc<SqliteRedemptionStore>>, Problem> {
        if let Some(store) = &self.cache.borrow().store {
            return Ok(Some(store.clone()));
        }
        let store = SqliteRedemptionStore::existing(self.state.storage())?.map(Rc::new);
        self.cache.borrow_mut().store.clone_from(&store);
        Ok(store)
    }

    /// The store, creating its tables (a definition is being written).
    fn store_or_create(&self) -> std::result::Result<Rc<SqliteRedemptionStore>, Problem> {
        if let Some(store) = self.store()? {
            return Ok(store);
        }
        let store = Rc::new(SqliteRedemptionStore::create(self.state.storage())?);
        self.cache.borrow_mut().store = Some(store.clone());
        Ok(store)
    }

    /// The stored definition of `code`, archived or not.
    fn stored(&self, code: &Code) -> std::result::Result<(Rc<SqliteRedemptionStore>, Rc<StoredDefinition>), Problem> {
        let store = self.store()?.ok_or_else(|| Problem::UnknownCode(code.clone()))?;
        if let Some(definition) = &self.cache.borrow().definition {
            if definition.promo.code() == code {
                return Ok((store, definition.clone()));
            }
        }
        let definition = Rc::new(
            store
                .definition(code)?
                .ok_or_else(|| Problem::UnknownCode(code.clone()))?,
        );
        self.cache.borrow_mut().definition = Some(definition.clone());
        Ok((store, definition))
    }

    /// The definition buyers may use: defined and not archived.
    fn live(&self, code: &Code) -> std::result::Result<(Rc<SqliteRedemptionStore>, Rc<StoredDefinition>), Problem> {
        let (store, definition) = self.stored(code)?;
        if definition.archived {
            return Err(Problem::UnknownCode(code.clone()));
        }
        Ok((store, definition))
    }

    /// Adds to the code's figures; a failure is logged, never returned.
    fn count(&self, event: Event<'_>, n: i64, at: Timestamp) {
        let sql = self.state.storage().sql();
        let now_minute = minute(at);
        let result = stats::record(&sql, event, n, now_minute).and_then(|()| {
            let stale = self.cache.borrow().pruned < now_minute;
            if stale {
                stats::prune(&sql, now_minute)?;
                self.cache.borrow_mut().pruned = now_minute;
            }
            Ok(())
        });
        if let Err(err) = result {
            worker::console_error!("stats not recorded ({event:?}): {err}");
        }
    }

    async fn dispatch(&self, mut req: Request) -> std::result::Result<Response, Problem> {
        let call = Call::of(&req.method(), &req.path()).ok_or(Problem::NotFound)?;
        match call {
            Call::PutDefinition => {
                let condition = Condition::of(req.headers())?;
                let body = req.text().await?;
                self.handle_put_definition(&body, &condition)
            }
            Call::PatchDefinition => {
                let code = Self::code_param(&req)?;
                let condition = Condition::of(req.headers())?;
                let body = req.text().await?;
                self.handle_patch_definition(&code, &body, &condition)
            }
            Call::ArchiveDefinition => self.handle_archive(&Self::code_param(&req)?),
            Call::GetDefinition => {
                let for_cache = req.headers().get(FOR_CACHE_HEADER)?.is_some();
                self.handle_get_definition(&Self::code_param(&req)?, for_cache)
            }
            Call::Summary => self.handle_summary(&Self::code_param(&req)?),
            Call::Quote => {
                let body = req.text().await?;
                self.handle_quote(&body)
            }
            Call::Hold => {
                let key = Self::key(&req)?;
                let body = req.text().await?;
                self.handle_hold(&key, &body).await
            }
            Call::Capture => {
                let key = Self::key(&req)?;
                let conflict = Self::forced_conflict(&req)?;
                let body = req.text().await?;
                self.handle_capture(&key, &body, conflict)
            }
            Call::Release => {
                let body = req.text().await?;
                self.handle_release(&body)
            }
            Call::PaymentCapture => {
                let capture: PaymentCapture = req.json().await?;
                self.handle_payment_capture(&capture)
            }
            Call::PaymentRelease => {
                let release: PaymentRelease = req.json().await?;
                self.handle_payment_release(&release)
            }
            Call::Redemptions => self.handle_redemptions(&req),
            Call::Stats => self.handle_stats(&Self::code_param(&req)?),
            #[cfg(feature = "conformance")]
            Call::Conformance => self.handle_conformance(),
        }
    }

    fn key(req: &Request) -> std::result::Result<IdempotencyKey, Problem> {
        let key = req
            .headers()
            .get(IDEMPOTENCY_KEY_HEADER)?
            .ok_or(Problem::MissingIdempotencyKey)?;
        Ok(IdempotencyKey::parse(&key)?)
    }

    /// Test builds only: `x-test-conflict: 1` makes every compare-and-set of
    /// this capture lose, to see a 409 end to end.
    fn forced_conflict(req: &Request) -> std::result::Result<bool, Problem> {
        let asked = req.headers().get(TEST_CONFLICT_HEADER)?.is_some();
        Ok(cfg!(feature = "conformance") && asked)
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

    /// Replaces the cached definition after a write.
    fn remember(
        &self,
        store: &SqliteRedemptionStore,
        code: &Code,
    ) -> std::result::Result<Rc<StoredDefinition>, Problem> {
        let definition = Rc::new(
            store
                .definition(code)?
                .ok_or_else(|| Problem::UnknownCode(code.clone()))?,
        );
        self.cache.borrow_mut().definition = Some(definition.clone());
        Ok(definition)
    }

    /// A write's `If-Match` / `If-None-Match` conditions, checked against the
    /// stored definition of `code`. The caller writes in the same synchronous
    /// step (no `await` between this check and its write), so no other write
    /// lands between them.
    fn check_condition(&self, code: &Code, condition: &Condition) -> std::result::Result<(), Problem> {
        if condition.is_none() {
            return Ok(());
        }
        let current = match self.store()? {
            Some(_) => match self.stored(code) {
                Ok((_, definition)) => Some(tag(&definition)?),
                Err(Problem::UnknownCode(_)) => None,
                Err(other) => return Err(other),
            },
            None => None,
        };
        if condition.allows(current.as_deref()) {
            Ok(())
        } else {
            Err(Problem::PreconditionFailed { current })
        }
    }

    fn handle_put_definition(&self, body: &str, condition: &Condition) -> std::result::Result<Response, Problem> {
        let promo = PromoCode::from_json(body)?;
        self.check_condition(promo.code(), condition)?;
        let store = self.store_or_create()?;
        let replaced = store.put_definition(&promo, now()?)?;
        let definition = self.remember(&store, promo.code())?;
        with_etag(json_response(&promo, if replaced { 200 } else { 201 })?, &definition)
    }

    fn handle_patch_definition(
        &self,
        code: &Code,
        body: &str,
        condition: &Condition,
    ) -> std::result::Result<Response, Problem> {
        let patch = CodePatch::from_json(body)?;
        let (store, definition) = self.live(code)?;
        self.check_condition(code, condition)?;
        let promo = definition.promo.with_active(patch.active);
        store.put_definition(&promo, now()?)?;
        let definition = self.remember(&store, code)?;
        with_etag(json_response(&promo, 200)?, &definition)
    }

    fn handle_archive(&self, code: &Code) -> std::result::Result<Response, Problem> {
        let (store, _) = self.stored(code)?;
        store.set_archived(code, true)?;
        let definition = self.remember(&store, code)?;
        json_response(&self.summary(&store, &definition)?, 200)
    }

    /// What the catalog and the admin see of a code: the definition (the
    /// audience only as `assigned`), whether it is archived, and its usage now.
    fn summary(
        &self,
        store: &SqliteRedemptionStore,
        definition: &StoredDefinition,
    ) -> std::result::Result<Value, Problem> {
        let promo = &definition.promo;
        let at = now()?;
        let usage = store.usage_for(promo.code(), None, at)?;
        let held = store.held(promo.code(), at)?;
        let mut view = serde_json::to_value(promo.public_view()).map_err(|e| Problem::Internal(e.to_string()))?;
        view["archived"] = json!(definition.archived);
        view["usage"] = json!({ "total": usage.total(), "held": held });
        if let Some(cap) = promo.limits().total() {
            view["remaining"] = json!(cap.saturating_sub(usage.total()));
        }
        Ok(view)
    }

    fn handle_summary(&self, code: &Code) -> std::result::Result<Response, Problem> {
        let (store, definition) = self.stored(code)?;
        json_response(&self.summary(&store, &definition)?, 200)
    }

    /// A code's public view. For the edge cache (`for_cache`), it also says
    /// how long its counts hold without a write ([`FRESH_FOR_HEADER`]: until
    /// the next hold expires), and notes that a write must purge the copy.
    fn handle_get_definition(&self, code: &Code, for_cache: bool) -> std::result::Result<Response, Problem> {
        let (store, definition) = self.live(code)?;
        let mut view = self.summary(&store, &definition)?;
        if let Some(object) = view.as_object_mut() {
            object.remove("archived");
        }
        let mut response = json_response(&view, 200)?;
        if !for_cache {
            response = with_etag(response, &definition)?;
        }
        if for_cache {
            self.lookup_cached.set(true);
            let at = now()?;
            if let Some(expires) = store.next_expiry_after(code, at)? {
                let millis = expires.as_unix_millis().saturating_sub(at.as_unix_millis());
                response
                    .headers_mut()
                    .set(FRESH_FOR_HEADER, &(millis / 1000).to_string())?;
            }
        }
        Ok(response)
    }

    /// Notes, on the outcome, that this request changed the code's counts
    /// (`total_after` uses now count): `cap: "reached"` or `"freed"` when it
    /// moved the code to or from its total cap, and `purge: true` when a
    /// public lookup may be cached with the counts before it. The Worker then
    /// purges the code's cached lookup, so a buyer's next lookup is live.
    fn note_counts_changed(&self, promo: &PromoCode, total_after: u64, released: bool) {
        let cap = cap_change(promo, total_after, released);
        let purge = self.lookup_cached.replace(false);
        OUTCOME.with(|slot| {
            if let Some(line) = slot.borrow_mut().as_mut() {
                if let Some(change) = cap {
                    line["cap"] = json!(change);
                }
                if purge {
                    line["purge"] = json!(true);
                }
            }
        });
    }

    fn handle_quote(&self, body: &str) -> std::result::Result<Response, Problem> {
        let req = BasketRequest::parse(body, BasketRequestKind::Quote)?;
        let (store, definition) = self.live(&req.code)?;
        let at = now()?;
        let usage = store.usage_for(&req.code, req.customer.as_ref(), at)?;
        match definition.promo.quote(req.customer.as_ref(), usage, &req.basket, at) {
            Ok(quote) => {
                self.count(Event::Quote, 1, at);
                json_response(&quote, 200)
            }
            Err(rejected) => {
                self.count(Event::Rejected("quotes", rejected.rejection().code()), 1, at);
                Err(Problem::Refused(rejected))
            }
        }
    }

    async fn handle_hold(&self, key: &IdempotencyKey, body: &str) -> std::result::Result<Response, Problem> {
        let req = BasketRequest::parse(body, BasketRequestKind::Hold)?;
        let (store, definition) = self.live(&req.code)?;
        let at = now()?;
        let mut options = HoldOptions::new();
        if let Some(ttl) = req.ttl_seconds {
            options = options.ttl_seconds(ttl);
        }
        let code = &req.code;
        let held = hold(
            &definition.promo,
            &*store,
            req.customer.as_ref(),
            &req.basket,
            at,
            key,
            options,
        );
        match held {
            Ok(held) if held.replayed => {
                self.count(Event::Replay, 1, at);
                log(code, "hold", "replayed", None);
                json_response(&held, 200)
            }
            Ok(held) => {
                self.count(Event::Hold, 1, at);
                // The hold is committed and counts never depend on the alarm (it only marks
                // expired holds): a failure to set it is logged, and the next hold sets it again.
                if let Err(problem) = self.schedule_expiry(&store, code).await {
                    worker::console_error!("setting the expiry alarm of {code} failed: {}", problem.body());
                }
                log(code, "hold", "held", None);
                self.note_counts_changed(&definition.promo, held.usage.total(), false);
                json_response(&held, 201)
            }
            Err(err) => {
                // A hold's refusal shows the rule, not the quotes (a capture's shows them).
                let problem = Problem::from(err).without_quotes();
                self.count_failure("holds", &problem, at);
                log_problem(code, "hold", &problem);
                Err(problem)
            }
        }
    }

    fn handle_capture(
        &self,
        key: &IdempotencyKey,
        body: &str,
        conflict: bool,
    ) -> std::result::Result<Response, Problem> {
        let req = BasketRequest::parse(body, BasketRequestKind::Capture)?;
        let (store, definition) = self.stored(&req.code)?;
        // An archived code takes no new captures; a retry of one recorded before still replays.
        if definition.archived && store.reservation(&req.code, key)?.is_none() {
            return Err(Problem::UnknownCode(req.code.clone()));
        }
        let at = now()?;
        let mut options = CaptureOptions::new().idempotency_key(key);
        if let Some(shown) = &req.quote {
            options = options.quoted(shown);
        }
        let (promo, customer, basket) = (&definition.promo, req.customer.as_ref(), &req.basket);
        let result = if conflict {
            #[cfg(feature = "conformance")]
            {
                let losing = promocodes::testing::FlakyStore::new(&*store, u32::MAX);
                capture(promo, &losing, customer, basket, at, options)
            }
            #[cfg(not(feature = "conformance"))]
            unreachable!("forced conflicts exist in test builds only")
        } else {
            capture(promo, &*store, customer, basket, at, options)
        };
        self.answer_capture(&req.code, promo, result, at)
    }

    /// Figures, the log line and the HTTP answer of a capture.
    fn answer_capture(
        &self,
        code: &Code,
        promo: &PromoCode,
        result: std::result::Result<promocodes::Receipt, RedemptionError>,
        at: Timestamp,
    ) -> std::result::Result<Response, Problem> {
        match result {
            Ok(receipt) if receipt.replayed => {
                self.count(Event::Replay, 1, at);
                log(code, "capture", "replayed", None);
                json_response(&receipt, 200)
            }
            Ok(receipt) => {
                self.count(Event::Capture, 1, at);
                log(code, "capture", "captured", None);
                self.note_counts_changed(promo, receipt.usage.total(), false);
                json_response(&receipt, 201)
            }
            Err(err) => {
                let problem = Problem::from(err);
                self.count_failure("captures", &problem, at);
                log_problem(code, "capture", &problem);
                Err(problem)
            }
        }
    }

    fn count_failure(&self, op: &str, problem: &Problem, at: Timestamp) {
        match problem {
            Problem::Refused(_) | Problem::Rejected { .. } => {
                if let Some(rejected) = problem.rejection() {
                    self.count(Event::Rejected(op, rejected.rejection().code()), 1, at)
                }
            }
            Problem::Conflict(_) => self.count(Event::Conflict, 1, at),
            _ => {}
        }
    }

    /// A payment provider's confirmation (the Stripe webhook): the money has
    /// moved. A capture refused now cannot be undone by an error answer, so
    /// it is recorded as a refused payment capture, for the operator to refund
    /// or honour, and answered 200; a conflict or a store failure is a 5xx, so
    /// the provider delivers again.
    fn handle_payment_capture(&self, payment: &PaymentCapture) -> std::result::Result<Response, Problem> {
        let code = Code::parse(&payment.code)?;
        let payment_key = IdempotencyKey::parse(&payment.key)?;
        let (store, definition) = self.stored(&code)?;
        let at = now()?;
        // A full refund is final for its payment, whatever came before it: nothing is captured.
        if let Some(released) = store.final_payment(&code, &payment_key)? {
            return self.payment_replayed(&code, payment, at, "released", json!({ "release": released }));
        }
        let mut key = payment_key.clone();
        let mut earlier = store.reservation(&code, &key)?;
        if earlier.as_ref().is_some_and(released_hold) {
            // A hold released by a failed attempt (`payment_failed`), then a
            // retry that paid: the payment's key names a use given back, so
            // this payment is captured afresh under its second key.
            key = paid_after_release(&payment_key)?;
            earlier = store.reservation(&code, &key)?.or(earlier);
        }
        // A refused payment capture is final for its key: the operator may have refunded it.
        if let Some(refusal) = store.refusal(&code, &key)? {
            let detail = json!({ "rejection": refusal["rejection"], "detail": refusal["detail"] });
            return self.payment_replayed(&code, payment, at, "refused", detail);
        }
        let refuse = |rejection: Option<&str>, detail: String, quote: Option<&promocodes::Quote>| {
            self.refuse_payment(&store, &code, &key, payment, at, rejection, detail, quote)
        };
        let customer = match payment.customer.as_deref().map(CustomerId::parse).transpose() {
            Ok(customer) => customer,
            Err(err) => return refuse(None, format!("metadata.customer: {err}"), None),
        };
        let basket = match (&payment.basket, &earlier) {
            (Some(json), _) => match Basket::from_json(json) {
                Ok(basket) => basket,
                Err(err) => return refuse(None, format!("metadata.promo_basket: {}", err.at(".")), None),
            },
            (None, Some(held)) => basket_of(&held.quote)?,
            (None, None) => {
                return refuse(
                    None,
                    "metadata has no promo_basket and no hold was taken under the payment's id".to_owned(),
                    None,
                )
            }
        };
        let charged = match Currency::from_code(&payment.currency).and_then(|c| Money::parse(&payment.charged, c)) {
            Ok(charged) => charged,
            Err(err) => return refuse(None, format!("the amount charged: {err}"), None),
        };
        if definition.archived && earlier.is_none() {
            return refuse(None, format!("the code {code} is archived"), None);
        }
        let options = CaptureOptions::new().idempotency_key(&key).charged(charged);
        let result = capture(&definition.promo, &*store, customer.as_ref(), &basket, at, options);
        match result {
            Ok(receipt) => {
                let (event, outcome, status) = if receipt.replayed {
                    (Event::Replay, "replayed", "replayed")
                } else {
                    (Event::Capture, "captured", "captured")
                };
                self.count(event, 1, at);
                log(&code, "capture", outcome, Some(("event", payment.event_id.as_str())));
                if !receipt.replayed {
                    self.note_counts_changed(&definition.promo, receipt.usage.total(), false);
                }
                json_response(&json!({ "received": true, "action": status, "receipt": receipt }), 200)
            }
            Err(RedemptionError::Conflict(conflict)) => {
                self.count(Event::Conflict, 1, at);
                log(&code, "capture", "problem", Some(("problem", "conflict")));
                Err(Problem::RetryLater(conflict))
            }
            Err(RedemptionError::Store(err)) => Err(Problem::Store(err)),
            Err(RedemptionError::Rejected(stale)) => {
                let rejection = stale.rejection().code();
                refuse(Some(rejection), stale.rejected.message().to_owned(), Some(&stale.quote))
            }
            Err(other) => refuse(None, other.to_string(), None),
        }
    }

    /// Answers a payment event that finds its payment settled for good (a
    /// refund before it, or a refused capture): 200, `replayed`, nothing recorded.
    fn payment_replayed(
        &self,
        code: &Code,
        payment: &PaymentCapture,
        at: Timestamp,
        action: &str,
        fields: Value,
    ) -> std::result::Result<Response, Problem> {
        self.count(Event::Replay, 1, at);
        log(code, "capture", "replayed", Some(("event", payment.event_id.as_str())));
        let mut answer = json!({ "received": true, "action": action, "replayed": true });
        if let (Some(answer), Value::Object(fields)) = (answer.as_object_mut(), fields) {
            answer.extend(fields);
        }
        json_response(&answer, 200)
    }

    /// Records and answers a payment capture refused after the money moved.
    #[allow(clippy::too_many_arguments)]
    fn refuse_payment(
        &self,
        store: &SqliteRedemptionStore,
        code: &Code,
        key: &IdempotencyKey,
        payment: &PaymentCapture,
        at: Timestamp,
        rejection: Option<&str>,
        detail: String,
        quote: Option<&promocodes::Quote>,
    ) -> std::result::Result<Response, Problem> {
        let refusal = json!({
            "customer": payment.customer,
            "rejection": rejection,
            "detail": detail,
            "charged": { "amount": payment.charged, "currency": payment.currency },
            "event_id": payment.event_id,
            "refused_at": at,
            "quote": quote,
        });
        let first = store.record_refusal(code, key, &refusal)?;
        if first {
            self.count(
                Event::Rejected("captures", rejection.unwrap_or("invalid_request")),
                1,
                at,
            );
        }
        log(
            code,
            "capture",
            "refused_after_payment",
            Some(("rejection", rejection.unwrap_or("invalid_request"))),
        );
        OUTCOME.with(|slot| {
            if let Some(line) = slot.borrow_mut().as_mut() {
                line["payment"] = json!(key);
                line["event"] = json!(payment.event_id);
                line["detail"] = json!(detail);
            }
        });
        json_response(
            &json!({ "received": true, "action": "refused", "rejection": rejection, "detail": detail, "replayed": !first }),
            200,
        )
    }

    fn handle_release(&self, body: &str) -> std::result::Result<Response, Problem> {
        let req = ReleaseRequest::from_json(body)?;
        self.release_answer(&req.code, &req.key, req.reason.as_deref())
    }

    /// A payment provider's "give the use back" (the Stripe webhook): the
    /// release of what is recorded under the payment's id, or under its
    /// second key if a retry paid after a failed attempt released the hold.
    /// A failed or cancelled payment releases only a hold: a capture is left
    /// as it is and the event is answered as ignored (200, with why).
    fn handle_payment_release(&self, payment: &PaymentRelease) -> std::result::Result<Response, Problem> {
        let code = Code::parse(&payment.code)?;
        let key = IdempotencyKey::parse(&payment.key)?;
        let store = self.store()?.ok_or_else(|| Problem::UnknownCode(code.clone()))?;
        let payment_key = key;
        if let Some(released) = store.final_payment(&code, &payment_key)? {
            // Refunded before: every later event for the payment replays that.
            let at = now()?;
            self.count(Event::Replay, 1, at);
            log(&code, "release", "replayed", None);
            return json_response(
                &json!({ "received": true, "action": "released", "release": released, "replayed": true }),
                200,
            );
        }
        let paid = paid_after_release(&payment_key)?;
        let key = if store.reservation(&code, &paid)?.is_some() {
            paid
        } else {
            payment_key.clone()
        };
        let reason = payment
            .reason
            .chars()
            .filter(|c| !c.is_control())
            .take(promocodes::MAX_REASON_LEN)
            .collect::<String>();
        if !payment.holds_only {
            // A full refund is final for its payment: recorded even when nothing was held or
            // captured yet, so that a `payment_intent.succeeded` delivered after it captures nothing.
            if store.reservation(&code, &key)?.is_none() {
                let at = now()?;
                if let Some(released) = store.record_unpaid_refund(&code, &payment_key, &reason, at)? {
                    let replayed = released["replayed"].as_bool().unwrap_or(false);
                    self.count(if replayed { Event::Replay } else { Event::Release }, 1, at);
                    log(&code, "release", if replayed { "replayed" } else { "released" }, None);
                    return json_response(
                        &json!({ "received": true, "action": "released", "release": released, "replayed": replayed }),
                        200,
                    );
                }
            }
            let response = self.release_answer(&code, &key, Some(&reason))?;
            store.mark_final(&code, &payment_key, &key)?;
            return Ok(response);
        }
        // A failed or cancelled payment releases a hold, never a capture.
        if let Some(recorded) = store.reservation(&code, &key)? {
            if recorded.state == ReservationState::Captured {
                let why = format!(
                    "{} is captured: a failed or cancelled payment releases only a hold",
                    key.as_str()
                );
                log(&code, "release", "ignored", Some(("why", why.as_str())));
                return json_response(&json!({ "received": true, "action": "ignored", "why": why }), 200);
            }
        }
        self.release_answer(&code, &key, Some(&reason))
    }

    fn release_answer(
        &self,
        code: &Code,
        key: &IdempotencyKey,
        reason: Option<&str>,
    ) -> std::result::Result<Response, Problem> {
        let store = self.store()?.ok_or_else(|| Problem::UnknownCode(code.clone()))?;
        self.stored(code)?;
        let at = now()?;
        match release(&*store, code, key, at, reason) {
            Ok(released) => {
                let (event, outcome) = if released.replayed {
                    (Event::Replay, "replayed")
                } else {
                    (Event::Release, "released")
                };
                self.count(event, 1, at);
                log(code, "release", outcome, Some(("was", released.was.as_str())));
                if let (false, Ok((_, definition))) = (released.replayed, self.stored(code)) {
                    self.note_counts_changed(&definition.promo, released.usage.total(), true);
                }
                json_response(&released, 200)
            }
            Err(err) => {
                let problem = Problem::from(err);
                log_problem(code, "release", &problem);
                Err(problem)
            }
        }
    }

    /// Keeps the alarm at the earliest expiry of the holds still held.
    async fn schedule_expiry(&self, store: &SqliteRedemptionStore, code: &Code) -> std::result::Result<(), Problem> {
        let next = store.next_expiry(code)?;
        let current = self.cache.borrow().alarm;
        if next.is_some() && next != current {
            if let Some(at) = next {
                let date = worker::js_sys::Date::new(&(at.as_unix_millis() as f64 + 1.0).into());
                self.state.storage().set_alarm(worker::ScheduledTime::new(date)).await?;
            }
            self.cache.borrow_mut().alarm = next;
        }
        Ok(())
    }

    async fn handle_alarm(&self) -> std::result::Result<(), Problem> {
        self.cache.borrow_mut().alarm = None;
        let Some(store) = self.store()? else {
            return Ok(());
        };
        let codes: Vec<Value> = self
            .state
            .storage()
            .sql()
            .exec("SELECT code FROM definition", None)?
            .to_array()?;
        let at = now()?;
        for row in codes {
            let Some(code) = row["code"].as_str().and_then(|c| Code::parse(c).ok()) else {
                continue;
            };
            let (expired, _) = store.expire_holds(&code, at)?;
            if expired > 0 {
                self.count(Event::Expired, expired as i64, at);
                worker::console_log!(
                    "{}",
                    json!({"code": code, "op": "expire", "outcome": "expired", "holds": expired})
                );
            }
            self.schedule_expiry(&store, &code).await?;
        }
        Ok(())
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
        let (store, _) = self.stored(&code)?;
        let (items, more) = store.redemptions(&code, after, limit, now()?)?;
        let next = if more {
            items.last().map(|r| r["seq"].to_string())
        } else {
            None
        };
        json_response(&json!({ "code": code, "redemptions": items, "next": next }), 200)
    }

    fn handle_stats(&self, code: &Code) -> std::result::Result<Response, Problem> {
        let (_, definition) = self.stored(code)?;
        let at = now()?;
        let sql = self.state.storage().sql();
        let (total, last_hour) = stats::read(&sql, minute(at))?;
        let mut minutes = Vec::new();
        for (m, figures) in stats::by_minute(&sql, minute(at))? {
            let start = Timestamp::from_unix_millis(m * 60_000).map_err(|e| Problem::Internal(e.to_string()))?;
            minutes.push(json!({ "minute": start, "figures": figures }));
        }
        json_response(
            &json!({
                "code": code,
                "defined_at": definition.defined_at,
                "at": at,
                "total": total,
                "last_hour": last_hour,
                "by_minute": minutes,
            }),
            200,
        )
    }

    #[cfg(feature = "conformance")]
    fn handle_conformance(&self) -> std::result::Result<Response, Problem> {
        let fresh = || {
            let store = SqliteRedemptionStore::create(self.state.storage()).expect("create the store");
            store.clear().expect("clear the store");
            store
        };
        // The suite panics on a failed check; with panic=abort that fails the request.
        promocodes::testing::run_conformance(fresh);
        let rolled_back = fresh().failed_transaction_rolls_back()?;
        self.cache.borrow_mut().store = None;
        json_response(
            &json!({ "conformance": "passed", "store": "sqlite", "failed_transaction_rolled_back": rolled_back }),
            200,
        )
    }
}

/// What the Worker forwards of a payment provider's confirmation: the code,
/// the payment's id as the key, and the metadata's customer and basket as
/// given (the object reads them, so that a bad one is recorded, not lost).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaymentCapture {
    /// The code from the metadata, normalised.
    pub code: String,
    /// The payment's id (`pi_...`): the capture's idempotency key.
    pub key: String,
    /// The metadata's customer, if any.
    pub customer: Option<String>,
    /// The metadata's basket (JSON text), if any.
    pub basket: Option<String>,
    /// The amount charged, in major units (`"72.00"`).
    pub charged: String,
    /// Its currency (`"EUR"`).
    pub currency: String,
    /// The provider's event id, for the record.
    pub event_id: String,
}

/// The suffix of the second key a payment is captured under when its first
/// key names a hold that a failed attempt released (see [`paid_after_release`]).
pub const PAID_AFTER_RELEASE_SUFFIX: &str = ":paid";

/// The key a payment is captured under when the hold taken under its own id
/// was released by a failed attempt (`payment_intent.payment_failed`) and a
/// retry then paid: `<payment id>:paid`. A key names one redemption forever,
/// and the payment's own key names the use given back; the payment that went
/// through is a second redemption, under this key, which a later refund
/// releases.
///
/// # Errors
///
/// [`Problem::Input`] when the payment id is too long to take the suffix.
pub fn paid_after_release(payment: &IdempotencyKey) -> std::result::Result<IdempotencyKey, Problem> {
    Ok(IdempotencyKey::parse(&format!(
        "{}{PAID_AFTER_RELEASE_SUFFIX}",
        payment.as_str()
    ))?)
}

/// A hold given back before it was ever captured.
fn released_hold(reservation: &Reservation) -> bool {
    reservation.state == ReservationState::Released && reservation.was == Some(ReservationState::Held)
}

/// What the Worker forwards of a payment provider's "give the use back":
/// the code, the payment's id, the reason, and whether only a hold may be
/// released (a failed or cancelled payment) or a capture too (a refund).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaymentRelease {
    /// The code, normalised.
    pub code: String,
    /// The payment's id (`pi_...`).
    pub key: String,
    /// Why, for the record.
    pub reason: String,
    /// True for `payment_intent.canceled` and `payment_intent.payment_failed`:
    /// they release a hold, never a capture (Stripe does not order its
    /// events, so a late `payment_failed` can arrive after the retry that paid).
    pub holds_only: bool,
}

/// The basket a quote was made for, as far as a capture needs it: the same
/// lines (sku and amount) and shipping, or the same total.
fn basket_of(quote: &Quote) -> std::result::Result<Basket, Problem> {
    match quote.lines() {
        None => Ok(Basket::from(*quote.total())),
        Some(lines) => {
            let lines = lines
                .iter()
                .map(|l| Line::new(l.sku.clone(), 1, l.amount))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            Ok(Basket::from_lines(lines, quote.shipping().map(|s| s.amount))?)
        }
    }
}

fn log_problem(code: &Code, op: &str, problem: &Problem) {
    match problem {
        Problem::Refused(_) | Problem::Rejected { .. } => {
            let rejection = problem.rejection().map_or("", |r| r.rejection().code());
            log(code, op, "rejected", Some(("rejection", rejection)))
        }
        other => log(code, op, "problem", Some(("problem", other.slug()))),
    }
}
