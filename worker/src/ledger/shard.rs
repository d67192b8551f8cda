//! One shard of a sharded code (see [`crate::shards`]): an object of the
//! same class, named `<code>#<i>`, that decides holds and captures alone,
//! with the core's one decision loop on the code's definition with its
//! allotment for the caps; gives uses back on a release; asks the code's
//! object for more when its allotment is used (`ask_grant`), and gives its
//! unused allotment back when the code's object recalls it.

use promocodes::wire::{GrantAnswer, GrantCall, RecallAnswer, RecallCall, ShardDefinition};
use promocodes::{CustomerId, Rejection, ReleaseError};

use super::claims::Claim;
use super::layouts::{afresh, counts_customer, Earlier};
use super::*;
use crate::shards::{codes, tables, MAX_GRANT, MAX_ROUNDS, MIN_GRANT};

/// What asking for a grant came to.
enum Granted {
    /// The allotment changed (a grant, this one or another request's): decide again; why (test builds log it).
    More(&'static str),
    /// Nothing is left anywhere: the refusal stands.
    Nothing,
    /// All that is left anywhere was granted, less than the request lacked: decide once more, ask no more.
    All,
}

/// A shard's view of the code: the whole definition, the allotted one, and the allotment's version.
pub(crate) struct View {
    /// The code's definition.
    pub(crate) whole: PromoCode,
    /// The definition with the shard's allotment for its caps: what the shard decides on.
    pub(crate) allotted: PromoCode,
    /// Whether the code is archived.
    pub(crate) archived: bool,
    /// The allotment's version.
    pub(crate) seq: i64,
    /// The code's earlier layouts (see [`ShardDefinition::prior`]).
    pub(crate) prior: Vec<u8>,
    /// The object that grants this shard its allotments: the code's own, or its campaign's.
    pub(crate) base: String,
    /// For a campaign's code: this shard's allotment of the code's own uses (see
    /// [`crate::shards::codes`]), which `allotted` decides with as its `uses_per_code`.
    pub(crate) code_allotment: Option<codes::Allotted>,
}

impl View {
    /// The layout this shard decides on, sent with its calls to objects that may know an older one.
    pub(super) fn layout(&self) -> ShardDefinition {
        ShardDefinition {
            definition: self.whole.clone(),
            archived: self.archived,
            prior: self.prior.clone(),
        }
    }
}

/// Whether a refusal is the allotment's, not the code's: its cap or budget, which a grant may lift.
fn wants_grant<T>(result: &std::result::Result<T, RedemptionError>, whole: &PromoCode) -> bool {
    let limits = whole.limits();
    match result {
        Err(RedemptionError::Rejected(rejected)) => match rejected.rejection() {
            Rejection::Exhausted => limits.total().is_some(),
            Rejection::BudgetExhausted => limits.budget().is_some(),
            _ => false,
        },
        _ => false,
    }
}

/// Whether a decision was refused `exhausted` (a cap of uses, the code's own or the whole's).
fn exhausted<T>(result: &std::result::Result<T, RedemptionError>) -> bool {
    matches!(result, Err(RedemptionError::Rejected(rejected)) if rejected.rejection() == Rejection::Exhausted)
}

/// The uses' size in minor units, if the discount has a largest size (a fixed amount, a `max`).
fn use_size(promo: &PromoCode) -> Option<i64> {
    let discount = promo.discount();
    let size = match (discount.fixed_amount(), discount.max()) {
        (Some(amount), Some(max)) => amount.minor().min(max.minor()),
        (amount, max) => amount.or(max)?.minor(),
    };
    i64::try_from(size).ok()
}

impl Ledger {
    /// Whether this request is for a shard: the number in [`SHARD_HEADER`](crate::protocol::SHARD_HEADER).
    pub(super) fn shard_of(req: &Request) -> std::result::Result<Option<u8>, Problem> {
        let Some(text) = req.headers().get(crate::protocol::SHARD_HEADER)? else {
            return Ok(None);
        };
        let shard = text
            .parse::<u8>()
            .map_err(|_| Problem::Internal(format!("a shard header that is not a shard: {text}")))?;
        Ok(Some(shard))
    }

    /// A hold, capture or release sent to shard `shard`.
    pub(super) async fn shard_dispatch(
        &self,
        call: Call,
        shard: u8,
        mut req: Request,
    ) -> std::result::Result<Response, Problem> {
        if !self.shards.noted.get() {
            let sql = self.state.storage().sql();
            tables::shard_tables(&sql)?;
            tables::note_shard(&sql, shard)?;
            self.shards.noted.set(true);
        }
        // A campaign's shard: the campaign's object grants its allotments. Every request the Worker
        // routes here names it (a stack's part asked by the campaign's object may come first).
        if !self.shards.base_noted.get() {
            if let Some(base) = req.headers().get(crate::protocol::BASE_HEADER)? {
                codes::note_base(&self.state.storage().sql(), &base)?;
                self.shards.base_noted.set(true);
            }
        }
        // A request sent on by an object that knew a newer layout: taken on first.
        if let Some(layout) = req.headers().get(crate::protocol::LAYOUT_HEADER)? {
            let layout: ShardDefinition = crate::protocol::read(&layout)?;
            self.take_layout(&layout)?;
        }
        let answer = match call {
            Call::Hold | Call::Capture => {
                let key = Self::key(&req)?;
                let conflict = call == Call::Capture && Self::forced_conflict(&req)?;
                let body = req.text().await?;
                let decided = self.shard_keyed(call, shard, &key, &body, conflict).await;
                self.sent_on(decided, call, &req, Some(&key), body, conflict).await
            }
            Call::StackPart => {
                let code = Self::code_param(&req)?;
                let body = req.text().await?;
                self.handle_shard_part(&code, &body)
            }
            Call::PaymentCapture => {
                let body = req.text().await?;
                let payment: crate::payments::flow::PaymentCapture = crate::protocol::read(&body)?;
                let decided = self.shard_payment_capture(shard, &payment).await;
                self.sent_on(decided, call, &req, None, body, false).await
            }
            Call::PaymentRelease => {
                let known_only = req.headers().get(crate::protocol::KNOWN_ONLY_HEADER)?.is_some();
                let release: crate::payments::flow::PaymentRelease = req.json().await?;
                self.handle_payment_release(&release, Some(shard), known_only).await
            }
            _ => {
                let body = req.text().await?;
                self.shard_release(&body).await
            }
        };
        match answer {
            Ok(mut response) if cfg!(feature = "conformance") => {
                let seen = format!("{shard};{}", self.shards.grants_asked.get());
                response.headers_mut().set(crate::shards::TEST_SHARD_HEADER, &seen)?;
                Ok(response)
            }
            other => other,
        }
    }

    /// The shard's view of `code`, if it was ever granted anything. A
    /// campaign's shard keeps one of its codes' definitions (the one its last
    /// grant named) and decides each code of the campaign with it under the
    /// code's own name, its allotment of the code's own uses for `uses_per_code`.
    pub(crate) fn shard_view(&self, last: bool, code: &Code) -> std::result::Result<Option<View>, Problem> {
        let sql = self.state.storage().sql();
        let Some(row) = tables::allotment(&sql)? else {
            return Ok(None);
        };
        let kept = PromoCode::from_written_json(&row.definition)?;
        let whole = match kept.campaign() {
            Some(_) => kept.sibling(code.clone()),
            None => kept,
        };
        let budget = whole.limits().budget().map(|b| {
            Money::from_minor(i128::from(row.budget.max(0)), b.currency()).unwrap_or(Money::zero(b.currency()))
        });
        let mut allotted = whole.allotted(u64::try_from(row.uses).unwrap_or(0), budget, last);
        let code_allotment = match whole.campaign() {
            Some(_) => {
                let own = codes::allotted(&sql, code.as_str())?;
                allotted = allotted.with_uses_per_code(u64::try_from(own.granted).unwrap_or(0));
                Some(own)
            }
            None => None,
        };
        Ok(Some(View {
            base: crate::shards::coordinator_of(&whole),
            whole,
            allotted,
            archived: row.archived != 0,
            seq: row.seq,
            prior: self.local_prior()?,
            code_allotment,
        }))
    }

    /// The object that grants this shard its allotments, before it has any: the one the Worker named
    /// (a campaign's), else `code`'s own.
    pub(crate) fn shard_base(&self, code: &Code) -> std::result::Result<String, Problem> {
        Ok(codes::base(&self.state.storage().sql())?.unwrap_or_else(|| code.as_str().to_owned()))
    }

    /// A hold or a capture in the shard: decided on its allotment (see [`Ledger::shard_decide`]).
    async fn shard_keyed(
        &self,
        call: Call,
        shard: u8,
        key: &IdempotencyKey,
        body: &str,
        conflict: bool,
    ) -> std::result::Result<Response, Problem> {
        let kind = if call == Call::Hold {
            BasketRequestKind::Hold
        } else {
            BasketRequestKind::Capture
        };
        let req = BasketRequest::parse(body, kind)?;
        let code = &req.code;
        let store = self.store_or_create()?;
        let customer = req.customer.as_ref();
        if kind == BasketRequestKind::Hold {
            let mut options = HoldOptions::new();
            if let Some(ttl) = req.ttl_seconds {
                options = options.ttl_seconds(ttl);
            }
            let decide = |view: &View, at| hold(&view.allotted, &*store, customer, &req.basket, at, key, options);
            let (view, at, held) = self
                .shard_decide(code, shard, (key, key), customer, &req.basket, decide)
                .await?;
            return self.answer_hold(&store, code, &view.whole, held, at).await;
        }
        let decide = |view: &View, at| {
            let mut options = CaptureOptions::new().idempotency_key(key);
            if let Some(shown) = &req.quote {
                options = options.quoted(shown);
            }
            super::checkout::capture_on(&store, conflict, &view.allotted, customer, &req.basket, at, options)
        };
        let (view, at, captured) = self
            .shard_decide(code, shard, (key, key), customer, &req.basket, decide)
            .await?;
        self.answer_capture(code, &view.whole, captured, at)
    }

    /// A payment provider's confirmation of a payment whose hold (if any)
    /// this shard took: the object's payment flow, decided on the allotment.
    pub(super) async fn shard_payment_capture(
        &self,
        shard: u8,
        payment: &crate::payments::flow::PaymentCapture,
    ) -> std::result::Result<Response, Problem> {
        let code = Code::parse(&payment.code)?;
        let store = self.store_or_create()?;
        tables::shard_tables(&self.state.storage().sql())?;
        if self.shard_view(false, &code)?.is_none() {
            self.ask_grant(&code, shard, None, None).await?;
        }
        let view = self
            .shard_view(false, &code)?
            .ok_or_else(|| Problem::UnknownCode(code.clone()))?;
        self.payment_capture_on(payment, &store, &view.whole, view.archived, Some(shard))
            .await
    }

    /// Decides a hold or a capture of `code` under `key` in shard `shard`
    /// with `decide`, on the shard's allotment (`View::allotted`); when the
    /// allotment refuses, decides again after a grant, until the code's
    /// object has nothing left to grant (then the refusal stands). A key new
    /// here that its customer sent here is first claimed at the key's own
    /// shard: a key another customer's (or no customer's) is refused as
    /// reused, and nothing is decided.
    ///
    /// # Errors
    ///
    /// An archived code (for a key new here), a problem reaching the code's
    /// object, or a conflict after [`MAX_ROUNDS`] grants.
    pub(crate) async fn shard_decide<T>(
        &self,
        code: &Code,
        shard: u8,
        (key, route): (&IdempotencyKey, &IdempotencyKey),
        customer: Option<&CustomerId>,
        basket: &promocodes::Basket,
        mut decide: impl FnMut(&View, Timestamp) -> std::result::Result<T, RedemptionError>,
    ) -> std::result::Result<(View, Timestamp, std::result::Result<T, RedemptionError>), Problem> {
        let store = self.store_or_create()?;
        tables::shard_tables(&self.state.storage().sql())?;
        let mut last = false;
        let mut claimed = false;
        // The customer's uses under the code's earlier layouts, and the generation they were asked on (see `look_back`).
        let mut earlier: Option<(usize, u64)> = None;
        let mut trace: Vec<&'static str> = Vec::new();
        let reused = || RedemptionError::IdempotencyKeyReused { key: key.clone() };
        for _ in 0..MAX_ROUNDS {
            let Some(mut view) = self.shard_view(last, code)? else {
                self.ask_grant(code, shard, None, None).await?;
                trace.push("no-view");
                continue;
            };
            if view.whole.code() != code {
                return Err(Problem::Internal(format!(
                    "shard {shard} of {} got {code}",
                    view.whole.code()
                )));
            }
            let reservation = store.reservation(code, key)?;
            let known = reservation.is_some();
            if view.archived && !known {
                return Err(Problem::UnknownCode(code.clone()));
            }
            let at = now()?;
            // The object the layout names now for this request (by the key the Worker routed it by).
            let target = promocodes::shard_of(view.whole.shards(), customer, route);
            // Something is recorded here under the key (or under the payment's first key): decided
            // here, whatever the layout says now.
            let holder =
                known || ((target != shard || !view.prior.is_empty()) && self.holds_key(&store, code, key, route)?);
            if !holder {
                // A key new here that the layout now sends elsewhere (routed on an older one): sent on.
                if target != shard {
                    return Err(Problem::Forward {
                        object: crate::shards::shard_in(&view.base, target),
                        shard: Some(target),
                    });
                }
                // The code's shards changed: the earlier layouts' objects may have the key, and the customer's uses.
                if !view.prior.is_empty() && earlier.map(|(generation, _)| generation) != Some(view.prior.len()) {
                    match self.look_back(code, shard, (key, route), customer, &view).await? {
                        Earlier::Recorded(object, shard) => return Err(Problem::Forward { object, shard }),
                        Earlier::Reused => return Ok((view, at, Err(reused()))),
                        Earlier::Newer => {}
                        Earlier::New(uses) => earlier = Some((view.prior.len(), uses)),
                    }
                    continue;
                }
            } else if target != shard && afresh(reservation.as_ref(), at) && counts_customer(&view.whole, customer) {
                // An earlier layout's object would take a new use for a customer whose uses it does not
                // all see (a hold that expired before it was captured, a payment's second key): refused,
                // so that the checkout asks again under a new key, decided where the customer's uses are.
                return Ok((view, at, Err(reused())));
            }
            if let Some((_, uses)) = earlier {
                view.allotted = view.allotted.less_customer_uses(uses);
            }
            // A key new here, sent here by its customer: the key's own shard says whether it is this customer's.
            let home = promocodes::shard_of(view.whole.shards(), None, key);
            if home != shard && !known && !claimed {
                match self.claim_key(code, home, key, customer, &view).await? {
                    Claim::Mine => claimed = true,
                    Claim::Theirs => return Ok((view, at, Err(reused()))),
                    Claim::Newer => {}
                }
                continue;
            }
            // The key's own shard: a key another customer's shard claimed names that customer's call.
            if home == shard && !known {
                if let Some(claimant) = tables::claimant(&self.state.storage().sql(), key.as_str())? {
                    if claimant.as_deref() != customer.map(CustomerId::as_str) {
                        return Ok((view, at, Err(reused())));
                    }
                }
            }
            let decided = decide(&view, at);
            // A campaign's code refused on this shard's allotment of the code's own uses: one more
            // asked of the campaign's object, unless it said they are all taken.
            if let (Some(own), Some(per_code)) = (view.code_allotment, view.whole.uses_per_code()) {
                let short = exhausted(&decided)
                    && u64::try_from(own.granted).unwrap_or(0) < per_code
                    && store.usage_of(&view.whole, None, at)?.code_uses() >= u64::try_from(own.granted).unwrap_or(0);
                if short {
                    if self.claim_code(code, shard, &view, own).await? {
                        trace.push("code-claim");
                        continue;
                    }
                    // The code's own uses are all taken or held: refused, whatever the campaign has left
                    // (a grant of the campaign's uses would not change that).
                    return Ok((view, at, decided));
                }
            }
            if wants_grant(&decided, &view.whole) && !last {
                if let Some(next) = self.regrant(code, shard, &view, basket, at, &mut trace).await? {
                    last = next;
                    continue;
                }
            }
            if decided.is_ok() {
                self.tell_if_spent(code, &store, &view, at).await;
            }
            return Ok((view, at, decided));
        }
        if cfg!(feature = "conformance") {
            let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
            for why in &trace {
                *counts.entry(why).or_default() += 1;
            }
            let tail = trace[trace.len().saturating_sub(8)..].join(",");
            worker::console_error!(
                "shard-409 code={code} key={} shard={shard} rounds={counts:?} last=[{tail}]",
                key.as_str()
            );
        }
        Err(Problem::from(RedemptionError::Conflict(
            promocodes::RedemptionConflict {
                code: code.clone(),
                attempts: MAX_ROUNDS as u32,
            },
        )))
    }

    /// After a use: when this shard's allotment is used up and its last grant
    /// drained the code's object, the code may be used up: the code's object
    /// reads every shard's counts now (for `code.exhausted`), once per such
    /// grant. A failure is logged (the code's object reads them within
    /// a minute anyway).
    async fn tell_if_spent(&self, code: &Code, store: &SqliteRedemptionStore, view: &View, at: Timestamp) {
        if !self.shards.drained.get() {
            return;
        }
        let spent = store
            .usage_of(&view.whole, None, at)
            .is_ok_and(|usage| view.allotted.remaining_uses(usage) == Some(0));
        if !spent {
            return;
        }
        self.shards.drained.set(false);
        let told = async {
            let request = Call::ShardSpent.request(code, &[], Some("{}".to_owned()), &[])?;
            crate::clients::to_object(&self.env, &view.base, request).await
        };
        if let Err(problem) = told.await {
            worker::console_error!(
                "the object of {code} did not hear its shard's allotment is spent: {}",
                problem.body()
            );
        }
    }

    /// After the allotment refused a request (`view`'s): asks for a grant
    /// sized to what the request lacks. `Some(last)`: decide again, on the
    /// last of the budget when `last`; `None`: the refusal stands.
    async fn regrant(
        &self,
        code: &Code,
        shard: u8,
        view: &View,
        basket: &promocodes::Basket,
        at: Timestamp,
        trace: &mut Vec<&'static str>,
    ) -> std::result::Result<Option<bool>, Problem> {
        let need = need_of(&view.whole, basket, at);
        Ok(match self.ask_grant(code, shard, Some(view.seq), need).await? {
            Granted::More(why) => {
                trace.push(why);
                Some(false)
            }
            Granted::All => Some(true),
            Granted::Nothing if partial(&view.whole) => Some(true),
            Granted::Nothing => None,
        })
    }

    /// A release in a shard: the use goes back to the shard's allotment (and
    /// so to the code), and the code's object hears of it (it recalls again
    /// before it answers that nothing is left).
    async fn shard_release(&self, body: &str) -> std::result::Result<Response, Problem> {
        let req = ReleaseRequest::from_json(body)?;
        self.shard_release_of(&req.code, &req.key, req.reason.as_deref()).await
    }

    /// The release of `key` in this shard (see [`Ledger::shard_release`]).
    pub(crate) async fn shard_release_of(
        &self,
        code: &Code,
        key: &IdempotencyKey,
        reason: Option<&str>,
    ) -> std::result::Result<Response, Problem> {
        let unknown = || {
            Problem::from(ReleaseError::UnknownKey {
                code: code.clone(),
                key: key.clone(),
            })
        };
        let store = self.store()?.ok_or_else(unknown)?;
        let at = now()?;
        let earlier = store.reservation(code, key)?;
        let released = match release(&*store, code, key, at, reason) {
            Ok(released) => released,
            Err(err) => {
                let problem = Problem::from(err);
                log_problem(code, "release", &problem);
                return Err(problem);
            }
        };
        let (event, outcome) = if released.replayed {
            (Event::Replay, "replayed")
        } else {
            (Event::Release, "released")
        };
        self.count(event, 1, at);
        if let (false, promocodes::ReservationState::Captured, Some(earlier)) =
            (released.replayed, released.was, &earlier)
        {
            self.count_money(Event::Returned, earlier.quote.discount(), at);
        }
        if !released.replayed {
            let told = async {
                let request = Call::ShardFreed.request(code, &[], Some("{}".to_owned()), &[])?;
                crate::clients::to_object(&self.env, &self.shard_base(code)?, request).await
            };
            if let Err(problem) = told.await {
                worker::console_error!("the object of {code} did not hear of a release: {}", problem.body());
            }
        }
        // The log line's outcome is noted after the last await: requests to other objects of this
        // isolate (the one just sent) start by clearing it.
        log(code, "release", outcome, Some(("was", released.was.as_str())));
        json_response(&released, 200)
    }

    /// Asks the code's object for a grant, one request at a time: a request
    /// that waited finds the allotment changed since it decided (`seen`) and
    /// decides again without asking. A grant asked for before a crash is
    /// asked for again under its id.
    ///
    /// A budget grant carries at least `need` (minor units): the discount of
    /// the request that asks, priced whole, so that one grant lets it through.
    async fn ask_grant(
        &self,
        code: &Code,
        shard: u8,
        seen: Option<i64>,
        need: Option<i64>,
    ) -> std::result::Result<Granted, Problem> {
        let decided = worker::Date::now().as_millis();
        // The object that grants (for a campaign's shard, the campaign's), which is also what its uses count under.
        let base = self.shard_base(code)?;
        self.shards.waiting.set(self.shards.waiting.get() + 1);
        let _turn = self.shards.grant.lock().await;
        self.shards.waiting.set(self.shards.waiting.get().saturating_sub(1));
        let storage = self.state.storage();
        let sql = storage.sql();
        let row = tables::allotment(&sql)?;
        if row.as_ref().map(|r| r.seq) != seen {
            return Ok(Granted::More("seq"));
        }
        // Nothing was left, said after this request decided, on the allotment it decided on.
        if let (Some(seen), Some((on, at))) = (seen, self.shards.nothing.get()) {
            if on == seen && at >= decided {
                return Ok(Granted::Nothing);
            }
        }
        let id = match tables::pending_grant(&sql)? {
            Some(id) => id,
            None => {
                let id = self.shards.id(&format!("g{shard}"));
                tables::ask_grant(&sql, &id)?;
                id
            }
        };
        let last = row.as_ref().map_or(0, |r| u64::try_from(r.last_grant).unwrap_or(0));
        // Twice the last grant, or what the requests waiting behind this one need, if more.
        let demand = self.shards.waiting.get() + 1;
        let uses = last.saturating_mul(2).max(demand).clamp(MIN_GRANT, MAX_GRANT);
        let size = match &row {
            Some(row) => use_size(&PromoCode::from_written_json(&row.definition)?),
            None => None,
        };
        let short = match (need, &row) {
            (Some(need), Some(row)) => Some((need - self.unused_budget(code, row)?).max(1)),
            (need, _) => need,
        };
        let call = GrantCall {
            code: code.as_str().to_owned(),
            shard,
            id: id.clone(),
            short,
            uses,
            budget: size.or(need).map(|size| {
                size.saturating_mul(i64::try_from(uses).unwrap_or(1))
                    .max(need.unwrap_or(0))
            }),
            held: match self.store()? {
                Some(store) => store.holds_now(&base, now()?)?.0,
                None => 0,
            },
        };
        let body = serde_json::to_string(&call).map_err(|e| Problem::Internal(e.to_string()))?;
        let request = Call::ShardGrant.request(code, &[], Some(body), &[])?;
        self.shards.grants_asked.set(self.shards.grants_asked.get() + 1);
        // Until its answer is applied, a recall leaves this grant be (see `RecallAnswer::in_flight`).
        let _in_flight = InFlight::new(&self.shards.in_flight, &id);
        let mut response = crate::clients::to_object(&self.env, &base, request).await?;
        match response.status_code() {
            200 => {}
            404 => return Err(Problem::UnknownCode(code.clone())),
            status => {
                return Err(Problem::Internal(format!(
                    "the object of {code} answered {status} to a grant"
                )))
            }
        }
        let answer: GrantAnswer = response.json().await?;
        if answer.cancelled {
            // Cancelled by a recall, or wait for another shard's grant in flight: a moment, then decide again.
            worker::Delay::from(std::time::Duration::from_millis(2)).await;
            return Ok(Granted::More("cancelled"));
        }
        let definition = serde_json::to_string(&answer.definition).map_err(|e| Problem::Internal(e.to_string()))?;
        let applied = tables::apply_grant(
            &storage,
            &tables::Applied {
                id: &id,
                code: code.as_str(),
                definition: &definition,
                archived: answer.archived,
                uses: i64::try_from(answer.uses).unwrap_or(i64::MAX),
                budget: answer.budget,
                prior: &answer.prior,
            },
        )?;
        *self.shards.prior.borrow_mut() = None;
        if applied && answer.uses == 0 && answer.budget == 0 {
            if let Some(row) = &row {
                // A grant of nothing moved the version on: the refusals decided on the one asked on stand.
                self.shards
                    .nothing
                    .set(Some((row.seq + 1, worker::Date::now().as_millis())));
                return Ok(Granted::Nothing);
            }
        }
        if applied {
            self.shards.drained.set(answer.drained);
        }
        if applied && answer.all {
            return Ok(Granted::All);
        }
        Ok(Granted::More(if applied { "applied" } else { "not-applied" }))
    }

    /// The budget of the shard's allotment not used yet (held or captured), in minor units.
    fn unused_budget(&self, code: &Code, row: &tables::Allotment) -> std::result::Result<i64, Problem> {
        let Some(store) = self.store()? else {
            return Ok(row.budget);
        };
        let whole = PromoCode::from_written_json(&row.definition)?;
        let Some(currency) = whole.limits().budget().map(|b| b.currency()) else {
            return Ok(0);
        };
        let used = store.usage_under(&self.shard_base(code)?, now()?)?;
        let spent = Money::new(used.discounted(), currency)
            .map(|m| i64::try_from(m.minor()).unwrap_or(i64::MAX))
            .unwrap_or(row.budget);
        Ok((row.budget - spent).max(0))
    }

    /// `POST /shard-recall`: gives the unused allotment back to the code's
    /// object under the recall's id (a known id is answered as it was), and
    /// cancels the grants asked for and not yet received.
    pub(super) fn handle_recall(&self, body: &str) -> std::result::Result<Response, Problem> {
        let call: RecallCall = crate::protocol::read(body)?;
        let code = Code::parse(&call.code)?;
        let storage = self.state.storage();
        let sql = storage.sql();
        let nothing = |cancelled| RecallAnswer {
            id: call.id.clone(),
            uses: 0,
            budget: 0,
            cancelled,
            held: 0,
            in_flight: None,
        };
        let base = self.shard_base(&code)?;
        let held = match self.store()? {
            Some(store) => store.holds_now(&base, now()?)?.0,
            None => 0,
        };
        if !tables::has_table(&sql, "allotment_ops")? {
            return json_response(&nothing(Vec::new()), 200);
        }
        if let Some(done) = tables::recalled(&sql, &call.id)? {
            let cancelled = match done.cancelled {
                Some(list) => serde_json::from_str(&list).map_err(|e| Problem::Internal(e.to_string()))?,
                None => Vec::new(),
            };
            return json_response(
                &RecallAnswer {
                    id: call.id.clone(),
                    uses: u64::try_from(done.uses).unwrap_or(0),
                    budget: done.budget,
                    cancelled,
                    held,
                    in_flight: self.shards.in_flight.borrow().clone(),
                },
                200,
            );
        }
        let (mut uses, mut budget) = (0, 0);
        if let (Some(row), Some(store)) = (tables::allotment(&sql)?, self.store()?) {
            let whole = PromoCode::from_written_json(&row.definition)?;
            let used = store.usage_under(&base, now()?)?;
            uses = (row.uses - i64::try_from(used.total()).unwrap_or(i64::MAX)).max(0);
            if let Some(whole_budget) = whole.limits().budget() {
                let spent = Money::new(used.discounted(), whole_budget.currency())
                    .map(|m| i64::try_from(m.minor()).unwrap_or(i64::MAX))
                    .unwrap_or(row.budget);
                budget = (row.budget - spent).max(0);
            }
        }
        let in_flight = self.shards.in_flight.borrow().clone();
        let cancelled = tables::give_back(&storage, &call.id, uses, budget, in_flight.as_deref())?;
        json_response(
            &RecallAnswer {
                id: call.id.clone(),
                uses: u64::try_from(uses).unwrap_or(0),
                budget,
                cancelled,
                held,
                in_flight,
            },
            200,
        )
    }
}

/// A grant whose answer a shard waits for: named in `Local::in_flight` while it lives.
struct InFlight<'a>(&'a std::cell::RefCell<Option<String>>);

impl<'a> InFlight<'a> {
    fn new(cell: &'a std::cell::RefCell<Option<String>>, id: &str) -> Self {
        *cell.borrow_mut() = Some(id.to_owned());
        InFlight(cell)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        *self.0.borrow_mut() = None;
    }
}

/// The discount `basket` takes priced whole (no cap, no budget), in minor units: what a budget
/// grant must carry at least for this request to go through in one.
fn need_of(whole: &PromoCode, basket: &promocodes::Basket, at: Timestamp) -> Option<i64> {
    whole.limits().budget()?;
    let quote = whole.price(basket, at).ok()?;
    i64::try_from(quote.discount().minor()).ok().filter(|minor| *minor > 0)
}

/// Whether a budget too short for a discount gives what is left (the code's last use, decided where all of it is).
fn partial(promo: &PromoCode) -> bool {
    promo.limits().budget().is_some() && promo.limits().when_budget_short() == promocodes::BudgetShort::Partial
}
