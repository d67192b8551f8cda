//! A sharded code's own object as the coordinator of its escrow (see
//! [`crate::shards`]): how many shards the code has, the grants it makes
//! (each a compare-and-set in one transaction: its own uses plus what every
//! shard holds never exceed the cap or the budget), the recalls it sends
//! when little is left, the shards' totals it reads (lookups, a stack's
//! pricing, the code's own events), and the view of the code a keyed write
//! that reaches it is decided with (the caps less what the shards hold).

use std::borrow::Cow;

use promocodes::wire::{
    GrantAnswer, GrantCall, RecallAnswer, RecallCall, ShardDefinition, ShardFigures, ShardUsage, ShardsAnswer,
};
use promocodes::UsageCounts;
use rust_decimal::Decimal;

use super::*;
use crate::shards::{self, tables, MIN_GRANT};

/// What is free to grant: uses (if the code has a cap) and budget in minor units (if it has one).
struct Free {
    uses: Option<u64>,
    budget: Option<i64>,
}

/// What a recall of every other shard came to.
struct Recalled {
    /// Their holds that count now, and one for each shard that did not answer.
    holds: u64,
    /// Whether one of them waits for a grant it asked for (left to it).
    in_flight: bool,
}

impl Ledger {
    /// `GET /shards`: how many shards the code (or a campaign's code: its campaign) is spread over
    /// now, and before each change (this object's earlier layouts: the code's, or its campaign's).
    pub(super) fn handle_shard_count(&self, code: &Code) -> std::result::Result<Response, Problem> {
        // A campaign's object asked for the campaign itself (its history's objects).
        if let Some(store) = self.store()? {
            if let Some(stored) = store.campaign()?.filter(|stored| stored.campaign.id() == code) {
                let shards = stored.campaign.shards();
                return json_response(
                    &ShardsAnswer {
                        shards,
                        prior: self.prior()?,
                    },
                    200,
                );
            }
        }
        let (_, definition) = self.stored(code)?;
        let shards = definition.promo.shards();
        json_response(
            &ShardsAnswer {
                shards,
                prior: self.prior()?,
            },
            200,
        )
    }

    /// The object of shard `shard` of `code`'s escrow: `<code>#<shard>`, or for a campaign's code
    /// `campaign:<id>#<shard>` (see [`shards::coordinator_of`]).
    pub(super) fn shard_object(&self, code: &Code, shard: u8) -> std::result::Result<String, Problem> {
        let (_, definition) = self.stored(code)?;
        Ok(shards::shard_object(&definition.promo, shard))
    }

    /// The code's earlier layouts, oldest first (kept in memory; read again after a definition write).
    pub(super) fn prior(&self) -> std::result::Result<Vec<u8>, Problem> {
        if let Some(prior) = &*self.shards.prior.borrow() {
            return Ok(prior.clone());
        }
        let prior = tables::prior_layouts(&self.state.storage().sql())?;
        *self.shards.prior.borrow_mut() = Some(prior.clone());
        Ok(prior)
    }

    /// How many shard objects the code's layouts used, now or before (`<code>#0` on).
    fn objects(&self, promo: &PromoCode) -> std::result::Result<u8, Problem> {
        Ok(shards::objects(promo.shards(), &self.prior()?))
    }

    /// The code as this object decides its own uses: for a sharded code, its
    /// caps less what its shards hold, unused allotments included (a partial
    /// use is clipped here). A sharded code's keyed writes go to its shards
    /// (`shards::send_keyed`); one that reaches the code's object all the
    /// same is decided on what no shard holds, so the cap stays exact.
    pub(crate) fn deciding<'p>(&self, promo: &'p PromoCode) -> std::result::Result<Cow<'p, PromoCode>, Problem> {
        if promo.shards() <= 1 {
            return Ok(Cow::Borrowed(promo));
        }
        let held = tables::holdings(&self.state.storage().sql())?;
        let uses: i64 = held.iter().map(|h| h.uses).sum();
        let budget: i64 = held.iter().map(|h| h.budget).sum();
        let limits = promo.limits();
        let cap = limits
            .total()
            .map_or(0, |cap| cap.saturating_sub(u64::try_from(uses).unwrap_or(0)));
        let money = limits.budget().map(|whole| {
            let left = whole.minor() - i128::from(budget);
            promocodes::Money::from_minor(left.max(0), whole.currency())
                .unwrap_or(promocodes::Money::zero(whole.currency()))
        });
        let deciding = promo.allotted(cap, money, true);
        // A campaign's code: its own uses less what its shards hold of them.
        let deciding = match promo.uses_per_code() {
            Some(per_code) => {
                let sql = self.state.storage().sql();
                let held: i64 = crate::shards::codes::grants(&sql, promo.code().as_str())?
                    .iter()
                    .map(|(_, allotted)| allotted.granted)
                    .sum();
                deciding.with_uses_per_code(per_code.saturating_sub(u64::try_from(held).unwrap_or(u64::MAX)))
            }
            None => deciding,
        };
        Ok(Cow::Owned(deciding))
    }

    /// What is free to grant now: the caps less this object's own uses and what the shards hold.
    fn free(&self, store: &SqliteRedemptionStore, promo: &PromoCode) -> std::result::Result<Free, Problem> {
        let held = tables::holdings(&self.state.storage().sql())?;
        let uses: i64 = held.iter().map(|h| h.uses).sum();
        let budget: i64 = held.iter().map(|h| h.budget).sum();
        // A campaign's code counts through its campaign: the campaign's own uses.
        let own = store.usage_of(promo, None, now()?)?;
        let limits = promo.limits();
        let free_uses = limits.total().map(|cap| {
            cap.saturating_sub(own.total())
                .saturating_sub(u64::try_from(uses).unwrap_or(0))
        });
        let free_budget = match limits.budget() {
            Some(whole) => {
                let spent = promocodes::Money::new(own.discounted(), whole.currency())
                    .map(|m| m.minor())
                    .unwrap_or(whole.minor());
                let left = whole.minor() - spent - i128::from(budget);
                Some(i64::try_from(left.max(0)).unwrap_or(i64::MAX))
            }
            None => None,
        };
        Ok(Free {
            uses: free_uses,
            budget: free_budget,
        })
    }

    /// `POST /shard-grant`: a shard asks for an allotment under its id. A
    /// known id is answered as it was; else, when too little is free, the
    /// other shards' unused allotments are recalled first; then what is
    /// granted (at most what was asked, at most what is free) is recorded
    /// with what the shard holds, in one transaction.
    pub(super) async fn handle_grant(&self, body: &str) -> std::result::Result<Response, Problem> {
        let call: GrantCall = crate::protocol::read(body)?;
        let code = Code::parse(&call.code)?;
        let _turn = self.shards.escrow.lock().await;
        self.stored(&code)?;
        let sql = self.state.storage().sql();
        tables::coordinator_tables(&sql)?;
        self.settle_recalls(&code).await;
        let mut all = false;
        if tables::op(&sql, &call.id)?.is_none() {
            let (store, definition) = self.stored(&code)?;
            let promo = &definition.promo;
            let shards = i64::from(promo.shards().max(1));
            let free = self.free(&store, promo)?;
            let want_budget = |free: i64| call.budget.unwrap_or(free / shards).max(1);
            let short_uses = free.uses.is_some_and(|left| left < call.uses.clamp(1, MIN_GRANT));
            let short_budget = free.budget.is_some_and(|left| {
                let per_use = want_budget(left) / i64::try_from(call.uses.max(1)).unwrap_or(1);
                left == 0 || left < per_use.max(1) || call.short.is_some_and(|short| left < short)
            });
            let mut recalled = None;
            if (short_uses || short_budget) && (!self.shards.exhausted.get() || call.short.is_some()) {
                recalled = Some(self.recall_all(&code, i64::from(call.shard)).await);
            }
            // Decided and written in one synchronous turn: no other write comes between.
            let (store, definition) = self.stored(&code)?;
            let free = self.free(&store, &definition.promo)?;
            let uses = free.uses.map_or(0, |left| left.min(call.uses));
            // Less budget left than the asking request lacks, after the recall.
            let lacking = matches!((free.budget, call.short), (Some(left), Some(short)) if left < short);
            let budget = match free.budget {
                // All of it, so that the shard holds all that is left and decides the end in one
                // place (a partial budget's last use clipped there, a refusal that says what is left).
                Some(left) if lacking => {
                    all = true;
                    left
                }
                Some(left) => left.min(want_budget(left)),
                None => 0,
            };
            // Nothing free (or less than the asker lacks), but another shard waits for a grant it
            // asked for: that grant may still carry uses to give. Not recorded: the asker decides
            // again and asks again under the same id, once that grant is settled, rather than
            // refuse while a use is left (or take a remainder it cannot use from a shard that can).
            let in_flight = recalled.as_ref().is_some_and(|r| r.in_flight);
            if in_flight && ((uses == 0 && budget == 0) || lacking) {
                let (_, definition) = self.stored(&code)?;
                return json_response(
                    &GrantAnswer {
                        id: call.id,
                        uses: 0,
                        budget: 0,
                        cancelled: true,
                        definition: definition.promo.clone(),
                        archived: definition.archived,
                        all: false,
                        drained: false,
                        prior: self.prior()?,
                    },
                    200,
                );
            }
            // Nothing left after every shard gave its unused allotment back, and no hold to expire:
            // the next grants answer nothing at once, until a use is given back.
            // (Not for a request that lacks budget: its own shard may keep unused budget a smaller
            // discount fits.)
            if free.uses.unwrap_or(0) == 0
                && free.budget.unwrap_or(0) == 0
                && call.short.is_none()
                && recalled.is_some_and(|r| r.holds == 0)
                && call.held == 0
                && store.holds_now(&shards::counter(&definition.promo), now()?)?.0 == 0
            {
                self.shards.exhausted.set(true);
            }
            let uses = i64::try_from(uses).unwrap_or(i64::MAX);
            tables::grant(&self.state.storage(), &call.id, i64::from(call.shard), uses, budget)?;
        }
        let op = tables::op(&sql, &call.id)?.ok_or_else(|| Problem::Internal("a grant not recorded".to_owned()))?;
        let (_, definition) = self.stored(&code)?;
        let cancelled = op.kind != "grant" || op.shard != i64::from(call.shard) || op.state == "cancelled";
        let answer = GrantAnswer {
            id: call.id,
            uses: if cancelled {
                0
            } else {
                u64::try_from(op.uses).unwrap_or(0)
            },
            budget: if cancelled { 0 } else { op.budget },
            cancelled,
            definition: definition.promo.clone(),
            archived: definition.archived,
            all: all && !cancelled,
            drained: !cancelled && self.drained(&code)?,
            prior: self.prior()?,
        };
        // Uses move in the shards: the code's own events follow their totals from now.
        self.poll_soon(&code).await;
        json_response(&answer, 200)
    }

    /// Whether nothing is left to grant at the code's object (no use, or no budget).
    fn drained(&self, code: &Code) -> std::result::Result<bool, Problem> {
        let (store, definition) = self.stored(code)?;
        let free = self.free(&store, &definition.promo)?;
        Ok(free.uses == Some(0) || free.budget == Some(0))
    }

    /// Reads a sharded code's totals within [`POLL_MIN_MS`] (its alarm, set
    /// for then unless it is due sooner), and every [`POLL_MIN_MS`] to
    /// [`POLL_MAX_MS`] after, for its own events ([`Ledger::note_code_totals`]).
    /// A failure to set the alarm is logged: the next grant sets it again.
    pub(super) async fn poll_soon(&self, code: &Code) {
        let wanted = self.stored(code).is_ok_and(|(_, d)| wants_code_events(&d.promo));
        if !wanted {
            return;
        }
        self.shards.poll_every.set(POLL_MIN_MS);
        let wait = i64::try_from(POLL_MIN_MS / 1000).unwrap_or(1);
        let Some(due) = now().ok().and_then(|at| at.checked_add_seconds(wait)) else {
            return;
        };
        let poll_at = self.shards.poll_at.get();
        self.shards.poll_at.set(Some(
            poll_at.map_or(due.as_unix_millis(), |p| p.min(due.as_unix_millis())),
        ));
        if self.alarm.set_by(due) {
            return;
        }
        if let Err(problem) = self.set_alarm(due).await {
            worker::console_error!("setting the totals' alarm of {code} failed: {}", problem.body());
        }
    }

    /// On the alarm: a sharded code's totals read now and its own events
    /// written when they moved, if its poll is due; when its next poll is
    /// (sooner while the totals move, up to [`POLL_MAX_MS`] while they do not).
    pub(super) async fn poll_totals(
        &self,
        code: &Code,
        at: Timestamp,
    ) -> std::result::Result<Option<Timestamp>, Problem> {
        let wanted = self
            .stored(code)
            .is_ok_and(|(_, d)| wants_code_events(&d.promo) && !d.archived);
        if !wanted {
            return Ok(None);
        }
        let millis = at.as_unix_millis();
        if self.shards.poll_at.get().is_some_and(|due| due > millis) {
            return Ok(self
                .shards
                .poll_at
                .get()
                .and_then(|due| Timestamp::from_unix_millis(due).ok()));
        }
        let mut moved = self.read_shard_totals(code, false).await?;
        // A sharded campaign's codes whose every use was granted: used up now?
        if let Ok((_, definition)) = self.stored(code) {
            moved |= self.note_codes_used_up(&definition.promo).await?;
        }
        let every = match (moved, self.shards.poll_every.get()) {
            (true, _) | (false, 0) => POLL_MIN_MS,
            (false, every) => (every * 2).min(POLL_MAX_MS),
        };
        self.shards.poll_every.set(every);
        let due = millis.saturating_add(i64::try_from(every).unwrap_or(i64::MAX));
        self.shards.poll_at.set(Some(due));
        Ok(Timestamp::from_unix_millis(due).ok())
    }

    /// A sharded code's own events (`budget.threshold`, `code.exhausted`,
    /// which no shard can decide: each counts its own uses): its totals
    /// across its objects (as [`Ledger::read_shard_totals`] read them last)
    /// against the totals its events were last written for, written with
    /// them in one transaction. Whether the totals moved.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub(super) fn note_code_totals(&self, code: &Code) -> std::result::Result<bool, Problem> {
        let (store, definition) = self.stored(code)?;
        let promo = &definition.promo;
        if !wants_code_events(promo) {
            return Ok(false);
        }
        let at = now()?;
        let own = store.usage_of(promo, None, at)?;
        let (usage, _, _) = self.with_shard_totals(promo, own);
        let sql = self.state.storage().sql();
        tables::coordinator_tables(&sql)?;
        let seen = match tables::seen_totals(&sql)? {
            Some((total, discounted)) => UsageCounts::new(total, 0)
                .and_then(|c| c.with_discounted(discounted.parse().unwrap_or_default()))
                .map_err(|e| Problem::Internal(e.to_string()))?,
            None => UsageCounts::ZERO,
        };
        if seen.total() == usage.total() && seen.discounted() == usage.discounted() {
            return Ok(false);
        }
        // A campaign's: its shared limits' (`campaign.exhausted`), under the campaign's counter.
        let (events, counter) = match promo.campaign() {
            Some(id) => (
                promocodes::events::campaign_events(promo, seen, usage, at),
                crate::sqlite::counter_of(id, Some(id)),
            ),
            None => (
                promocodes::events::code_events(promo, seen, usage, at),
                code.as_str().to_owned(),
            ),
        };
        let discounted = usage.discounted().to_string();
        store.write_code_events(&counter, &events, || {
            tables::set_seen_totals(&sql, usage.total(), &discounted)
        })?;
        Ok(true)
    }

    /// Recalls the unused allotment of every shard that holds any, but `asker`, at once: the holds
    /// the shards still have (each may expire), counting a shard that did not answer as one.
    async fn recall_all(&self, code: &Code, asker: i64) -> Recalled {
        let sql = self.state.storage().sql();
        let Ok(held) = tables::holdings(&sql) else {
            return Recalled {
                holds: 1,
                in_flight: false,
            };
        };
        let mut recalls = Vec::new();
        for h in held.iter().filter(|h| h.shard != asker && (h.uses > 0 || h.budget > 0)) {
            let id = self.shards.id(&format!("r{}", h.shard));
            if let Err(problem) = tables::start_recall(&sql, &id, h.shard) {
                worker::console_error!("a recall of {code} was not recorded: {}", problem.body());
                continue;
            }
            recalls.push((id, h.shard));
        }
        let sends = recalls.iter().map(|(id, shard)| self.send_recall(code, *shard, id));
        let mut recalled = Recalled {
            holds: 0,
            in_flight: false,
        };
        for result in futures_util::future::join_all(sends).await {
            match result {
                Ok((held, in_flight)) => {
                    recalled.holds += held;
                    recalled.in_flight |= in_flight;
                }
                Err(problem) => {
                    recalled.holds += 1;
                    worker::console_error!("a recall of {code} is left pending: {}", problem.body());
                }
            }
        }
        recalled
    }

    /// Sends the recalls left pending (a crash, a shard that did not answer) again, under their ids.
    async fn settle_recalls(&self, code: &Code) {
        let Ok(pending) = tables::pending_recalls(&self.state.storage().sql()) else {
            return;
        };
        for op in pending {
            if let Err(problem) = self.send_recall(code, op.shard, &op.id).await {
                worker::console_error!("a recall of {code} is still pending: {}", problem.body());
            }
        }
    }

    /// Sends recall `id` to `shard` and settles it with the answer: the shard's holds.
    async fn send_recall(&self, code: &Code, shard: i64, id: &str) -> std::result::Result<(u64, bool), Problem> {
        let call = RecallCall {
            code: code.as_str().to_owned(),
            id: id.to_owned(),
        };
        let body = serde_json::to_string(&call).map_err(|e| Problem::Internal(e.to_string()))?;
        let number = u8::try_from(shard).map_err(|e| Problem::Internal(e.to_string()))?;
        let request = Call::ShardRecall.request(code, &[], Some(body), &[])?;
        let name = self.shard_object(code, number)?;
        let mut response = crate::clients::to_object(&self.env, &name, request).await?;
        if response.status_code() != 200 {
            return Err(Problem::Internal(format!(
                "shard {shard} of {code} answered {} to a recall",
                response.status_code()
            )));
        }
        let answer: RecallAnswer = response.json().await?;
        let uses = i64::try_from(answer.uses).unwrap_or(i64::MAX);
        tables::finish_recall(&self.state.storage(), id, shard, uses, answer.budget, &answer.cancelled)?;
        // A grant in flight counts only if granted already, with something in it (its answer is on
        // its way). One still queued here carries nothing: waiting on it would livelock two shards.
        let carrying = match &answer.in_flight {
            Some(grant) => tables::op(&self.state.storage().sql(), grant)?
                .is_some_and(|op| op.kind == "grant" && op.state == "granted" && (op.uses > 0 || op.budget > 0)),
            None => false,
        };
        Ok((answer.held, carrying))
    }

    /// Reads a sharded code's shards' counts, unless the sum read last is
    /// recent enough: [`shards::TOTALS_MAX_AGE_MS`] for an anonymous
    /// lookup (`cached`), never for anyone else (exact).
    ///
    /// A fresh read also writes the code's own events when its totals moved
    /// ([`Ledger::note_code_totals`]); whether they did.
    pub(super) async fn read_shard_totals(&self, code: &Code, cached: bool) -> std::result::Result<bool, Problem> {
        let promo = match self.stored(code) {
            Ok((_, definition)) if definition.promo.shards() > 1 => definition.promo.clone(),
            _ => return Ok(false),
        };
        let moved = self.read_totals_of(&promo, cached).await?;
        if !moved {
            return Ok(false);
        }
        self.note_code_totals(code)
    }

    /// Reads the counts of the shards of `promo` (a sharded code, or a sharded campaign's code: then
    /// the campaign's counts, and the code's own uses), unless `cached` and the sum read last is
    /// recent enough (never for a campaign's code, whose own uses are read each time). Whether it read.
    pub(crate) async fn read_totals_of(&self, promo: &PromoCode, cached: bool) -> std::result::Result<bool, Problem> {
        let code = promo.code();
        let cached = cached && promo.campaign().is_none();
        let at = worker::Date::now().as_millis();
        let fresh = self
            .shards
            .totals
            .borrow()
            .as_ref()
            .is_some_and(|totals| at.saturating_sub(totals.read_at) < shards::TOTALS_MAX_AGE_MS);
        if cached && fresh {
            return Ok(false);
        }
        let reads = (0..self.objects(promo)?).map(|shard| async move {
            let request = Call::ShardUsage.request(code, &[], None, &[])?;
            let name = shards::shard_object(promo, shard);
            let mut response = crate::clients::to_object(&self.env, &name, request).await?;
            if response.status_code() != 200 {
                return Ok(ShardUsage::default());
            }
            let usage: ShardUsage = response.json().await?;
            Ok::<_, Problem>(usage)
        });
        let (mut total, mut held, mut discounted, mut held_discounted) = (0u64, 0u64, Decimal::ZERO, Decimal::ZERO);
        let mut code_uses = 0;
        for usage in futures_util::future::join_all(reads).await {
            let usage = usage?;
            total += usage.total;
            code_uses += usage.code;
            held += usage.held;
            discounted += usage.discounted.parse::<Decimal>().unwrap_or_default();
            held_discounted += usage.held_discounted.parse::<Decimal>().unwrap_or_default();
        }
        let usage = UsageCounts::new(total, 0)
            .and_then(|c| c.with_discounted(discounted))
            .map_err(|e| Problem::Internal(e.to_string()))?;
        *self.shards.totals.borrow_mut() = Some(shards::Totals {
            read_at: at,
            usage,
            held,
            held_discounted,
            code: promo.campaign().map(|_| (code.clone(), code_uses)),
        });
        Ok(true)
    }

    /// `usage` (this object's own counts) with its shards' added, as last read,
    /// and the shards' holds and their discounts; `usage` as it is for a code that is not sharded.
    pub(crate) fn with_shard_totals(&self, promo: &PromoCode, usage: UsageCounts) -> (UsageCounts, u64, Decimal) {
        if promo.shards() <= 1 {
            return (usage, 0, Decimal::ZERO);
        }
        let Some(shards) = self.shards.totals.borrow().clone() else {
            return (usage, 0, Decimal::ZERO);
        };
        // A campaign's code: its own uses on the shards, when they were read for it.
        let code_uses = match &shards.code {
            Some((code, uses)) if code == promo.code() => *uses,
            _ => 0,
        };
        let sum = UsageCounts::new(usage.total() + shards.usage.total(), usage.per_customer())
            .and_then(|c| c.with_discounted(usage.discounted() + shards.usage.discounted()))
            .and_then(|c| match usage.through_campaign() {
                true => c.with_code_uses(usage.code_uses() + code_uses),
                false => Ok(c),
            })
            .unwrap_or(usage);
        (sum, shards.held, shards.held_discounted)
    }

    /// `GET /shard-usage` to a shard: its counts now (nothing before its first grant).
    pub(super) fn handle_shard_usage(&self, code: &Code) -> std::result::Result<Response, Problem> {
        let Some(store) = self.store()? else {
            return json_response(&ShardUsage::default(), 200);
        };
        let at = now()?;
        // What this shard's uses count under: its code, or its campaign's `campaign:<id>`.
        let base = self.shard_base(code)?;
        let usage = store.usage_under(&base, at)?;
        let (held, held_discounted) = store.holds_now(&base, at)?;
        let own = match tables::allotment(&self.state.storage().sql())? {
            Some(row) if base != code.as_str() => {
                let whole = PromoCode::from_written_json(&row.definition)?.sibling(code.clone());
                store.usage_of(&whole, None, at)?.code_uses()
            }
            _ => 0,
        };
        let answer = ShardUsage {
            total: usage.total(),
            held,
            discounted: usage.discounted().to_string(),
            held_discounted: held_discounted.to_string(),
            code: own,
        };
        json_response(&answer, 200)
    }

    /// A sharded code's shards' figures, summed (none for a code that is not sharded).
    pub(super) async fn shard_figures(&self, code: &Code) -> std::result::Result<crate::stats::Pending, Problem> {
        let mut sum = crate::stats::Pending::default();
        // A campaign's object asked for its campaign's figures: its shards', all of its codes'.
        let campaign = match self.store()? {
            Some(store) => store.campaign()?.filter(|stored| stored.campaign.id() == code),
            None => None,
        };
        let (shards, base) = match (campaign, self.stored(code)) {
            (Some(stored), _) if stored.campaign.shards() > 1 => (
                shards::objects(stored.campaign.shards(), &self.prior()?),
                promocodes::Campaign::key_of(code.as_str()),
            ),
            (None, Ok((_, definition))) if definition.promo.shards() > 1 && definition.promo.campaign().is_none() => {
                (self.objects(&definition.promo)?, code.as_str().to_owned())
            }
            _ => return Ok(sum),
        };
        let base = base.as_str();
        let reads = (0..shards).map(|shard| async move {
            let request = Call::ShardFigures.request(code, &[], None, &[])?;
            let name = shards::shard_in(base, shard);
            let mut response = crate::clients::to_object(&self.env, &name, request).await?;
            if response.status_code() != 200 {
                return Err(Problem::Internal(format!(
                    "shard {shard} of {code} answered {} for its figures",
                    response.status_code()
                )));
            }
            let figures: ShardFigures = response.json().await?;
            Ok::<_, Problem>(figures)
        });
        for figures in futures_util::future::join_all(reads).await {
            for (minute, name, n) in figures?.counts {
                sum.add_count(minute, &name, n);
            }
        }
        Ok(sum)
    }

    /// `GET /shard-figures` to a shard: its figures, written and counted in memory.
    pub(super) fn handle_shard_figures(&self) -> std::result::Result<Response, Problem> {
        let mut counts = crate::stats::rows(&self.state.storage().sql())?;
        counts.extend(self.figures.borrow().counts());
        json_response(&ShardFigures { counts }, 200)
    }

    /// After a definition write: a sharded code's definition to each of its shards at once (a kill
    /// switch, an archive), best effort (each grant carries it too).
    pub(super) async fn push_definition(&self) {
        let Some(definition) = self.cache.borrow().definition.clone() else {
            return;
        };
        let promo = &definition.promo;
        if promo.shards() <= 1 || promo.campaign().is_some() {
            return;
        }
        let code = promo.code();
        let (prior, objects) = match (self.prior(), self.objects(promo)) {
            (Ok(prior), Ok(objects)) => (prior, objects),
            (Err(problem), _) | (_, Err(problem)) => {
                worker::console_error!("the layouts of {code} were not read: {}", problem.body());
                return;
            }
        };
        let call = ShardDefinition {
            definition: promo.clone(),
            archived: definition.archived,
            prior,
        };
        let Ok(body) = serde_json::to_string(&call) else {
            return;
        };
        let sends = (0..objects).map(|shard| {
            let body = body.clone();
            async move {
                let number = shard.to_string();
                let headers = [(crate::protocol::SHARD_HEADER, number.as_str())];
                let request = Call::ShardDefinition.request(code, &[], Some(body), &headers)?;
                crate::clients::to_object(&self.env, &self.shard_object(code, shard)?, request).await
            }
        });
        for result in futures_util::future::join_all(sends).await {
            if let Err(problem) = result {
                worker::console_error!("a shard of {code} did not hear of its definition: {}", problem.body());
            }
        }
        self.drain_retired(code, promo.shards()).await;
    }

    /// After a write of a sharded campaign's definition (a `PUT`, its switch, an archive): the
    /// campaign's definition to each of its shards at once, as [`Ledger::push_definition`] sends a
    /// code's, best effort (each grant carries it too), with the campaign's earlier layouts, to
    /// every shard object a layout used. A shard that has decided nothing yet has no copy to
    /// replace: its first grant brings the definition. After a change of `shards`, the shards the
    /// campaign no longer uses give their unused allotments back: of the campaign's total and
    /// budget, and of each code's own uses.
    pub(super) async fn push_campaign(&self) {
        let kept = self.store().ok().flatten().and_then(|store| {
            let stored = store.campaign().ok().flatten()?;
            let code = store.first_campaign_code().ok().flatten()?;
            Some((stored, code))
        });
        let Some((stored, code)) = kept.filter(|(stored, _)| stored.campaign.shards() > 1) else {
            return;
        };
        let campaign = &stored.campaign;
        let prior = match self.prior() {
            Ok(prior) => prior,
            Err(problem) => {
                worker::console_error!(
                    "the layouts of campaign {} were not read: {}",
                    campaign.id(),
                    problem.body()
                );
                return;
            }
        };
        let objects = shards::objects(campaign.shards(), &prior);
        let moved = !prior.is_empty();
        let call = ShardDefinition {
            definition: campaign.code(code.clone()),
            archived: stored.archived,
            prior,
        };
        let Ok(body) = serde_json::to_string(&call) else {
            return;
        };
        let base = promocodes::Campaign::key_of(campaign.id().as_str());
        let sends = (0..objects).map(|shard| {
            let (body, code, name) = (body.clone(), &code, shards::shard_in(&base, shard));
            async move {
                let number = shard.to_string();
                let headers = [(crate::protocol::SHARD_HEADER, number.as_str())];
                let request = Call::ShardDefinition.request(code, &[], Some(body), &headers)?;
                crate::clients::to_object(&self.env, &name, request).await
            }
        });
        for result in futures_util::future::join_all(sends).await {
            if let Err(problem) = result {
                let id = campaign.id();
                worker::console_error!(
                    "a shard of campaign {id} did not hear of its definition: {}",
                    problem.body()
                );
            }
        }
        if moved && objects > campaign.shards() {
            self.drain_retired(&code, campaign.shards()).await;
            self.drain_retired_codes(campaign.shards()).await;
        }
    }

    /// After the code's `shards` went down: the shards it no longer uses give
    /// their unused allotments back (a recall each; one not answered stays
    /// pending and is sent again with the next grant). They keep their uses:
    /// a replay or a release still finds them there.
    async fn drain_retired(&self, code: &Code, shards: u8) {
        let _turn = self.shards.escrow.lock().await;
        let sql = self.state.storage().sql();
        let Ok(held) = tables::holdings(&sql) else {
            return;
        };
        for h in held
            .iter()
            .filter(|h| h.shard >= i64::from(shards) && (h.uses > 0 || h.budget > 0))
        {
            let id = self.shards.id(&format!("r{}", h.shard));
            if let Err(problem) = tables::start_recall(&sql, &id, h.shard) {
                worker::console_error!("a recall of {code} was not recorded: {}", problem.body());
                continue;
            }
            if let Err(problem) = self.send_recall(code, h.shard, &id).await {
                worker::console_error!("a recall of {code} is left pending: {}", problem.body());
            }
        }
    }

    /// `POST /shard-definition` to a shard: the code's definition now, if the shard has its allotment row.
    pub(super) fn handle_shard_definition(&self, body: &str) -> std::result::Result<Response, Problem> {
        let call: ShardDefinition = crate::protocol::read(body)?;
        tables::take_layout(&self.state.storage(), &call, true)?;
        *self.shards.prior.borrow_mut() = None;
        json_response(&serde_json::json!({}), 200)
    }
}

/// The soonest a sharded code's object reads its shards' totals again for
/// its own events after a grant, or after totals that moved (milliseconds).
pub const POLL_MIN_MS: u64 = 1000;

/// The longest it waits between two reads while the totals do not move (milliseconds).
pub const POLL_MAX_MS: u64 = 60_000;

/// Whether a code has events of its own its object writes from its shards'
/// totals: sharded, with a cap or a budget; or a sharded campaign's code
/// (its campaign's events, and its codes' `code.exhausted`).
fn wants_code_events(promo: &PromoCode) -> bool {
    let limits = promo.limits();
    // A sharded campaign's code: also its own uses (`code.exhausted`, see `note_codes_used_up`).
    promo.shards() > 1 && (limits.total().is_some() || limits.budget().is_some() || promo.campaign().is_some())
}
