//! What a code takes off: [`Discount`] and its [`DiscountKind`].

use rust_decimal::Decimal;

use super::deals::{BuyXGetY, Tier, TierBasis, Tiers};
use crate::values::{Currency, InputError, Money};

/// What a code takes off a basket.
///
/// - **percent**: a percent of the eligible lines' subtotal (the whole basket
///   total for a basket of one total), rounded half away from zero to the
///   currency's minor unit, at most `max`;
/// - **fixed**: an amount, at most the eligible subtotal;
/// - **free shipping**: the basket's shipping, at most `max`;
/// - **buy X get Y** ([`BuyXGetY`]): a percent or an amount off the given
///   units, landing on their lines, at most `max`;
/// - **tiered** ([`Tier`]): the highest tier the eligible subtotal (or units)
///   reaches applies its own percent or fixed discount.
///
/// A `Discount` that exists is valid: its fields are private and every
/// constructor checks them (a percent above 0 and at most 100, amounts above
/// zero).
///
/// Serialised as `{"kind": "percent", "percent": "10", "max": <Money>}`,
/// `{"kind": "fixed", "amount": <Money>, "max": <Money>}` or
/// `{"kind": "free_shipping", "max": <Money>}` (`max` optional: it caps any kind but
/// `tiered`, whose tiers have their own),
/// `{"kind": "buy_x_get_y", "buy": {"quantity": 2, "applies_to": ...}, "get": {"quantity": 1,
/// "percent": "100"}, "max_applications": 2, "selection": "cheapest"}` or
/// `{"kind": "tiered", "by": "subtotal", "tiers": [{"from": <Money>, "discount": <Discount>}]}`.
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
    BuyXGetY { deal: Box<BuyXGetY>, max: Option<Money> },
    Tiered(Box<Tiers>),
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
    /// Buy X get Y: units given at a percent or an amount off.
    BuyXGetY,
    /// The highest tier reached applies.
    Tiered,
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
                percent: crate::values::decimal_text(percent),
            });
        }
        if percent.normalize().scale() > Discount::MAX_PERCENT_PLACES {
            return Err(InputError::PercentTooPrecise {
                percent: crate::values::decimal_text(percent),
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

    /// Buy X get Y.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Basket, BuyCondition, BuyXGetY, Code, Currency, Discount, GetOff, Line, Money, PromoCode, Sku};
    ///
    /// // Buy 2 get 1 free: 3 mugs at 12.50, one of them free.
    /// let deal = BuyXGetY::new(BuyCondition::Quantity(2), 1, GetOff::Percent("100".parse()?))?;
    /// let promo = PromoCode::builder(Code::parse("MUG")?, Discount::buy_x_get_y(deal)).build()?;
    /// let mugs = Line::new(Sku::parse("MUG")?, 3, Money::parse("12.50", Currency::EUR)?)?;
    /// let basket = Basket::from_lines(vec![mugs], None)?;
    /// let quote = promo.price(&basket, "2026-12-02T10:00:00Z".parse()?)?;
    /// assert_eq!(quote.discount().to_string(), "EUR 12.50");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn buy_x_get_y(deal: BuyXGetY) -> Discount {
        Discount {
            kind: Kind::BuyXGetY {
                deal: Box::new(deal),
                max: None,
            },
        }
    }

    /// Tiers, by subtotal or by units: the highest tier reached applies. Its
    /// class in a stack is its tiers' ([`CodeClass::Product`](crate::CodeClass::Product)
    /// with `applies_to`, [`CodeClass::Order`](crate::CodeClass::Order) otherwise),
    /// as for a percent or a fixed code.
    ///
    /// # Errors
    ///
    /// [`InputError::TierCount`] for no tiers or more than [`Tier::MAX_TIERS`];
    /// [`InputError::TierFrom`] for a `from` that is not what `by` measures;
    /// [`InputError::TiersNotIncreasing`]; [`InputError::CurrencyMismatch`]
    /// for amounts in several currencies.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Basket, Code, Currency, Discount, Money, PromoCode, Tier, TierBasis, TierFrom};
    ///
    /// let eur = |a: &str| Money::parse(a, Currency::EUR);
    /// let tiers = vec![
    ///     Tier::new(TierFrom::Amount(eur("50.00")?), Discount::percent("10".parse()?)?)?,
    ///     Tier::new(TierFrom::Amount(eur("100.00")?), Discount::percent("15".parse()?)?)?,
    /// ];
    /// let promo = PromoCode::builder(Code::parse("MORE")?, Discount::tiered(TierBasis::Subtotal, tiers)?).build()?;
    /// let quote = promo.price(&Basket::from(eur("80.00")?), "2026-12-02T10:00:00Z".parse()?)?;
    /// assert_eq!(quote.discount().to_string(), "EUR 8.00");
    /// assert_eq!(quote.next_tier().map(|t| t.missing.to_string()), Some("EUR 20.00".to_owned()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tiered(by: TierBasis, tiers: Vec<Tier>) -> Result<Discount, InputError> {
        Ok(Discount {
            kind: Kind::Tiered(Box::new(Tiers::new(by, tiers)?)),
        })
    }

    /// Caps the discount at `max`: a percent, a fixed amount (which then
    /// takes off the smaller of the two), the shipping or buy X get Y.
    ///
    /// # Errors
    ///
    /// [`InputError::ZeroAmount`] for a zero maximum;
    /// [`InputError::Malformed`] for a tiered discount (each tier has its own).
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
            Kind::BuyXGetY { deal, .. } => Kind::BuyXGetY { deal, max: Some(max) },
            Kind::Tiered(_) => {
                return Err(InputError::Malformed {
                    path: "max".to_owned(),
                    message: "a tiered discount has no `max`; each tier may have its own".to_owned(),
                })
            }
        };
        Ok(Discount { kind })
    }

    /// Which kind it is.
    pub fn kind(&self) -> DiscountKind {
        match self.kind {
            Kind::Percent { .. } => DiscountKind::Percent,
            Kind::Fixed { .. } => DiscountKind::Fixed,
            Kind::FreeShipping { .. } => DiscountKind::FreeShipping,
            Kind::BuyXGetY { .. } => DiscountKind::BuyXGetY,
            Kind::Tiered(_) => DiscountKind::Tiered,
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
            Kind::Percent { max, .. }
            | Kind::Fixed { max, .. }
            | Kind::FreeShipping { max }
            | Kind::BuyXGetY { max, .. } => max.as_ref(),
            Kind::Tiered(_) => None,
        }
    }

    /// The deal of a buy-X-get-Y discount.
    pub fn as_buy_x_get_y(&self) -> Option<&BuyXGetY> {
        match &self.kind {
            Kind::BuyXGetY { deal, .. } => Some(deal),
            _ => None,
        }
    }

    /// What a tiered discount measures and its tiers, lowest first.
    pub fn as_tiers(&self) -> Option<(TierBasis, &[Tier])> {
        match &self.kind {
            Kind::Tiered(tiers) => Some((tiers.by, &tiers.tiers)),
            _ => None,
        }
    }

    /// The one currency of the amounts inside a buy-X-get-Y or tiered
    /// discount (checked when it was made), if any.
    pub(crate) fn inner_currency(&self) -> Option<Currency> {
        match &self.kind {
            Kind::BuyXGetY { deal, .. } => deal.currency().ok().flatten(),
            Kind::Tiered(tiers) => tiers.currency().ok().flatten(),
            _ => None,
        }
    }
}
