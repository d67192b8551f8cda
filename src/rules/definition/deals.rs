//! The two discounts that look at the basket's units and size: buy X get Y
//! ([`BuyXGetY`]) and tiers ([`Tier`], [`TierBasis`]).

use rust_decimal::Decimal;

use super::discount::{Discount, DiscountKind};
use super::limits::AppliesTo;
use crate::values::{agreed_currency, Currency, InputError, Money};

/// What a buyer must buy for each application of a [`BuyXGetY`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuyCondition {
    /// So many units (1 to [`BuyXGetY::MAX_QUANTITY`]).
    Quantity(u32),
    /// At least this much spent on the buy lines (on units not given).
    Amount(Money),
}

/// What a [`BuyXGetY`] takes off each given unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GetOff {
    /// A percent of the unit's price (above 0, at most 100: 100 is free).
    Percent(Decimal),
    /// An amount off each unit, never more than the unit's price.
    Amount(Money),
}

/// Which eligible units a [`BuyXGetY`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Selection {
    /// The cheapest units that leave enough to buy (the default).
    #[default]
    Cheapest,
    /// The most expensive units that leave enough to buy.
    MostExpensive,
}

impl Selection {
    /// Its JSON name: `cheapest` or `most_expensive`.
    pub fn as_str(self) -> &'static str {
        match self {
            Selection::Cheapest => "cheapest",
            Selection::MostExpensive => "most_expensive",
        }
    }
}

/// Buy X get Y: for each X units bought (or each amount spent), Y units
/// given at a percent or an amount off.
///
/// Units count once: a unit bought toward X is never also a unit given. The
/// number of applications is the largest `n` (at most `max_applications`)
/// for which `n` times X bought units (or `n` times the amount, spent on units
/// not given) and `n` times Y given units can be drawn from the basket without
/// sharing a unit; the given units are the cheapest (or most expensive)
/// eligible ones that leave enough to buy. The result never depends on the
/// order of the lines.
///
/// # Example
///
/// ```
/// use promocodes::{AppliesTo, BuyCondition, BuyXGetY, Category, GetOff, Selection};
///
/// let mugs = AppliesTo::new([], [Category::parse("mugs")?])?;
/// let deal = BuyXGetY::new(BuyCondition::Quantity(2), 1, GetOff::Percent("100".parse()?))?
///     .buy_applies_to(mugs.clone())
///     .get_applies_to(mugs)
///     .max_applications(2)?
///     .selection(Selection::Cheapest);
/// assert_eq!(deal.get_quantity(), 1);
/// assert!(BuyXGetY::new(BuyCondition::Quantity(0), 1, GetOff::Percent("100".parse()?)).is_err());
/// assert!(BuyXGetY::new(BuyCondition::Quantity(2), 1, GetOff::Percent("0".parse()?)).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuyXGetY {
    buy: BuyCondition,
    buy_scope: Option<AppliesTo>,
    get_quantity: u32,
    get_scope: Option<AppliesTo>,
    off: GetOff,
    max_applications: Option<u32>,
    selection: Selection,
}

/// `quantity` unless it is 1 to `max`.
pub(crate) fn check_count(field: &'static str, quantity: u64, max: u64) -> Result<u32, InputError> {
    u32::try_from(quantity)
        .ok()
        .filter(|q| (1..=max).contains(&u64::from(*q)))
        .ok_or(InputError::CountOutOfRange {
            field,
            count: quantity.to_string(),
            max,
        })
}

impl BuyXGetY {
    /// The most units a buy or a get may name.
    pub const MAX_QUANTITY: u32 = 1_000;

    /// Buy `buy`, get `get_quantity` units at `off`, as often as the basket
    /// holds, the cheapest units given, every line eligible.
    ///
    /// # Errors
    ///
    /// [`InputError::CountOutOfRange`] for a quantity of 0 or above
    /// [`BuyXGetY::MAX_QUANTITY`]; [`InputError::ZeroAmount`] for a zero
    /// amount; [`InputError::PercentOutOfRange`] unless `0 < percent <= 100`;
    /// [`InputError::CurrencyMismatch`] when the two amounts differ in currency.
    pub fn new(buy: BuyCondition, get_quantity: u32, off: GetOff) -> Result<BuyXGetY, InputError> {
        let max = u64::from(BuyXGetY::MAX_QUANTITY);
        match buy {
            BuyCondition::Quantity(q) => {
                check_count("quantity", u64::from(q), max)?;
            }
            BuyCondition::Amount(a) if a.is_zero() => {
                return Err(InputError::ZeroAmount {
                    field: "discount.buy.amount",
                })
            }
            BuyCondition::Amount(_) => {}
        }
        check_count("quantity", u64::from(get_quantity), max)?;
        match off {
            GetOff::Percent(p) => {
                Discount::percent(p)?;
            }
            GetOff::Amount(a) if a.is_zero() => {
                return Err(InputError::ZeroAmount {
                    field: "discount.get.amount",
                })
            }
            GetOff::Amount(_) => {}
        }
        let deal = BuyXGetY {
            buy,
            buy_scope: None,
            get_quantity,
            get_scope: None,
            off: match off {
                GetOff::Percent(p) => GetOff::Percent(p.normalize()),
                other => other,
            },
            max_applications: None,
            selection: Selection::Cheapest,
        };
        deal.currency()?;
        Ok(deal)
    }

    /// Counts only these lines toward the buy (every line by default).
    pub fn buy_applies_to(mut self, scope: AppliesTo) -> BuyXGetY {
        self.buy_scope = Some(scope);
        self
    }

    /// Gives only these lines' units (the buy's lines by default).
    pub fn get_applies_to(mut self, scope: AppliesTo) -> BuyXGetY {
        self.get_scope = Some(scope);
        self
    }

    /// Applies at most `n` times (as often as the basket holds by default).
    ///
    /// # Errors
    ///
    /// [`InputError::CountOutOfRange`] for 0.
    pub fn max_applications(mut self, n: u32) -> Result<BuyXGetY, InputError> {
        check_count("max_applications", u64::from(n), u64::from(u32::MAX))?;
        self.max_applications = Some(n);
        Ok(self)
    }

    /// Which units are given (the cheapest by default).
    pub fn selection(mut self, selection: Selection) -> BuyXGetY {
        self.selection = selection;
        self
    }

    /// What must be bought for each application.
    pub fn buy(&self) -> BuyCondition {
        self.buy
    }

    /// The amount to spend for each application, when the buy is an amount.
    pub fn buy_amount(&self) -> Option<&Money> {
        match &self.buy {
            BuyCondition::Amount(amount) => Some(amount),
            BuyCondition::Quantity(_) => None,
        }
    }

    /// The amount off each given unit, when the get is an amount.
    pub fn get_amount(&self) -> Option<&Money> {
        match &self.off {
            GetOff::Amount(amount) => Some(amount),
            GetOff::Percent(_) => None,
        }
    }

    /// The lines that count toward the buy (`None`: every line).
    pub fn buy_scope(&self) -> Option<&AppliesTo> {
        self.buy_scope.as_ref()
    }

    /// How many units each application gives.
    pub fn get_quantity(&self) -> u32 {
        self.get_quantity
    }

    /// The lines whose units may be given as written (`None`: the buy's).
    pub fn get_scope_written(&self) -> Option<&AppliesTo> {
        self.get_scope.as_ref()
    }

    /// The lines whose units may be given (the buy's when not given).
    pub fn get_scope(&self) -> Option<&AppliesTo> {
        self.get_scope.as_ref().or(self.buy_scope.as_ref())
    }

    /// What comes off each given unit.
    pub fn off(&self) -> GetOff {
        self.off
    }

    /// The most applications, if capped.
    pub fn max_applications_cap(&self) -> Option<u32> {
        self.max_applications
    }

    /// Which units are given.
    pub fn selection_rule(&self) -> Selection {
        self.selection
    }

    /// The one currency of its amounts, if it has any.
    pub(crate) fn currency(&self) -> Result<Option<Currency>, InputError> {
        let buy = match &self.buy {
            BuyCondition::Amount(a) => Some(a),
            BuyCondition::Quantity(_) => None,
        };
        let get = match &self.off {
            GetOff::Amount(a) => Some(a),
            GetOff::Percent(_) => None,
        };
        agreed_currency(&[("discount.buy.amount", buy), ("discount.get.amount", get)])
    }
}

/// What a tiered discount measures: the eligible subtotal or units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TierBasis {
    /// The eligible lines' subtotal (the total, for a basket of one total); `from` is money.
    Subtotal,
    /// The eligible lines' units; `from` is a count.
    Quantity,
}

impl TierBasis {
    /// Its JSON name: `subtotal` or `quantity`.
    pub fn as_str(self) -> &'static str {
        match self {
            TierBasis::Subtotal => "subtotal",
            TierBasis::Quantity => "quantity",
        }
    }
}

/// Where a tier starts: an amount of money or a count of units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierFrom {
    /// A subtotal tier's start.
    Amount(Money),
    /// A quantity tier's start.
    Quantity(u32),
}

impl std::fmt::Display for TierFrom {
    /// `EUR 20.00`, or a count: `3`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TierFrom::Amount(money) => money.fmt(f),
            TierFrom::Quantity(n) => n.fmt(f),
        }
    }
}

impl serde::Serialize for TierFrom {
    /// A money object, or a whole number.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            TierFrom::Amount(money) => money.serialize(serializer),
            TierFrom::Quantity(n) => serializer.serialize_u32(*n),
        }
    }
}

impl TierFrom {
    fn below(&self, other: &TierFrom) -> bool {
        match (self, other) {
            (TierFrom::Amount(a), TierFrom::Amount(b)) => a.partial_cmp_same(b).is_some_and(|o| o.is_lt()),
            (TierFrom::Quantity(a), TierFrom::Quantity(b)) => a < b,
            _ => false,
        }
    }
}

/// One tier of a tiered discount: where it starts and what it takes off
/// (a percent or a fixed amount, with an optional `max`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tier {
    from: TierFrom,
    discount: Discount,
}

impl Tier {
    /// The most tiers a discount may have.
    pub const MAX_TIERS: usize = 10;
    /// The largest quantity a tier may start from.
    pub const MAX_QUANTITY: u32 = 1_000_000;

    /// A tier from `from` taking `discount` off.
    ///
    /// # Errors
    ///
    /// [`InputError::TierDiscount`] unless `discount` is a percent or fixed
    /// one; [`InputError::CountOutOfRange`] for a quantity of 0 or above
    /// [`Tier::MAX_QUANTITY`].
    pub fn new(from: TierFrom, discount: Discount) -> Result<Tier, InputError> {
        if !matches!(discount.kind(), DiscountKind::Percent | DiscountKind::Fixed) {
            return Err(InputError::TierDiscount);
        }
        if let TierFrom::Quantity(q) = from {
            check_count("from", u64::from(q), u64::from(Tier::MAX_QUANTITY))?;
        }
        Ok(Tier { from, discount })
    }

    /// Where it starts.
    pub fn from(&self) -> &TierFrom {
        &self.from
    }

    /// What it takes off.
    pub fn discount(&self) -> &Discount {
        &self.discount
    }
}

/// A tiered discount's basis and tiers, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tiers {
    pub(crate) by: TierBasis,
    pub(crate) tiers: Vec<Tier>,
}

impl Tiers {
    pub(crate) fn new(by: TierBasis, tiers: Vec<Tier>) -> Result<Tiers, InputError> {
        if tiers.is_empty() || tiers.len() > Tier::MAX_TIERS {
            return Err(InputError::TierCount { count: tiers.len() });
        }
        let tiers = Tiers { by, tiers };
        tiers.currency()?;
        let Tiers { by, tiers } = tiers;
        for (index, tier) in tiers.iter().enumerate() {
            let fits = matches!(
                (by, tier.from),
                (TierBasis::Subtotal, TierFrom::Amount(_)) | (TierBasis::Quantity, TierFrom::Quantity(_))
            );
            if !fits {
                return Err(InputError::TierFrom { index, by: by.as_str() });
            }
            if index > 0 && !tiers[index - 1].from.below(&tier.from) {
                return Err(InputError::TiersNotIncreasing { index });
            }
        }
        Ok(Tiers { by, tiers })
    }

    /// The one currency of every tier's amounts, if any.
    pub(crate) fn currency(&self) -> Result<Option<Currency>, InputError> {
        let mut amounts: Vec<(&'static str, Option<&Money>)> = Vec::new();
        for tier in &self.tiers {
            if let TierFrom::Amount(from) = &tier.from {
                amounts.push(("discount.tiers.from", Some(from)));
            }
            amounts.push(("discount.tiers.discount.amount", tier.discount.fixed_amount()));
            amounts.push(("discount.tiers.discount.max", tier.discount.max()));
        }
        agreed_currency(&amounts)
    }
}
