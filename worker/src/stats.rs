//! Live figures per code, kept in the code's own Durable Object: counts since
//! the code was defined and per minute for the last hour ([`read`] sums
//! them, [`by_minute`] gives each minute).
//!
//! Each figure is written in the request that produced it, after its
//! answer is decided and outside the capture's transaction: a failure here is
//! logged and never fails (or delays the decision of) a capture.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use worker::SqlStorage;

/// The table, created with the code's schema: one row per figure and minute
/// of the last hour, and one per figure (`minute = 0`) for everything older.
pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS stats(minute INTEGER NOT NULL, name TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY(minute, name));
";

/// How many minutes the recent figures cover.
pub const WINDOW_MINUTES: i64 = 60;

/// What happened, as a figure's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event<'a> {
    /// A new capture (201).
    Capture,
    /// A new hold (201).
    Hold,
    /// A new release (200, not replayed).
    Release,
    /// Holds the alarm found expired.
    Expired,
    /// A replayed answer of a capture, a hold or a release.
    Replay,
    /// A quote priced (200).
    Quote,
    /// Every attempt conflicted (409).
    Conflict,
    /// A refusal by a rule: on which operation (`quotes`, `holds`, `captures`), and its code.
    Rejected(&'a str, &'a str),
}

impl Event<'_> {
    fn name(&self) -> String {
        match self {
            Event::Capture => "captures".to_owned(),
            Event::Hold => "holds".to_owned(),
            Event::Release => "releases".to_owned(),
            Event::Expired => "expired".to_owned(),
            Event::Replay => "replays".to_owned(),
            Event::Quote => "quotes".to_owned(),
            Event::Conflict => "conflicts".to_owned(),
            Event::Rejected(op, rejection) => format!("rejected.{op}.{rejection}"),
        }
    }
}

/// Adds `n` to the figure of `event` in the minute `minute`: one statement.
///
/// # Errors
///
/// A runtime error from SQLite; the caller logs it and goes on.
pub fn record(sql: &SqlStorage, event: Event<'_>, n: i64, minute: i64) -> worker::Result<()> {
    sql.exec(
        "INSERT INTO stats(minute, name, n) VALUES (?1, ?2, ?3)
         ON CONFLICT(minute, name) DO UPDATE SET n = n + ?3",
        vec![minute.into(), event.name().into(), n.into()],
    )?;
    Ok(())
}

/// Folds the minutes older than the window into the rows of `minute = 0`
/// (done once a minute, not on every figure).
///
/// # Errors
///
/// A runtime error from SQLite.
pub fn prune(sql: &SqlStorage, minute: i64) -> worker::Result<()> {
    let cutoff = minute - WINDOW_MINUTES;
    sql.exec(
        "INSERT INTO stats(minute, name, n)
         SELECT 0, name, sum(n) FROM stats WHERE minute > 0 AND minute <= ?1 GROUP BY name
         ON CONFLICT(minute, name) DO UPDATE SET n = n + excluded.n",
        vec![cutoff.into()],
    )?;
    sql.exec(
        "DELETE FROM stats WHERE minute > 0 AND minute <= ?",
        vec![cutoff.into()],
    )?;
    Ok(())
}

/// One period's figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Figures {
    /// New captures.
    pub captures: i64,
    /// Answers that replayed an earlier capture, hold or release (provider redeliveries, client retries).
    pub replays: i64,
    /// New holds.
    pub holds: i64,
    /// Releases of holds and captures.
    pub releases: i64,
    /// Holds that expired before they were captured or released.
    pub expired: i64,
    /// Requests that lost every compare-and-set attempt (409).
    pub conflicts: i64,
    /// Quotes priced.
    pub quotes: i64,
    /// Refusals by rejection code, per operation: `quotes`, `holds`, `captures`.
    pub rejections: Rejections,
}

/// Refusals by rejection code, per operation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Rejections {
    /// On `POST /v1/quotes`.
    pub quotes: BTreeMap<String, i64>,
    /// On `POST /v1/holds`.
    pub holds: BTreeMap<String, i64>,
    /// On `POST /v1/captures` (and the webhooks' captures).
    pub captures: BTreeMap<String, i64>,
}

impl Figures {
    fn add(&mut self, name: &str, n: i64) {
        match name {
            "captures" => self.captures += n,
            "replays" => self.replays += n,
            "holds" => self.holds += n,
            "releases" => self.releases += n,
            "expired" => self.expired += n,
            "conflicts" => self.conflicts += n,
            "quotes" => self.quotes += n,
            other => {
                let mut parts = other.splitn(3, '.');
                if let (Some("rejected"), Some(op), Some(rejection)) = (parts.next(), parts.next(), parts.next()) {
                    let group = match op {
                        "quotes" => &mut self.rejections.quotes,
                        "holds" => &mut self.rejections.holds,
                        _ => &mut self.rejections.captures,
                    };
                    *group.entry(rejection.to_owned()).or_default() += n;
                }
            }
        }
    }
}

#[derive(Deserialize)]
struct Row {
    name: String,
    n: i64,
}

/// The figures since the start, and for the last hour up to `minute`.
///
/// # Errors
///
/// A runtime error from SQLite.
pub fn read(sql: &SqlStorage, minute: i64) -> worker::Result<(Figures, Figures)> {
    let mut total = Figures::default();
    for row in sql
        .exec("SELECT name, sum(n) AS n FROM stats GROUP BY name", None)?
        .to_array::<Row>()?
    {
        total.add(&row.name, row.n);
    }
    let mut recent = Figures::default();
    let rows: Vec<Row> = sql
        .exec(
            "SELECT name, sum(n) AS n FROM stats WHERE minute > ? GROUP BY name",
            vec![(minute - WINDOW_MINUTES).into()],
        )?
        .to_array()?;
    for row in rows {
        recent.add(&row.name, row.n);
    }
    Ok((total, recent))
}

/// The last hour up to `minute`, minute by minute, oldest first: one
/// [`Figures`] for each of the [`WINDOW_MINUTES`] minutes (zero where nothing happened).
///
/// # Errors
///
/// A runtime error from SQLite.
pub fn by_minute(sql: &SqlStorage, minute: i64) -> worker::Result<Vec<(i64, Figures)>> {
    #[derive(Deserialize)]
    struct MinuteRow {
        minute: i64,
        name: String,
        n: i64,
    }
    let first = minute - WINDOW_MINUTES + 1;
    let mut minutes: Vec<(i64, Figures)> = (first..=minute).map(|m| (m, Figures::default())).collect();
    let rows: Vec<MinuteRow> = sql
        .exec(
            "SELECT minute, name, n FROM stats WHERE minute >= ?1 AND minute <= ?2",
            vec![first.into(), minute.into()],
        )?
        .to_array()?;
    for row in rows {
        if let Some((_, figures)) = usize::try_from(row.minute - first)
            .ok()
            .and_then(|i| minutes.get_mut(i))
        {
            figures.add(&row.name, row.n);
        }
    }
    Ok(minutes)
}

#[cfg(test)]
mod tests {
    use super::{Event, Figures};

    #[test]
    fn names_round_trip_into_figures() {
        let mut figures = Figures::default();
        for (event, n) in [
            (Event::Capture, 30),
            (Event::Replay, 5),
            (Event::Rejected("captures", "exhausted"), 7),
            (Event::Rejected("quotes", "below_minimum"), 3),
            (Event::Conflict, 1),
        ] {
            figures.add(&event.name(), n);
        }
        assert_eq!(figures.captures, 30);
        assert_eq!(figures.replays, 5);
        assert_eq!(figures.conflicts, 1);
        assert_eq!(figures.rejections.captures["exhausted"], 7);
        assert_eq!(figures.rejections.quotes["below_minimum"], 3);
        assert!(figures.rejections.holds.is_empty());
    }
}
