//! A connection taken from the pool for one call, closed unless the call ends well.

use deadpool_postgres::{Object, Pool};
use futures_util::future::{try_join, try_join3};
use promocodes::{Code, StoreError};
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;

use crate::rows::{backend, db};
use crate::sql::{BEGIN, LOCK};

/// A connection taken from the pool for one call. Dropped before the call
/// is [`done`](Checkout::done) (a failed statement, a dropped future, a
/// connection the server ended), it leaves the pool and closes: the server
/// rolls back whatever transaction was begun, and no later call inherits it
/// or a connection that is already dead.
pub(crate) struct Checkout {
    client: Option<Object>,
}

impl Checkout {
    pub(crate) async fn get(pool: &Pool) -> Result<Checkout, StoreError> {
        Ok(Checkout {
            client: Some(pool.get().await.map_err(db)?),
        })
    }

    /// Gives the connection back to the pool.
    pub(crate) fn done(mut self) {
        self.client = None;
    }

    /// Begins the transaction, takes the write lock of `code`, then runs
    /// `statement` (a read under a snapshot taken after the lock): three
    /// statements sent together, one round trip.
    pub(crate) async fn begin(
        pool: &Pool,
        code: &Code,
        statement: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<(Checkout, Row), StoreError> {
        let writing = Checkout::get(pool).await?;
        let client = writing.client()?;
        let (lock, read) = try_join(client.prepare_cached(LOCK), client.prepare_cached(statement))
            .await
            .map_err(db)?;
        let (_, _, row) = try_join3(
            client.batch_execute(BEGIN),
            client.execute(&lock, &[&code.as_str()]),
            client.query_one(&read, params),
        )
        .await
        .map_err(db)?;
        Ok((writing, row))
    }

    pub(crate) fn client(&self) -> Result<&Object, StoreError> {
        self.client
            .as_ref()
            .ok_or_else(|| backend("the call's connection is gone"))
    }

    /// Commits (or, having written nothing, ends) the transaction and gives the connection back.
    pub(crate) async fn finish(mut self) -> Result<(), StoreError> {
        self.client()?.batch_execute("COMMIT").await.map_err(db)?;
        self.client = None;
        Ok(())
    }

    /// Runs `statement` and commits, in one round trip.
    pub(crate) async fn write_and_commit(
        mut self,
        statement: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<(), StoreError> {
        let client = self.client()?;
        let statement = client.prepare_cached(statement).await.map_err(db)?;
        try_join(client.query_one(&statement, params), client.batch_execute("COMMIT"))
            .await
            .map_err(db)?;
        self.client = None;
        Ok(())
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            // Out of the pool and closed: the server rolls back what was begun.
            drop(Object::take(client));
        }
    }
}
