//! A code's or a campaign's history as CSV (`GET …/redemptions` with
//! `Accept: text/csv`): the whole history, streamed a page of the object's
//! at a time, in the columns of the console's download, every cell as
//! [`csv_cell`] writes it.

use promocodes::Code;
use serde::Deserialize;
use worker::{Env, Request};

use super::Answer;
use crate::clients::{call_campaign, to_ledger};
use crate::csv::csv_cell;
use crate::problem::Problem;
use crate::protocol::Call;

/// The columns of a code's history, as the console's download writes them
/// (`CSV_COLUMNS` in `public/admin/figures.js`).
pub const COLUMNS: [&str; 10] = [
    "seq",
    "idempotency_key",
    "state",
    "customer",
    "total",
    "discount",
    "payable",
    "currency",
    "at",
    "reason",
];

/// Whose history: one code's, or a campaign's (each record with its code,
/// after its number, as `CAMPAIGN_CSV_COLUMNS` in the console).
#[derive(Debug, Clone)]
pub enum Whose {
    /// A code's (not a campaign's code: its object is found through the catalog).
    Code(Code),
    /// A campaign's, by its id.
    Campaign(Code),
}

/// Whether the request asks for CSV (`Accept` names `text/csv`).
///
/// # Errors
///
/// A runtime error reading the header.
pub fn wants_csv(req: &Request) -> worker::Result<bool> {
    let accept = req.headers().get("accept")?.unwrap_or_default();
    Ok(accept.to_ascii_lowercase().contains("text/csv"))
}

/// The whole history as CSV, streamed: a header row, then each page of the
/// object's (1,000 records) as it comes.
///
/// # Errors
///
/// A runtime error building the response; a page that fails later ends the stream.
pub fn csv(env: &Env, whose: Whose) -> Answer {
    let env = env.clone();
    crate::csv::stream(move |after| {
        let (env, whose) = (env.clone(), whose.clone());
        async move { page(&env, &whose, &after).await }
    })
}

/// One page of the CSV (with the header row before the first), and the next page's cursor.
async fn page(env: &Env, whose: &Whose, after: &str) -> std::result::Result<(Vec<u8>, Option<String>), Problem> {
    let mut query = vec![("limit", "1000")];
    if !after.is_empty() {
        query.push(("after", after));
    }
    let page: Page = match whose {
        Whose::Code(code) => {
            let layout = crate::shards::layout_of(env, code).await?;
            if layout.shards > 1 {
                let merged = crate::shards::history::page(env, code, layout.objects(), after, 1000).await?;
                serde_json::from_value(merged).map_err(|e| Problem::Internal(e.to_string()))?
            } else {
                let answer = to_ledger(env, code, Call::Redemptions.request(code, &query, None, &[])?).await?;
                read_page(answer).await?
            }
        }
        Whose::Campaign(id) => {
            let shards = crate::handlers::campaigns::campaign_shards(env, id).await?;
            if shards > 1 {
                let merged = crate::shards::history::campaign_page(env, id, shards, after, 1000).await?;
                serde_json::from_value(merged).map_err(|e| Problem::Internal(e.to_string()))?
            } else {
                read_page(call_campaign(env, id, Call::Redemptions, &query, None, &[]).await?).await?
            }
        }
    };
    let campaign = matches!(whose, Whose::Campaign(_));
    let mut text = String::new();
    if after.is_empty() {
        let mut header: Vec<&str> = COLUMNS.to_vec();
        if campaign {
            header.insert(1, "code");
        }
        text.push_str(&header.join(","));
        text.push('\n');
    }
    for record in &page.redemptions {
        text.push_str(&record.row(campaign));
        text.push('\n');
    }
    Ok((text.into_bytes(), page.next))
}

/// An object's page of the history.
async fn read_page(mut answer: worker::Response) -> std::result::Result<Page, Problem> {
    if answer.status_code() != 200 {
        return Err(Problem::Internal(format!(
            "the object answered {} for a page of the history",
            answer.status_code()
        )));
    }
    Ok(answer.json().await?)
}

/// What the CSV reads of a page of the history.
#[derive(Deserialize)]
struct Page {
    redemptions: Vec<Record>,
    next: Option<String>,
}

/// What the CSV reads of one record of the history: a hold or capture, a
/// refused payment capture, or a refund that came before its payment.
#[derive(Deserialize)]
struct Record {
    seq: i64,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    idempotency_key: Option<String>,
    state: String,
    #[serde(default)]
    customer: Option<String>,
    #[serde(default)]
    quote: Option<Amounts>,
    #[serde(default)]
    charged: Option<Amount>,
    #[serde(default)]
    released_at: Option<String>,
    #[serde(default)]
    captured_at: Option<String>,
    #[serde(default)]
    refused_at: Option<String>,
    #[serde(default)]
    expires_at: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    detail: Option<String>,
}

/// A quote's amounts.
#[derive(Deserialize)]
struct Amounts {
    total: Amount,
    discount: Amount,
    payable: Amount,
}

/// Money as the API writes it: decimal text (never a float) and its currency.
#[derive(Deserialize)]
struct Amount {
    #[serde(default)]
    amount: Option<String>,
    #[serde(default)]
    currency: Option<String>,
}

impl Record {
    /// Its row, as the console writes it (`redemptionRow`): the total is the
    /// quote's or what was charged; `at` when it last changed; the reason, or
    /// a refusal's detail.
    fn row(&self, campaign: bool) -> String {
        let total = self.quote.as_ref().map(|q| &q.total).or(self.charged.as_ref());
        let amount = |money: Option<&Amount>| money.and_then(|m| m.amount.clone()).unwrap_or_default();
        let at = [&self.released_at, &self.captured_at, &self.refused_at, &self.expires_at]
            .into_iter()
            .find_map(Option::as_deref)
            .unwrap_or_default();
        let mut cells = vec![
            self.seq.to_string(),
            self.idempotency_key.clone().unwrap_or_default(),
            self.state.clone(),
            self.customer.clone().unwrap_or_default(),
            amount(total),
            amount(self.quote.as_ref().map(|q| &q.discount)),
            amount(self.quote.as_ref().map(|q| &q.payable)),
            total.and_then(|m| m.currency.clone()).unwrap_or_default(),
            at.to_owned(),
            self.reason.clone().or_else(|| self.detail.clone()).unwrap_or_default(),
        ];
        if campaign {
            cells.insert(1, self.code.clone().unwrap_or_default());
        }
        cells.iter().map(|cell| csv_cell(cell)).collect::<Vec<_>>().join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::Record;

    fn record(json: &str) -> Record {
        serde_json::from_str(json).expect("a record")
    }

    #[test]
    fn a_row_has_the_consoles_columns_and_neutralised_cells() {
        let held = record(
            r#"{"seq": 7, "idempotency_key": "k-1", "state": "held", "customer": "=1+1",
                "quote": {"total": {"amount": "50.00", "currency": "EUR"}, "discount": {"amount": "5.00", "currency": "EUR"},
                          "payable": {"amount": "45.00", "currency": "EUR"}, "lines": []},
                "usage": {"total": 1}, "expires_at": "2026-01-01T00:10:00Z"}"#,
        );
        assert_eq!(
            held.row(false),
            "7,k-1,held,\"'=1+1\",50.00,5.00,45.00,EUR,2026-01-01T00:10:00Z,"
        );
        let refused = record(
            r#"{"seq": 8, "code": "-A1", "idempotency_key": "pi_1", "state": "refused", "customer": null,
                "rejection": "exhausted", "detail": "@no uses left, sorry", "charged": {"amount": "80.00", "currency": "EUR"},
                "event_id": "evt_1", "refused_at": "2026-01-01T00:00:00Z", "quote": null}"#,
        );
        assert_eq!(
            refused.row(true),
            "8,\"'-A1\",pi_1,refused,,80.00,,,EUR,2026-01-01T00:00:00Z,\"'@no uses left, sorry\""
        );
        let refund = record(
            r#"{"seq": 9, "idempotency_key": "pi_2", "state": "released", "usage": {"total": 0},
                "released_at": "2026-01-01T00:00:00Z", "reason": "+refund"}"#,
        );
        assert_eq!(
            refund.row(false),
            "9,pi_2,released,,,,,,2026-01-01T00:00:00Z,\"'+refund\""
        );
    }
}
