//! How often a code has been used: the one value a store compares.

use rust_decimal::Decimal;
use serde::{Serialize, Serializer};

use crate::values::{Currency, InputError, Money};

/// How often a code has been redeemed, by anyone and by the customer asking,
/// and how much those uses took off.
///
/// The three are one value: a store's compare-and-set compares them
/// together, so a redemption by any other customer also makes a pending
/// write stale, and two buyers racing for a budget's last euros cannot both
/// pass. `per_customer` can never exceed `total`; `discounted` is the sum of
/// the discounts of the uses that count (captured uses and active holds), in
/// the code's currency: what a [budget](crate::UsageLimits::budget) is
/// checked against. (A code without a currency of its own may be used in
/// several; its sum then adds amounts of different currencies and means
/// nothing but a value to compare. A budgeted code always has one currency.)
///
/// It serialises as `{"total": 1, "per_customer": 1, "discounted": "8.00"}`.
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
    #[serde(serialize_with = "as_text")]
    discounted: Decimal,
    /// For a campaign's code: its own uses, the rest being the campaign's.
    #[serde(skip_serializing_if = "Option::is_none")]
    per_code: Option<u64>,
}

/// [`UsageCounts`] with `discounted` written as money: see [`UsageCounts::in_currency`].
#[derive(Debug, Clone, Copy)]
pub struct UsageInCurrency {
    usage: UsageCounts,
    currency: Currency,
}

impl Serialize for UsageInCurrency {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;

        let usage = &self.usage;
        let mut s = serializer.serialize_struct("UsageCounts", 4)?;
        s.serialize_field("total", &usage.total)?;
        s.serialize_field("per_customer", &usage.per_customer)?;
        // A sum of discounts in this currency has its scale; one that does not fit it (a code
        // used in several currencies) is written as the decimal it is.
        match Money::new(usage.discounted, self.currency) {
            Ok(money) => s.serialize_field("discounted", &money)?,
            Err(_) => s.serialize_field("discounted", &usage.discounted.to_string())?,
        }
        if let Some(uses) = usage.per_code {
            s.serialize_field("per_code", &uses)?;
        }
        s.end()
    }
}

impl UsageCounts {
    /// These counts with `discounted` written as money in `currency` (the
    /// quote's): `{"total": 1, "per_customer": 1, "discounted": {"amount":
    /// "8.00", "currency": "EUR"}}`, as the answers ([`Receipt`](crate::Receipt),
    /// [`Hold`](crate::Hold), [`Released`](crate::Released)) write their counts.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Currency, UsageCounts};
    ///
    /// let usage = UsageCounts::new(1, 1)?.with_discounted("8.00".parse()?)?;
    /// assert_eq!(
    ///     serde_json::to_string(&usage.in_currency(Currency::EUR))?,
    ///     r#"{"total":1,"per_customer":1,"discounted":{"amount":"8.00","currency":"EUR"}}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn in_currency(self, currency: Currency) -> UsageInCurrency {
        UsageInCurrency { usage: self, currency }
    }

    /// No redemptions at all.
    pub const ZERO: UsageCounts = UsageCounts {
        total: 0,
        per_customer: 0,
        discounted: Decimal::ZERO,
        per_code: None,
    };

    /// Counts of `total` redemptions, `per_customer` of them by the customer,
    /// that took nothing off (see [`with_discounted`](UsageCounts::with_discounted)).
    ///
    /// # Errors
    ///
    /// [`InputError::PerCustomerExceedsTotal`] when `per_customer > total`.
    pub fn new(total: u64, per_customer: u64) -> Result<UsageCounts, InputError> {
        if per_customer > total {
            return Err(InputError::PerCustomerExceedsTotal { total, per_customer });
        }
        Ok(UsageCounts {
            total,
            per_customer,
            discounted: Decimal::ZERO,
            per_code: None,
        })
    }

    /// The same counts with `discounted` the sum of the counted uses' discounts.
    ///
    /// # Errors
    ///
    /// [`InputError::NegativeAmount`] for a sum below zero.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::UsageCounts;
    ///
    /// let usage = UsageCounts::new(12, 1)?.with_discounted("96.00".parse()?)?;
    /// assert_eq!(usage.discounted().to_string(), "96.00");
    /// assert_ne!(usage, UsageCounts::new(12, 1)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_discounted(self, discounted: Decimal) -> Result<UsageCounts, InputError> {
        if discounted.is_sign_negative() && !discounted.is_zero() {
            return Err(InputError::NegativeAmount {
                amount: crate::values::decimal_text(discounted),
            });
        }
        Ok(UsageCounts { discounted, ..self })
    }

    /// The same counts read through a campaign: `total`, `per_customer` and
    /// `discounted` are the campaign's (all of its codes), and `uses` of
    /// them came through this one code. A store's compare-and-set compares
    /// the code's uses with the rest, as one value.
    ///
    /// # Errors
    ///
    /// [`InputError::PerCodeExceedsTotal`] when `uses > total`.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::UsageCounts;
    ///
    /// let usage = UsageCounts::new(40, 2)?.with_code_uses(1)?;
    /// assert_eq!(usage.code_uses(), 1);
    /// assert_eq!(usage.total(), 40);
    /// assert_ne!(usage, UsageCounts::new(40, 2)?.with_code_uses(0)?);
    /// // A plain code's uses are its total.
    /// assert_eq!(UsageCounts::new(40, 2)?.code_uses(), 40);
    /// assert!(UsageCounts::new(1, 0)?.with_code_uses(2).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_code_uses(self, uses: u64) -> Result<UsageCounts, InputError> {
        if uses > self.total {
            return Err(InputError::PerCodeExceedsTotal {
                total: self.total,
                per_code: uses,
            });
        }
        Ok(UsageCounts {
            per_code: Some(uses),
            ..self
        })
    }

    /// The uses of the code itself: for a campaign's code, those that came
    /// through it (see [`with_code_uses`](UsageCounts::with_code_uses)); for
    /// any other code, all of them ([`total`](UsageCounts::total)).
    pub fn code_uses(&self) -> u64 {
        self.per_code.unwrap_or(self.total)
    }

    /// Whether these counts were read through a campaign (they carry the code's own uses).
    pub fn through_campaign(&self) -> bool {
        self.per_code.is_some()
    }

    /// Redemptions by anyone.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Redemptions by the customer the counts were read for (0 without one).
    pub fn per_customer(&self) -> u64 {
        self.per_customer
    }

    /// The sum of the discounts of the uses counted, in the code's currency.
    pub fn discounted(&self) -> Decimal {
        self.discounted
    }

    /// The counts after one more redemption by this customer (by anyone, when
    /// `with_customer` is false) that takes `discount` off, or `None` if a
    /// counter would overflow.
    pub fn after_use(&self, with_customer: bool, discount: Decimal) -> Option<UsageCounts> {
        Some(UsageCounts {
            discounted: self.discounted.checked_add(discount)?,
            ..self.incremented(with_customer)?
        })
    }

    /// The counts without one redemption by this customer (by anyone, when
    /// `with_customer` is false) that took `discount` off; each count stops
    /// at zero. What a request that already has its use is priced against:
    /// a stack's capture (or a retry of its hold or capture) prices each code
    /// without the use held or captured under the request's own key, as the
    /// conversion of one code's hold checks no cap against itself.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::UsageCounts;
    ///
    /// let usage = UsageCounts::new(3, 1)?.with_discounted("6.00".parse()?)?;
    /// let held = usage.without_use(true, "2.00".parse()?);
    /// assert_eq!((held.total(), held.per_customer(), held.discounted().to_string()), (2, 0, "4.00".to_owned()));
    /// assert_eq!(held.after_use(true, "2.00".parse()?), Some(usage));
    /// assert_eq!(UsageCounts::ZERO.without_use(true, "1.00".parse()?), UsageCounts::ZERO);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn without_use(&self, with_customer: bool, discount: Decimal) -> UsageCounts {
        let discounted = (self.discounted - discount).max(Decimal::ZERO);
        UsageCounts {
            total: self.total.saturating_sub(1),
            per_customer: if with_customer {
                self.per_customer.saturating_sub(1)
            } else {
                self.per_customer
            },
            discounted,
            per_code: self.per_code.map(|uses| uses.saturating_sub(1)),
        }
    }

    /// The counts of a campaign's code after another code of the same
    /// campaign is used once by this customer (by anyone, when
    /// `with_customer` is false), taking `discount` off: the campaign's
    /// counts move, this code's own uses do not. What a later code of a
    /// [`Stack`](crate::Stack) is checked against when an earlier code of the
    /// stack shares its campaign, as its capture will be. Each count stops at
    /// its largest value; `discounted` grows in `discount`'s currency (a sum
    /// that is not an amount of it, from uses in several currencies, is kept
    /// as it is: only a budget reads it, and a budgeted code has one currency).
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Currency, Money, UsageCounts};
    ///
    /// let usage = UsageCounts::new(3, 1)?.with_discounted("6.00".parse()?)?.with_code_uses(1)?;
    /// let after = usage.after_campaign_use(true, &Money::parse("2.00", Currency::EUR)?);
    /// assert_eq!((after.total(), after.per_customer(), after.code_uses()), (4, 2, 1));
    /// assert_eq!(after.discounted().to_string(), "8.00");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(never)]
    pub fn after_campaign_use(&self, with_customer: bool, discount: &Money) -> UsageCounts {
        // In minor units, as money is added everywhere else (no decimal arithmetic in the browser module).
        let discounted = Money::new(self.discounted, discount.currency())
            .ok()
            .and_then(|sum| sum.checked_add(discount))
            .map_or(self.discounted, |sum| sum.amount());
        UsageCounts {
            total: self.total.saturating_add(1),
            per_customer: if with_customer {
                self.per_customer.saturating_add(1)
            } else {
                self.per_customer
            },
            discounted,
            per_code: self.per_code,
        }
    }

    /// The counts after one more redemption by this customer (by anyone, when
    /// `with_customer` is false), `discounted` unchanged, or `None` if a
    /// counter would overflow.
    pub fn incremented(&self, with_customer: bool) -> Option<UsageCounts> {
        Some(UsageCounts {
            discounted: self.discounted,
            per_code: match self.per_code {
                Some(uses) => Some(uses.checked_add(1)?),
                None => None,
            },
            total: self.total.checked_add(1)?,
            per_customer: if with_customer {
                self.per_customer.checked_add(1)?
            } else {
                self.per_customer
            },
        })
    }
}

/// A decimal as JSON text (`"8.00"`), as money amounts are written; zero is
/// `"0"` however it was reached (a sum of nothing, or of a use and its release).
fn as_text<S: Serializer>(amount: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
    if amount.is_zero() {
        return serializer.serialize_str("0");
    }
    serializer.collect_str(amount)
}
