//! Reading the store's rows: the counts, a reservation under its key, and
//! the errors and values the statements give and take.

use deadpool_postgres::Object;
use promocodes::{
    Campaign, Code, CustomerId, Decimal, IdempotencyKey, Reservation, StoreError, Timestamp, UsageCounts,
};
use tokio_postgres::types::Json;
use tokio_postgres::Row;

use crate::sql::{KEYED, LOCK, READ, READ_THROUGH};
use crate::STORE;

pub(crate) fn backend(err: impl std::fmt::Display) -> StoreError {
    StoreError::Backend {
        store: STORE,
        message: err.to_string(),
    }
}

/// A database or pool error, with every cause in the message (tokio-postgres
/// says only "db error" at the top: the server's words are in its source).
pub(crate) fn db(err: impl std::error::Error) -> StoreError {
    backend(message_of(&err))
}

/// `err`'s message, followed by each of its causes'.
pub(crate) fn message_of(err: &dyn std::error::Error) -> String {
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    message
}

pub(crate) fn count(n: i64) -> Result<u64, StoreError> {
    u64::try_from(n).map_err(|_| backend(format!("a negative count: {n}")))
}

/// The counts a [`READ`] row gives.
pub(crate) fn usage_of(row: &Row, customer: bool) -> Result<UsageCounts, StoreError> {
    let total = column(row, "total")? + column(row, "held")?;
    let mine = if customer {
        column(row, "mine")? + column(row, "held_mine")?
    } else {
        0
    };
    with_discounted(row, total, mine)
}

/// The counts a stale [`RECORD`] found (a code's, not a campaign's).
pub(crate) fn found_under_lock(row: &Row, customer: bool) -> Result<UsageCounts, StoreError> {
    let mine = if customer { column(row, "mine")? } else { 0 };
    with_discounted(row, column(row, "total")?, mine)
}

/// A count column of `row`.
pub(crate) fn column(row: &Row, name: &str) -> Result<u64, StoreError> {
    count(row.try_get::<_, i64>(name).map_err(db)?)
}

/// `total` and `mine` uses, with the discount sum of `row`'s `discounted` (`numeric`).
pub(crate) fn with_discounted(row: &Row, total: u64, mine: u64) -> Result<UsageCounts, StoreError> {
    let discounted: Decimal = row.try_get("discounted").map_err(db)?;
    UsageCounts::new(total, mine)
        .and_then(|usage| usage.with_discounted(discounted))
        .map_err(backend)
}

/// The counts a [`READ_THROUGH`] row gives: a campaign's, with its code's own uses.
pub(crate) fn usage_through(row: &Row, customer: bool) -> Result<UsageCounts, StoreError> {
    let own = column(row, "code_uses")?;
    usage_of(row, customer)?.with_code_uses(own).map_err(backend)
}

/// What a use of `code` counts under: the code, or `campaign:<id>` for a
/// campaign's code (no code has a `:`, so the two never meet).
pub(crate) fn counter_of(code: &Code, campaign: Option<&str>) -> String {
    match campaign {
        Some(campaign) => Campaign::key_of(campaign),
        None => code.as_str().to_owned(),
    }
}

/// `usage` with `delta` (a use's discount, negative to take it away) added
/// to its discount sum, never below zero.
pub(crate) fn with_discount_moved(usage: UsageCounts, delta: Decimal) -> Result<UsageCounts, StoreError> {
    let sum = usage
        .discounted()
        .checked_add(delta)
        .ok_or_else(|| backend("the discount sum overflows"))?;
    usage.with_discounted(sum.max(Decimal::ZERO)).map_err(backend)
}

pub(crate) async fn read(
    client: &Object,
    code: &Code,
    customer: Option<&CustomerId>,
    now: Timestamp,
) -> Result<UsageCounts, StoreError> {
    let statement = client.prepare_cached(READ).await.map_err(db)?;
    let row = client
        .query_one(
            &statement,
            &[&code.as_str(), &customer.map(CustomerId::as_str), &now.sortable()],
        )
        .await
        .map_err(db)?;
    usage_of(&row, customer.is_some())
}

/// The counts under `counter` inside a write's transaction that holds the
/// code's lock: for a campaign's code (`through`), after taking the
/// campaign's lock too (the code's first, then the campaign's, as a new
/// use's write takes them), with the code's own uses.
pub(crate) async fn read_locked(
    client: &Object,
    counter: &str,
    code: &Code,
    through: bool,
    customer: Option<&CustomerId>,
    now: Timestamp,
) -> Result<UsageCounts, StoreError> {
    if !through {
        return read(client, code, customer, now).await;
    }
    let lock = client.prepare_cached(LOCK).await.map_err(db)?;
    client.execute(&lock, &[&counter]).await.map_err(db)?;
    read_through(client, counter, code, customer, now).await
}

pub(crate) async fn read_through(
    client: &Object,
    counter: &str,
    code: &Code,
    customer: Option<&CustomerId>,
    now: Timestamp,
) -> Result<UsageCounts, StoreError> {
    let statement = client.prepare_cached(READ_THROUGH).await.map_err(db)?;
    let row = client
        .query_one(
            &statement,
            &[
                &counter,
                &customer.map(CustomerId::as_str),
                &now.sortable(),
                &code.as_str(),
            ],
        )
        .await
        .map_err(db)?;
    usage_through(&row, customer.is_some())
}

pub(crate) async fn keyed(
    client: &Object,
    code: &Code,
    key: &IdempotencyKey,
) -> Result<Option<(i64, Reservation)>, StoreError> {
    let statement = client.prepare_cached(KEYED).await.map_err(db)?;
    let row = client
        .query_one(&statement, &[&code.as_str(), &key.as_str()])
        .await
        .map_err(db)?;
    Ok(keyed_row(&row)?.map(|(seq, reservation, _)| (seq, reservation)))
}

/// The `seq`, reservation and campaign (if any) a [`KEYED`] row gives, if the key is known.
pub(crate) fn keyed_row(row: &Row) -> Result<Option<(i64, Reservation, Option<String>)>, StoreError> {
    let seq: Option<i64> = row.try_get(0).map_err(db)?;
    let reservation: Option<Json<Reservation>> = row.try_get(1).map_err(db)?;
    let campaign: Option<String> = row.try_get(2).map_err(db)?;
    Ok(seq.zip(reservation.map(|Json(r)| r)).map(|(seq, r)| (seq, r, campaign)))
}
