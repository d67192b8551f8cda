//! Live figures per code, kept in the code's own Durable Object: counts since
//! the code was defined, per minute for the last hour and per hour for the
//! last seven days ([`read`] sums them for each period, [`by_minute`] gives
//! each minute, [`by_hour`] each hour).
//!
//! A write request (a hold, capture or release, a payment event, an expiry)
//! writes its figure in the request that produced it, after its answer is
//! decided and outside the capture's transaction: a failure here is logged
//! and never fails (or delays the decision of) a capture. The figures of
//! public requests (quotes, and the checkout page's reports of codes tried) are counted in memory ([`Pending`]) and written
//! at most once every [`WRITE_INTERVAL_MS`], so that a crowd that quotes does
//! not cost the code's object a SQLite write per request; they are written
//! with the next write request's figure, by the first quote after the
//! interval, or by the object's alarm, whichever comes first.

use std::collections::BTreeMap;

use serde::Deserialize;
use worker::SqlStorage;

use crate::limits::PENDING_FIGURES_MAX;

/// The table, created with the code's schema: one row per figure and minute
/// of the last hour, one per figure and hour (`minute` the hour's first, a
/// multiple of 60) of the last seven days, and one per figure (`minute = 0`)
/// for everything older.
pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS stats(minute INTEGER NOT NULL, name TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY(minute, name));
";

/// How many minutes the recent figures cover.
pub const WINDOW_MINUTES: i64 = 60;

/// How many minutes the last day's figures cover.
pub const DAY_MINUTES: i64 = 24 * 60;

/// How many minutes the hourly figures cover: seven days.
pub const WEEK_MINUTES: i64 = 7 * DAY_MINUTES;

/// How many hours [`by_hour`] gives: seven days'.
pub const WEEK_HOURS: i64 = WEEK_MINUTES / 60;

/// The shortest time between two writes of the figures counted in memory
/// ([`Pending`]), in milliseconds: the most the written figures lag behind.
pub const WRITE_INTERVAL_MS: i64 = 1000;

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
    /// The checkout page reported a code tried (a buyer typed it and the page looked it up).
    Tried,
    /// Every attempt conflicted (409).
    Conflict,
    /// A refusal by a rule: on which operation (`quotes`, `holds`, `captures`;
    /// `page` for one the checkout page reported showing), and its code.
    Rejected(&'a str, &'a str),
    /// Money given away, in the minor units of the code's currency: a new capture's discount.
    Discounted,
    /// Money given back, in the same units: a released capture's discount.
    Returned,
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
            Event::Tried => "tries".to_owned(),
            Event::Conflict => "conflicts".to_owned(),
            Event::Rejected(op, rejection) => format!("rejected.{op}.{rejection}"),
            Event::Discounted => "discounted".to_owned(),
            Event::Returned => "returned".to_owned(),
        }
    }
}

/// Figures counted in memory and not yet written, by minute and name, and
/// when the last were written: at most [`PENDING_FIGURES_MAX`] of them (past
/// it the oldest minute folds into the all-time row, minute 0, so that every
/// count stays).
#[derive(Debug, Default)]
pub struct Pending {
    counts: BTreeMap<(i64, String), i64>,
    /// When figures were last written (Unix milliseconds); `None` before the first write.
    written_at: Option<i64>,
}

/// One figure's count in one minute, to be written: `(minute, name, n)`.
pub type Count = (i64, String, i64);

impl Pending {
    /// Counts `n` of `event` in the minute `minute`.
    pub fn add(&mut self, event: Event<'_>, n: i64, minute: i64) {
        *self.counts.entry((minute, event.name())).or_default() += n;
        while self.counts.len() > PENDING_FIGURES_MAX {
            self.evict();
        }
    }

    /// Folds the oldest minute's counts into the all-time row (minute 0, as
    /// [`prune`] folds the written ones); when only that row is left (more
    /// names than the bound, which the closed set of names never reaches),
    /// forgets its first figure.
    fn evict(&mut self) {
        let oldest = self.counts.keys().map(|(minute, _)| *minute).find(|m| *m != 0);
        let Some(oldest) = oldest else {
            self.counts.pop_first();
            return;
        };
        let names: Vec<String> = self
            .counts
            .range((oldest, String::new())..)
            .take_while(|((minute, _), _)| *minute == oldest)
            .map(|((_, name), _)| name.clone())
            .collect();
        for name in names {
            if let Some(n) = self.counts.remove(&(oldest, name.clone())) {
                *self.counts.entry((0, name)).or_default() += n;
            }
        }
    }

    /// Every count, as `(minute, name, n)`.
    pub fn counts(&self) -> impl Iterator<Item = Count> + '_ {
        self.counts
            .iter()
            .map(|((minute, name), n)| (*minute, name.clone(), *n))
    }

    /// Adds `n` of the figure `name` in the minute `minute` (another object's count).
    pub fn add_count(&mut self, minute: i64, name: &str, n: i64) {
        *self.counts.entry((minute, name.to_owned())).or_default() += n;
    }

    /// How many events are counted and not yet written.
    pub fn events(&self) -> i64 {
        self.counts.values().sum()
    }

    /// Whether nothing waits to be written.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// When (Unix milliseconds) what is counted may be written:
    /// [`WRITE_INTERVAL_MS`] after the last write, or at once before the first.
    pub fn due_at(&self) -> i64 {
        self.written_at
            .map_or(i64::MIN, |at| at.saturating_add(WRITE_INTERVAL_MS))
    }

    /// Whether at `now` (Unix milliseconds) what is counted may be written.
    pub fn is_due(&self, now: i64) -> bool {
        now >= self.due_at()
    }

    /// Takes everything counted, to be written at `now` (Unix milliseconds).
    pub fn take(&mut self, now: i64) -> Vec<Count> {
        self.written_at = Some(now);
        std::mem::take(&mut self.counts)
            .into_iter()
            .map(|((minute, name), n)| (minute, name, n))
            .collect()
    }

    /// Adds what is counted to figures read from SQLite up to the minute
    /// `minute`: all of it to the total, each period's to that period.
    pub fn add_to(&self, periods: &mut Periods, minute: i64) {
        for ((at, name), n) in &self.counts {
            periods.add(*at, name, *n, minute);
        }
    }

    /// Adds what is counted and not yet written to the hours of [`by_hour`].
    pub fn add_to_hours(&self, hours: &mut [(i64, Figures)]) {
        for ((at, name), n) in &self.counts {
            let hour = at - at.rem_euclid(60);
            if let Some((_, figures)) = hours.iter_mut().find(|(h, _)| *h == hour) {
                figures.add(name, *n);
            }
        }
    }

    /// Adds what is counted and not yet written to the minutes of [`by_minute`].
    pub fn add_to_minutes(&self, minutes: &mut [(i64, Figures)]) {
        for ((at, name), n) in &self.counts {
            if let Some((_, figures)) = minutes.iter_mut().find(|(m, _)| m == at) {
                figures.add(name, *n);
            }
        }
    }
}

/// Writes counted figures: adds each count's `n` to its figure and minute, one
/// statement a count, all in the caller's synchronous turn (so one commit).
///
/// # Errors
///
/// A runtime error from SQLite; the caller logs it and goes on.
pub fn write(sql: &SqlStorage, rows: &[Count]) -> worker::Result<()> {
    for (minute, name, n) in rows {
        sql.exec(
            "INSERT INTO stats(minute, name, n) VALUES (?1, ?2, ?3)
             ON CONFLICT(minute, name) DO UPDATE SET n = n + ?3",
            vec![(*minute).into(), name.as_str().into(), (*n).into()],
        )?;
    }
    Ok(())
}

/// Folds the minutes older than the window into their hour's row (the
/// hour's first minute), and the hours older than seven days into the rows
/// of `minute = 0` (done once a minute, not on every figure).
///
/// # Errors
///
/// A runtime error from SQLite.
pub fn prune(sql: &SqlStorage, minute: i64) -> worker::Result<()> {
    let cutoff = minute - WINDOW_MINUTES;
    sql.exec(
        "INSERT INTO stats(minute, name, n)
         SELECT minute - minute % 60 AS hour, name, sum(n) FROM stats
         WHERE minute > 0 AND minute <= ?1 AND minute % 60 != 0 GROUP BY hour, name
         ON CONFLICT(minute, name) DO UPDATE SET n = n + excluded.n",
        vec![cutoff.into()],
    )?;
    sql.exec(
        "DELETE FROM stats WHERE minute > 0 AND minute <= ? AND minute % 60 != 0",
        vec![cutoff.into()],
    )?;
    let week = minute - WEEK_MINUTES;
    sql.exec(
        "INSERT INTO stats(minute, name, n)
         SELECT 0, name, sum(n) FROM stats WHERE minute > 0 AND minute <= ?1 GROUP BY name
         ON CONFLICT(minute, name) DO UPDATE SET n = n + excluded.n",
        vec![week.into()],
    )?;
    sql.exec("DELETE FROM stats WHERE minute > 0 AND minute <= ?", vec![week.into()])?;
    Ok(())
}

/// One period's figures.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Figures {
    /// The counts as the answer writes them; its `discounted` and `returned`
    /// are left out here and written by [`Figures::to_wire`] from the minor
    /// units below.
    pub counts: promocodes::wire::Figures,
    /// The discounts of new captures, in the minor units of the code's
    /// currency: the answer shows it as money ([`Figures::to_wire`]), for a
    /// code with a currency of its own.
    pub discounted: i64,
    /// The discounts of released captures, in the same units and shown the same way.
    pub returned: i64,
}

impl Figures {
    /// The figures as the answer writes them, with `discounted` and
    /// `returned` as money in `currency` (left out without one: a code
    /// without a currency of its own may be used in several). What a budget
    /// has spent is `discounted` less `returned`, held uses aside.
    pub fn to_wire(&self, currency: Option<promocodes::Currency>) -> promocodes::wire::Figures {
        let money = |minor: i64| currency.and_then(|c| promocodes::Money::from_minor(i128::from(minor.max(0)), c));
        promocodes::wire::Figures {
            discounted: money(self.discounted),
            returned: money(self.returned),
            ..self.counts.clone()
        }
    }

    fn add(&mut self, name: &str, n: i64) {
        match name {
            "captures" => self.counts.captures += n,
            "replays" => self.counts.replays += n,
            "holds" => self.counts.holds += n,
            "releases" => self.counts.releases += n,
            "expired" => self.counts.expired += n,
            "conflicts" => self.counts.conflicts += n,
            "quotes" => self.counts.quotes += n,
            "tries" => self.counts.tries += n,
            "discounted" => self.discounted += n,
            "returned" => self.returned += n,
            other => {
                let mut parts = other.splitn(3, '.');
                if let (Some("rejected"), Some(op), Some(rejection)) = (parts.next(), parts.next(), parts.next()) {
                    let group = match op {
                        "quotes" => &mut self.counts.rejections.quotes,
                        "holds" => &mut self.counts.rejections.holds,
                        "page" => &mut self.counts.rejections.page,
                        _ => &mut self.counts.rejections.captures,
                    };
                    *group.entry(rejection.to_owned()).or_default() += n;
                }
            }
        }
    }
}

/// The figures of each period: since the start, the last hour, the last 24
/// hours and the last seven days (the last two to the hour: an hour's row
/// counts whole once its first minute is in).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Periods {
    /// Since the start.
    pub total: Figures,
    /// The last hour.
    pub last_hour: Figures,
    /// The last 24 hours.
    pub last_day: Figures,
    /// The last seven days.
    pub last_week: Figures,
}

impl Periods {
    /// Adds `n` of the figure `name` counted in the minute (or hour row) `at`, read at the minute `now`.
    fn add(&mut self, at: i64, name: &str, n: i64, now: i64) {
        self.total.add(name, n);
        for (period, span) in [
            (&mut self.last_hour, WINDOW_MINUTES),
            (&mut self.last_day, DAY_MINUTES),
            (&mut self.last_week, WEEK_MINUTES),
        ] {
            if at > now - span {
                period.add(name, n);
            }
        }
    }
}

#[derive(Deserialize)]
struct PeriodRow {
    minute: i64,
    name: String,
    n: i64,
}

/// The figures of each period up to the minute `minute`.
///
/// # Errors
///
/// A runtime error from SQLite.
pub fn read(sql: &SqlStorage, minute: i64) -> worker::Result<Periods> {
    let mut periods = Periods::default();
    // At most a row per figure and minute of the last hour, hour of the week, and all time.
    let rows: Vec<PeriodRow> = sql.exec("SELECT minute, name, n FROM stats", None)?.to_array()?;
    for row in rows {
        periods.add(row.minute, &row.name, row.n, minute);
    }
    Ok(periods)
}

/// Every written count, as `(minute, name, n)` rows (none before the first write).
///
/// # Errors
///
/// A runtime error from SQLite.
pub fn rows(sql: &SqlStorage) -> worker::Result<Vec<Count>> {
    let tables: Vec<serde_json::Value> = sql
        .exec(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'stats'",
            None,
        )?
        .to_array()?;
    if tables.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<PeriodRow> = sql.exec("SELECT minute, name, n FROM stats", None)?.to_array()?;
    Ok(rows.into_iter().map(|row| (row.minute, row.name, row.n)).collect())
}

/// The last seven days up to the minute `minute`, hour by hour, oldest
/// first: one [`Figures`] for each of the [`WEEK_HOURS`] hours (by the
/// hour's first minute; zero where nothing happened).
///
/// # Errors
///
/// A runtime error from SQLite.
pub fn by_hour(sql: &SqlStorage, minute: i64) -> worker::Result<Vec<(i64, Figures)>> {
    let last = minute - minute.rem_euclid(60);
    let first = last - (WEEK_HOURS - 1) * 60;
    let mut hours: Vec<(i64, Figures)> = (0..WEEK_HOURS).map(|i| (first + i * 60, Figures::default())).collect();
    let rows: Vec<PeriodRow> = sql
        .exec(
            "SELECT minute - minute % 60 AS minute, name, sum(n) AS n FROM stats
             WHERE minute >= ?1 GROUP BY minute - minute % 60, name",
            vec![first.into()],
        )?
        .to_array()?;
    for row in rows {
        if let Some((_, figures)) = usize::try_from((row.minute - first) / 60)
            .ok()
            .and_then(|i| hours.get_mut(i))
        {
            figures.add(&row.name, row.n);
        }
    }
    Ok(hours)
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
    use super::{Event, Figures, Pending, Periods, DAY_MINUTES, WINDOW_MINUTES, WRITE_INTERVAL_MS};

    #[test]
    fn pending_figures_are_due_once_an_interval_after_the_last_write() {
        let mut pending = Pending::default();
        assert!(pending.is_due(0), "before the first write, at once");
        pending.add(Event::Quote, 1, 100);
        pending.add(Event::Quote, 1, 100);
        pending.add(Event::Rejected("quotes", "below_minimum"), 1, 101);
        assert_eq!(pending.events(), 3);
        let rows = pending.take(5_000);
        assert_eq!(
            rows,
            vec![
                (100, "quotes".to_owned(), 2),
                (101, "rejected.quotes.below_minimum".to_owned(), 1)
            ]
        );
        assert!(pending.is_empty());
        assert_eq!(pending.due_at(), 5_000 + WRITE_INTERVAL_MS);
        assert!(!pending.is_due(5_000 + WRITE_INTERVAL_MS - 1));
        assert!(pending.is_due(5_000 + WRITE_INTERVAL_MS));
    }

    #[test]
    fn pending_figures_stay_within_their_bound_and_keep_every_count() {
        use crate::limits::PENDING_FIGURES_MAX;
        let mut pending = Pending::default();
        for minute in 1..=100_000 {
            pending.add(Event::Quote, 1, minute);
        }
        assert_eq!(pending.events(), 100_000, "every count stays");
        let rows = pending.take(0);
        assert!(rows.len() <= PENDING_FIGURES_MAX, "{} figures in memory", rows.len());
        let folded: i64 = rows.iter().filter(|(m, _, _)| *m == 0).map(|(_, _, n)| n).sum();
        let kept: Vec<i64> = rows.iter().filter(|(m, _, _)| *m != 0).map(|(m, _, _)| *m).collect();
        assert_eq!(folded + kept.len() as i64, 100_000);
        assert_eq!(kept.last(), Some(&100_000), "the newest minutes are kept");
        // Names are a closed set; were they not, the figures would still stay within the bound.
        let mut pending = Pending::default();
        for i in 0..100_000 {
            pending.add(Event::Rejected("quotes", &format!("r{i}")), 1, 7);
        }
        let rows = pending.take(0);
        assert!(rows.len() <= PENDING_FIGURES_MAX, "{} figures in memory", rows.len());
    }

    #[test]
    fn pending_figures_are_read_with_the_written_ones() {
        let mut pending = Pending::default();
        pending.add(Event::Quote, 4, 1_000);
        pending.add(Event::Quote, 1, 1_000 - WINDOW_MINUTES);
        pending.add(Event::Rejected("quotes", "expired"), 2, 1_000);
        pending.add(Event::Tried, 3, 1_000 - DAY_MINUTES);
        let mut periods = Periods::default();
        periods.total.counts.quotes = 10;
        pending.add_to(&mut periods, 1_000);
        assert_eq!(periods.total.counts.quotes, 15);
        assert_eq!(
            periods.last_hour.counts.quotes, 4,
            "a minute out of the window counts in the longer periods only"
        );
        assert_eq!(periods.last_day.counts.quotes, 5);
        assert_eq!(periods.last_week.counts.tries, 3);
        assert_eq!(periods.last_day.counts.tries, 0, "24 hours ago is out of the last day");
        assert_eq!(periods.total.counts.rejections.quotes["expired"], 2);
        assert_eq!(periods.last_hour.counts.rejections.quotes["expired"], 2);
    }

    #[test]
    fn names_round_trip_into_figures() {
        let mut figures = Figures::default();
        for (event, n) in [
            (Event::Capture, 30),
            (Event::Replay, 5),
            (Event::Rejected("captures", "exhausted"), 7),
            (Event::Rejected("quotes", "below_minimum"), 3),
            (Event::Conflict, 1),
            (Event::Tried, 4),
            (Event::Rejected("page", "below_minimum"), 2),
        ] {
            figures.add(&event.name(), n);
        }
        assert_eq!(figures.counts.captures, 30);
        assert_eq!(figures.counts.replays, 5);
        assert_eq!(figures.counts.conflicts, 1);
        assert_eq!(figures.counts.rejections.captures["exhausted"], 7);
        assert_eq!(figures.counts.rejections.quotes["below_minimum"], 3);
        assert!(figures.counts.rejections.holds.is_empty());
        assert_eq!(figures.counts.tries, 4);
        assert_eq!(figures.counts.rejections.page["below_minimum"], 2);
    }
}
