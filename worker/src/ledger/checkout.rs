//! Quotes, holds, captures and releases in the code's object: each parses
//! the request with the core's shapes and runs the core against the store.

use promocodes::wire::{PriorLookup, ShardDefinition, StackPartAnswer, StackPartCall};
use promocodes::{CustomerId, UsageCounts};

use super::*;

/// `usage` with `more` uses of the customer's added (theirs in the code's shards). The total was
/// read before them (up to a second before, for a quote without a token): it is raised to the
/// customer's count if a use landed between the two reads.
fn plus_customer_uses(usage: UsageCounts, more: u64) -> std::result::Result<UsageCounts, Problem> {
    if more == 0 {
        return Ok(usage);
    }
    let per_customer = usage.per_customer() + more;
    UsageCounts::new(usage.total().max(per_customer), per_customer)
        .and_then(|c| c.with_discounted(usage.discounted()))
        .map_err(|e| Problem::Internal(e.to_string()))
}

/// The shard each layout of a code (`shards` now, `prior` before) sends a request to (`shard_for`
/// a layout's number of shards), the newest layout first, each once; a layout of one shard sends
/// it to the code's own object, which is not listed.
fn shards_by_layout(shards: u8, prior: &[u8], shard_for: impl Fn(u8) -> u8) -> Vec<u8> {
    let mut objects = Vec::new();
    for &n in std::iter::once(&shards).chain(prior.iter().rev()) {
        let shard = shard_for(n);
        if n > 1 && !objects.contains(&shard) {
            objects.push(shard);
        }
    }
    objects
}

impl Ledger {
    /// The uses `customer` has of sharded `definition`'s code in its shard
    /// objects: the one the layout sends them to now and the ones earlier
    /// layouts sent them to, asked at once. None to ask (0) for a code on one shard, a campaign's, one
    /// without a per-customer cap, or no customer: the uses this object
    /// decided are counted by its own store.
    ///
    /// # Errors
    ///
    /// A problem reaching a shard: the quote is not given.
    async fn customer_uses_in_shards(
        &self,
        definition: &StoredDefinition,
        customer: Option<&CustomerId>,
    ) -> std::result::Result<u64, Problem> {
        let promo = &definition.promo;
        let Some(customer) = customer else { return Ok(0) };
        if promo.shards() <= 1 || promo.limits().per_customer().is_none() {
            return Ok(0);
        }
        let prior = self.prior()?;
        let objects: Vec<Option<u8>> =
            shards_by_layout(promo.shards(), &prior, |n| promocodes::customer_shard(n, customer))
                .into_iter()
                .map(Some)
                .collect();
        let call = PriorLookup {
            code: promo.code().as_str().to_owned(),
            key: None,
            customer: Some(customer.as_str().to_owned()),
            layout: ShardDefinition {
                definition: promo.clone(),
                archived: definition.archived,
                prior,
            },
        };
        let answers = self.ask_earlier(promo.code(), &objects, &call).await?;
        Ok(answers.iter().map(|(_, _, answer)| answer.customer_uses).sum())
    }

    /// A quote: read only. Its figure is counted in memory ([`Ledger::count_public`]).
    /// A sharded code is priced on its total across its shards (read up to a
    /// second before when `cached`: a quote without a token).
    pub(super) async fn handle_quote(&self, body: &str, cached: bool) -> std::result::Result<Response, Problem> {
        let req = BasketRequest::parse(body, BasketRequestKind::Quote)?;
        self.live(&req.code)?;
        self.read_shard_totals(&req.code, cached).await?;
        let (store, definition) = self.live(&req.code)?;
        let at = now()?;
        let usage = store.usage_of(&definition.promo, req.customer.as_ref(), at)?;
        let (usage, _, _) = self.with_shard_totals(&definition.promo, usage);
        let elsewhere = self.customer_uses_in_shards(&definition, req.customer.as_ref()).await?;
        let usage = plus_customer_uses(usage, elsewhere)?;
        match definition.promo.quote(req.customer.as_ref(), usage, &req.basket, at) {
            Ok(quote) => {
                self.count_public(&[Event::Quote], at).await;
                json_response(&quote, 200)
            }
            Err(rejected) => {
                self.count_public(&[Event::Rejected("quotes", rejected.rejection().code())], at)
                    .await;
                Err(Problem::Refused(rejected))
            }
        }
    }

    /// A stack's part: the code's whole definition and its usage for the
    /// customer in `{"customer"?, "key"?, "payment"?}`, read only, for the
    /// Worker to run the core's [`Stack`](promocodes::Stack) with every
    /// code's part. With the request's idempotency `key`, the answer's
    /// `recorded` is the quote of the use this code has under it (an active
    /// hold, or a capture), which a retry takes as it is
    /// ([`Stack::resume`](promocodes::Stack::resume): it is not priced again).
    /// With `payment` (the key is a payment's id), the use is looked up as
    /// the payment flow captures it: under `<id>:paid` when a failed attempt
    /// released the hold under the id. An archived code is unknown, unless
    /// it has such a use: a retry of a capture recorded before still replays.
    ///
    /// A sharded code's part counts every shard's uses (read now), and takes
    /// the customer's uses and the use under the key from the shards a
    /// stack's write of this code went to on each of its layouts, now and
    /// before a change of `shards` (the customer's, else the key's), asked at
    /// once; without a key, the customer's uses from the customer's shards.
    pub(super) async fn handle_stack_part(&self, code: &Code, body: &str) -> std::result::Result<Response, Problem> {
        let req: StackPartCall = crate::protocol::read(body)?;
        let (store, definition) = self.stored(code)?;
        let at = now()?;
        let usage = store.usage_of(&definition.promo, req.customer.as_ref(), at)?;
        let (usage, _, _) = self.with_shard_totals(&definition.promo, usage);
        let (mut usage, mut recorded, mut captured) = (usage, None, false);
        if let Some(key) = &req.key {
            (recorded, captured) = recorded_under(&store, code, key, req.payment, at)?;
        }
        let shards = definition.promo.shards();
        if shards > 1 {
            match &req.key {
                Some(key) => {
                    // The shard each layout sent this request to, the newest first: one holds its use, if any.
                    let objects = shards_by_layout(shards, &self.prior()?, |n| {
                        promocodes::shard_of(n, req.customer.as_ref(), key)
                    });
                    let parts = objects.iter().map(|&shard| self.shard_part(code, shard, body));
                    for part in futures_util::future::join_all(parts).await {
                        let Some(part) = part? else { continue };
                        usage = plus_customer_uses(usage, part.usage.per_customer())?;
                        if recorded.is_none() && part.recorded.is_some() {
                            (recorded, captured) = (part.recorded, part.captured);
                        }
                    }
                }
                None => {
                    let elsewhere = self.customer_uses_in_shards(&definition, req.customer.as_ref()).await?;
                    usage = plus_customer_uses(usage, elsewhere)?;
                }
            }
        }
        // An archived code takes no new use; one it has under the key still replays.
        if definition.archived && recorded.is_none() {
            return Err(Problem::UnknownCode(code.clone()));
        }
        let answer = StackPartAnswer {
            definition: definition.promo.clone(),
            usage,
            recorded,
            captured,
        };
        json_response(&answer, 200)
    }

    /// Shard `shard`'s part of a stack on `code` (`body`, a [`StackPartCall`]):
    /// its uses for the customer and its use under the key; `None` when the
    /// shard has taken nothing yet.
    async fn shard_part(
        &self,
        code: &Code,
        shard: u8,
        body: &str,
    ) -> std::result::Result<Option<StackPartAnswer>, Problem> {
        let number = shard.to_string();
        let headers = [(crate::protocol::SHARD_HEADER, number.as_str())];
        let request = Call::StackPart.request(code, &[], Some(body.to_owned()), &headers)?;
        let name = self.shard_object(code, shard)?;
        let mut response = crate::clients::to_object(&self.env, &name, request).await?;
        match response.status_code() {
            200 => Ok(Some(response.json().await?)),
            404 => Ok(None),
            status => Err(Problem::Internal(format!(
                "shard {shard} of {code} answered {status} to a stack's part"
            ))),
        }
    }

    /// `POST /stack-part` to a shard: its own uses for the customer and its
    /// use under the key, on its view of the code's definition (404 when it
    /// has taken nothing yet).
    pub(super) fn handle_shard_part(&self, code: &Code, body: &str) -> std::result::Result<Response, Problem> {
        let req: StackPartCall = crate::protocol::read(body)?;
        let unknown = || Problem::UnknownCode(code.clone());
        let store = self.store()?.ok_or_else(unknown)?;
        let row = crate::shards::tables::allotment(&self.state.storage().sql())?.ok_or_else(unknown)?;
        let kept = PromoCode::from_written_json(&row.definition)?;
        // A campaign's shard keeps one of its codes' definitions: the campaign's, under this code.
        let definition = match kept.campaign() {
            Some(_) => kept.sibling(code.clone()),
            None => kept,
        };
        let at = now()?;
        let usage = store.usage_of(&definition, req.customer.as_ref(), at)?;
        let (recorded, captured) = match &req.key {
            Some(key) => recorded_under(&store, code, key, req.payment, at)?,
            None => (None, false),
        };
        let answer = StackPartAnswer {
            definition,
            usage,
            recorded,
            captured,
        };
        json_response(&answer, 200)
    }

    pub(super) async fn handle_hold(&self, key: &IdempotencyKey, body: &str) -> std::result::Result<Response, Problem> {
        let req = BasketRequest::parse(body, BasketRequestKind::Hold)?;
        let (store, definition) = self.live(&req.code)?;
        let at = now()?;
        self.route_keyed(&store, &definition.promo, req.customer.as_ref(), key, at)?;
        let mut options = HoldOptions::new();
        if let Some(ttl) = req.ttl_seconds {
            options = options.ttl_seconds(ttl);
        }
        let code = &req.code;
        let held = hold(
            &*self.deciding(&definition.promo)?,
            &*store,
            req.customer.as_ref(),
            &req.basket,
            at,
            key,
            options,
        );
        self.answer_hold(&store, code, &definition.promo, held, at).await
    }

    /// Figures, the log line and the HTTP answer of a hold (the code's object's or a shard's).
    pub(super) async fn answer_hold(
        &self,
        store: &SqliteRedemptionStore,
        code: &Code,
        promo: &PromoCode,
        held: std::result::Result<promocodes::Hold, RedemptionError>,
        at: Timestamp,
    ) -> std::result::Result<Response, Problem> {
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
                if let Err(problem) = self.schedule_expiry(store, code).await {
                    worker::console_error!("setting the expiry alarm of {code} failed: {}", problem.body());
                }
                log(code, "hold", "held", None);
                self.note_counts_changed(promo, held.usage.total(), false);
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

    pub(super) fn handle_capture(
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
        self.route_keyed(&store, &definition.promo, req.customer.as_ref(), key, at)?;
        let mut options = CaptureOptions::new().idempotency_key(key);
        if let Some(shown) = &req.quote {
            options = options.quoted(shown);
        }
        let deciding = self.deciding(&definition.promo)?;
        let (promo, customer, basket) = (&*deciding, req.customer.as_ref(), &req.basket);
        let result = capture_on(&store, conflict, promo, customer, basket, at, options);
        self.answer_capture(&req.code, promo, result, at)
    }

    /// Figures, the log line and the HTTP answer of a capture.
    pub(super) fn answer_capture(
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
                self.count_money(Event::Discounted, receipt.quote.discount(), at);
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

    /// Counts `money` (in minor units) under `event` (given away or back), when it is any.
    pub(crate) fn count_money(&self, event: Event<'_>, money: &promocodes::Money, at: Timestamp) {
        if let Ok(minor) = i64::try_from(money.minor()) {
            if minor > 0 {
                self.count(event, minor, at);
            }
        }
    }

    pub(super) fn count_failure(&self, op: &str, problem: &Problem, at: Timestamp) {
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

    pub(super) fn handle_release(&self, body: &str) -> std::result::Result<Response, Problem> {
        let req = ReleaseRequest::from_json(body)?;
        self.release_answer(&req.code, &req.key, req.reason.as_deref())
    }

    pub(crate) fn release_answer(
        &self,
        code: &Code,
        key: &IdempotencyKey,
        reason: Option<&str>,
    ) -> std::result::Result<Response, Problem> {
        let store = self.store()?.ok_or_else(|| Problem::UnknownCode(code.clone()))?;
        self.stored(code)?;
        let at = now()?;
        // What a released capture gave away comes back out of the figures.
        let earlier = store.reservation(code, key)?;
        match release(&*store, code, key, at, reason) {
            Ok(released) => {
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
}

/// The core's capture on `store`; with `conflict` (test builds only), every
/// compare-and-set loses, to see a 409 end to end.
pub(super) fn capture_on(
    store: &SqliteRedemptionStore,
    conflict: bool,
    promo: &PromoCode,
    customer: Option<&promocodes::CustomerId>,
    basket: &promocodes::Basket,
    at: Timestamp,
    options: CaptureOptions<'_>,
) -> std::result::Result<promocodes::Receipt, RedemptionError> {
    if conflict {
        #[cfg(feature = "conformance")]
        {
            let losing = promocodes::testing::FlakyStore::new(store, u32::MAX);
            return capture(promo, &losing, customer, basket, at, options);
        }
        #[cfg(not(feature = "conformance"))]
        unreachable!("forced conflicts exist in test builds only")
    }
    capture(promo, store, customer, basket, at, options)
}

/// The quote of the use `store` has under `key` that counts now (an active
/// hold, or a capture), and whether it is a capture. With `payment` (the key
/// is a payment's id), looked up as the payment flow captures it: under
/// `<id>:paid` when a failed attempt released the hold under the id.
fn recorded_under(
    store: &SqliteRedemptionStore,
    code: &Code,
    key: &IdempotencyKey,
    payment: bool,
    at: Timestamp,
) -> std::result::Result<(Option<promocodes::Quote>, bool), Problem> {
    let mut own = store.reservation(code, key)?;
    if payment && own.as_ref().is_some_and(crate::payments::flow::released_hold) {
        own = store.reservation(code, &crate::payments::flow::paid_after_release(key)?)?;
    }
    let own = own.filter(|own| own.counts_at(at));
    let captured = own
        .as_ref()
        .is_some_and(|own| own.state == promocodes::ReservationState::Captured);
    Ok((own.map(|own| own.quote), captured))
}

#[cfg(test)]
mod tests {
    use super::shards_by_layout;

    #[test]
    fn each_layouts_shard_newest_first_once_and_never_the_codes_own_object() {
        // 1 → 4 shards: the code's own object held the first layout's uses; it is asked apart.
        assert_eq!(shards_by_layout(4, &[1], |n| n - 1), vec![3]);
        // 4 → 16 → 2: the newest layout's shard first.
        assert_eq!(shards_by_layout(2, &[4, 16], |n| n / 2), vec![1, 8, 2]);
        // Two layouts that send the request to the same shard object: asked once.
        assert_eq!(shards_by_layout(4, &[2], |_| 1), vec![1]);
        assert!(shards_by_layout(1, &[], |_| 0).is_empty());
    }
}
