//! A sharded code's history, one page at a time: its object's records and
//! each shard's, merged oldest first.
//!
//! Each object numbers its own records (`seq`), so the page's cursor is one
//! position per object: `<object's>~<shard 0's>~...~<shard N-1's>`, the
//! `next` a client passes back as `after` (a plain `seq`, as a code on one
//! object gives, is taken as the object's with every shard from its start).
//! Every record of every object is listed once: each object's records come
//! in its own order, and a page takes at most `limit` of them, the oldest
//! head first.

use promocodes::Code;
use serde_json::{Map, Value};
use worker::Env;

use super::{shard_in, SHARD_HEADER};
use crate::clients;
use crate::handlers::bad_param;
use crate::problem::Problem;
use crate::protocol::Call;

/// Where a page of a sharded code's history starts: after `after` (the previous page's `next`, or
/// empty for the first page), one position for its object and each of its `shards`.
///
/// # Errors
///
/// A cursor that is not a previous page's `next` for this code: 400 naming `after`.
pub fn positions(after: &str, shards: u8) -> Result<Vec<u64>, Problem> {
    let objects = usize::from(shards) + 1;
    let mut positions = vec![0; objects];
    if after.is_empty() {
        return Ok(positions);
    }
    let bad = || bad_param("after", format!("{after:?} is not a cursor from `next`"));
    let parts: Vec<&str> = after.split('~').collect();
    // A cursor from before the code's `shards` grew has fewer positions: the new shards start at 0.
    if parts.len() > objects {
        return Err(bad());
    }
    for (slot, part) in positions.iter_mut().zip(&parts) {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        *slot = part.parse().map_err(|_| bad())?;
    }
    Ok(positions)
}

/// When a record was made, as its RFC 3339 text (they compare as text): its quote's time, a
/// refusal's, or a release's.
fn made_at(record: &Value) -> &str {
    ["/quote/quoted_at", "/refused_at", "/released_at"]
        .iter()
        .find_map(|pointer| record.pointer(pointer).and_then(Value::as_str))
        .unwrap_or("")
}

/// Whether a record is a refund recorded before anything was held or captured under its key:
/// released, with no quote.
fn refund_marker(record: &Value) -> bool {
    record.get("state").and_then(Value::as_str) == Some("released") && record.get("quote").is_none_or(Value::is_null)
}

/// One object's page: its records and whether more follow.
struct Part {
    records: std::collections::VecDeque<Value>,
    more: bool,
}

/// Reads one object's page: the escrow's own object `base` (`object` 0: the code's, or for a
/// campaign's history, named by its id as `code`, the campaign's) or its shard `object - 1`.
async fn part(env: &Env, (code, base): (&Code, &str), object: usize, after: u64, limit: u32) -> Result<Part, Problem> {
    let after = after.to_string();
    let limit = limit.to_string();
    let query = [("after", after.as_str()), ("limit", limit.as_str())];
    let mut response = if object == 0 {
        clients::to_object(env, base, Call::Redemptions.request(code, &query, None, &[])?).await?
    } else {
        let shard = u8::try_from(object - 1).map_err(|e| Problem::Internal(e.to_string()))?;
        let number = shard.to_string();
        let request = Call::Redemptions.request(code, &query, None, &[(SHARD_HEADER, number.as_str())])?;
        clients::to_object(env, &shard_in(base, shard), request).await?
    };
    if response.status_code() != 200 {
        return Err(Problem::Internal(format!(
            "object {object} of {code} answered {} for a page of its history",
            response.status_code()
        )));
    }
    let mut page: Map<String, Value> = response.json().await?;
    let records = match page.remove("redemptions") {
        Some(Value::Array(records)) => records.into(),
        _ => return Err(Problem::Internal("a page of a history without its records".to_owned())),
    };
    Ok(Part {
        records,
        more: page.get("next").is_some_and(|next| !next.is_null()),
    })
}

/// One page of the history of `code`, spread over `shards` shards: at most
/// `limit` records after `after`, oldest first, as `GET
/// /v1/codes/{code}/redemptions` answers it (`{code, redemptions, next}`).
///
/// # Errors
///
/// A bad cursor (400), or a problem reading an object.
pub async fn page(env: &Env, code: &Code, shards: u8, after: &str, limit: u32) -> Result<Value, Problem> {
    // A campaign's code: its campaign's objects, each listing the code's records.
    merged(env, (code, &super::base_of(code)), shards, after, limit).await
}

/// One page of the history of campaign `id`, spread over `shards` shards, as [`page`] for a code:
/// as `GET /v1/campaigns/{id}/redemptions` answers it (`{code, redemptions, next}`, each record
/// naming its code).
///
/// # Errors
///
/// A bad cursor (400), or a problem reading an object.
pub async fn campaign_page(env: &Env, id: &Code, shards: u8, after: &str, limit: u32) -> Result<Value, Problem> {
    let base = promocodes::Campaign::key_of(id.as_str());
    merged(env, (id, &base), shards, after, limit).await
}

/// [`page`] of the escrow in object `base`, whose history is asked for as `code`'s.
async fn merged(env: &Env, (code, base): (&Code, &str), shards: u8, after: &str, limit: u32) -> Result<Value, Problem> {
    let mut at = positions(after, shards)?;
    let reads = at
        .iter()
        .enumerate()
        .map(|(object, after)| part(env, (code, base), object, *after, limit));
    let mut parts = Vec::with_capacity(at.len());
    for part in futures_util::future::join_all(reads).await {
        parts.push(part?);
    }
    let mut records = Vec::new();
    let mut refusals = std::collections::HashSet::new();
    while records.len() < limit as usize {
        let oldest = parts
            .iter()
            .enumerate()
            .filter_map(|(object, part)| part.records.front().map(|head| (made_at(head), object)))
            .min();
        let Some((_, object)) = oldest else { break };
        let Some(record) = parts[object].records.pop_front() else {
            break;
        };
        if let Some(seq) = record.get("seq").and_then(Value::as_u64) {
            at[object] = seq;
        }
        // A refund that came before its payment is recorded as final in every object
        // (`send_payment_release`): listed once, as the code's own object has it.
        if object > 0 && refund_marker(&record) {
            continue;
        }
        // A payment refused at the key's own shard is copied to the shard its next event reached
        // (`payment_capture_on`): the copy, made at the same moment, is listed once.
        if let (Some(key), Some(refused_at)) = (
            record.get("idempotency_key").and_then(Value::as_str),
            record.get("refused_at").and_then(Value::as_str),
        ) {
            if !refusals.insert((key.to_owned(), refused_at.to_owned())) {
                continue;
            }
        }
        records.push(record);
    }
    let more = parts.iter().any(|part| part.more || !part.records.is_empty());
    let next = more.then(|| at.iter().map(u64::to_string).collect::<Vec<_>>().join("~"));
    Ok(serde_json::json!({ "code": code, "redemptions": records, "next": next }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refund_before_anything_is_a_marker_and_a_use_is_not() {
        let marker =
            serde_json::json!({"idempotency_key": "pi_1", "state": "released", "released_at": "2026-01-01T00:00:00Z"});
        assert!(refund_marker(&marker));
        let used = serde_json::json!({"idempotency_key": "pi_1", "state": "released", "quote": {"code": "A"}});
        assert!(!refund_marker(&used));
        assert!(!refund_marker(&serde_json::json!({"state": "captured"})));
    }

    #[test]
    fn a_cursor_is_one_position_per_object_or_fewer_or_a_plain_seq() {
        assert_eq!(positions("", 2).unwrap(), vec![0, 0, 0]);
        assert_eq!(positions("7", 2).unwrap(), vec![7, 0, 0]);
        assert_eq!(positions("1~2~3", 2).unwrap(), vec![1, 2, 3]);
        // From before the code's shards grew from 1 to 2: the new shard starts at its beginning.
        assert_eq!(positions("1~2", 2).unwrap(), vec![1, 2, 0]);
        for bad in ["1~2~3~4", "a", "1~~3", "-1", "1~2~x"] {
            assert!(positions(bad, 2).is_err(), "{bad}");
        }
    }
}
