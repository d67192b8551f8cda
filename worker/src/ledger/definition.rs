//! The code's definition in its object: defined, switched, archived, summarised and looked up.

use promocodes::wire::{CodeSummary, CodeUsage, PublicCode};
use promocodes::{InputError, PublicDefinition};

use super::*;

/// How long the edge keeps a sharded code's anonymous lookup at most, in
/// seconds: its shards' writes do not purge it, so it is at most this far behind.
pub const SHARDED_FRESH_FOR_S: i64 = 1;

/// A change of `shards` refused: a 400 naming `shards`.
fn layout_refused(message: String) -> Problem {
    Problem::Input(promocodes::InputError::Malformed {
        path: "shards".to_owned(),
        message,
    })
}

impl Ledger {
    /// Replaces the cached definition after a write.
    pub(super) fn remember(
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

    pub(super) fn handle_put_definition(
        &self,
        body: &str,
        condition: &Condition,
        note: Option<&str>,
    ) -> std::result::Result<Response, Problem> {
        let promo = PromoCode::from_json(body)?;
        // A campaign's object defines no code of its own (the catalog sends a code here only while
        // it knows it as the campaign's): a definition row would part the code from its campaign.
        if let Some(store) = self.store()? {
            if self.kept_campaign(&store)?.is_some() {
                return Err(Problem::CodeExists(promo.code().clone()));
            }
        }
        self.check_condition(promo.code(), condition)?;
        let mut moved_from = None;
        if let Ok((_, stored)) = self.stored(promo.code()) {
            let (from, to) = (stored.promo.shards(), promo.shards());
            if from != to {
                self.check_layout_change(&promo, from, to)?;
                moved_from = Some(from);
            }
        }
        let store = self.store_or_create()?;
        let sql = self.state.storage().sql();
        let own = match moved_from {
            Some(_) => store.usage_of(&promo, None, now()?)?,
            None => promocodes::UsageCounts::ZERO,
        };
        // The layout it had is recorded with the new definition, in one transaction.
        let replaced = store.put_definition(&promo, note, now()?, || match moved_from {
            Some(from) => crate::shards::tables::record_move(&sql, from, own),
            None => Ok(()),
        })?;
        *self.shards.prior.borrow_mut() = None;
        let definition = self.remember(&store, promo.code())?;
        with_etag(json_response(&promo, if replaced { 200 } else { 201 })?, &definition)
    }

    /// Whether a defined code's `shards` may change from `from` to `to`:
    /// to 2 or more, at most [`MAX_LAYOUT_CHANGES`](crate::shards::MAX_LAYOUT_CHANGES)
    /// times, and not on a campaign's code. Its uses stay where they were
    /// taken; each shard asks the earlier layouts' objects about a key or a
    /// customer new to it (see `shard.rs`).
    fn check_layout_change(&self, promo: &PromoCode, from: u8, to: u8) -> std::result::Result<(), Problem> {
        if promo.campaign().is_some() && to > 1 {
            return Err(layout_refused(format!(
                "{} is a campaign's code: its uses count in the campaign's object",
                promo.code()
            )));
        }
        self.check_moves(("", "code", promo.code()), from, to)
    }

    /// Whether what this object keeps (`(a, noun, name)`: `""`, `"code"` and the code, or
    /// `"campaign "`, `"campaign"` and its id) may move from `from` to `to` shards: to 2 or more,
    /// at most [`MAX_LAYOUT_CHANGES`](crate::shards::MAX_LAYOUT_CHANGES) times (its layouts are
    /// this object's). A 400 naming `shards` otherwise.
    pub(super) fn check_moves(
        &self,
        (a, noun, name): (&str, &str, &Code),
        from: u8,
        to: u8,
    ) -> std::result::Result<(), Problem> {
        if to <= 1 {
            return Err(layout_refused(format!(
                "{a}{name} is spread over {from} shards, and its uses and keys stay in them: it may move to 2 shards or more, not back to 1"
            )));
        }
        let changes = crate::shards::tables::prior_layouts(&self.state.storage().sql())?.len();
        if changes >= crate::shards::MAX_LAYOUT_CHANGES {
            return Err(layout_refused(format!(
                "the shards of {a}{name} changed {changes} times already, the most they may (define a new {noun} to spread it over {to})"
            )));
        }
        Ok(())
    }

    pub(super) fn handle_patch_definition(
        &self,
        code: &Code,
        body: &str,
        condition: &Condition,
        note: Option<&str>,
    ) -> std::result::Result<Response, Problem> {
        let patch = CodePatch::from_json(body)?;
        let (store, definition) = self.live(code)?;
        if let Some(campaign) = definition.promo.campaign() {
            // Its switch is its campaign's: a definition of its own would part it from the campaign.
            return Err(Problem::Input(InputError::Malformed {
                path: "code".to_owned(),
                message: format!(
                    "{code} is a code of campaign {campaign}: switch the campaign (PATCH /v1/campaigns/{campaign})"
                ),
            }));
        }
        self.check_condition(code, condition)?;
        let promo = definition.promo.with_active(patch.active);
        store.put_definition(&promo, note, now()?, || Ok(()))?;
        let definition = self.remember(&store, code)?;
        with_etag(json_response(&promo, 200)?, &definition)
    }

    pub(super) fn handle_archive(&self, code: &Code, note: Option<&str>) -> std::result::Result<Response, Problem> {
        let (store, _) = self.stored(code)?;
        store.set_archived(code, true, note, now()?)?;
        let definition = self.remember(&store, code)?;
        json_response(&self.summary(&store, &definition)?, 200)
    }

    /// What the catalog and the admin see of a code: the definition (the
    /// audience only as `assigned`), whether it is archived, and its usage now.
    pub(super) fn summary<'d>(
        &self,
        store: &SqliteRedemptionStore,
        definition: &'d StoredDefinition,
    ) -> std::result::Result<CodeSummary<PublicDefinition<'d>>, Problem> {
        Ok(CodeSummary {
            code: self.lookup(store, definition)?,
            archived: definition.archived,
            defined_at: definition.defined_at.clone(),
        })
    }

    /// A code's public view: the definition (the audience only as
    /// `assigned`) and its usage now.
    fn lookup<'d>(
        &self,
        store: &SqliteRedemptionStore,
        definition: &'d StoredDefinition,
    ) -> std::result::Result<PublicCode<PublicDefinition<'d>>, Problem> {
        let promo = &definition.promo;
        let at = now()?;
        let (usage, shards_held, shards_held_discount) =
            self.with_shard_totals(promo, store.usage_of(promo, None, at)?);
        // A campaign's code counts through its campaign: the campaign's holds, and the code's own uses.
        let (held, held_discount) = store.holds_now(&crate::sqlite::counter_of(promo.code(), promo.campaign()), at)?;
        // A sharded code's holds also sit in its shards (their count, from the shards' reports).
        let (held, held_discount) = (held + shards_held, held_discount + shards_held_discount);
        Ok(PublicCode {
            definition: promo.public_view(),
            usage: CodeUsage {
                total: usage.total(),
                held,
                per_code: usage.through_campaign().then(|| usage.code_uses()),
                // The discounts counted, in the code's currency (a code without one may be used in
                // several: its sum is not one amount, and is left out).
                discounted: promo.currency().and_then(|c| Money::new(usage.discounted(), c).ok()),
                held_discounted: promo.currency().and_then(|c| Money::new(held_discount, c).ok()),
            },
            remaining: promo.remaining_uses(usage),
            remaining_budget: promo.limits().remaining_budget(usage),
        })
    }

    pub(super) fn handle_summary(&self, code: &Code) -> std::result::Result<Response, Problem> {
        let (store, definition) = self.stored(code)?;
        json_response(&self.summary(&store, &definition)?, 200)
    }

    /// A code's public view. For the edge cache (`for_cache`), it also says
    /// how long its counts hold without a write ([`FRESH_FOR_HEADER`]: until
    /// the next hold expires; a sharded code's at most [`SHARDED_FRESH_FOR_S`]),
    /// and notes that a write must purge the copy; a campaign's code is fresh
    /// for 0 seconds (never cached).
    pub(super) fn handle_get_definition(&self, code: &Code, for_cache: bool) -> std::result::Result<Response, Problem> {
        let (store, definition) = self.live(code)?;
        let mut response = json_response(&self.lookup(&store, &definition)?, 200)?;
        if !for_cache {
            response = with_etag(response, &definition)?;
        }
        if for_cache && definition.promo.campaign().is_some() {
            // Not cached: every code of the campaign moves its counts (a purge by code would miss
            // them), and a campaign's codes are mostly each one buyer's, so a copy saves little.
            response.headers_mut().set(FRESH_FOR_HEADER, "0")?;
        } else if for_cache {
            self.lookup_cached.set(true);
            let at = now()?;
            let mut fresh_for = store
                .next_expiry_after(code, at)?
                .map(|expires| expires.as_unix_millis().saturating_sub(at.as_unix_millis()) / 1000);
            if definition.promo.shards() > 1 {
                // A sharded code's shards write without the code's object: no purge follows their
                // writes, so the copy lives a second at most (read with the shards' totals of now).
                fresh_for = Some(fresh_for.map_or(SHARDED_FRESH_FOR_S, |s| s.min(SHARDED_FRESH_FOR_S)));
            }
            if let Some(seconds) = fresh_for {
                response.headers_mut().set(FRESH_FOR_HEADER, &seconds.to_string())?;
            }
        }
        Ok(response)
    }

    /// Notes, on the outcome, that this request changed the code's counts
    /// (`total_after` uses now count): `cap: "reached"` or `"freed"` when it
    /// moved the code to or from its total cap, and `purge: true` when a
    /// public lookup may be cached with the counts before it. The Worker then
    /// purges the code's cached lookup, so a buyer's next lookup is live.
    pub(crate) fn note_counts_changed(&self, promo: &PromoCode, total_after: u64, released: bool) {
        let cap = cap_change(promo, total_after, released);
        let purge = self.lookup_cached.replace(false);
        OUTCOME.with(|slot| {
            if let Some(line) = slot.borrow_mut().as_mut() {
                if let Some(change) = cap {
                    line.cap = Some(change.to_owned());
                }
                line.purge |= purge;
            }
        });
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
