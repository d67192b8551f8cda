//! What a store remembers between calls: the counts it last saw of each
//! code (its hint) and a queue per code (its turn).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use promocodes::{Code, CustomerId, Decimal, UsageCounts};

/// One queue per code (per campaign, for a campaign's codes) of this
/// store's decisions ([`AsyncRedemptionStore::turn`]). Shared by clones.
#[derive(Debug, Default)]
pub(crate) struct Queues(Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>);

impl Queues {
    /// The queue of the counts `counter` names ([`counter_of`]); past
    /// [`SEEN_MAX`] queues, the ones nobody holds or waits on are dropped.
    pub(crate) fn of(&self, counter: String) -> Arc<tokio::sync::Mutex<()>> {
        // Nothing in it can be left half-changed by a panic: keep using it.
        let mut queues = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if queues.len() >= SEEN_MAX && !queues.contains_key(&counter) {
            queues.retain(|_, queue| Arc::strong_count(queue) > 1);
        }
        Arc::clone(queues.entry(counter).or_default())
    }
}

/// The most codes, and customers per code, [`Seen`] remembers: past it, it
/// starts again (a forgotten hint costs one read).
const SEEN_MAX: usize = 10_000;

/// What this store's own reads and writes last saw of plain codes' counts:
/// the hint its decisions start from
/// ([`AsyncRedemptionStore::usage_hint`]), which saves the read of a
/// capture when no other writer moved the counts since. Shared by clones.
#[derive(Debug, Default)]
pub(crate) struct Seen(Mutex<HashMap<String, SeenCode>>);

/// A code's counts as last seen: overall, and per customer seen.
#[derive(Debug, Default)]
struct SeenCode {
    total: u64,
    discounted: Decimal,
    customers: HashMap<String, u64>,
}

impl Seen {
    fn codes(&self) -> std::sync::MutexGuard<'_, HashMap<String, SeenCode>> {
        // Nothing in it can be left half-changed by a panic: keep using it.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The counts of `code` for `customer`, if the code was seen: a
    /// customer not seen is guessed at no uses, as most captures are a
    /// customer's first of a code (a wrong guess costs the read it saves).
    pub(crate) fn hint(&self, code: &Code, customer: Option<&CustomerId>) -> Option<UsageCounts> {
        let codes = self.codes();
        let seen = codes.get(code.as_str())?;
        let mine = customer.map_or(0, |customer| {
            seen.customers.get(customer.as_str()).copied().unwrap_or(0)
        });
        UsageCounts::new(seen.total, mine)
            .ok()?
            .with_discounted(seen.discounted)
            .ok()
    }

    /// `usage`, read or written just now for `code` and `customer`.
    pub(crate) fn note(&self, code: &Code, customer: Option<&CustomerId>, usage: UsageCounts) {
        let mut codes = self.codes();
        if codes.len() >= SEEN_MAX && !codes.contains_key(code.as_str()) {
            codes.clear();
        }
        let seen = codes.entry(code.as_str().to_owned()).or_default();
        seen.total = usage.total();
        seen.discounted = usage.discounted();
        if let Some(customer) = customer {
            if seen.customers.len() >= SEEN_MAX {
                seen.customers.clear();
            }
            seen.customers
                .insert(customer.as_str().to_owned(), usage.per_customer());
        }
    }

    /// Forgets `code`: its counts moved in a way this store did not count.
    pub(crate) fn forget(&self, code: &Code) {
        self.codes().remove(code.as_str());
    }
}
