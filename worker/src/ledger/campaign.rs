//! A campaign in its object (`campaign:<id>`): its definition, its codes
//! (generated or imported, each call once per idempotency key), its summary.
//! Its codes' holds, captures and releases are the object's ordinary calls:
//! the store reads a campaign's code's definition from the campaign.

use promocodes::wire::{
    CampaignCode, CampaignCodeCounts, CampaignCodeList, CampaignSummary, CodeUsage, CodesCreated, CodesPlan,
    CodesRequest,
};
use promocodes::{Campaign, CodePattern, InputError};
use wasm_bindgen::JsCast;

use super::*;

/// Random `u32`s from the runtime's cryptographic generator
/// (`crypto.getRandomValues`), drawn 16,384 at a time (its limit per call);
/// in test builds, from a seeded xorshift when the request asked for one
/// ([`TEST_SEED_HEADER`](crate::protocol::TEST_SEED_HEADER)).
struct CryptoRandom {
    buffer: Vec<u32>,
    seeded: Option<u64>,
}

impl CryptoRandom {
    /// `seed` only as [`Ledger::test_seed`] reads it (`None` outside test builds).
    fn new(seed: Option<u64>) -> CryptoRandom {
        CryptoRandom {
            buffer: Vec::new(),
            // Xorshift never leaves 0: an odd state.
            seeded: seed.map(|seed| seed | 1),
        }
    }

    fn next(&mut self) -> std::result::Result<u32, Problem> {
        if let Some(state) = &mut self.seeded {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            return Ok((*state >> 32) as u32);
        }
        if self.buffer.is_empty() {
            let js = |err: wasm_bindgen::JsValue| Problem::Internal(format!("crypto.getRandomValues failed: {err:?}"));
            let global = worker::js_sys::global();
            let crypto = worker::js_sys::Reflect::get(&global, &"crypto".into()).map_err(js)?;
            let get: worker::js_sys::Function = worker::js_sys::Reflect::get(&crypto, &"getRandomValues".into())
                .map_err(js)?
                .dyn_into()
                .map_err(|_| Problem::Internal("crypto.getRandomValues is missing".to_owned()))?;
            let array = worker::js_sys::Uint32Array::new_with_length(16_384);
            get.call1(&crypto, &array).map_err(js)?;
            self.buffer = array.to_vec();
        }
        self.buffer
            .pop()
            .ok_or_else(|| Problem::Internal("no random numbers".to_owned()))
    }
}

impl Ledger {
    /// The campaign this object keeps (archived or not), with its store; 404 naming `id` when there is none.
    fn stored_campaign(&self, id: &Code) -> std::result::Result<(Rc<SqliteRedemptionStore>, StoredCampaign), Problem> {
        let unknown = || Problem::UnknownCode(id.clone());
        let store = self.store()?.ok_or_else(unknown)?;
        let campaign = store.campaign()?.ok_or_else(unknown)?;
        Ok((store, campaign))
    }

    /// A write's `If-Match` / `If-None-Match` conditions, checked against the
    /// stored campaign (as a code's are against its definition), in the same
    /// synchronous step as the write that follows.
    fn check_campaign_condition(&self, id: &Code, condition: &Condition) -> std::result::Result<(), Problem> {
        if condition.is_none() {
            return Ok(());
        }
        let current = match self.stored_campaign(id) {
            Ok((_, stored)) => Some(campaign_tag(&stored)?),
            Err(Problem::UnknownCode(_)) => None,
            Err(other) => return Err(other),
        };
        if condition.allows(current.as_deref()) {
            Ok(())
        } else {
            Err(Problem::PreconditionFailed { current })
        }
    }

    pub(super) fn handle_put_campaign(
        &self,
        id: &Code,
        body: &str,
        condition: &Condition,
        note: Option<&str>,
    ) -> std::result::Result<Response, Problem> {
        let campaign = Campaign::from_json(id.clone(), body)?;
        self.check_campaign_condition(id, condition)?;
        // Its codes' uses and keys stay in the objects that took them: a change of `shards` is
        // recorded as a layout, with the definition (see `docs/http-api.md`, "A campaign on several shards").
        let moved_from = match self.stored_campaign(id) {
            Ok((_, stored)) if stored.campaign.shards() != campaign.shards() => {
                let from = stored.campaign.shards();
                self.check_moves(("campaign ", "campaign", id), from, campaign.shards())?;
                Some(from)
            }
            Ok(_) | Err(Problem::UnknownCode(_)) => None,
            Err(other) => return Err(other),
        };
        let store = self.store_or_create()?;
        let sql = self.state.storage().sql();
        let own = match moved_from {
            Some(_) => store.usage_of(&campaign.code(id.clone()), None, now()?)?,
            None => promocodes::UsageCounts::ZERO,
        };
        let replaced = store.put_campaign(id, body, note, now()?, || match moved_from {
            Some(from) => crate::shards::tables::record_move(&sql, from, own),
            None => Ok(()),
        })?;
        *self.shards.prior.borrow_mut() = None;
        // Its codes' definitions follow the campaign's.
        self.forget_definitions();
        let (_, stored) = self.stored_campaign(id)?;
        let mut response = json_response(&campaign, if replaced { 200 } else { 201 })?;
        response.headers_mut().set(ETAG_HEADER, &campaign_tag(&stored)?)?;
        Ok(response)
    }

    /// The kill switch of the campaign, and so of all of its codes.
    pub(super) fn handle_patch_campaign(
        &self,
        id: &Code,
        body: &str,
        condition: &Condition,
        note: Option<&str>,
        on_shards: Option<u64>,
    ) -> std::result::Result<Response, Problem> {
        let patch = CodePatch::from_json(body)?;
        let (store, stored) = self.stored_campaign(id)?;
        if stored.archived {
            return Err(Problem::UnknownCode(stored.campaign.id().clone()));
        }
        self.check_campaign_condition(id, condition)?;
        let campaign = stored.campaign.with_active(patch.active);
        let mut json = serde_json::to_value(&campaign).map_err(|e| Problem::Internal(e.to_string()))?;
        // The stored body is a `PUT`'s: the definition without `id` (the object's key names it).
        if let Some(fields) = json.as_object_mut() {
            fields.remove("id");
        }
        store.put_campaign(campaign.id(), &json.to_string(), note, now()?, || Ok(()))?;
        self.forget_definitions();
        self.summary_response(id, on_shards)
    }

    /// Archives the campaign: its codes are unknown to buyers; its counts and history stay.
    pub(super) fn handle_archive_campaign(
        &self,
        id: &Code,
        note: Option<&str>,
        on_shards: Option<u64>,
    ) -> std::result::Result<Response, Problem> {
        let (store, _) = self.stored_campaign(id)?;
        store.set_campaign_archived(true, note, now()?)?;
        self.forget_definitions();
        self.summary_response(id, on_shards)
    }

    /// For a campaign spread over shards: reads its shards' counts now (see `read_totals_of`), and
    /// answers how many of its codes are in use on them (`None` for a campaign on one object).
    pub(super) async fn read_campaign_totals(&self, id: &Code) -> std::result::Result<Option<u64>, Problem> {
        match self.stored_campaign(id) {
            Ok((_, stored)) if stored.campaign.shards() > 1 => {
                self.read_totals_of(&stored.campaign.code(id.clone()), false).await?;
                let objects = crate::shards::objects(stored.campaign.shards(), &self.prior()?);
                Ok(Some(self.codes_in_use_on_shards(id, objects).await?))
            }
            Ok(_) | Err(Problem::UnknownCode(_)) => Ok(None),
            Err(other) => Err(other),
        }
    }

    /// The campaign, `archived`, its usage, the uses left under its total and budget (`remaining`)
    /// and its codes; `on_shards`, the codes in use on its shards (see `read_campaign_totals`).
    pub(super) fn summary_response(&self, id: &Code, on_shards: Option<u64>) -> std::result::Result<Response, Problem> {
        let (store, stored) = self.stored_campaign(id)?;
        let at = now()?;
        let campaign = &stored.campaign;
        let counter = crate::sqlite::counter_of(campaign.id(), Some(campaign.id()));
        let (usage, _) = store.campaign_usage(&counter, at)?;
        let (held, held_discount) = store.holds_now(&counter, at)?;
        // A campaign spread over shards: theirs added, as just read.
        let (usage, shards_held, shards_held_discount) = self.with_shard_totals(&campaign.code(id.clone()), usage);
        let (held, held_discount) = (held + shards_held, held_discount + shards_held_discount);
        let promo = campaign.definition();
        let view = CampaignSummary {
            campaign,
            archived: stored.archived,
            usage: CodeUsage {
                total: usage.total(),
                held,
                per_code: None,
                discounted: promo.currency().and_then(|c| Money::new(usage.discounted(), c).ok()),
                held_discounted: promo.currency().and_then(|c| Money::new(held_discount, c).ok()),
            },
            remaining: promo.remaining_uses(usage),
            remaining_budget: promo.limits().remaining_budget(usage),
            codes: CampaignCodeCounts {
                count: store.campaign_code_count()?,
                used: store.campaign_codes_used(at)? + on_shards.unwrap_or(0),
            },
            defined_at: stored.defined_at.clone(),
        };
        let mut response = json_response(&view, 200)?;
        response.headers_mut().set(ETAG_HEADER, &campaign_tag(&stored)?)?;
        Ok(response)
    }

    /// Plans the codes a call adds, under its key: a known key answers its
    /// plan as it was (`committed` says whether its codes are in); a new one
    /// is checked against the core's rules, generated with the runtime's
    /// cryptographic generator or imported, and kept before the catalog is asked.
    pub(super) fn handle_plan_codes(
        &self,
        id: &Code,
        key: &IdempotencyKey,
        body: &str,
        seed: Option<u64>,
    ) -> std::result::Result<Response, Problem> {
        let (store, stored) = self.stored_campaign(id)?;
        if let Some(batch) = store.code_batch(key)? {
            // A key names one call: the same request (as JSON) replays it, another is refused.
            let same = |text: &str| serde_json::from_str::<Value>(text).ok();
            if batch
                .request
                .as_deref()
                .and_then(same)
                .is_none_or(|sent| Some(sent) != same(body))
            {
                return Err(Problem::IdempotencyKeyReused(key.clone()));
            }
            return plan_response(planned(&batch.answer)?, batch.committed);
        }
        let request: CodesRequest = promocodes::from_json(body)?;
        let existing = store.campaign_code_count()?;
        let codes: Vec<Code> = match fits(&request, existing)? {
            Planned::Generated(pattern, count) => {
                let mut random = CryptoRandom::new(seed);
                let mut made = std::collections::HashSet::new();
                let mut codes = Vec::new();
                // The campaign's id is never one of its codes (see the import below).
                made.insert(id.clone());
                while (codes.len() as u64) < count {
                    let code = draw(&store, &pattern, &mut random, &made)?;
                    made.insert(code.clone());
                    codes.push(code);
                }
                codes
            }
            Planned::Imported(codes) => {
                // The campaign's id names its own figures and history in its object: not a code of it.
                if codes.contains(id) {
                    return Err(Problem::CodeExists(id.clone()));
                }
                if let Some(taken) = store.campaign_codes_among(codes)?.into_iter().next() {
                    return Err(Problem::CodeExists(taken));
                }
                codes.to_vec()
            }
        };
        let plan = CodesCreated {
            campaign: stored.campaign.id().clone(),
            created: codes.len() as u64,
            codes,
        };
        store.plan_codes(key, body, &plan_text(&plan)?)?;
        plan_response(plan, false)
    }

    /// Adds the codes planned under `key` (the catalog has them now); answers the plan.
    pub(super) fn handle_commit_codes(
        &self,
        id: &Code,
        key: &IdempotencyKey,
    ) -> std::result::Result<Response, Problem> {
        let (store, _) = self.stored_campaign(id)?;
        let batch = store.code_batch(key)?.ok_or_else(|| Problem::UnknownKey(key.clone()))?;
        let plan = planned(&batch.answer)?;
        if batch.committed {
            return plan_response(plan, true);
        }
        let codes = &plan.codes;
        // Calls planned side by side each saw the campaign without the other's codes: the
        // campaign's limits are checked again on what it has now. A call refused here drops its
        // plan (the Worker drops its codes from the catalog), so its retry plans afresh.
        let request: CodesRequest = promocodes::from_json(batch.request.as_deref().unwrap_or_default())?;
        let existing = store.campaign_code_count()?;
        let refused = match fits(&request, existing) {
            Err(problem) => Some(problem),
            Ok(_) => store
                .campaign_codes_among(codes)?
                .into_iter()
                .next()
                .map(Problem::CodeExists),
        };
        if let Some(problem) = refused {
            store.drop_plan(key)?;
            return Err(problem);
        }
        let texts: Vec<String> = codes.iter().map(|c| c.as_str().to_owned()).collect();
        store.commit_codes(key, &texts)?;
        plan_response(plan, true)
    }

    /// Draws again, in the plan under `key` (generated, not yet committed),
    /// the code `taken` that the catalog found existing elsewhere; answers
    /// the plan with the new draw in its place.
    pub(super) fn handle_redraw_code(
        &self,
        id: &Code,
        key: &IdempotencyKey,
        taken: &Code,
        seed: Option<u64>,
    ) -> std::result::Result<Response, Problem> {
        let (store, _) = self.stored_campaign(id)?;
        let batch = store.code_batch(key)?.ok_or_else(|| Problem::UnknownKey(key.clone()))?;
        let request: CodesRequest = promocodes::from_json(batch.request.as_deref().unwrap_or_default())?;
        let (Some(_), false) = (request.count, batch.committed) else {
            // Imported, or in already: the taken code is the answer.
            return Err(Problem::CodeExists(taken.clone()));
        };
        let pattern = CodePattern::parse(request.pattern.as_deref(), request.charset.as_deref())?;
        let mut plan = planned(&batch.answer)?;
        let Some(at) = plan.codes.iter().position(|code| code == taken) else {
            return Err(Problem::CodeExists(taken.clone()));
        };
        let mut made: std::collections::HashSet<Code> = plan.codes.iter().cloned().collect();
        made.insert(id.clone());
        plan.codes[at] = draw(&store, &pattern, &mut CryptoRandom::new(seed), &made)?;
        store.replan_codes(key, &plan_text(&plan)?)?;
        plan_response(plan, false)
    }

    /// Campaign `id`'s codes, one a line (`text/plain`), for the Worker's
    /// isolate to route its codes without the catalog
    /// ([`crate::campaign_index`]): all of them with `after` 0, else only
    /// those added after the code whose `seq` is `after` (a list loaded
    /// before, brought up to date); the last code's `seq` in
    /// [`CODES_SEQ_HEADER`](crate::protocol::CODES_SEQ_HEADER). `413` with
    /// no body when the campaign has more than `max` codes in all.
    pub(super) fn handle_code_lines(&self, id: &Code, max: u64, after: i64) -> std::result::Result<Response, Problem> {
        let (store, _) = self.stored_campaign(id)?;
        if store.campaign_code_count()? > max {
            return Ok(Response::empty()?.with_status(413));
        }
        let (lines, last) = store.campaign_code_lines(after)?;
        let mut response = Response::ok(lines)?;
        let headers = response.headers_mut();
        headers.set("content-type", "text/plain; charset=utf-8")?;
        headers.set(crate::protocol::CODES_SEQ_HEADER, &last.to_string())?;
        Ok(response)
    }

    /// A page of the campaign's codes: `?after=&limit=`.
    pub(super) async fn handle_campaign_codes(&self, req: &Request) -> std::result::Result<Response, Problem> {
        let id = Self::code_param(req)?;
        let (store, stored) = self.stored_campaign(&id)?;
        let url = req.url()?;
        let param = |name: &str| url.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned());
        let after = match param("after") {
            None => 0,
            Some(text) => text.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| {
                Problem::Input(InputError::Malformed {
                    path: "after".to_owned(),
                    message: format!("{text:?} is not a cursor from `next`"),
                })
            })?,
        };
        let limit = match param("limit") {
            None => MAX_PAGE,
            Some(text) => text
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=MAX_PAGE).contains(n))
                .ok_or_else(|| {
                    Problem::Input(InputError::Malformed {
                        path: "limit".to_owned(),
                        message: format!("{text:?} is not a page size from 1 to {MAX_PAGE}"),
                    })
                })?,
        };
        let rows = store.campaign_codes_page(after, limit + 1, now()?)?;
        let more = rows.len() > limit as usize;
        let rows: Vec<_> = rows.into_iter().take(limit as usize).collect();
        let next = if more {
            rows.last().map(|r| r.seq.to_string())
        } else {
            None
        };
        let mut codes = rows
            .iter()
            .map(|r| {
                Ok(CampaignCode {
                    code: Code::parse(&r.code)?,
                    uses: u64::try_from(r.uses).unwrap_or(0),
                    held: u64::try_from(r.held).unwrap_or(0),
                })
            })
            .collect::<std::result::Result<Vec<_>, Problem>>()?;
        // A campaign spread over shards: each code's uses and holds there added.
        let shards = crate::shards::objects(stored.campaign.shards(), &self.prior()?);
        if shards > 1 && !codes.is_empty() {
            let call = promocodes::wire::CodeCountsCall {
                codes: rows.iter().map(|r| r.code.clone()).collect(),
                shared: Vec::new(),
            };
            for answer in self.code_counts_of(&id, shards, &call).await? {
                for (code, (uses, held)) in codes.iter_mut().zip(answer.counts) {
                    code.uses += uses;
                    code.held += held;
                }
            }
        }
        json_response(&CampaignCodeList { codes, next }, 200)
    }
}

/// The entity tag of a stored campaign (see [`etag`]): over its definition as
/// JSON and whether it is archived, as a code's tag is.
fn campaign_tag(stored: &StoredCampaign) -> std::result::Result<String, Problem> {
    let json = serde_json::to_string(&stored.campaign).map_err(|e| Problem::Internal(e.to_string()))?;
    Ok(etag::of(&json, stored.archived))
}

/// What a call to add codes asks for, once checked against the campaign's
/// limits with `existing` codes in it.
enum Planned<'r> {
    /// `count` codes of a pattern.
    Generated(CodePattern, u64),
    /// These codes.
    Imported(&'r [Code]),
}

/// Checks a call against the core's rules for `existing` codes in the
/// campaign: the count per call and per campaign, and a pattern's room or
/// an import's duplicates.
fn fits(request: &CodesRequest, existing: u64) -> std::result::Result<Planned<'_>, Problem> {
    match (request.count, &request.codes) {
        (Some(count), None) => {
            let pattern = CodePattern::parse(request.pattern.as_deref(), request.charset.as_deref())?;
            pattern.check_room(existing, count)?;
            Ok(Planned::Generated(pattern, count))
        }
        (None, Some(codes)) => {
            CodePattern::check_count(existing, codes.len() as u64).map_err(|err| match err {
                InputError::TooMany { count, max, .. } => InputError::TooMany {
                    field: "codes",
                    count,
                    max,
                },
                other => other,
            })?;
            CodePattern::check_import(codes)?;
            Ok(Planned::Imported(codes))
        }
        _ => Err(Problem::Input(InputError::Malformed {
            path: String::new(),
            message: "send either count (with pattern and charset, optional) or codes".to_owned(),
        })),
    }
}

/// One code of `pattern` from the cryptographic generator that is neither
/// in `made` (this call's) nor the campaign's: a code drawn twice is drawn again.
fn draw(
    store: &SqliteRedemptionStore,
    pattern: &CodePattern,
    random: &mut CryptoRandom,
    made: &std::collections::HashSet<Code>,
) -> std::result::Result<Code, Problem> {
    loop {
        let mut failure = None;
        let code = pattern.generate(|| match random.next() {
            Ok(n) => n,
            Err(problem) => {
                failure.get_or_insert(problem);
                0
            }
        });
        if let Some(problem) = failure {
            return Err(problem);
        }
        if !made.contains(&code) && !store.has_campaign_code(&code)? {
            return Ok(code);
        }
    }
}

/// A plan's answer as the object keeps it (`{"campaign", "created", "codes"}`).
fn planned(answer: &str) -> std::result::Result<CodesCreated, Problem> {
    serde_json::from_str(answer).map_err(|e| Problem::Internal(e.to_string()))
}

/// A plan's answer as the object keeps it.
fn plan_text(plan: &CodesCreated) -> std::result::Result<String, Problem> {
    serde_json::to_string(plan).map_err(|e| Problem::Internal(e.to_string()))
}

/// A plan's answer, with whether its codes are in.
fn plan_response(plan: CodesCreated, committed: bool) -> std::result::Result<Response, Problem> {
    json_response(&CodesPlan { plan, committed }, 200)
}
