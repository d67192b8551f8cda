use std::collections::BTreeSet;

use crate::time::Timestamp;
use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

use crate::currency::Currency;
use crate::error::InputError;
use crate::ids::{Code, CustomerId};
use crate::money::{parse_decimal, DecimalText, Money};
use crate::rules::agreed_currency;

/// What a code takes off a basket.
///
/// A percent discount applies to a basket in any currency unless its
/// maximum (or the code's minimum) names one; a fixed discount is in one
/// currency. Either way the discount never exceeds the basket total.
///
/// Serialised as `{"kind": "percent", "percent": "10", "max": <Money>}` (`max`
/// optional) or `{"kind": "fixed", "amount": <Money>}`.
///
/// # Example
///
/// ```
/// use promocodes::{Currency, Discount, Money};
///
/// let ten = Discount::percent("10".parse()?)?;
/// let capped = Discount::percent("25".parse()?)?.with_max(Money::parse("20", Currency::EUR)?)?;
/// let five = Discount::fixed(Money::parse("5", Currency::EUR)?)?;
/// assert!(Discount::percent("0".parse()?).is_err());
/// assert!(Discount::percent("100.5".parse()?).is_err());
/// # let _ = (ten, capped, five);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Discount {
    /// A percent of the basket total, rounded to the minor unit, at most `max`.
    Percent {
        /// Above 0, at most 100.
        percent: Decimal,
        /// The most it takes off, if capped.
        max: Option<Money>,
    },
    /// A fixed amount, or the whole total when the basket is smaller.
    Fixed {
        /// Above zero.
        amount: Money,
    },
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
        Ok(Discount::Percent {
            percent: percent.normalize(),
            max: None,
        })
    }

    /// Caps a percent discount at `max`. On a fixed discount it is an error.
    ///
    /// # Errors
    ///
    /// [`InputError::ZeroAmount`] for a zero maximum; [`InputError::Malformed`]
    /// on a fixed discount, which has no maximum.
    pub fn with_max(self, max: Money) -> Result<Discount, InputError> {
        if max.is_zero() {
            return Err(InputError::ZeroAmount { field: "discount.max" });
        }
        match self {
            Discount::Percent { percent, .. } => Ok(Discount::Percent {
                percent,
                max: Some(max),
            }),
            Discount::Fixed { .. } => Err(InputError::Malformed {
                path: "discount.max".to_owned(),
                message: "a fixed discount has no maximum".to_owned(),
            }),
        }
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
        Ok(Discount::Fixed { amount })
    }
}

/// Caps on how often a code may be redeemed: overall and per customer.
///
/// Each cap is optional (none means unlimited) and at least 1.
/// Serialised as `{"total": 1000, "per_customer": 1}`, either field optional.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(try_from = "LimitsRepr")]
pub struct UsageLimits {
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    per_customer: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LimitsRepr {
    #[serde(default)]
    total: Option<u64>,
    #[serde(default)]
    per_customer: Option<u64>,
}

impl TryFrom<LimitsRepr> for UsageLimits {
    type Error = InputError;

    fn try_from(repr: LimitsRepr) -> Result<UsageLimits, InputError> {
        UsageLimits::new(repr.total, repr.per_customer)
    }
}

impl UsageLimits {
    /// No caps at all.
    pub const UNLIMITED: UsageLimits = UsageLimits {
        total: None,
        per_customer: None,
    };

    /// At most `total` redemptions overall and `per_customer` by each customer.
    ///
    /// # Errors
    ///
    /// [`InputError::ZeroLimit`] for a cap of 0.
    pub fn new(total: Option<u64>, per_customer: Option<u64>) -> Result<UsageLimits, InputError> {
        if total == Some(0) {
            return Err(InputError::ZeroLimit { field: "total" });
        }
        if per_customer == Some(0) {
            return Err(InputError::ZeroLimit { field: "per_customer" });
        }
        Ok(UsageLimits { total, per_customer })
    }

    /// The overall cap.
    pub fn total(&self) -> Option<u64> {
        self.total
    }

    /// The cap for each customer.
    pub fn per_customer(&self) -> Option<u64> {
        self.per_customer
    }
}

/// Who may redeem a code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Audience {
    /// Anyone.
    #[default]
    Public,
    /// Only these customers (never empty).
    Assigned(BTreeSet<CustomerId>),
}

impl Audience {
    /// An audience of exactly these customers.
    ///
    /// # Errors
    ///
    /// [`InputError::EmptyAudience`] when there are none.
    pub fn assigned(customers: impl IntoIterator<Item = CustomerId>) -> Result<Audience, InputError> {
        let customers: BTreeSet<CustomerId> = customers.into_iter().collect();
        if customers.is_empty() {
            return Err(InputError::EmptyAudience);
        }
        Ok(Audience::Assigned(customers))
    }

    /// Whether the code is limited to named customers.
    pub fn is_assigned(&self) -> bool {
        matches!(self, Audience::Assigned(_))
    }
}

/// A promotion code and its rules.
///
/// Built with [`PromoCode::builder`] or parsed from its JSON definition with
/// [`PromoCode::from_json`]; either way every rule about the definition
/// itself (a window that ends after it starts, one currency for all its
/// amounts) is checked once, there, and a `PromoCode` that exists is valid.
///
/// Its serde form is the definition:
///
/// ```json
/// {"code": "SAVE10",
///  "discount": {"kind": "percent", "percent": "10", "max": {"amount": "20.00", "currency": "EUR"}},
///  "limits": {"total": 1000, "per_customer": 1},
///  "starts_at": "2026-12-01T00:00:00Z", "ends_at": "2027-01-01T00:00:00Z",
///  "minimum": {"amount": "50.00", "currency": "EUR"},
///  "audience": ["alice", "bob"]}
/// ```
///
/// Only `code` and `discount` are required; no `audience` means public.
/// Unknown fields are an error.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "DefinitionRepr")]
pub struct PromoCode {
    code: Code,
    discount: Discount,
    limits: UsageLimits,
    starts_at: Option<Timestamp>,
    ends_at: Option<Timestamp>,
    minimum: Option<Money>,
    audience: Audience,
    currency: Option<Currency>,
}

/// Builds a [`PromoCode`]; [`build`](PromoCodeBuilder::build) checks the whole definition.
#[derive(Debug, Clone)]
#[must_use]
pub struct PromoCodeBuilder {
    code: Code,
    discount: Discount,
    limits: UsageLimits,
    starts_at: Option<Timestamp>,
    ends_at: Option<Timestamp>,
    minimum: Option<Money>,
    audience: Audience,
}

impl PromoCodeBuilder {
    /// Caps on redemptions (unlimited by default).
    pub fn limits(mut self, limits: UsageLimits) -> PromoCodeBuilder {
        self.limits = limits;
        self
    }

    /// The first moment the code is valid (inclusive).
    pub fn starts_at(mut self, start: Timestamp) -> PromoCodeBuilder {
        self.starts_at = Some(start);
        self
    }

    /// The first moment the code is no longer valid (exclusive).
    pub fn ends_at(mut self, end: Timestamp) -> PromoCodeBuilder {
        self.ends_at = Some(end);
        self
    }

    /// The smallest basket total the code applies to.
    pub fn minimum(mut self, minimum: Money) -> PromoCodeBuilder {
        self.minimum = Some(minimum);
        self
    }

    /// Who may redeem it (public by default).
    pub fn audience(mut self, audience: Audience) -> PromoCodeBuilder {
        self.audience = audience;
        self
    }

    /// Checks the definition as a whole and makes the code.
    ///
    /// # Errors
    ///
    /// [`InputError::EmptyWindow`] when the window does not end after it
    /// starts; [`InputError::CurrencyMismatch`] when the discount and the
    /// minimum name different currencies.
    pub fn build(self) -> Result<PromoCode, InputError> {
        if let (Some(starts_at), Some(ends_at)) = (self.starts_at, self.ends_at) {
            if ends_at <= starts_at {
                return Err(InputError::EmptyWindow { starts_at, ends_at });
            }
        }
        let currency = agreed_currency(&[
            (
                "discount.amount",
                match &self.discount {
                    Discount::Fixed { amount } => Some(amount),
                    Discount::Percent { .. } => None,
                },
            ),
            (
                "discount.max",
                match &self.discount {
                    Discount::Percent { max, .. } => max.as_ref(),
                    Discount::Fixed { .. } => None,
                },
            ),
            ("minimum", self.minimum.as_ref()),
        ])?;
        Ok(PromoCode {
            code: self.code,
            discount: self.discount,
            limits: self.limits,
            starts_at: self.starts_at,
            ends_at: self.ends_at,
            minimum: self.minimum,
            audience: self.audience,
            currency,
        })
    }
}

impl PromoCode {
    /// Starts a definition of `code` with `discount`: public, unlimited, always valid.
    pub fn builder(code: Code, discount: Discount) -> PromoCodeBuilder {
        PromoCodeBuilder {
            code,
            discount,
            limits: UsageLimits::UNLIMITED,
            starts_at: None,
            ends_at: None,
            minimum: None,
            audience: Audience::Public,
        }
    }

    /// Parses a JSON definition.
    ///
    /// # Errors
    ///
    /// [`InputError::Malformed`] naming the field for malformed JSON, a wrong
    /// type, a missing or unknown field; the other variants for values that
    /// break a rule (a percent of 0, an unknown currency, ...), with the path
    /// of the field in [`InputError::Malformed`] where serde knows it.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{InputError, PromoCode};
    ///
    /// let promo = PromoCode::from_json(r#"{
    ///     "code": "save10",
    ///     "discount": {"kind": "percent", "percent": "10"},
    ///     "limits": {"total": 1000, "per_customer": 1}
    /// }"#)?;
    /// assert_eq!(promo.code().as_str(), "SAVE10");
    ///
    /// let err = PromoCode::from_json(r#"{"code": "X", "discount": {"kind": "percent", "percent": 10}}"#)
    ///     .unwrap_err();
    /// assert!(matches!(&err, InputError::Malformed { path, .. } if path == "discount.percent"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_json(json: &str) -> Result<PromoCode, InputError> {
        crate::json::from_json(json)
    }

    /// The normalised code.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// What it takes off.
    pub fn discount(&self) -> &Discount {
        &self.discount
    }

    /// Its caps.
    pub fn limits(&self) -> UsageLimits {
        self.limits
    }

    /// When it opens (inclusive), if ever.
    pub fn starts_at(&self) -> Option<Timestamp> {
        self.starts_at
    }

    /// When it closes (exclusive), if ever.
    pub fn ends_at(&self) -> Option<Timestamp> {
        self.ends_at
    }

    /// The smallest basket it applies to.
    pub fn minimum(&self) -> Option<&Money> {
        self.minimum.as_ref()
    }

    /// Who may use it.
    pub fn audience(&self) -> &Audience {
        &self.audience
    }

    /// The one currency its amounts are in, if it has any amounts.
    /// Baskets in any other currency are refused with
    /// [`Rejection::CurrencyMismatch`](crate::Rejection::CurrencyMismatch).
    pub fn currency(&self) -> Option<Currency> {
        self.currency
    }

    /// The definition as anyone may see it: no audience's customers (they
    /// are personal data), only whether the code is assigned.
    ///
    /// Serialises as the definition without `audience`, plus `"assigned": true|false`.
    pub fn public_view(&self) -> PublicDefinition<'_> {
        PublicDefinition(self)
    }
}

/// A [`PromoCode`]'s definition with the audience's customers left out; see
/// [`PromoCode::public_view`].
#[derive(Debug, Clone, Copy)]
pub struct PublicDefinition<'a>(&'a PromoCode);

impl Serialize for PromoCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_definition(self, true, serializer)
    }
}

impl Serialize for PublicDefinition<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_definition(self.0, false, serializer)
    }
}

fn serialize_definition<S: Serializer>(
    promo: &PromoCode,
    with_audience: bool,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut s = serializer.serialize_struct("PromoCode", 8)?;
    s.serialize_field("code", &promo.code)?;
    s.serialize_field("discount", &DiscountRepr::from(&promo.discount))?;
    if promo.limits != UsageLimits::UNLIMITED {
        s.serialize_field("limits", &promo.limits)?;
    }
    if let Some(starts_at) = &promo.starts_at {
        s.serialize_field("starts_at", starts_at)?;
    }
    if let Some(ends_at) = &promo.ends_at {
        s.serialize_field("ends_at", ends_at)?;
    }
    if let Some(minimum) = &promo.minimum {
        s.serialize_field("minimum", minimum)?;
    }
    match (&promo.audience, with_audience) {
        (Audience::Assigned(customers), true) => s.serialize_field("audience", customers)?,
        (audience, false) => s.serialize_field("assigned", &audience.is_assigned())?,
        (Audience::Public, true) => {}
    }
    s.end()
}

/// The serialised form of a discount.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum DiscountRepr {
    Percent {
        percent: PercentText,
        #[serde(skip_serializing_if = "Option::is_none")]
        max: Option<Money>,
    },
    Fixed {
        amount: Money,
    },
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum DiscountKind {
    Percent,
    Fixed,
}

/// A discount as read: flat rather than an internally tagged enum, so that
/// an error in any field keeps its path (`discount.percent`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DiscountFields {
    kind: DiscountKind,
    #[serde(default)]
    percent: Option<PercentText>,
    #[serde(default)]
    max: Option<Money>,
    #[serde(default)]
    amount: Option<Money>,
}

/// A percent as a JSON string: `"10"`, `"12.5"`.
struct PercentText(Decimal);

impl Serialize for PercentText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0.normalize().to_string())
    }
}

impl<'de> Deserialize<'de> for PercentText {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<PercentText, D::Error> {
        let text = DecimalText::deserialize(deserializer)?;
        let value = parse_decimal("percent", &text.0).map_err(|err| match err {
            InputError::NegativeAmount { amount } => InputError::PercentOutOfRange { percent: amount },
            other => other,
        });
        let value = value.and_then(|v| Discount::percent(v).map(|_| v));
        value.map(PercentText).map_err(serde::de::Error::custom)
    }
}

impl From<&Discount> for DiscountRepr {
    fn from(discount: &Discount) -> DiscountRepr {
        match discount {
            Discount::Percent { percent, max } => DiscountRepr::Percent {
                percent: PercentText(*percent),
                max: *max,
            },
            Discount::Fixed { amount } => DiscountRepr::Fixed { amount: *amount },
        }
    }
}

impl TryFrom<DiscountFields> for Discount {
    type Error = String;

    fn try_from(fields: DiscountFields) -> Result<Discount, String> {
        match (fields.kind, fields.percent, fields.max, fields.amount) {
            (DiscountKind::Percent, Some(percent), max, None) => {
                let discount = Discount::percent(percent.0).map_err(|e| e.to_string())?;
                match max {
                    Some(max) => discount.with_max(max).map_err(|e| e.to_string()),
                    None => Ok(discount),
                }
            }
            (DiscountKind::Percent, None, _, _) => Err("missing field `percent`".to_owned()),
            (DiscountKind::Percent, Some(_), _, Some(_)) => {
                Err("a percent discount has no `amount`; did you mean `max`?".to_owned())
            }
            (DiscountKind::Fixed, None, None, Some(amount)) => Discount::fixed(amount).map_err(|e| e.to_string()),
            (DiscountKind::Fixed, _, _, None) => Err("missing field `amount`".to_owned()),
            (DiscountKind::Fixed, _, _, Some(_)) => Err("a fixed discount has only `kind` and `amount`".to_owned()),
        }
    }
}

impl Serialize for Discount {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        DiscountRepr::from(self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Discount {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Discount, D::Error> {
        let fields = DiscountFields::deserialize(deserializer)?;
        Discount::try_from(fields).map_err(serde::de::Error::custom)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DefinitionRepr {
    code: Code,
    discount: Discount,
    #[serde(default)]
    limits: Option<UsageLimits>,
    #[serde(default)]
    starts_at: Option<Timestamp>,
    #[serde(default)]
    ends_at: Option<Timestamp>,
    #[serde(default)]
    minimum: Option<Money>,
    #[serde(default)]
    audience: Option<Vec<CustomerId>>,
}

impl TryFrom<DefinitionRepr> for PromoCode {
    type Error = InputError;

    fn try_from(repr: DefinitionRepr) -> Result<PromoCode, InputError> {
        let mut builder = PromoCode::builder(repr.code, repr.discount)
            .limits(repr.limits.unwrap_or_default())
            .audience(match repr.audience {
                None => Audience::Public,
                Some(customers) => Audience::assigned(customers)?,
            });
        if let Some(start) = repr.starts_at {
            builder = builder.starts_at(start);
        }
        if let Some(end) = repr.ends_at {
            builder = builder.ends_at(end);
        }
        if let Some(minimum) = repr.minimum {
            builder = builder.minimum(minimum);
        }
        builder.build()
    }
}
