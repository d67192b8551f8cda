//! Idempotency keys across a sharded code's shards: a request with a
//! customer goes to the customer's shard, which first claims its key at the
//! key's own shard (the one a request without a customer goes to), so that a
//! key names one call across the shards.

use promocodes::wire::{KeyClaim, KeyClaimAnswer, ShardDefinition};
use promocodes::CustomerId;

use super::shard::View;
use super::*;
use crate::shards::tables;

/// What a key's own shard answered a claim.
pub(super) enum Claim {
    /// The key is this customer's.
    Mine,
    /// The key names another customer's call (or one with none).
    Theirs,
    /// The key's shard knows a newer layout: this shard has it now, and decides again.
    Newer,
}

impl Ledger {
    /// Claims `key` for `customer` at shard `home` (the key's own), on `view`'s layout.
    pub(super) async fn claim_key(
        &self,
        code: &Code,
        home: u8,
        key: &IdempotencyKey,
        customer: Option<&CustomerId>,
        view: &View,
    ) -> std::result::Result<Claim, Problem> {
        let layout = (!view.prior.is_empty()).then(|| view.layout());
        let answer = self
            .send_claim(code, &view.base, home, key, customer, false, layout)
            .await?;
        if let Some(newer) = answer.newer {
            self.take_layout(&newer)?;
            return Ok(Claim::Newer);
        }
        Ok(if answer.claimed { Claim::Mine } else { Claim::Theirs })
    }

    /// The payment capture refused under `key` at shard `home` (the key's own), if any.
    pub(crate) async fn home_refusal(
        &self,
        code: &Code,
        home: u8,
        key: &IdempotencyKey,
    ) -> std::result::Result<Option<serde_json::Value>, Problem> {
        let base = self.shard_base(code)?;
        Ok(self.send_claim(code, &base, home, key, None, true, None).await?.refusal)
    }

    /// A [`KeyClaim`] of `key` (a `peek` only looks) sent to shard `home` of the escrow in
    /// object `base` with the claimer's `layout` (for a code whose `shards` changed), and its answer.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn send_claim(
        &self,
        code: &Code,
        base: &str,
        home: u8,
        key: &IdempotencyKey,
        customer: Option<&CustomerId>,
        peek: bool,
        layout: Option<ShardDefinition>,
    ) -> std::result::Result<KeyClaimAnswer, Problem> {
        let call = KeyClaim {
            code: code.as_str().to_owned(),
            key: key.as_str().to_owned(),
            customer: customer.map(|c| c.as_str().to_owned()),
            peek,
            layout,
        };
        let body = serde_json::to_string(&call).map_err(|e| Problem::Internal(e.to_string()))?;
        let request = Call::ShardClaim.request(code, &[], Some(body), &[])?;
        let name = crate::shards::shard_in(base, home);
        let mut response = crate::clients::to_object(&self.env, &name, request).await?;
        if response.status_code() != 200 {
            return Err(Problem::Internal(format!(
                "shard {home} of {code} answered {} to a key's claim",
                response.status_code()
            )));
        }
        Ok(response.json().await?)
    }

    /// `POST /shard-claim` to the key's own shard: the key is the claiming
    /// customer's if it claimed it before, or if no one did and no use here
    /// is recorded under it (then it is claimed now, in the same turn).
    pub(super) fn handle_claim(&self, body: &str) -> std::result::Result<Response, Problem> {
        let call: KeyClaim = crate::protocol::read(body)?;
        let code = Code::parse(&call.code)?;
        let key = IdempotencyKey::parse(&call.key)?;
        let store = self.store_or_create()?;
        if call.peek {
            let refusal = store.refusal(&code, &key)?;
            return json_response(
                &KeyClaimAnswer {
                    claimed: false,
                    refusal,
                    newer: None,
                },
                200,
            );
        }
        let sql = self.state.storage().sql();
        tables::shard_tables(&sql)?;
        // Claims are made on one layout: an older claimer takes this shard's layout and routes again.
        let newer = match &call.layout {
            Some(layout) => tables::take_layout(&self.state.storage(), layout, false)?,
            None if self.local_prior()?.is_empty() => None,
            None => tables::current_layout(&sql)?,
        };
        *self.shards.prior.borrow_mut() = None;
        if newer.is_some() {
            return json_response(
                &KeyClaimAnswer {
                    claimed: false,
                    refusal: None,
                    newer,
                },
                200,
            );
        }
        let claimed = match tables::claimant(&sql, key.as_str())? {
            Some(claimant) => claimant == call.customer,
            None => match store.reservation(&code, &key)? {
                Some(earlier) => earlier.customer.as_ref().map(CustomerId::as_str) == call.customer.as_deref(),
                None => {
                    tables::claim(&sql, key.as_str(), call.customer.as_deref())?;
                    true
                }
            },
        };
        json_response(
            &KeyClaimAnswer {
                claimed,
                refusal: None,
                newer: None,
            },
            200,
        )
    }
}
