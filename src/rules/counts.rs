//! How often a code has been used: the one value a store compares.

use serde::Serialize;

use crate::values::InputError;

/// How often a code has been redeemed: by anyone, and by the customer asking.
///
/// The two are one value: a store's compare-and-set compares them together,
/// so a redemption by any other customer also makes a pending write stale.
/// `per_customer` can never exceed `total`.
///
/// It serialises as `{"total": 1, "per_customer": 1}`.
///
/// # Example
///
/// ```
/// use promocodes::UsageCounts;
///
/// let usage = UsageCounts::new(999, 0)?;
/// assert_eq!(usage.total(), 999);
/// assert!(UsageCounts::new(1, 2).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct UsageCounts {
    total: u64,
    per_customer: u64,
}

impl UsageCounts {
    /// No redemptions at all.
    pub const ZERO: UsageCounts = UsageCounts {
        total: 0,
        per_customer: 0,
    };

    /// Counts of `total` redemptions, `per_customer` of them by the customer.
    ///
    /// # Errors
    ///
    /// [`InputError::PerCustomerExceedsTotal`] when `per_customer > total`.
    pub fn new(total: u64, per_customer: u64) -> Result<UsageCounts, InputError> {
        if per_customer > total {
            return Err(InputError::PerCustomerExceedsTotal { total, per_customer });
        }
        Ok(UsageCounts { total, per_customer })
    }

    /// Redemptions by anyone.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Redemptions by the customer the counts were read for (0 without one).
    pub fn per_customer(&self) -> u64 {
        self.per_customer
    }

    /// The counts after one more redemption by this customer (by anyone, when
    /// `with_customer` is false), or `None` if a counter would overflow.
    pub fn incremented(&self, with_customer: bool) -> Option<UsageCounts> {
        Some(UsageCounts {
            total: self.total.checked_add(1)?,
            per_customer: if with_customer {
                self.per_customer.checked_add(1)?
            } else {
                self.per_customer
            },
        })
    }
}
