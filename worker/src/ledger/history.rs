//! What the object keeps over time: the expiry alarm, the history, the
//! figures, and the test builds' conformance run.

use super::*;

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
        let current = self.cache.borrow().alarm;
        if let Some(at) = next.filter(|_| next != current) {
            self.set_alarm(at).await?;
        }
        Ok(())
    }

    pub(super) async fn handle_alarm(&self) -> std::result::Result<(), Problem> {
        self.cache.borrow_mut().alarm = None;
        // The figures counted in memory, if due (else the schedule below sets the alarm for then).
        let at = now()?;
        if self.figures.borrow().is_due(at.as_unix_millis()) {
            self.write_figures(at);
        }
        let Some(store) = self.store()? else {
            return Ok(());
        };
        let codes: Vec<Value> = self
            .state
            .storage()
            .sql()
            .exec("SELECT code FROM definition", None)?
            .to_array()?;
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
        // A campaign's object: its codes' holds count under the campaign.
        if let Some(stored) = store.campaign()? {
            let id = stored.campaign.id();
            let (expired, _) = store.expire_holds_under(&crate::sqlite::counter_of(id, Some(id)), at)?;
            if expired > 0 {
                self.count(Event::Expired, expired as i64, at);
                worker::console_log!(
                    "{}",
                    json!({"campaign": id, "op": "expire", "outcome": "expired", "holds": expired})
                );
            }
            let expiry = store.next_expiry_under(&crate::sqlite::counter_of(id, Some(id)))?;
            let next = match (expiry, self.figures_due()?) {
                (Some(expiry), Some(due)) => Some(expiry.min(due)),
                (expiry, due) => expiry.or(due),
            };
            if let Some(when) = next.filter(|when| Some(*when) != self.cache.borrow().alarm) {
                self.set_alarm(when).await?;
            }
        }
        Ok(())
    }

    pub(super) fn handle_redemptions(&self, req: &Request) -> std::result::Result<Response, Problem> {
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
        let (items, more) = match store_of_campaign(self, &code)? {
            // The campaign's object asked for its campaign's history (`code` is the campaign's id).
            Some(store) => store.campaign_redemptions(after, limit, now()?)?,
            None => {
                let (store, _) = self.stored(&code)?;
                store.redemptions(&code, after, limit, now()?)?
            }
        };
        let next = if more {
            items.last().map(|r| r["seq"].to_string())
        } else {
            None
        };
        json_response(&json!({ "code": code, "redemptions": items, "next": next }), 200)
    }

    pub(super) fn handle_stats(&self, code: &Code) -> std::result::Result<Response, Problem> {
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
        let (mut total, mut last_hour) = stats::read(&self.state.storage().sql(), minute(at))?;
        // What is counted in memory and not yet written is read with the rest.
        self.figures.borrow().add_to(&mut total, &mut last_hour, minute(at));
        let mut by_minute = stats::by_minute(&self.state.storage().sql(), minute(at))?;
        self.figures.borrow().add_to_minutes(&mut by_minute);
        let currency = definition.promo.currency();
        let mut minutes = Vec::with_capacity(by_minute.len());
        for (m, figures) in by_minute {
            let start = Timestamp::from_unix_millis(m * 60_000).map_err(|e| Problem::Internal(e.to_string()))?;
            minutes.push(json!({ "minute": start, "figures": figures.to_json(currency) }));
        }
        json_response(
            &json!({
                "code": code,
                "defined_at": definition.defined_at,
                "at": at,
                "total": total.to_json(currency),
                "last_hour": last_hour.to_json(currency),
                "by_minute": minutes,
            }),
            200,
        )
    }

    /// Test builds only: when this instance wrote the code's figures to
    /// SQLite, and how many counted events wait in memory. A read: it writes nothing.
    #[cfg(feature = "conformance")]
    pub(super) fn handle_figure_writes(&self, code: &Code) -> std::result::Result<Response, Problem> {
        self.stored(code)?;
        let written_at = self.figure_writes.borrow().clone();
        json_response(
            &json!({
                "code": code,
                "writes": written_at.len(),
                "written_at": written_at,
                "pending": self.figures.borrow().events(),
            }),
            200,
        )
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
        json_response(
            &json!({ "conformance": "passed", "store": "sqlite", "failed_transaction_rolled_back": rolled_back }),
            200,
        )
    }
}

/// The store, when `code` is the id of the campaign this object keeps (not a code of it).
fn store_of_campaign(ledger: &Ledger, code: &Code) -> std::result::Result<Option<Rc<SqliteRedemptionStore>>, Problem> {
    let Some(store) = ledger.store()? else {
        return Ok(None);
    };
    let is_campaign = store
        .campaign()?
        .is_some_and(|stored| stored.campaign.id() == code && !store.has_campaign_code(code).unwrap_or(false));
    Ok(is_campaign.then_some(store))
}
