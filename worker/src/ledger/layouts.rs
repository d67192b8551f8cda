//! A code whose `shards` changed (see `docs/http-api.md`, "Changing `shards`
//! on a live code"): a shard's copy of the earlier layouts, what it asks
//! their objects before it decides a key new to it (`look_back`, with the
//! keys each of them knew, asked for once), what those objects answer
//! (`handle_lookup`, `handle_keys`), and whether an object decides a
//! request here or sends it on (`route_here`, `layout_to_send`).

use promocodes::wire::{KeysAnswer, KeysCall, PriorAnswer, PriorLookup, ShardDefinition};
use promocodes::CustomerId;

use super::shard::View;
use super::*;
use crate::shards::{self, tables};

/// Whether deciding under a key whose record here is `reservation` takes a new use: none yet (a
/// payment's second key), or a hold that expired before it was captured.
pub(crate) fn afresh(reservation: Option<&promocodes::Reservation>, at: Timestamp) -> bool {
    reservation.is_none_or(|r| r.state_at(at) == promocodes::ReservationState::Expired)
}

/// Whether a decision for `customer` counts their uses: the code has a per-customer cap.
pub(crate) fn counts_customer(promo: &PromoCode, customer: Option<&CustomerId>) -> bool {
    customer.is_some() && promo.limits().per_customer().is_some()
}

/// What the objects of a code's earlier layouts have of a key new to a shard (see [`Ledger::look_back`]).
pub(super) enum Earlier {
    /// Recorded in this object (its name, and its shard number; `None`: the code's own object): it answers.
    Recorded(String, Option<u8>),
    /// Claimed there for another customer (or for none): the key names that call.
    Reused,
    /// One of them knows a newer layout than this shard did: this shard has it now, and decides again.
    Newer,
    /// Nothing there: the key is new; the customer's uses there.
    New(u64),
}

impl Ledger {
    /// This shard's copy of the code's earlier layouts (kept in memory: only this object writes it).
    pub(super) fn local_prior(&self) -> std::result::Result<Vec<u8>, Problem> {
        if let Some(prior) = &*self.shards.prior.borrow() {
            return Ok(prior.clone());
        }
        let prior = tables::shard_prior(&self.state.storage().sql())?;
        *self.shards.prior.borrow_mut() = Some(prior.clone());
        Ok(prior)
    }

    /// Takes on `layout`, newer than this shard's (see [`tables::take_layout`]).
    pub(super) fn take_layout(&self, layout: &ShardDefinition) -> std::result::Result<(), Problem> {
        tables::take_layout(&self.state.storage(), layout, false)?;
        *self.shards.prior.borrow_mut() = None;
        Ok(())
    }

    /// Asks the objects the code's earlier layouts sent `key` to (and, for a
    /// code with a per-customer cap, `customer` to), but this shard, what they
    /// have of them, at once, with this shard's layout (so that, from its
    /// answer on, each decides no new key this layout sends elsewhere):
    /// where the key is recorded, whether another customer claimed it, and
    /// the customer's uses there. A key's own object knows it either way: a
    /// request sent to its customer's object claimed it there first. Only
    /// when this customer claimed it are the customer's objects asked for
    /// its record too.
    ///
    /// # Errors
    ///
    /// A problem reaching one of them: nothing is decided.
    pub(super) async fn look_back(
        &self,
        code: &Code,
        shard: u8,
        (key, route): (&IdempotencyKey, &IdempotencyKey),
        customer: Option<&CustomerId>,
        view: &View,
    ) -> std::result::Result<Earlier, Problem> {
        // `None`: the code's own object (a layout of one shard). A request went to its customer's,
        // else to its routing key's (a payment's second key is decided where its first one went).
        let object = |n: u8, customer: Option<&CustomerId>| (n > 1).then(|| promocodes::shard_of(n, customer, route));
        let counted = customer.filter(|_| view.whole.limits().per_customer().is_some());
        let mut asked: Vec<Option<u8>> = Vec::new();
        let mut first: Vec<Option<u8>> = Vec::new();
        let hash = crate::shards::key_hash(key.as_str());
        for &n in &view.prior {
            // The key's own object then: its record (a request without a customer), or its claim.
            let home = (n > 1).then(|| promocodes::shard_of(n, None, key));
            // The key's object under that layout: asked only if the keys it knew may hold this one
            // (this shard's own are here: a claim is read below, a record would be known).
            let maybe = home != Some(shard)
                && match self.known_keys(code, home, view).await? {
                    Ok(Some(hashes)) => hashes.binary_search(&hash).is_ok(),
                    Ok(None) => true,
                    Err(newer) => {
                        self.take_layout(&newer)?;
                        return Ok(Earlier::Newer);
                    }
                };
            let wanted = [maybe.then_some(home), counted.map(|c| object(n, Some(c)))];
            for one in wanted.into_iter().flatten() {
                if one != Some(shard) && !first.contains(&one) {
                    first.push(one);
                }
            }
        }
        let call = PriorLookup {
            code: code.as_str().to_owned(),
            key: Some(key.as_str().to_owned()),
            customer: counted.map(|c| c.as_str().to_owned()),
            layout: view.layout(),
        };
        let mut answers = self.ask_earlier(code, &first, &call).await?;
        asked.extend(first);
        if let Some(newer) = answers.iter().find_map(|(_, _, answer)| answer.newer.as_ref()) {
            self.take_layout(newer)?;
            return Ok(Earlier::Newer);
        }
        let wanted = customer.map(|c| c.as_str().to_owned());
        // A claim here from an earlier layout (this shard was the key's then) counts as one there.
        let local = tables::claimant(&self.state.storage().sql(), key.as_str())?;
        let claims: Vec<&Option<String>> = local
            .iter()
            .chain(answers.iter().filter_map(|(_, _, answer)| answer.claimed_by.as_ref()))
            .collect();
        if claims.iter().any(|claimant| **claimant != wanted) {
            return Ok(Earlier::Reused);
        }
        // This customer (or a request without one) claimed it under an earlier layout: its record, if it
        // was taken, is in the object that layout sent the request to.
        if !claims.is_empty() {
            let second: Vec<Option<u8>> = view
                .prior
                .iter()
                .map(|&n| object(n, customer))
                .filter(|one| *one != Some(shard) && !asked.contains(one))
                .fold(Vec::new(), |mut all, one| {
                    if !all.contains(&one) {
                        all.push(one);
                    }
                    all
                });
            let call = PriorLookup { customer: None, ..call };
            answers.extend(self.ask_earlier(code, &second, &call).await?);
        }
        if let Some((name, object, _)) = answers.iter().find(|(_, _, answer)| answer.recorded) {
            return Ok(Earlier::Recorded(name.clone(), *object));
        }
        Ok(Earlier::New(
            answers.iter().map(|(_, _, answer)| answer.customer_uses).sum(),
        ))
    }

    /// The keys `object` (a shard, or `None`: the code's own object), used
    /// by an earlier layout, knows, as their hashes: asked once per layout
    /// this shard knows (the first ask makes it take this shard's layout, so
    /// the list is whole for every key an earlier layout sent there).
    /// `Ok(None)`: too many to list (each key is looked up); this shard itself: none.
    /// `Err`: the object knows a newer layout, this one.
    pub(super) async fn known_keys(
        &self,
        code: &Code,
        object: Option<u8>,
        view: &View,
    ) -> std::result::Result<std::result::Result<Option<std::rc::Rc<Vec<u32>>>, ShardDefinition>, Problem> {
        let cached = || {
            let known = self.shards.known_keys.borrow();
            (known.0 == view.prior.len())
                .then(|| known.1.get(&(code.clone(), object)).cloned())
                .flatten()
        };
        if let Some(hashes) = cached() {
            return Ok(Ok(hashes));
        }
        let _turn = self.shards.keys_turn.lock().await;
        if let Some(hashes) = cached() {
            return Ok(Ok(hashes));
        }
        let call = KeysCall {
            code: code.as_str().to_owned(),
            layout: view.layout(),
        };
        let body = serde_json::to_string(&call).map_err(|e| Problem::Internal(e.to_string()))?;
        let (_, mut response) = self.send_earlier(code, object, Call::ShardKeys, body).await?;
        let answer: KeysAnswer = response.json().await?;
        if let Some(newer) = answer.newer {
            return Ok(Err(newer));
        }
        let hashes = answer.hashes.map(std::rc::Rc::new);
        let mut known = self.shards.known_keys.borrow_mut();
        if known.0 != view.prior.len() || known.1.len() >= shards::KNOWN_KEY_LISTS_MAX {
            *known = (view.prior.len(), std::collections::HashMap::new());
        }
        known.1.insert((code.clone(), object), hashes.clone());
        Ok(Ok(hashes))
    }

    /// The object that keeps `code`'s escrow: a shard's is the one it noted (a campaign's), the
    /// coordinator's is its own (`code`'s, or its campaign's).
    fn escrow_base(&self, code: &Code) -> std::result::Result<String, Problem> {
        if let Some(base) = crate::shards::codes::base(&self.state.storage().sql())? {
            return Ok(base);
        }
        match self.stored(code) {
            Ok((_, definition)) => Ok(shards::coordinator_of(&definition.promo)),
            Err(Problem::UnknownCode(_)) => Ok(code.as_str().to_owned()),
            Err(other) => Err(other),
        }
    }

    /// Sends `call` with `body` to `object` of `code` (a shard, or `None`: the code's own object):
    /// the object's name and its answer.
    ///
    /// # Errors
    ///
    /// A problem reaching it, or an answer other than 200.
    async fn send_earlier(
        &self,
        code: &Code,
        object: Option<u8>,
        call: Call,
        body: String,
    ) -> std::result::Result<(String, Response), Problem> {
        let number = object.map(|shard| shard.to_string());
        let headers: Vec<(&str, &str)> = number
            .as_deref()
            .map(|n| (crate::protocol::SHARD_HEADER, n))
            .into_iter()
            .collect();
        let request = call.request(code, &[], Some(body), &headers)?;
        // The escrow's own object: the code's, or a campaign's code's campaign's.
        let base = self.escrow_base(code)?;
        let name = object.map_or_else(|| base.clone(), |s| shards::shard_in(&base, s));
        let response = crate::clients::to_object(&self.env, &name, request).await?;
        if response.status_code() != 200 {
            return Err(Problem::Internal(format!(
                "{name} answered {} to {:?}",
                response.status_code(),
                call
            )));
        }
        Ok((name, response))
    }

    /// Sends `call` to each of `objects` (a shard, or `None`: the code's own object) at once: each one's name and answer.
    pub(super) async fn ask_earlier(
        &self,
        code: &Code,
        objects: &[Option<u8>],
        call: &PriorLookup,
    ) -> std::result::Result<Vec<(String, Option<u8>, PriorAnswer)>, Problem> {
        let body = serde_json::to_string(call).map_err(|e| Problem::Internal(e.to_string()))?;
        let asks = objects.iter().map(|object| {
            let body = body.clone();
            async move {
                let (name, mut response) = self.send_earlier(code, *object, Call::ShardLookup, body).await?;
                Ok::<_, Problem>((name, *object, response.json::<PriorAnswer>().await?))
            }
        });
        futures_util::future::join_all(asks).await.into_iter().collect()
    }

    /// Whether this object has something under `key` other than a use (a refused payment, a
    /// payment's refund), or a use under `route`, the key the request was routed by (a payment's
    /// first key, whose second one is `key`).
    pub(super) fn holds_key(
        &self,
        store: &SqliteRedemptionStore,
        code: &Code,
        key: &IdempotencyKey,
        route: &IdempotencyKey,
    ) -> std::result::Result<bool, Problem> {
        Ok(store.refusal(code, key)?.is_some()
            || store.final_payment(code, key)?.is_some()
            || (route != key && store.reservation(code, route)?.is_some()))
    }

    /// Where a hold or a capture under `key` that reached the code's own object is decided: here
    /// for a code on one shard (nothing read), else as [`Ledger::route_here`] says from the key's
    /// record here, if any.
    pub(super) fn route_keyed(
        &self,
        store: &SqliteRedemptionStore,
        promo: &PromoCode,
        customer: Option<&CustomerId>,
        key: &IdempotencyKey,
        at: Timestamp,
    ) -> std::result::Result<(), Problem> {
        if promo.shards() <= 1 {
            return Ok(());
        }
        let earlier = store.reservation(promo.code(), key)?;
        self.route_here(promo, customer, key, (earlier.is_some(), afresh(earlier.as_ref(), at)))
    }

    /// A keyed write of a sharded code that reached its own object (an
    /// isolate that routed it on the layout before a change of `shards`):
    /// a key new here is decided by the shard the layout names now, and is
    /// sent on there; one recorded here (under an earlier layout of one
    /// shard) is answered here, unless that would take a new use for a
    /// customer of a per-customer cap (`renewed`: a hold that expired, a
    /// payment's second key), whose uses this object does not all see: that
    /// key is refused as reused, and the checkout asks again under a new one.
    pub(crate) fn route_here(
        &self,
        promo: &PromoCode,
        customer: Option<&CustomerId>,
        key: &IdempotencyKey,
        (known, renewed): (bool, bool),
    ) -> std::result::Result<(), Problem> {
        if promo.shards() <= 1 {
            return Ok(());
        }
        if known {
            if renewed && super::counts_customer(promo, customer) {
                return Err(Problem::IdempotencyKeyReused(key.clone()));
            }
            return Ok(());
        }
        let shard = promocodes::shard_of(promo.shards(), customer, key);
        Err(Problem::Forward {
            object: shards::shard_object(promo, shard),
            shard: Some(shard),
        })
    }

    /// The layout a request this object sends on carries, for a code whose
    /// `shards` changed: the code's object's own, or a shard's copy.
    pub(super) fn layout_to_send(&self, code: &Code) -> std::result::Result<Option<ShardDefinition>, Problem> {
        match self.stored(code) {
            Ok((_, definition)) => {
                let prior = self.prior()?;
                Ok((!prior.is_empty()).then(|| ShardDefinition {
                    definition: definition.promo.clone(),
                    archived: definition.archived,
                    prior,
                }))
            }
            Err(Problem::UnknownCode(_)) => {
                let sql = self.state.storage().sql();
                if tables::shard_prior(&sql)?.is_empty() {
                    return Ok(None);
                }
                tables::current_layout(&sql)
            }
            Err(other) => Err(other),
        }
    }

    /// `POST /shard-keys` (a [`KeysCall`]): every key this object, used by an
    /// earlier layout of the code, knows. A shard first takes on the asking
    /// shard's layout, as for a lookup ([`Ledger::handle_lookup`]): from then
    /// on no key an earlier layout sent here is added, so the list stays
    /// whole for them.
    pub(super) fn handle_keys(&self, body: &str, shard: Option<u8>) -> std::result::Result<Response, Problem> {
        let call: KeysCall = crate::protocol::read(body)?;
        let storage = self.state.storage();
        let mut answer = KeysAnswer::default();
        if shard.is_some() {
            answer.newer = tables::take_layout(&storage, &call.layout, false)?;
            *self.shards.prior.borrow_mut() = None;
        }
        answer.hashes = tables::key_hashes(&storage.sql(), &call.code, shards::known_keys_max(&self.env))?;
        json_response(&answer, 200)
    }

    /// `POST /shard-lookup` (a [`PriorLookup`]): what this object, used by an
    /// earlier layout of the code, has of a key and of a customer. Asked
    /// about a key, a shard first takes on the asking shard's layout (see
    /// [`tables::take_layout`]): from then on it decides no new key that
    /// layout sends elsewhere, so the answer stays true; it answers its own
    /// layout instead when that is newer. Asked about a customer alone (the
    /// code's object pricing a quote), it only reads: nothing is decided on it.
    pub(super) fn handle_lookup(&self, body: &str, shard: Option<u8>) -> std::result::Result<Response, Problem> {
        let call: PriorLookup = crate::protocol::read(body)?;
        let code = Code::parse(&call.code)?;
        let storage = self.state.storage();
        let mut answer = PriorAnswer::default();
        // A lookup of a customer alone (the code's object counting their uses for a quote) only reads.
        if shard.is_some() && call.key.is_some() {
            answer.newer = tables::take_layout(&storage, &call.layout, false)?;
            *self.shards.prior.borrow_mut() = None;
        }
        let Some(store) = self.store()? else {
            return json_response(&answer, 200);
        };
        if let Some(key) = &call.key {
            let key = IdempotencyKey::parse(key)?;
            answer.recorded = store.reservation(&code, &key)?.is_some()
                || store.refusal(&code, &key)?.is_some()
                || store.final_payment(&code, &key)?.is_some();
            if shard.is_some() && tables::has_table(&storage.sql(), "key_claims")? {
                answer.claimed_by = tables::claimant(&storage.sql(), key.as_str())?;
            }
        }
        if let Some(customer) = &call.customer {
            let customer = CustomerId::parse(customer)?;
            // Through its campaign for a campaign's code (the asker's definition says which).
            let promo = call.layout.definition.sibling(code.clone());
            answer.customer_uses = store.usage_of(&promo, Some(&customer), now()?)?.per_customer();
        }
        json_response(&answer, 200)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use promocodes::{Basket, Currency, Discount, Money, ReservationState, UsageCounts, UsageLimits};

    fn reservation(state: ReservationState, expires_at: Option<&str>) -> promocodes::Reservation {
        let promo = PromoCode::builder(
            Code::parse("MOVED").unwrap(),
            Discount::percent("10".parse().unwrap()).unwrap(),
        )
        .build()
        .unwrap();
        let at = Timestamp::parse("2026-01-01T00:00:00Z").unwrap();
        let basket = Basket::total_only(Money::parse("10.00", Currency::EUR).unwrap());
        promocodes::Reservation {
            key: None,
            customer: None,
            quote: promo.quote(None, UsageCounts::ZERO, &basket, at).unwrap(),
            usage: UsageCounts::ZERO,
            state,
            expires_at: expires_at.map(|t| Timestamp::parse(t).unwrap()),
            captured_at: None,
            released_at: None,
            reason: None,
            was: None,
            hold_expired_at: None,
            replayed: false,
        }
    }

    #[test]
    fn a_new_use_is_taken_for_no_record_or_an_expired_hold_only() {
        let at = Timestamp::parse("2026-01-01T00:10:00Z").unwrap();
        assert!(afresh(None, at), "a payment's second key: a first use");
        assert!(afresh(
            Some(&reservation(ReservationState::Expired, Some("2026-01-01T00:05:00Z"))),
            at
        ));
        assert!(
            afresh(
                Some(&reservation(ReservationState::Held, Some("2026-01-01T00:05:00Z"))),
                at
            ),
            "expired, not yet marked"
        );
        assert!(!afresh(
            Some(&reservation(ReservationState::Held, Some("2026-01-01T00:15:00Z"))),
            at
        ));
        assert!(!afresh(Some(&reservation(ReservationState::Captured, None)), at));
        assert!(!afresh(Some(&reservation(ReservationState::Released, None)), at));
    }

    #[test]
    fn only_a_per_customer_cap_with_a_customer_counts_the_customer() {
        let code = || Code::parse("MOVED").unwrap();
        let discount = || Discount::percent("10".parse().unwrap()).unwrap();
        let capped = PromoCode::builder(code(), discount())
            .limits(UsageLimits::new(Some(100), Some(1)).unwrap())
            .build()
            .unwrap();
        let open = PromoCode::builder(code(), discount()).build().unwrap();
        let dora = CustomerId::parse("dora").unwrap();
        assert!(counts_customer(&capped, Some(&dora)));
        assert!(!counts_customer(&capped, None));
        assert!(!counts_customer(&open, Some(&dora)));
    }
}
