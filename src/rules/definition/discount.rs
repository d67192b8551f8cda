//! What a code takes off: [`Discount`] and its [`DiscountKind`].

use rust_decimal::Decimal;

use crate::values::{InputError, Money};

/// What a code takes off a basket.
///
/// - **percent**: a percent of the eligible lines' subtotal (the whole basket
///   total for a basket of one total), rounded half away from zero to the
///   currency's minor unit, at most `max`;
/// - **fixed**: an amount, at most the eligible subtotal;
/// - **free shipping**: the basket's shipping, at most `max`.
///
/// A `Discount` that exists is valid: its fields are private and every
/// constructor checks them (a percent above 0 and at most 100, amounts above
/// zero).
///
/// Serialised as `{"kind": "percent", "percent": "10", "max": <Money>}`,
/// `{"kind": "fixed", "amount": <Money>, "max": <Money>}` or
/// `{"kind": "free_shipping", "max": <Money>}` (`max` optional: it caps any kind).
///
/// # Example
///
/// ```
/// use promocodes::{Currency, Discount, DiscountKind, Money};
///
/// let ten = Discount::percent("10".parse()?)?;
/// let capped = Discount::percent("25".parse()?)?.with_max(Money::parse("20", Currency::EUR)?)?;
/// let five = Discount::fixed(Money::parse("5", Currency::EUR)?)?;
/// let shipping = Discount::free_shipping();
/// assert_eq!(capped.kind(), DiscountKind::Percent);
/// assert_eq!(capped.max().map(|m| m.to_string()), Some("EUR 20.00".to_owned()));
/// assert!(Discount::percent("0".parse()?).is_err());
/// assert!(Discount::percent("-10".parse()?).is_err());
/// assert!(Discount::percent("100.5".parse()?).is_err());
/// assert!(Discount::fixed(Money::parse("0", Currency::EUR)?).is_err());
/// let at_most_three = five.clone().with_max(Money::parse("3", Currency::EUR)?)?;
/// assert_eq!(at_most_three.fixed_amount(), five.fixed_amount());
/// assert_eq!(at_most_three.max().map(|m| m.to_string()), Some("EUR 3.00".to_owned()));
/// # let _ = (ten, five, shipping);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discount {
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Percent { percent: Decimal, max: Option<Money> },
    Fixed { amount: Money, max: Option<Money> },
    FreeShipping { max: Option<Money> },
}

/// Which kind of [`Discount`] a code has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DiscountKind {
    /// A percent of the eligible subtotal.
    Percent,
    /// A fixed amount.
    Fixed,
    /// The basket's shipping.
    FreeShipping,
}

impl Discount {
    /// The most decimal places a percent may have (`12.5` has one).
    pub const MAX_PERCENT_PLACES: u32 = 4;

    /// `percent` percent off, uncapped.
    ///
    /// # Errors
    ///
    /// [`InputError::PercentOutOfRange`] unless `0 < percent <= 100`;
    /// [`InputError::PercentTooPrecise`] beyond [`Discount::MAX_PERCENT_PLACES`].
    pub fn percent(percent: Decimal) -> Result<Discount, InputError> {
        if percent <= Decimal::ZERO || percent > Decimal::ONE_HUNDRED {
            return Err(InputError::PercentOutOfRange {
                percent: percent.to_string(),
            });
        }
        if percent.normalize().scale() > Discount::MAX_PERCENT_PLACES {
            return Err(InputError::PercentTooPrecise {
                percent: percent.to_string(),
                max: Discount::MAX_PERCENT_PLACES,
            });
        }
        Ok(Discount {
            kind: Kind::Percent {
                percent: percent.normalize(),
                max: None,
            },
        })
    }

    /// A fixed `amount` off.
    ///
    /// # Errors
    ///
    /// [`InputError::ZeroAmount`] for zero.
    pub fn fixed(amount: Money) -> Result<Discount, InputError> {
        if amount.is_zero() {
            return Err(InputError::ZeroAmount {
                field: "discount.amount",
            });
        }
        Ok(Discount {
            kind: Kind::Fixed { amount, max: None },
        })
    }

    /// The basket's shipping off, uncapped.
    pub fn free_shipping() -> Discount {
        Discount {
            kind: Kind::FreeShipping { max: None },
        }
    }

    /// Caps the discount at `max`: a percent, a fixed amount (which then
    /// takes off the smaller of the two) or the shipping.
    ///
    /// # Errors
    ///
    /// [`InputError::ZeroAmount`] for a zero maximum.
    pub fn with_max(self, max: Money) -> Result<Discount, InputError> {
        if max.is_zero() {
            return Err(InputError::ZeroAmount { field: "discount.max" });
        }
        let kind = match self.kind {
            Kind::Percent { percent, .. } => Kind::Percent {
                percent,
                max: Some(max),
            },
            Kind::FreeShipping { .. } => Kind::FreeShipping { max: Some(max) },
            Kind::Fixed { amount, .. } => Kind::Fixed { amount, max: Some(max) },
        };
        Ok(Discount { kind })
    }

    /// Which kind it is.
    pub fn kind(&self) -> DiscountKind {
        match self.kind {
            Kind::Percent { .. } => DiscountKind::Percent,
            Kind::Fixed { .. } => DiscountKind::Fixed,
            Kind::FreeShipping { .. } => DiscountKind::FreeShipping,
        }
    }

    /// The percent of a percent discount.
    pub fn as_percent(&self) -> Option<Decimal> {
        match self.kind {
            Kind::Percent { percent, .. } => Some(percent),
            _ => None,
        }
    }

    /// The amount of a fixed discount.
    pub fn fixed_amount(&self) -> Option<&Money> {
        match &self.kind {
            Kind::Fixed { amount, .. } => Some(amount),
            _ => None,
        }
    }

    /// The discount's cap, if it has one.
    pub fn max(&self) -> Option<&Money> {
        match &self.kind {
            Kind::Percent { max, .. } | Kind::Fixed { max, .. } | Kind::FreeShipping { max } => max.as_ref(),
        }
    }
}
