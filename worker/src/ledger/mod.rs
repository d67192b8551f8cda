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
use promocodes::wire::OutcomeLine;
use promocodes::{capture, hold, release, CaptureOptions, Code, RedemptionError};
use promocodes::{HoldOptions, IdempotencyKey, PromoCode, RedemptionStore};
use promocodes::{Money, Timestamp};
use serde_json::Value;
use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

use crate::alarm::Alarm;
use crate::etag::{self, Condition, ETAG_HEADER};
use crate::http::change_note;
use crate::limits::MAX_PAGE;
use crate::payments::flow::{PaymentCapture, PaymentRelease};
use crate::problem::Problem;
use crate::protocol::{
    Call, FOR_CACHE_HEADER, FRESH_FOR_HEADER, IDEMPOTENCY_KEY_HEADER, OUTCOME_HEADER, TEST_CONFLICT_HEADER,
    TEST_SEED_HEADER,
};
use crate::sqlite::{SqliteRedemptionStore, StoredCampaign, StoredDefinition};
use crate::stats::{self, Event};

mod campaign;
mod checkout;
mod claims;
mod code_escrow;
mod coordinator;
mod definition;
mod delivery;
mod history;
mod layouts;
mod shard;

pub(crate) use layouts::{afresh, counts_customer};
pub(crate) use shard::View as ShardView;

/// The Durable Object holding one code's definition, counts, holds, idempotency keys, receipts and figures.
#[durable_object]
pub struct Ledger {
    state: State,
    env: Env,
    cache: RefCell<Cache>,
    /// The object's one alarm (the next hold's expiry, the figures counted in
    /// memory when due, the outbox's deliveries), shared with its store.
    alarm: Rc<Alarm>,
    /// Whether a public lookup may sit in the edge cache with counts that a
    /// write has since changed: set when the object answers a lookup for
    /// the cache, cleared when a write tells the Worker to purge it. It starts
    /// set, since a lookup may have been cached before this instance began.
    lookup_cached: Cell<bool>,
    /// When this instance last pruned the outbox (Unix milliseconds).
    pruned_at: Cell<i64>,
    /// Figures counted in memory and not yet written: the quotes' (see [`stats`]).
    figures: RefCell<stats::Pending>,
    /// A sharded code's escrow: one grant or recall at a time (see [`crate::shards`]).
    shards: crate::shards::Local,
    /// Test builds only: when this instance wrote figures to SQLite (Unix milliseconds).
    #[cfg(feature = "conformance")]
    figure_writes: RefCell<Vec<i64>>,
}

/// What the object keeps in memory between requests.
#[derive(Default)]
struct Cache {
    store: Option<Rc<SqliteRedemptionStore>>,
    definition: Option<Rc<StoredDefinition>>,
    /// The campaign this object keeps, once read (`Some(None)`: it keeps none),
    /// from which each of its codes' definitions is made: a campaign's
    /// object sees a new code at nearly every capture.
    campaign: Option<Option<Rc<StoredCampaign>>>,
    /// The last minute whose old figures were pruned.
    pruned: i64,
}

impl DurableObject for Ledger {
    fn new(state: State, env: Env) -> Self {
        Ledger {
            state,
            env,
            cache: RefCell::new(Cache::default()),
            alarm: Rc::default(),
            pruned_at: Cell::new(0),
            lookup_cached: Cell::new(true),
            figures: RefCell::new(stats::Pending::default()),
            shards: crate::shards::Local::default(),
            #[cfg(feature = "conformance")]
            figure_writes: RefCell::new(Vec::new()),
        }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        crate::shards::pace(&self.env, &self.shards.paced_until).await;
        OUTCOME.with(|slot| slot.borrow_mut().take());
        let op = Call::of(&req.method(), &req.path()).and_then(Call::log_name);
        let started = self.cache.borrow().store.is_none();
        let changed = matches!(
            Call::of(&req.method(), &req.path()),
            Some(Call::PutDefinition | Call::PatchDefinition | Call::ArchiveDefinition)
        );
        let campaign_changed = matches!(
            Call::of(&req.method(), &req.path()),
            Some(Call::PutCampaign | Call::PatchCampaign | Call::ArchiveCampaign)
        );
        let response = match self.dispatch(req).await {
            Ok(response) if changed => {
                self.push_definition().await;
                response
            }
            Ok(response) if campaign_changed && response.status_code() < 300 => {
                self.push_campaign().await;
                response
            }
            Ok(response) => response,
            Err(problem) => {
                if let Some(op) = op {
                    note_refused(op, &problem);
                }
                problem.into_response()?
            }
        };
        // Events written by this request are sent by the alarm, which the write set in its own turn.
        if let Err(error) = self.alarm.settle().await {
            worker::console_error!("setting the delivery alarm failed: {error}");
        }
        if started {
            if let Err(problem) = self.resume_deliveries().await {
                worker::console_error!("resuming deliveries failed: {}", problem.body());
            }
        }
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

pub(crate) fn json_response(value: &impl serde::Serialize, status: u16) -> std::result::Result<Response, Problem> {
    Ok(Response::from_json(value)?.with_status(status))
}

fn minute(at: Timestamp) -> i64 {
    at.as_unix_seconds().div_euclid(60)
}

thread_local! {
    /// The outcome of the request being handled, for its log line: the object
    /// decides it, the Worker times the whole request (a Worker's clock only
    /// moves across I/O, so the object cannot) and writes the line.
    pub(crate) static OUTCOME: std::cell::RefCell<Option<OutcomeLine>> = const { std::cell::RefCell::new(None) };
}

/// Notes the outcome of this request (`code`, `op`, `outcome`, and a
/// detail: `was`, `rejection`, `problem`, `event` or `why`, as
/// [`OutcomeLine`] names them) for its one JSON log line.
pub(crate) fn log(code: &Code, op: &str, outcome: &str, detail: Option<(&str, &str)>) {
    let mut line = OutcomeLine::new(Some(code.as_str()), op, outcome);
    match detail {
        Some(("was", was)) => line.was = Some(was.to_owned()),
        Some(("rejection", rejection)) => line.rejection = Some(rejection.to_owned()),
        Some(("problem", problem)) => line.problem = Some(problem.to_owned()),
        Some(("event", event)) => line.event = Some(event.to_owned()),
        Some(("why", why)) => line.why = Some(why.to_owned()),
        // Not a detail the line names: kept, with its name.
        Some((field, value)) => line.detail = Some(format!("{field}: {value}")),
        None => {}
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
            *slot = Some(OutcomeLine {
                problem: Some(problem.slug().to_owned()),
                ..OutcomeLine::new(None, op, "problem")
            });
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

/// Attaches the noted outcome, if any, to the answer.
fn with_outcome(mut response: Response) -> Result<Response> {
    if let Some(line) = OUTCOME.with(|slot| slot.borrow_mut().take()) {
        let line = serde_json::to_string(&line).map_err(|e| worker::Error::RustError(e.to_string()))?;
        response.headers_mut().set(OUTCOME_HEADER, &line)?;
    }
    Ok(response)
}

impl Ledger {
    /// The store, if the code was ever defined (read only: nothing is created).
    pub(crate) fn store(&self) -> std::result::Result<Option<Rc<SqliteRedemptionStore>>, Problem> {
        if let Some(store) = &self.cache.borrow().store {
            return Ok(Some(store.clone()));
        }
        let store = SqliteRedemptionStore::existing(self.state.storage())?
            .map(|store| Rc::new(store.with_alarm(self.alarm.clone())));
        self.cache.borrow_mut().store.clone_from(&store);
        Ok(store)
    }

    /// The store, creating its tables (a definition is being written).
    pub(crate) fn store_or_create(&self) -> std::result::Result<Rc<SqliteRedemptionStore>, Problem> {
        if let Some(store) = self.store()? {
            return Ok(store);
        }
        let store = Rc::new(SqliteRedemptionStore::create(self.state.storage())?.with_alarm(self.alarm.clone()));
        self.cache.borrow_mut().store = Some(store.clone());
        Ok(store)
    }

    /// Whether `code` (as text) is defined here and spread over shards: a
    /// sender that knows it on one shard has a stale layout. Not for a
    /// code this object does not know (a campaign's object, a refund
    /// before the code exists): that is answered as before.
    fn spread(&self, code: &str) -> std::result::Result<bool, Problem> {
        let code = Code::parse(code)?;
        match self.stored(&code) {
            Ok((_, definition)) => Ok(definition.promo.shards() > 1),
            Err(Problem::UnknownCode(_)) => Ok(false),
            Err(other) => Err(other),
        }
    }

    /// The stored definition of `code`, archived or not.
    pub(crate) fn stored(
        &self,
        code: &Code,
    ) -> std::result::Result<(Rc<SqliteRedemptionStore>, Rc<StoredDefinition>), Problem> {
        let store = self.store()?.ok_or_else(|| Problem::UnknownCode(code.clone()))?;
        if let Some(definition) = &self.cache.borrow().definition {
            if definition.promo.code() == code {
                return Ok((store, definition.clone()));
            }
        }
        let definition = match self.campaign_code(&store, code)? {
            Some(definition) => definition,
            None => store
                .definition(code)?
                .ok_or_else(|| Problem::UnknownCode(code.clone()))?,
        };
        let definition = Rc::new(definition);
        self.cache.borrow_mut().definition = Some(definition.clone());
        Ok((store, definition))
    }

    /// `code`'s definition if it is a code of the campaign this object keeps:
    /// made from the campaign as read once (one indexed read of the code, no
    /// parse) by [`SqliteRedemptionStore::code_of`].
    fn campaign_code(
        &self,
        store: &SqliteRedemptionStore,
        code: &Code,
    ) -> std::result::Result<Option<StoredDefinition>, Problem> {
        match self.kept_campaign(store)? {
            Some(stored) => Ok(store.code_of(&stored, code)?),
            None => Ok(None),
        }
    }

    /// The campaign this object keeps, if any (read once, then kept in memory).
    pub(super) fn kept_campaign(
        &self,
        store: &SqliteRedemptionStore,
    ) -> std::result::Result<Option<Rc<StoredCampaign>>, Problem> {
        let read = self.cache.borrow().campaign.clone();
        match read {
            Some(campaign) => Ok(campaign),
            None => {
                let campaign = store.campaign()?.map(Rc::new);
                self.cache.borrow_mut().campaign = Some(campaign.clone());
                Ok(campaign)
            }
        }
    }

    /// Forgets the definitions kept in memory: the campaign changed (and so its codes').
    pub(super) fn forget_definitions(&self) {
        let mut cache = self.cache.borrow_mut();
        cache.definition = None;
        cache.campaign = None;
    }

    /// The definition buyers may use: defined and not archived.
    fn live(&self, code: &Code) -> std::result::Result<(Rc<SqliteRedemptionStore>, Rc<StoredDefinition>), Problem> {
        let (store, definition) = self.stored(code)?;
        if definition.archived {
            return Err(Problem::UnknownCode(code.clone()));
        }
        Ok((store, definition))
    }

    /// Adds to the code's figures and writes them now, with any counted in
    /// memory before (a write request's figure); a failure is logged, never returned.
    pub(crate) fn count(&self, event: Event<'_>, n: i64, at: Timestamp) {
        self.figures.borrow_mut().add(event, n, minute(at));
        self.write_figures(at);
    }

    /// Counts a public request's figures (a quote's, a reported try's) in memory: they are written
    /// now if the last write was [`stats::WRITE_INTERVAL_MS`] ago or more,
    /// else with the next write, and the alarm is set for when it is due at
    /// the latest. A failure to set the alarm is logged, never returned.
    async fn count_public(&self, events: &[Event<'_>], at: Timestamp) {
        let due = {
            let mut figures = self.figures.borrow_mut();
            for event in events {
                figures.add(*event, 1, minute(at));
            }
            figures.is_due(at.as_unix_millis())
        };
        if due {
            self.write_figures(at);
        } else if let Err(problem) = self.alarm_for_figures().await {
            worker::console_error!("setting the figures' alarm failed: {}", problem.body());
        }
    }

    /// When the figures counted in memory are due to be written, if any are counted.
    fn figures_due(&self) -> std::result::Result<Option<Timestamp>, Problem> {
        let figures = self.figures.borrow();
        if figures.is_empty() {
            return Ok(None);
        }
        let due = Timestamp::from_unix_millis(figures.due_at()).map_err(|e| Problem::Internal(e.to_string()))?;
        Ok(Some(due))
    }

    /// Sets the alarm for when the figures counted in memory are due, unless
    /// it is set for that time or sooner.
    async fn alarm_for_figures(&self) -> std::result::Result<(), Problem> {
        let Some(due) = self.figures_due()? else {
            return Ok(());
        };
        if self.alarm.set_by(due) {
            return Ok(());
        }
        self.set_alarm(due).await
    }

    /// On an instance's first request: when the outbox has events and no
    /// alarm is set, sets it for now. A write's own turn sets the alarm with
    /// its events; this is the safety net for an object stopped in between.
    async fn resume_deliveries(&self) -> std::result::Result<(), Problem> {
        let Some(store) = self.cache.borrow().store.clone() else {
            return Ok(());
        };
        if store.last_event()? == 0 || self.alarm.at().is_some() {
            return Ok(());
        }
        if self.state.storage().get_alarm().await?.is_none() {
            self.set_alarm(now()?).await?;
        }
        Ok(())
    }

    /// Sets the object's one alarm for `at` (just after it). It is noted
    /// before the await, so that requests meanwhile do not set it again.
    async fn set_alarm(&self, at: Timestamp) -> std::result::Result<(), Problem> {
        Ok(self.alarm.set(&self.state.storage(), at).await?)
    }

    /// Writes every figure counted in memory, in one synchronous turn (one
    /// commit), and folds old minutes once a minute; a failure is logged,
    /// never returned (those counts are lost).
    fn write_figures(&self, at: Timestamp) {
        let counts = self.figures.borrow_mut().take(at.as_unix_millis());
        if counts.is_empty() {
            return;
        }
        let sql = self.state.storage().sql();
        let now_minute = minute(at);
        let result = stats::write(&sql, &counts).and_then(|()| {
            let stale = self.cache.borrow().pruned < now_minute;
            if stale {
                stats::prune(&sql, now_minute)?;
                self.cache.borrow_mut().pruned = now_minute;
            }
            Ok(())
        });
        #[cfg(feature = "conformance")]
        self.figure_writes.borrow_mut().push(at.as_unix_millis());
        if let Err(err) = result {
            worker::console_error!("figures not written ({} counts): {err}", counts.len());
        }
    }

    async fn dispatch(&self, mut req: Request) -> std::result::Result<Response, Problem> {
        let call = Call::of(&req.method(), &req.path()).ok_or(Problem::NotFound)?;
        if matches!(
            call,
            Call::Release | Call::PaymentRelease | Call::PutDefinition | Call::PatchDefinition
        ) {
            // A use given back, or new caps: a sharded code's escrow recalls again before it says nothing is left.
            self.shards.exhausted.set(false);
        }
        if matches!(
            call,
            Call::Hold | Call::Capture | Call::Release | Call::PaymentCapture | Call::PaymentRelease | Call::StackPart
        ) {
            if let Some(shard) = Self::shard_of(&req)? {
                return self.shard_dispatch(call, shard, req).await;
            }
        }
        match call {
            Call::PutDefinition => {
                let condition = Condition::of(req.headers())?;
                let note = change_note(req.headers())?;
                let body = req.text().await?;
                self.handle_put_definition(&body, &condition, note.as_deref())
            }
            Call::PatchDefinition => {
                let code = Self::code_param(&req)?;
                let condition = Condition::of(req.headers())?;
                let note = change_note(req.headers())?;
                let body = req.text().await?;
                self.handle_patch_definition(&code, &body, &condition, note.as_deref())
            }
            Call::ArchiveDefinition => {
                let note = change_note(req.headers())?;
                self.handle_archive(&Self::code_param(&req)?, note.as_deref())
            }
            Call::GetDefinition => {
                let for_cache = req.headers().get(FOR_CACHE_HEADER)?.is_some();
                let code = Self::code_param(&req)?;
                // Read now: a sharded code's copy at the edge lives a second (its shards' writes do not purge it).
                self.read_shard_totals(&code, false).await?;
                self.handle_get_definition(&code, for_cache)
            }
            Call::Summary => {
                let code = Self::code_param(&req)?;
                self.read_shard_totals(&code, false).await?;
                self.handle_summary(&code)
            }
            Call::Quote => {
                let cached = req.headers().get(FOR_CACHE_HEADER)?.is_some();
                let body = req.text().await?;
                self.handle_quote(&body, cached).await
            }
            Call::StackPart => {
                let body = req.text().await?;
                let code = Self::code_param(&req)?;
                // A sharded code's part counts every shard's uses (read now).
                self.read_shard_totals(&code, false).await?;
                self.handle_stack_part(&code, &body).await
            }
            Call::Hold => {
                let key = Self::key(&req)?;
                let body = req.text().await?;
                let held = self.handle_hold(&key, &body).await;
                self.sent_on(held, call, &req, Some(&key), body, false).await
            }
            Call::Capture => {
                let key = Self::key(&req)?;
                let conflict = Self::forced_conflict(&req)?;
                let body = req.text().await?;
                let captured = self.handle_capture(&key, &body, conflict);
                self.sent_on(captured, call, &req, Some(&key), body, conflict).await
            }
            Call::Release => {
                let body = req.text().await?;
                self.handle_release(&body)
            }
            Call::PaymentCapture => {
                let body = req.text().await?;
                let capture: PaymentCapture = crate::protocol::read(&body)?;
                let captured = self.handle_payment_capture(&capture).await;
                self.sent_on(captured, call, &req, None, body, false).await
            }
            Call::PaymentRelease => {
                let known_only = req.headers().get(crate::protocol::KNOWN_ONLY_HEADER)?.is_some();
                let one_shard = req.headers().get(crate::protocol::ONE_SHARD_HEADER)?.is_some();
                let release: PaymentRelease = req.json().await?;
                if one_shard && self.spread(&release.code)? {
                    return Ok(Response::empty()?.with_status(crate::protocol::STALE_LAYOUT_STATUS));
                }
                self.handle_payment_release(&release, None, known_only).await
            }
            Call::Redemptions => self.handle_redemptions(&req),
            Call::RetryDelivery => {
                let retry: promocodes::wire::RetryDelivery = req.json().await?;
                self.handle_retry_delivery(&retry).await
            }
            Call::Stats => {
                let code = Self::code_param(&req)?;
                let shards = self.shard_figures(&code).await?;
                self.handle_stats(&code, &shards)
            }
            Call::Changes => self.handle_changes(&req),
            Call::Tries => {
                let code = Self::code_param(&req)?;
                let body = req.text().await?;
                self.handle_tries(&code, &body).await
            }
            Call::PutCampaign => {
                let id = Self::code_param(&req)?;
                let condition = Condition::of(req.headers())?;
                let note = change_note(req.headers())?;
                let body = req.text().await?;
                self.handle_put_campaign(&id, &body, &condition, note.as_deref())
            }
            Call::GetCampaign => {
                let id = Self::code_param(&req)?;
                let on_shards = self.read_campaign_totals(&id).await?;
                self.summary_response(&id, on_shards)
            }
            Call::PatchCampaign => {
                let id = Self::code_param(&req)?;
                let condition = Condition::of(req.headers())?;
                let note = change_note(req.headers())?;
                let body = req.text().await?;
                // Its shards' counts read first (the answer is the summary); the switch changes none.
                let on_shards = self.read_campaign_totals(&id).await?;
                self.handle_patch_campaign(&id, &body, &condition, note.as_deref(), on_shards)
            }
            Call::ArchiveCampaign => {
                let note = change_note(req.headers())?;
                let id = Self::code_param(&req)?;
                let on_shards = self.read_campaign_totals(&id).await?;
                self.handle_archive_campaign(&id, note.as_deref(), on_shards)
            }
            Call::PlanCodes => {
                let id = Self::code_param(&req)?;
                let key = Self::key(&req)?;
                let seed = Self::test_seed(&req)?;
                let body = req.text().await?;
                self.handle_plan_codes(&id, &key, &body, seed)
            }
            Call::CommitCodes => self.handle_commit_codes(&Self::code_param(&req)?, &Self::key(&req)?),
            Call::RedrawCode => {
                let url = req.url()?;
                let taken = url
                    .query_pairs()
                    .find(|(name, _)| name == "taken")
                    .ok_or_else(|| Problem::Internal("a redraw names the taken code".to_owned()))?;
                let taken = Code::parse(&taken.1)?;
                self.handle_redraw_code(
                    &Self::code_param(&req)?,
                    &Self::key(&req)?,
                    &taken,
                    Self::test_seed(&req)?,
                )
            }
            Call::CampaignCodes => self.handle_campaign_codes(&req).await,
            Call::CodeLines => {
                let url = req.url()?;
                let param = |name: &str| url.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned());
                let max = (param("max").and_then(|text| text.parse().ok()))
                    .ok_or_else(|| Problem::Internal("a list of a campaign's codes names its `max`".to_owned()))?;
                let after = match param("after") {
                    None => 0,
                    Some(text) => text.parse().ok().filter(|after: &i64| *after >= 0).ok_or_else(|| {
                        Problem::Internal(format!("a list's `after` that is not a code's seq: {text}"))
                    })?,
                };
                self.handle_code_lines(&Self::code_param(&req)?, max, after)
            }
            Call::ShardCount => self.handle_shard_count(&Self::code_param(&req)?),
            Call::ShardGrant => {
                let body = req.text().await?;
                self.handle_grant(&body).await
            }
            Call::ShardRecall => {
                let body = req.text().await?;
                self.handle_recall(&body)
            }
            Call::ShardUsage => self.handle_shard_usage(&Self::code_param(&req)?),
            Call::ShardDefinition => {
                let body = req.text().await?;
                self.handle_shard_definition(&body)
            }
            Call::ShardClaim => {
                let body = req.text().await?;
                self.handle_claim(&body)
            }
            Call::ShardFigures => self.handle_shard_figures(),
            Call::ShardCodeClaim => {
                let body = req.text().await?;
                self.handle_code_claim(&body).await
            }
            Call::ShardCodeRecall => {
                let body = req.text().await?;
                self.handle_code_recall(&body)
            }
            Call::ShardCodeCounts => {
                let body = req.text().await?;
                self.handle_code_counts(&body)
            }
            Call::ShardLookup => {
                let shard = Self::shard_of(&req)?;
                let body = req.text().await?;
                self.handle_lookup(&body, shard)
            }
            Call::ShardKeys => {
                let shard = Self::shard_of(&req)?;
                let body = req.text().await?;
                self.handle_keys(&body, shard)
            }
            Call::ShardFreed => {
                self.shards.exhausted.set(false);
                let code = Self::code_param(&req)?;
                self.watch_if_granted(&code)?;
                self.poll_soon(&code).await;
                json_response(&serde_json::json!({}), 200)
            }
            Call::ShardSpent => {
                self.read_shard_totals(&Self::code_param(&req)?, false).await?;
                json_response(&serde_json::json!({}), 200)
            }
            #[cfg(feature = "conformance")]
            Call::Conformance => self.handle_conformance(),
            #[cfg(feature = "conformance")]
            Call::FigureWrites => self.handle_figure_writes(&Self::code_param(&req)?),
        }
    }

    /// `result` as it is, unless it is a [`Problem::Forward`]: then the
    /// request (`call` with `body`, `key` and the test's `conflict`, as `req`
    /// carried them) is sent on to the object named, at most
    /// [`MAX_FORWARDS`](crate::protocol::MAX_FORWARDS) times in all, and its answer is this one's.
    pub(super) async fn sent_on(
        &self,
        result: std::result::Result<Response, Problem>,
        call: Call,
        req: &Request,
        key: Option<&IdempotencyKey>,
        body: String,
        conflict: bool,
    ) -> std::result::Result<Response, Problem> {
        let Err(Problem::Forward { object, shard }) = result else {
            return result;
        };
        let hops = req
            .headers()
            .get(crate::protocol::FORWARDED_HEADER)?
            .and_then(|h| h.parse::<u8>().ok())
            .unwrap_or(0);
        if hops >= crate::protocol::MAX_FORWARDS {
            return Err(Problem::Internal(format!(
                "a request sent on {hops} times, and then to {object}"
            )));
        }
        let code = Self::code_param(req)?;
        let hops = (hops + 1).to_string();
        let number = shard.map(|shard| shard.to_string());
        let layout = match self.layout_to_send(&code)? {
            Some(layout) => Some(serde_json::to_string(&layout).map_err(|e| Problem::Internal(e.to_string()))?),
            None => None,
        };
        let mut headers = vec![(crate::protocol::FORWARDED_HEADER, hops.as_str())];
        if let Some(layout) = &layout {
            headers.push((crate::protocol::LAYOUT_HEADER, layout.as_str()));
        }
        if let Some(key) = key {
            headers.push((IDEMPOTENCY_KEY_HEADER, key.as_str()));
        }
        if let Some(number) = &number {
            headers.push((crate::protocol::SHARD_HEADER, number.as_str()));
        }
        // A campaign's shard (`campaign:<id>#<i>`) learns its escrow's object from the request.
        if let Some((base, _)) = object.rsplit_once('#').filter(|(base, _)| *base != code.as_str()) {
            headers.push((crate::protocol::BASE_HEADER, base));
        }
        if conflict {
            headers.push((TEST_CONFLICT_HEADER, "1"));
        }
        let request = call.request(&code, &[], Some(body), &headers)?;
        let response = crate::clients::to_object(&self.env, &object, request).await?;
        // Marked, so that the Worker asks for the code's layout again (see `shards::forget_if_moved`).
        crate::clients::restamped(response, None, &[(crate::protocol::MOVED_HEADER, "1")]).await
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
    pub(super) fn forced_conflict(req: &Request) -> std::result::Result<bool, Problem> {
        let asked = req.headers().get(TEST_CONFLICT_HEADER)?.is_some();
        Ok(cfg!(feature = "conformance") && asked)
    }

    /// Test builds only ([`TEST_SEED_HEADER`]): the seed generated codes are
    /// drawn with; `None` in every other build, whatever the request says.
    pub(super) fn test_seed(req: &Request) -> std::result::Result<Option<u64>, Problem> {
        let seed = req.headers().get(TEST_SEED_HEADER)?;
        Ok(seed
            .filter(|_| cfg!(feature = "conformance"))
            .and_then(|seed| seed.parse().ok()))
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
