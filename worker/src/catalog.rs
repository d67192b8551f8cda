//! The catalog: one Durable Object that knows every code ever defined.
//!
//! Per-code objects cannot be enumerated, and merely addressing one creates
//! it, so the Worker keeps this list beside them. It is one object (not a
//! sharded set): it holds one short row per code and is written once per
//! definition change, read by the admin list, and asked whether a code
//! exists only when an isolate has not yet seen that code (the Worker
//! remembers known codes), so buyers' traffic does not queue on it.
//!
//! It also keeps the payment index: the codes each payment was captured for
//! (so that a refund that does not name them finds them), and whether a full
//! refund of the payment came, final for it even before its codes are known
//! (a payment's success claims its codes here before anything is captured,
//! and finds the refund: see [`Claim`] and [`Refund`]).
//!
//! And it knows which codes are automatic promotions (with their switch and
//! priority, set on each `PUT`, `PATCH` and archive of a code), so that
//! `GET /v1/automatic` and a stack's `"automatic": true` read only their
//! objects ([`AutomaticChange`], [`AutomaticQuery`]).
//!
//! A `PUT` writes here twice around the code's own object: first an intent
//! (`pending`), then the commit. If the Worker fails between the object's
//! write and the commit, the row stays pending, and the next listing repairs
//! it from the code's object (a retried `PUT` commits it as well).

use promocodes::wire::Listed;
pub use promocodes::wire::{
    AutomaticChange, AutomaticChanged, AutomaticEntry, AutomaticQuery, CatalogCall, CatalogRoute, Change, Claim,
    Claimed, Entry, Page, Payment, Refund, Registered, Registration, Unregistration,
};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use worker::{durable_object, DurableObject, Env, Method, Request, Response, Result, SqlStorage, State};

use crate::limits::MAX_PAGE;
use crate::problem::Problem;

mod webhooks;

/// The default page size of `GET /v1/codes`.
pub const DEFAULT_PAGE: u32 = 100;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS codes(code TEXT PRIMARY KEY, pending INTEGER NOT NULL, archived INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS payments(payment TEXT PRIMARY KEY, code TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS campaigns(id TEXT PRIMARY KEY, archived INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS automatic(code TEXT PRIMARY KEY, active INTEGER NOT NULL, priority INTEGER NOT NULL);
";

/// Campaigns' codes: `codes.campaign` names the campaign a code belongs to
/// (NULL for a plain code); added to catalogs older than campaigns.
const CAMPAIGN_COLUMN: &str = "ALTER TABLE codes ADD COLUMN campaign TEXT";

/// The call that registered a campaign's code: `codes.batch` is the
/// `Idempotency-Key` of its `POST /v1/campaigns/{id}/codes` (NULL before
/// this column existed); added to catalogs older than it.
const BATCH_COLUMN: &str = "ALTER TABLE codes ADD COLUMN batch TEXT";

/// A full refund of a payment: `payments.refunded` is the refund's reason
/// (NULL while none came), final for the payment whether or not its codes are
/// known (`payments.code` is empty when the refund came first); added to
/// catalogs older than it.
const REFUNDED_COLUMN: &str = "ALTER TABLE payments ADD COLUMN refunded TEXT";

#[derive(Deserialize)]
struct PaymentRow {
    code: String,
    #[serde(default)]
    refunded: Option<String>,
}

/// The Durable Object holding the list of codes.
#[durable_object]
pub struct Catalog {
    state: State,
}

#[derive(Deserialize)]
struct Row {
    code: String,
    pending: i64,
    archived: i64,
    #[serde(default)]
    campaign: Option<String>,
}

impl From<Row> for Entry {
    fn from(row: Row) -> Entry {
        Entry {
            code: row.code,
            pending: row.pending != 0,
            archived: row.archived != 0,
            campaign: row.campaign,
        }
    }
}

#[derive(Deserialize)]
struct NameRow {
    name: String,
}

#[derive(Deserialize)]
struct BatchRow {
    #[serde(default)]
    campaign: Option<String>,
    #[serde(default)]
    batch: Option<String>,
}

#[derive(Deserialize)]
struct CampaignRow {
    id: String,
}

#[derive(Deserialize)]
struct AutomaticRow {
    code: String,
    active: i64,
    priority: i64,
}

impl From<AutomaticRow> for AutomaticEntry {
    fn from(row: AutomaticRow) -> AutomaticEntry {
        AutomaticEntry {
            code: row.code,
            active: row.active != 0,
            priority: u32::try_from(row.priority).unwrap_or(u32::MAX),
        }
    }
}

impl DurableObject for Catalog {
    fn new(state: State, _env: Env) -> Self {
        Catalog { state }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        match self.dispatch(req).await {
            Ok(response) => Ok(response),
            Err(problem) => problem.into_response(),
        }
    }
}

impl Catalog {
    fn sql(&self) -> Result<SqlStorage> {
        let sql = self.state.storage().sql();
        sql.exec(SCHEMA, None)?;
        sql.exec(webhooks::SCHEMA, None)?;
        sql.exec(webhooks::LOG_SCHEMA, None)?;
        let columns: Vec<NameRow> = sql
            .exec("SELECT name FROM pragma_table_info('codes')", None)?
            .to_array()?;
        if !columns.iter().any(|c| c.name == "campaign") {
            sql.exec(CAMPAIGN_COLUMN, None)?;
        }
        if !columns.iter().any(|c| c.name == "batch") {
            sql.exec(BATCH_COLUMN, None)?;
        }
        let columns: Vec<NameRow> = sql
            .exec("SELECT name FROM pragma_table_info('payments')", None)?
            .to_array()?;
        if !columns.iter().any(|c| c.name == "refunded") {
            sql.exec(REFUNDED_COLUMN, None)?;
        }
        Ok(sql)
    }

    /// Registers a campaign's codes, all or none (one synchronous turn: no
    /// other request interleaves): the first that exists (a plain code,
    /// another campaign's, or this campaign's by another call) is named, and
    /// nothing is written. A code the same call registered (its retry) stays.
    /// So of two calls racing to import one code, exactly one has it.
    fn register(&self, registration: &Registration) -> std::result::Result<Registered, Problem> {
        let sql = self.sql()?;
        for code in &registration.codes {
            let rows: Vec<BatchRow> = sql
                .exec(
                    "SELECT campaign, batch FROM codes WHERE code = ?",
                    vec![code.clone().into()],
                )?
                .to_array()?;
            let ours = |row: &BatchRow| {
                row.campaign.as_deref() == Some(registration.campaign.as_str())
                    // Registered before calls were noted: taken as this call's, as it was.
                    && row.batch.as_deref().is_none_or(|batch| batch == registration.batch)
            };
            if rows.first().is_some_and(|row| !ours(row)) {
                return Ok(Registered {
                    taken: Some(code.clone()),
                });
            }
        }
        for code in &registration.codes {
            sql.exec(
                "INSERT INTO codes(code, pending, archived, campaign, batch) VALUES (?, 0, 0, ?, ?)
                 ON CONFLICT(code) DO NOTHING",
                vec![
                    code.clone().into(),
                    registration.campaign.clone().into(),
                    registration.batch.clone().into(),
                ],
            )?;
        }
        Ok(Registered { taken: None })
    }

    /// Drops the codes one call registered for a campaign (which refused them at commit).
    fn unregister(&self, unregistration: &Unregistration) -> std::result::Result<(), Problem> {
        self.sql()?.exec(
            "DELETE FROM codes WHERE campaign = ? AND batch = ?",
            vec![
                unregistration.campaign.clone().into(),
                unregistration.batch.clone().into(),
            ],
        )?;
        Ok(())
    }

    async fn dispatch(&self, mut req: Request) -> std::result::Result<Response, Problem> {
        let path = req.path();
        let route = CatalogRoute::of(&path)
            .filter(|_| req.method() == Method::Post)
            .ok_or(Problem::NotFound)?;
        let body = req.text().await?;
        let call = CatalogCall::read(route, &body)
            .map_err(|err| Problem::Internal(format!("the catalog cannot read a call to {path}: {err}")))?;
        let done = || -> std::result::Result<Response, Problem> { Ok(Response::empty()?.with_status(204)) };
        match call {
            CatalogCall::Intend(change) => {
                let sql = self.sql()?;
                let owner: Vec<Row> = sql
                    .exec(
                        "SELECT code, pending, archived, campaign FROM codes WHERE code = ? AND campaign IS NOT NULL",
                        vec![change.code.clone().into()],
                    )?
                    .to_array()?;
                if !owner.is_empty() {
                    // A campaign's code is not defined alone.
                    return Ok(Response::empty()?.with_status(409));
                }
                sql.exec(
                    "INSERT INTO codes(code, pending, archived) VALUES (?, 1, ?)
                     ON CONFLICT(code) DO UPDATE SET pending = 1",
                    vec![change.code.into(), i64::from(change.archived).into()],
                )?;
                done()
            }
            CatalogCall::Commit(change) => {
                self.sql()?.exec(
                    "INSERT INTO codes(code, pending, archived) VALUES (?1, 0, ?2)
                     ON CONFLICT(code) DO UPDATE SET pending = 0, archived = ?2",
                    vec![change.code.into(), i64::from(change.archived).into()],
                )?;
                done()
            }
            CatalogCall::Forget(change) => {
                self.sql()?.exec(
                    "DELETE FROM codes WHERE code = ? AND pending = 1",
                    vec![change.code.into()],
                )?;
                done()
            }
            CatalogCall::Exists(change) => {
                let rows: Vec<Row> = self
                    .sql()?
                    .exec(
                        "SELECT code, pending, archived, campaign FROM codes WHERE code = ?",
                        vec![change.code.into()],
                    )?
                    .to_array()?;
                let entry: Option<Entry> = rows.into_iter().next().map(Entry::from);
                Ok(Response::from_json(&entry)?)
            }
            CatalogCall::Payment(payment) => {
                self.index_payment(&payment)?;
                done()
            }
            CatalogCall::PaymentClaim(claim) => Ok(Response::from_json(&self.claim_payment(&claim)?)?),
            CatalogCall::PaymentRefund(refund) => Ok(Response::from_json(&self.refund_payment(&refund)?)?),
            CatalogCall::PaymentCode(payment) => {
                let found = self.payment_row(&payment.payment)?.filter(|row| !row.code.is_empty());
                let found: Option<Payment> = found.map(|row| Payment {
                    payment: payment.payment,
                    code: row.code,
                });
                Ok(Response::from_json(&found)?)
            }
            CatalogCall::Campaign(change) => {
                self.sql()?.exec(
                    "INSERT INTO campaigns(id, archived) VALUES (?1, ?2) ON CONFLICT(id) DO UPDATE SET archived = ?2",
                    vec![change.code.into(), i64::from(change.archived).into()],
                )?;
                done()
            }
            CatalogCall::ListCampaigns(page) => Ok(Response::from_json(&self.list_campaigns(&page)?)?),
            CatalogCall::CampaignExists(change) => {
                let rows: Vec<NameRow> = self
                    .sql()?
                    .exec(
                        "SELECT id AS name FROM campaigns WHERE id = ?",
                        vec![change.code.into()],
                    )?
                    .to_array()?;
                Ok(Response::from_json(&!rows.is_empty())?)
            }
            CatalogCall::Register(registration) => Ok(Response::from_json(&self.register(&registration)?)?),
            CatalogCall::Unregister(unregistration) => {
                self.unregister(&unregistration)?;
                done()
            }
            CatalogCall::List(page) => Ok(Response::from_json(&self.list(&page)?)?),
            CatalogCall::Automatic(change) => Ok(Response::from_json(&self.set_automatic(&change)?)?),
            CatalogCall::ListAutomatic(query) => Ok(Response::from_json(&self.list_automatic(&query)?)?),
            CatalogCall::PutWebhook(write) => Ok(Response::from_json(&webhooks::put(&self.sql()?, &write)?)?),
            CatalogCall::Webhook(id) => Ok(Response::from_json(&webhooks::get(&self.sql()?, &id.id)?)?),
            CatalogCall::Webhooks(_) => Ok(Response::from_json(&webhooks::list(&self.sql()?)?)?),
            CatalogCall::DeleteWebhook(id) => Ok(Response::from_json(&webhooks::delete(&self.sql()?, &id.id)?)?),
            CatalogCall::RotateWebhook(rotation) => {
                Ok(Response::from_json(&webhooks::rotate(&self.sql()?, &rotation)?)?)
            }
            CatalogCall::DisableWebhook(disable) => {
                webhooks::disable(&self.sql()?, &disable)?;
                done()
            }
            CatalogCall::RecordDelivery(records) => {
                let sql = self.sql()?;
                for record in &records {
                    webhooks::record(&sql, record)?;
                }
                done()
            }
            CatalogCall::Deliveries(page) => Ok(Response::from_json(&webhooks::deliveries(&self.sql()?, &page)?)?),
            CatalogCall::Delivery(event) => Ok(Response::from_json(&webhooks::delivery(&self.sql()?, &event)?)?),
            CatalogCall::WebhookTargets(_) => {
                let now = crate::ledger::now()?;
                Ok(Response::from_json(&webhooks::targets(&self.sql()?, now)?)?)
            }
        }
    }

    /// Notes whether a code is an automatic promotion after a change of its
    /// definition (one synchronous turn), and answers whether it was before.
    fn set_automatic(&self, change: &AutomaticChange) -> std::result::Result<AutomaticChanged, Problem> {
        let sql = self.sql()?;
        let before: Vec<NameRow> = sql
            .exec(
                "SELECT code AS name FROM automatic WHERE code = ?",
                vec![change.code.clone().into()],
            )?
            .to_array()?;
        if change.automatic {
            sql.exec(
                "INSERT INTO automatic(code, active, priority) VALUES (?1, ?2, ?3)
                 ON CONFLICT(code) DO UPDATE SET active = ?2, priority = ?3",
                vec![
                    change.code.clone().into(),
                    i64::from(change.active).into(),
                    i64::from(change.priority).into(),
                ],
            )?;
        } else {
            sql.exec("DELETE FROM automatic WHERE code = ?", vec![change.code.clone().into()])?;
        }
        Ok(AutomaticChanged {
            was: !before.is_empty(),
        })
    }

    /// The active automatic promotions by priority then code (at most
    /// [`promocodes::Stack::MAX_AUTOMATIC`]), and with `inactive` the
    /// switched-off ones after them (as many again at most).
    fn list_automatic(&self, query: &AutomaticQuery) -> std::result::Result<Vec<AutomaticEntry>, Problem> {
        let max = promocodes::Stack::MAX_AUTOMATIC as i64;
        let sql = self.sql()?;
        let mut listed = Vec::new();
        let switches: &[i64] = if query.inactive { &[1, 0] } else { &[1] };
        for &active in switches {
            let rows: Vec<AutomaticRow> = sql
                .exec(
                    "SELECT code, active, priority FROM automatic WHERE active = ? ORDER BY priority, code LIMIT ?",
                    vec![active.into(), max.into()],
                )?
                .to_array()?;
            listed.extend(rows.into_iter().map(AutomaticEntry::from));
        }
        Ok(listed)
    }

    /// One page of the campaigns' ids in order, and whether more follow.
    fn list_campaigns(&self, page: &Page) -> std::result::Result<Listed<String>, Problem> {
        self.page(
            "SELECT id, archived FROM campaigns WHERE id > ?1 AND substr(id, 1, length(?2)) = ?2
               AND (?3 OR archived = 0) ORDER BY id LIMIT ?4",
            page,
            |row: CampaignRow| row.id,
        )
    }

    /// One page of a listing `query`'s rows, each made an entry by `entry`,
    /// and whether more follow. The query takes the page's `after` (`?1`),
    /// `prefix` (`?2`), `archived` (`?3`) and one row more than the page
    /// holds (`?4`), to tell whether more follow.
    fn page<R: DeserializeOwned, T>(
        &self,
        query: &str,
        page: &Page,
        entry: impl FnMut(R) -> T,
    ) -> std::result::Result<Listed<T>, Problem> {
        let limit = page.limit.clamp(1, MAX_PAGE);
        let rows: Vec<R> = self
            .sql()?
            .exec(
                query,
                vec![
                    page.after.clone().into(),
                    page.prefix.clone().into(),
                    i64::from(page.archived).into(),
                    (i64::from(limit) + 1).into(),
                ],
            )?
            .to_array()?;
        let more = rows.len() > limit as usize;
        Ok(Listed(rows.into_iter().take(limit as usize).map(entry).collect(), more))
    }

    fn payment_row(&self, payment: &str) -> std::result::Result<Option<PaymentRow>, Problem> {
        let rows: Vec<PaymentRow> = self
            .sql()?
            .exec(
                "SELECT code, refunded FROM payments WHERE payment = ?",
                vec![payment.to_owned().into()],
            )?
            .to_array()?;
        Ok(rows.into_iter().next())
    }

    /// Indexes a payment under its codes once it was captured. The first
    /// codes stay; the same codes again (a stack's, once its pricing ordered
    /// them) take the new order.
    fn index_payment(&self, payment: &Payment) -> std::result::Result<(), Problem> {
        let sorted = |codes: &str| {
            let mut codes: Vec<&str> = codes.split(',').collect();
            codes.sort_unstable();
            codes.join(",")
        };
        match self.payment_row(&payment.payment)? {
            None => {
                self.sql()?.exec(
                    "INSERT INTO payments(payment, code) VALUES (?, ?)",
                    vec![payment.payment.clone().into(), payment.code.clone().into()],
                )?;
            }
            Some(row) if row.code.is_empty() || sorted(&row.code) == sorted(&payment.code) => {
                self.sql()?.exec(
                    "UPDATE payments SET code = ? WHERE payment = ?",
                    vec![payment.code.clone().into(), payment.payment.clone().into()],
                )?;
            }
            Some(_) => {}
        }
        Ok(())
    }

    /// A payment's success before anything is captured for it: indexes its
    /// codes (unless the payment is known) and answers whether a full refund
    /// came before, in one synchronous turn (no other request interleaves), so
    /// that of a success and a refund racing, the one that comes second here
    /// sees the other.
    fn claim_payment(&self, claim: &Claim) -> std::result::Result<Claimed, Problem> {
        let row = self.payment_row(&claim.payment)?;
        if row.is_none() {
            self.sql()?.exec(
                "INSERT INTO payments(payment, code) VALUES (?, ?)",
                vec![claim.payment.clone().into(), claim.code.clone().into()],
            )?;
        }
        Ok(Claimed {
            refunded: row.and_then(|row| row.refunded),
        })
    }

    /// A full refund of a payment: marks it refunded for good (whether or not
    /// its codes are known yet) and answers the codes it is indexed under, in
    /// one synchronous turn.
    fn refund_payment(&self, refund: &Refund) -> std::result::Result<Option<Payment>, Problem> {
        self.sql()?.exec(
            "INSERT INTO payments(payment, code, refunded) VALUES (?1, '', ?2)
             ON CONFLICT(payment) DO UPDATE SET refunded = coalesce(refunded, ?2)",
            vec![refund.payment.clone().into(), refund.reason.clone().into()],
        )?;
        Ok(self
            .payment_row(&refund.payment)?
            .filter(|row| !row.code.is_empty())
            .map(|row| Payment {
                payment: refund.payment.clone(),
                code: row.code,
            }))
    }

    /// One page in code order, and whether more follow. Pending rows are
    /// listed whatever their archived flag: the Worker checks them.
    fn list(&self, page: &Page) -> std::result::Result<Listed<Entry>, Problem> {
        self.page::<Row, _>(
            "SELECT code, pending, archived, campaign FROM codes
             WHERE code > ?1 AND substr(code, 1, length(?2)) = ?2 AND (?3 OR archived = 0 OR pending = 1)
               AND campaign IS NULL
             ORDER BY code LIMIT ?4",
            page,
            Entry::from,
        )
    }
}
