use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use crate::ids::{Code, CustomerId, IdempotencyKey};
use crate::rules::UsageCounts;
use crate::store::{Redemption, RedemptionStore, Reservation, StoreError};

/// A [`RedemptionStore`] in memory, for tests and single-process use.
///
/// Totals, per-customer counts and idempotency keys live under **one**
/// mutex, so the compare, the increment and the key insert are one step.
/// That honours the store contract across threads in one process and
/// nothing more: two processes each holding one of these share nothing, and
/// everything is gone when the process ends. For anything real, back the
/// contract with a database transaction.
///
/// # Example
///
/// ```
/// use promocodes::{Code, Currency, Discount, InMemoryRedemptionStore, Money, PromoCode, Redemption};
/// use promocodes::{RedemptionStore, Timestamp, UsageCounts};
///
/// let store = InMemoryRedemptionStore::new();
/// let promo = PromoCode::builder(Code::parse("SAVE10")?, Discount::percent("10".parse()?)?).build()?;
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
/// let quote = promo.price(&Money::parse("80", Currency::EUR)?, now)?;
/// let write = |expected| Redemption {
///     code: promo.code(),
///     customer: None,
///     expected,
///     idempotency_key: None,
///     quote: &quote,
/// };
///
/// let first = store.record(&write(UsageCounts::ZERO))?.expect("counts were zero");
/// assert_eq!(first.usage, UsageCounts::new(1, 0)?);
/// // The same write against counts that are already spent changes nothing.
/// assert_eq!(store.record(&write(UsageCounts::ZERO))?, None);
/// assert_eq!(store.usage_for(promo.code(), None)?, UsageCounts::new(1, 0)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct InMemoryRedemptionStore {
    inner: Mutex<Ledger>,
}

#[derive(Debug, Default)]
struct Ledger {
    totals: HashMap<Code, u64>,
    per_customer: HashMap<(Code, CustomerId), u64>,
    keys: HashMap<(Code, IdempotencyKey), Reservation>,
}

impl Ledger {
    fn usage(&self, code: &Code, customer: Option<&CustomerId>) -> UsageCounts {
        let total = self.totals.get(code).copied().unwrap_or(0);
        let per_customer = customer
            .and_then(|c| self.per_customer.get(&(code.clone(), c.clone())))
            .copied()
            .unwrap_or(0);
        UsageCounts::new(total, per_customer).unwrap_or_default()
    }
}

impl InMemoryRedemptionStore {
    /// An empty store.
    pub fn new() -> InMemoryRedemptionStore {
        InMemoryRedemptionStore::default()
    }

    fn lock(&self) -> Result<MutexGuard<'_, Ledger>, StoreError> {
        self.inner.lock().map_err(|_| StoreError::Backend {
            store: "in-memory",
            message: "a thread panicked while holding the lock".to_owned(),
        })
    }
}

impl RedemptionStore for InMemoryRedemptionStore {
    fn usage_for(&self, code: &Code, customer: Option<&CustomerId>) -> Result<UsageCounts, StoreError> {
        Ok(self.lock()?.usage(code, customer))
    }

    fn reservation(&self, code: &Code, key: &IdempotencyKey) -> Result<Option<Reservation>, StoreError> {
        let ledger = self.lock()?;
        Ok(ledger
            .keys
            .get(&(code.clone(), key.clone()))
            .map(|earlier| Reservation {
                replayed: true,
                ..earlier.clone()
            }))
    }

    fn record(&self, redemption: &Redemption<'_>) -> Result<Option<Reservation>, StoreError> {
        let mut ledger = self.lock()?;
        let code = redemption.code;
        if let Some(key) = redemption.idempotency_key {
            if let Some(earlier) = ledger.keys.get(&(code.clone(), key.clone())) {
                return Ok(Some(Reservation {
                    replayed: true,
                    ..earlier.clone()
                }));
            }
        }
        let current = ledger.usage(code, redemption.customer);
        if current != redemption.expected {
            return Ok(None);
        }
        let Some(usage) = current.incremented(redemption.customer.is_some()) else {
            return Ok(None);
        };
        ledger.totals.insert(code.clone(), usage.total());
        if let Some(customer) = redemption.customer {
            ledger
                .per_customer
                .insert((code.clone(), customer.clone()), usage.per_customer());
        }
        let reservation = Reservation {
            customer: redemption.customer.cloned(),
            quote: redemption.quote.clone(),
            usage,
            replayed: false,
        };
        if let Some(key) = redemption.idempotency_key {
            ledger.keys.insert((code.clone(), key.clone()), reservation.clone());
        }
        Ok(Some(reservation))
    }
}
