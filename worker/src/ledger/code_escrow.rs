//! Each code's own uses in a campaign spread over shards (see
//! [`crate::shards::codes`]): the campaign's object grants a shard more of
//! a code (`handle_code_claim`), recalling what the other shards have not
//! used when nothing is free; a shard lowers its allotment on a recall
//! (`handle_code_recall`) and asks for more when its allotment of a code
//! refused a use (`claim_code`).

use promocodes::wire::{CodeAllotment, CodeClaim, CodeCounts, CodeCountsCall, CodeRecall};

use super::shard::View;
use super::*;
use crate::shards::codes::{self, Allotted};
use crate::shards::tables;

impl Ledger {
    /// `POST /shard-code-claim`, at the campaign's object: the asking
    /// shard's allotment of the code, more of it when some is free. A shard
    /// that knows an older version than the one recorded gets the recorded
    /// one, and nothing more (it decides again on it first). When nothing is
    /// free, the other shards' unused uses of the code are recalled first;
    /// when none come back, the allotment is answered as it was: the code's
    /// uses are all taken or held.
    pub(super) async fn handle_code_claim(&self, body: &str) -> std::result::Result<Response, Problem> {
        let call: CodeClaim = crate::protocol::read(body)?;
        let code = Code::parse(&call.code)?;
        let _turn = self.shards.code_escrow.lock().await;
        let sql = self.state.storage().sql();
        codes::coordinator_tables(&sql)?;
        let answer = |allotted: Allotted| {
            json_response(
                &CodeAllotment {
                    granted: allotted.granted,
                    version: allotted.version,
                },
                200,
            )
        };
        let mut recalled = false;
        loop {
            let (store, definition) = self.stored(&code)?;
            let promo = &definition.promo;
            let per_code = promo
                .uses_per_code()
                .ok_or_else(|| Problem::Internal(format!("a claim of {code}, which is no campaign's code")))?;
            let grants = codes::grants(&sql, code.as_str())?;
            let mine = grants
                .iter()
                .find(|(shard, _)| *shard == call.shard)
                .map(|(_, allotted)| *allotted)
                .unwrap_or_default();
            if mine.version > call.version {
                return answer(mine);
            }
            // Uses this object took of the code itself, and what every shard holds.
            let own = store.usage_of(promo, None, now()?)?.code_uses();
            let granted: i64 = grants.iter().map(|(_, allotted)| allotted.granted).sum();
            let free = i64::try_from(per_code)
                .unwrap_or(i64::MAX)
                .saturating_sub(i64::try_from(own).unwrap_or(i64::MAX))
                .saturating_sub(granted);
            if free > 0 {
                let more = free.min(i64::try_from(call.want.max(1)).unwrap_or(1));
                let next = Allotted {
                    granted: mine.granted + more,
                    version: mine.version + 1,
                };
                codes::set_grant(&sql, code.as_str(), call.shard, next)?;
                if more == free {
                    // Every use of the code is granted: the next read of the shards' counts may find it used up.
                    codes::watch(&sql, code.as_str())?;
                    self.shards.unwatched.set(false);
                    self.poll_soon(&code).await;
                }
                return answer(next);
            }
            if recalled {
                return answer(mine);
            }
            recalled = true;
            let others = grants
                .iter()
                .filter(|(shard, allotted)| *shard != call.shard && allotted.granted > 0);
            for (shard, allotted) in others {
                self.recall_code(&code, *shard, *allotted).await?;
            }
        }
    }

    /// Takes back what shard `shard` has not used of `code` (it was
    /// granted `allotted`): the new version is recorded before the recall is
    /// sent, so that no version is given twice, and the lower count once the
    /// shard answered it. A shard that does not answer keeps its allotment
    /// here (counting more than it may use is safe); it is asked again at
    /// the next recall.
    async fn recall_code(&self, code: &Code, shard: u8, allotted: Allotted) -> std::result::Result<(), Problem> {
        let sql = self.state.storage().sql();
        let version = allotted.version + 1;
        let sent = Allotted {
            granted: allotted.granted,
            version,
        };
        codes::set_grant(&sql, code.as_str(), shard, sent)?;
        let call = CodeRecall {
            code: code.as_str().to_owned(),
            version,
        };
        let body = serde_json::to_string(&call).map_err(|e| Problem::Internal(e.to_string()))?;
        let request = Call::ShardCodeRecall.request(code, &[], Some(body), &[])?;
        let name = self.shard_object(code, shard)?;
        let answered = async {
            let mut response = crate::clients::to_object(&self.env, &name, request).await?;
            if response.status_code() != 200 {
                return Err(Problem::Internal(format!(
                    "{name} answered {} to a recall of {code}",
                    response.status_code()
                )));
            }
            let answer: CodeAllotment = response.json().await?;
            Ok(answer)
        };
        let answered = answered.await;
        match answered {
            Ok(answer) if answer.version == version => codes::set_grant(
                &sql,
                code.as_str(),
                shard,
                Allotted {
                    granted: answer.granted.min(allotted.granted),
                    version,
                },
            ),
            Ok(answer) => {
                worker::console_error!(
                    "{name} answered version {} to a recall of {code} under version {version}",
                    answer.version
                );
                Ok(())
            }
            Err(problem) => {
                worker::console_error!("a recall of {code} from {name} failed: {}", problem.body());
                Ok(())
            }
        }
    }

    /// After a campaign's `shards` went down (to `shards`): the shards it no
    /// longer uses give back what they have not used of each code (a recall
    /// each, as [`Ledger::recall_code`]; one not answered is recalled again
    /// when the code runs short). They keep their uses.
    pub(super) async fn drain_retired_codes(&self, shards: u8) {
        let _turn = self.shards.code_escrow.lock().await;
        let sql = self.state.storage().sql();
        let retired = match codes::retired_grants(&sql, shards) {
            Ok(retired) => retired,
            Err(problem) => {
                worker::console_error!("the codes' grants were not read: {}", problem.body());
                return;
            }
        };
        for (code, shard, allotted) in retired {
            let Ok(code) = Code::parse(&code) else {
                continue;
            };
            if let Err(problem) = self.recall_code(&code, shard, allotted).await {
                worker::console_error!("a recall of {code} from shard {shard} failed: {}", problem.body());
            }
        }
    }

    /// `POST /shard-code-recall`, at a campaign's shard: under a version newer
    /// than the one it has, the shard's allotment of the code becomes the
    /// uses it has of it (held or captured), in one write; the answer is its
    /// allotment as it is then.
    pub(super) fn handle_code_recall(&self, body: &str) -> std::result::Result<Response, Problem> {
        let call: CodeRecall = crate::protocol::read(body)?;
        let code = Code::parse(&call.code)?;
        let sql = self.state.storage().sql();
        codes::shard_tables(&sql)?;
        let kept = codes::allotted(&sql, code.as_str())?;
        if call.version > kept.version {
            let used = match (self.store()?, tables::allotment(&sql)?) {
                (Some(store), Some(row)) => {
                    let whole = PromoCode::from_written_json(&row.definition)?.sibling(code.clone());
                    store.usage_of(&whole, None, now()?)?.code_uses()
                }
                _ => 0,
            };
            let lower = Allotted {
                granted: kept.granted.min(i64::try_from(used).unwrap_or(i64::MAX)),
                version: call.version,
            };
            codes::keep(&sql, code.as_str(), lower)?;
        }
        let now_kept = codes::allotted(&sql, code.as_str())?;
        json_response(
            &CodeAllotment {
                granted: now_kept.granted,
                version: now_kept.version,
            },
            200,
        )
    }

    /// At a campaign's shard whose allotment of `code` refused a use (`view`'s,
    /// `allotted`): asks the campaign's object for as many again as it has
    /// (one at first; doubling, so that a code of many uses costs a claim per
    /// doubling, not per use; the campaign's object grants at most what is
    /// free, and recalls what a shard does not use when another needs it). Whether the
    /// allotment changed since `allotted` (decide again): by this answer, or
    /// by a recall that reached the shard while the claim was on its way
    /// (the answer is then a version the shard already has).
    pub(super) async fn claim_code(
        &self,
        code: &Code,
        shard: u8,
        view: &View,
        allotted: Allotted,
    ) -> std::result::Result<bool, Problem> {
        let call = CodeClaim {
            code: code.as_str().to_owned(),
            shard,
            version: allotted.version,
            want: u64::try_from(allotted.granted).unwrap_or(0).max(1),
        };
        let body = serde_json::to_string(&call).map_err(|e| Problem::Internal(e.to_string()))?;
        let request = Call::ShardCodeClaim.request(code, &[], Some(body), &[])?;
        let mut response = crate::clients::to_object(&self.env, &view.base, request).await?;
        if response.status_code() != 200 {
            return Err(Problem::Internal(format!(
                "{} answered {} to a claim of {code}",
                view.base,
                response.status_code()
            )));
        }
        let answer: CodeAllotment = response.json().await?;
        let sql = self.state.storage().sql();
        let kept = codes::keep(
            &sql,
            code.as_str(),
            Allotted {
                granted: answer.granted,
                version: answer.version,
            },
        )?;
        Ok(kept || answer.version > allotted.version)
    }
}

impl Ledger {
    /// At a sharded campaign's object, told a shard gave back a use of `code`: the code is watched
    /// again if every use of it is granted (it may be used up again later, a second crossing).
    pub(super) fn watch_if_granted(&self, code: &Code) -> std::result::Result<(), Problem> {
        let Ok((store, definition)) = self.stored(code) else {
            return Ok(());
        };
        let promo = &definition.promo;
        let (Some(per_code), true) = (promo.uses_per_code(), promo.shards() > 1 && promo.campaign().is_some()) else {
            return Ok(());
        };
        let sql = self.state.storage().sql();
        codes::coordinator_tables(&sql)?;
        let granted: i64 = codes::grants(&sql, code.as_str())?.iter().map(|(_, a)| a.granted).sum();
        let own = store.usage_of(promo, None, now()?)?.code_uses();
        if u64::try_from(granted).unwrap_or(0) + own >= per_code {
            codes::watch(&sql, code.as_str())?;
            self.shards.unwatched.set(false);
        }
        Ok(())
    }

    /// At a sharded campaign's object (`promo` one of its codes): each watched code's uses read
    /// from the shards, and `code.exhausted` written for those used up (then no longer watched),
    /// with the campaign's total as last read. Whether it wrote any.
    ///
    /// # Errors
    ///
    /// A storage failure, or a shard that did not answer (the codes stay watched).
    pub(super) async fn note_codes_used_up(&self, promo: &PromoCode) -> std::result::Result<bool, Problem> {
        let Some(id) = promo.campaign().filter(|_| promo.shards() > 1) else {
            return Ok(false);
        };
        if self.shards.unwatched.get() {
            return Ok(false);
        }
        let sql = self.state.storage().sql();
        codes::coordinator_tables(&sql)?;
        let watched = codes::watched(&sql, 1_000)?;
        if watched.is_empty() {
            self.shards.unwatched.set(true);
            return Ok(false);
        }
        let call = CodeCountsCall {
            codes: watched.clone(),
            shared: Vec::new(),
        };
        let objects = crate::shards::objects(promo.shards(), &self.prior()?);
        let answers = self.code_counts_of(id, objects, &call).await?;
        let (store, _) = self.stored(promo.code())?;
        let at = now()?;
        let total = self
            .with_shard_totals(promo, store.usage_of(promo, None, at)?)
            .0
            .total();
        let mut wrote = false;
        for (i, name) in watched.iter().enumerate() {
            let code = Code::parse(name)?;
            let sibling = promo.sibling(code.clone());
            let own = store.usage_of(&sibling, None, at)?.code_uses();
            let on_shards: u64 = answers
                .iter()
                .filter_map(|a| a.counts.get(i))
                .map(|(uses, held)| uses + held)
                .sum();
            let usage = promocodes::UsageCounts::new(total, 0)
                .and_then(|c| c.with_code_uses(own + on_shards))
                .map_err(|e| Problem::Internal(e.to_string()))?;
            let Some(event) = promocodes::events::code_used_up(&sibling, usage, at) else {
                continue;
            };
            let counter = crate::sqlite::counter_of(id, Some(id));
            store.write_code_events(&counter, &[event], || codes::unwatch(&sql, name))?;
            wrote = true;
        }
        Ok(wrote)
    }

    /// `POST /shard-code-counts`, at a campaign's shard: the asked codes' uses and holds here, how
    /// many codes are in use here, and which of the `shared` ones.
    pub(super) fn handle_code_counts(&self, body: &str) -> std::result::Result<Response, Problem> {
        let call: CodeCountsCall = crate::protocol::read(body)?;
        let Some(store) = self.store()? else {
            let counts = vec![(0, 0); call.codes.len()];
            return json_response(
                &CodeCounts {
                    counts,
                    ..CodeCounts::default()
                },
                200,
            );
        };
        let at = now()?;
        let counts = call
            .codes
            .iter()
            .map(|code| store.code_counts(code, at))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut shared_in_use = Vec::new();
        for code in call.shared {
            let (uses, held) = store.code_counts(&code, at)?;
            if uses + held > 0 {
                shared_in_use.push(code);
            }
        }
        json_response(
            &CodeCounts {
                counts,
                in_use: store.codes_in_use(at)?,
                shared_in_use,
            },
            200,
        )
    }

    /// At a campaign's object spread over `shards` shards: each shard's answer to `call`.
    pub(super) async fn code_counts_of(
        &self,
        id: &Code,
        shards: u8,
        call: &CodeCountsCall,
    ) -> std::result::Result<Vec<CodeCounts>, Problem> {
        let body = serde_json::to_string(call).map_err(|e| Problem::Internal(e.to_string()))?;
        let base = promocodes::Campaign::key_of(id.as_str());
        let reads = (0..shards).map(|shard| {
            let (body, name) = (body.clone(), crate::shards::shard_in(&base, shard));
            async move {
                let request = Call::ShardCodeCounts.request(id, &[], Some(body), &[])?;
                let mut response = crate::clients::to_object(&self.env, &name, request).await?;
                if response.status_code() != 200 {
                    return Err(Problem::Internal(format!(
                        "{name} answered {} for its codes' counts",
                        response.status_code()
                    )));
                }
                Ok(response.json::<CodeCounts>().await?)
            }
        });
        futures_util::future::join_all(reads).await.into_iter().collect()
    }

    /// At a campaign's object spread over `shards` shards: how many of its codes are in use on
    /// its shards, a code in use on two of them counted once.
    pub(super) async fn codes_in_use_on_shards(&self, id: &Code, shards: u8) -> std::result::Result<u64, Problem> {
        let sql = self.state.storage().sql();
        codes::coordinator_tables(&sql)?;
        let mut shared = codes::shared(&sql)?;
        // A campaign that was on 1 shard: the codes its object has in use itself count there already.
        let own: std::collections::HashSet<String> = if self.prior()?.contains(&1) {
            codes::own_and_granted(&sql, &now()?.sortable())?.into_iter().collect()
        } else {
            std::collections::HashSet::new()
        };
        shared.extend(
            own.iter()
                .filter(|code| !shared.contains(code))
                .cloned()
                .collect::<Vec<_>>(),
        );
        let call = CodeCountsCall {
            codes: Vec::new(),
            shared,
        };
        let answers = self.code_counts_of(id, shards, &call).await?;
        let mut seen: std::collections::HashMap<&str, u64> = std::collections::HashMap::new();
        for answer in &answers {
            for code in &answer.shared_in_use {
                *seen.entry(code.as_str()).or_default() += 1;
            }
        }
        let twice: u64 = seen
            .iter()
            .map(|(code, n)| if own.contains(*code) { *n } else { n.saturating_sub(1) })
            .sum();
        Ok(answers.iter().map(|a| a.in_use).sum::<u64>().saturating_sub(twice))
    }
}
