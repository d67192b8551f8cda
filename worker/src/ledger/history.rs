//! What the object keeps over time: the expiry alarm, the history, the
//! figures, and the test builds' conformance run.

use super::*;
use promocodes::wire::{
    CampaignRedemptionList, ChangeList, HistoryRecord, HourFigures, MinuteFigures, RedemptionList, Stats, TryReport,
};
#[cfg(feature = "conformance")]
use promocodes::wire::{Conformance, FigureWrites};

impl Ledger {
    /// Keeps the alarm at the earliest expiry of the holds still held, or
    /// when the figures counted in memory are due if that is sooner.
    pub(super) async fn schedule_expiry(
        &self,
        store: &SqliteRedemptionStore,
        code: &Code,
    ) -> std::result::Result<(), Problem> {
        let expiry = store.next_expiry(code)?;
        let next = match (expiry, self.figures_due()?) {
            (Some(expiry), Some(due)) => Some(expiry.min(due)),
            (expiry, due) => expiry.or(due),
        };
        // Only ever sooner: an alarm set earlier (an event's delivery due) wakes the object early,
        // which does no harm, where a later one would hold the delivery back.
        let current = self.alarm.at();
        let at = now()?;
        if let Some(next) = next.filter(|next| current.is_none_or(|set| *next < set || set <= at)) {
            self.set_alarm(next).await?;
        }
        Ok(())
    }

    pub(super) async fn handle_alarm(&self) -> std::result::Result<(), Problem> {
        self.alarm.forget();
        // The figures counted in memory, if due (else the schedule below sets the alarm for then).
        let at = now()?;
        if self.figures.borrow().is_due(at.as_unix_millis()) {
            self.write_figures(at);
        }
        let Some(store) = self.store()? else {
            return Ok(());
        };
        let mut codes: Vec<Value> = self
            .state
            .storage()
            .sql()
            .exec("SELECT code FROM definition", None)?
            .to_array()?;
        // A shard of a sharded code has no definition of its own: its holds are its allotment's code's.
        if codes.is_empty() {
            if let Some(row) = crate::shards::tables::allotment(&self.state.storage().sql())? {
                codes.push(Value::String(row.code));
            }
        }
        let mut poll: Option<Timestamp> = None;
        for row in codes {
            let Some(code) = row
                .get("code")
                .unwrap_or(&row)
                .as_str()
                .and_then(|c| Code::parse(c).ok())
            else {
                continue;
            };
            let (expired, _) = store.expire_holds(&code, at)?;
            if expired > 0 {
                self.count(Event::Expired, expired as i64, at);
                worker::console_log!("{}", ExpiryLog::of("code", &code, expired));
            }
            self.schedule_expiry(&store, &code).await?;
            // A sharded code's own events, from its shards' totals (a failure is logged: the next poll tries again).
            match self.poll_totals(&code, at).await {
                Ok(due) => poll = poll.into_iter().chain(due).min(),
                Err(problem) => worker::console_error!("reading the totals of {code} failed: {}", problem.body()),
            }
        }
        // A campaign's object: its codes' holds count under the campaign.
        if let Some(stored) = store.campaign()? {
            let id = stored.campaign.id();
            let (expired, _) = store.expire_holds_under(&crate::sqlite::counter_of(id, Some(id)), at)?;
            if expired > 0 {
                self.count(Event::Expired, expired as i64, at);
                worker::console_log!("{}", ExpiryLog::of("campaign", id, expired));
            }
            // A sharded campaign's own events, from its shards' totals, read through any of its codes.
            if let Some(code) = store.first_campaign_code()? {
                match self.poll_totals(&code, at).await {
                    Ok(due) => poll = poll.into_iter().chain(due).min(),
                    Err(problem) => worker::console_error!("reading the totals of {id} failed: {}", problem.body()),
                }
            }
            let expiry = store.next_expiry_under(&crate::sqlite::counter_of(id, Some(id)))?;
            let next = match (expiry, self.figures_due()?) {
                (Some(expiry), Some(due)) => Some(expiry.min(due)),
                (expiry, due) => expiry.or(due),
            };
            if let Some(when) = next.filter(|when| Some(*when) != self.alarm.at()) {
                self.set_alarm(when).await?;
            }
        }
        // The outbox's events, after the expiries' (theirs included); a failure is retried soon.
        let next = match self.deliver(&store, at).await {
            Ok(next) => next,
            Err(problem) => {
                worker::console_error!("delivering events failed: {}", problem.body());
                at.checked_add_seconds(5)
            }
        };
        let next = next.into_iter().chain(poll).min();
        if let Some(when) = next {
            if self.alarm.at().is_none_or(|set| set > when || set <= at) {
                self.set_alarm(when).await?;
            }
        }
        Ok(())
    }

    /// A page of the changes of a code's definition, or of the campaign's
    /// when `code` is the id of the campaign this object keeps.
    pub(super) fn handle_changes(&self, req: &Request) -> std::result::Result<Response, Problem> {
        let code = Self::code_param(req)?;
        let (after, limit) = page_params(req)?;
        let store = match store_of_campaign(self, &code)? {
            Some(store) => store,
            None => self.stored(&code)?.0,
        };
        let (changes, more) = store.changes(&code, after, limit)?;
        let next = changes.last().filter(|_| more).map(|c| c.seq.to_string());
        json_response(&ChangeList { code, changes, next }, 200)
    }

    /// The checkout page's report of a code tried, or of a refusal it showed,
    /// counted in memory as a quote's figure is ([`Ledger::count_public`]): 204.
    pub(super) async fn handle_tries(&self, code: &Code, body: &str) -> std::result::Result<Response, Problem> {
        let report = TryReport::from_json(body).map_err(|e| {
            Problem::Input(promocodes::InputError::Malformed {
                path: "body".to_owned(),
                message: e.to_string(),
            })
        })?;
        self.live(code)?;
        let at = now()?;
        match report.refused {
            Some(rejection) => {
                self.count_public(&[Event::Rejected("page", rejection.code())], at)
                    .await
            }
            None => self.count_public(&[Event::Tried], at).await,
        }
        Ok(Response::empty()?.with_status(204))
    }

    pub(super) fn handle_redemptions(&self, req: &Request) -> std::result::Result<Response, Problem> {
        let code = Self::code_param(req)?;
        let (after, limit) = page_params(req)?;
        // The cursor of the next page: the last record's `seq`, when more follow.
        let next = |more: bool, last: Option<i64>| last.filter(|_| more).map(|seq| seq.to_string());
        match store_of_campaign(self, &code)? {
            // The campaign's object (or one of its shards) asked for its campaign's history (`code` is the campaign's id).
            Some(store) => {
                let (redemptions, more) = match store.campaign()? {
                    Some(_) => store.campaign_redemptions(after, limit, now()?)?,
                    None => store.campaign_shard_redemptions(after, limit, now()?)?,
                };
                let next = next(more, redemptions.last().map(|r| r.record.seq()));
                json_response(
                    &CampaignRedemptionList {
                        code,
                        redemptions,
                        next,
                    },
                    200,
                )
            }
            None => {
                // A shard of a sharded code has no definition of its own: its records, if any.
                let store = match Self::shard_of(req)? {
                    Some(_) => match self.store()? {
                        Some(store) => store,
                        None => {
                            let list = RedemptionList {
                                code,
                                redemptions: Vec::new(),
                                next: None,
                            };
                            return json_response(&list, 200);
                        }
                    },
                    None => self.stored(&code)?.0,
                };
                let (redemptions, more) = store.redemptions(&code, after, limit, now()?)?;
                let next = next(more, redemptions.last().map(HistoryRecord::seq));
                json_response(
                    &RedemptionList {
                        code,
                        redemptions,
                        next,
                    },
                    200,
                )
            }
        }
    }

    /// A code's figures; a sharded code's with its shards' (`shards`, see [`Ledger::shard_figures`]).
    pub(super) fn handle_stats(&self, code: &Code, shards: &stats::Pending) -> std::result::Result<Response, Problem> {
        // A campaign's object asked for its campaign's figures: they are the object's, every code's.
        let definition = match store_of_campaign(self, code)? {
            Some(store) => match store.campaign()? {
                Some(stored) => Rc::new(StoredDefinition {
                    promo: stored.campaign.definition().clone(),
                    archived: stored.archived,
                    defined_at: stored.defined_at,
                }),
                None => return Err(Problem::UnknownCode(code.clone())),
            },
            None => self.stored(code)?.1,
        };
        let at = now()?;
        let sql = self.state.storage().sql();
        let mut periods = stats::read(&sql, minute(at))?;
        // What is counted in memory and not yet written is read with the rest.
        self.figures.borrow().add_to(&mut periods, minute(at));
        shards.add_to(&mut periods, minute(at));
        let mut by_minute = stats::by_minute(&sql, minute(at))?;
        self.figures.borrow().add_to_minutes(&mut by_minute);
        shards.add_to_minutes(&mut by_minute);
        let mut by_hour = stats::by_hour(&sql, minute(at))?;
        self.figures.borrow().add_to_hours(&mut by_hour);
        shards.add_to_hours(&mut by_hour);
        let currency = definition.promo.currency();
        let mut minutes = Vec::with_capacity(by_minute.len());
        for (m, figures) in by_minute {
            let start = Timestamp::from_unix_millis(m * 60_000).map_err(|e| Problem::Internal(e.to_string()))?;
            minutes.push(MinuteFigures {
                minute: start,
                figures: figures.to_wire(currency),
            });
        }
        let mut hours = Vec::with_capacity(by_hour.len());
        for (m, figures) in by_hour {
            let start = Timestamp::from_unix_millis(m * 60_000).map_err(|e| Problem::Internal(e.to_string()))?;
            hours.push(HourFigures {
                hour: start,
                figures: figures.to_wire(currency),
            });
        }
        let stats = Stats {
            code: code.clone(),
            defined_at: definition.defined_at.clone(),
            at,
            total: periods.total.to_wire(currency),
            last_hour: periods.last_hour.to_wire(currency),
            last_day: periods.last_day.to_wire(currency),
            last_week: periods.last_week.to_wire(currency),
            by_minute: minutes,
            by_hour: hours,
        };
        json_response(&stats, 200)
    }

    /// Test builds only: when this instance wrote the code's figures to
    /// SQLite, and how many counted events wait in memory. A read: it writes nothing.
    #[cfg(feature = "conformance")]
    pub(super) fn handle_figure_writes(&self, code: &Code) -> std::result::Result<Response, Problem> {
        self.stored(code)?;
        let written_at = self.figure_writes.borrow().clone();
        let writes = FigureWrites {
            code: code.clone(),
            writes: written_at.len(),
            written_at,
            pending: self.figures.borrow().events(),
        };
        json_response(&writes, 200)
    }

    #[cfg(feature = "conformance")]
    pub(super) fn handle_conformance(&self) -> std::result::Result<Response, Problem> {
        let fresh = || {
            let store = SqliteRedemptionStore::create(self.state.storage()).expect("create the store");
            store.clear().expect("clear the store");
            store
        };
        // The suite panics on a failed check; with panic=abort that fails the request.
        promocodes::testing::run_conformance(fresh);
        let rolled_back = fresh().failed_transaction_rolls_back()?;
        self.cache.borrow_mut().store = None;
        self.forget_definitions();
        let answer = Conformance {
            conformance: "passed",
            store: "sqlite",
            failed_transaction_rolled_back: rolled_back,
        };
        json_response(&answer, 200)
    }
}

/// A page's `?after=` (a `seq`; 0 without it) and `?limit=` (100 without it, at most [`MAX_PAGE`]).
fn page_params(req: &Request) -> std::result::Result<(i64, u32), Problem> {
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
    Ok((after, limit))
}

/// The store, when `code` is the id of the campaign this object keeps (not a code of it).
fn store_of_campaign(ledger: &Ledger, code: &Code) -> std::result::Result<Option<Rc<SqliteRedemptionStore>>, Problem> {
    let Some(store) = ledger.store()? else {
        return Ok(None);
    };
    let is_campaign = store
        .campaign()?
        .is_some_and(|stored| stored.campaign.id() == code && !store.has_campaign_code(code).unwrap_or(false));
    // A shard of a campaign spread over shards, asked for the campaign's history.
    let is_campaign_shard = || -> std::result::Result<bool, Problem> {
        let base = crate::shards::codes::base(&ledger.state.storage().sql())?;
        Ok(base.as_deref() == Some(promocodes::Campaign::key_of(code.as_str()).as_str()))
    };
    Ok((is_campaign || is_campaign_shard()?).then_some(store))
}

/// The log line of holds that expired: `{"code": ...}` or `{"campaign": ...}`, with `op`, `outcome`, `holds`.
#[derive(serde::Serialize)]
struct ExpiryLog<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a Code>,
    #[serde(skip_serializing_if = "Option::is_none")]
    campaign: Option<&'a Code>,
    op: &'static str,
    outcome: &'static str,
    holds: u64,
}

impl<'a> ExpiryLog<'a> {
    /// The line for `holds` expired holds of a code (`whose` `code`) or a campaign.
    fn of(whose: &'static str, id: &'a Code, holds: u64) -> String {
        let (code, campaign) = if whose == "code" {
            (Some(id), None)
        } else {
            (None, Some(id))
        };
        let line = ExpiryLog {
            code,
            campaign,
            op: "expire",
            outcome: "expired",
            holds,
        };
        serde_json::to_string(&line).unwrap_or_default()
    }
}
