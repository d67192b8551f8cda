//! The wire: how the core's values are read from JSON. Each value with rules
//! of its own is read into a `*Repr` of its fields and finished by the core's
//! own constructor, so that serde and the browser module's reader
//! ([`super::reader`]) refuse exactly the same input, with the same errors.
//! Nothing here is visible outside the JSON layer.

use std::fmt;

use rust_decimal::Decimal;
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use super::{invalid, Refused};
use crate::rules::{check_categories, check_quantity, AppliesTo, Audience, Basket, BudgetShort, Discount, Line};
use crate::rules::{CodeClass, CodeClasses, PromoCode, Quote, QuoteLine, QuoteShipping, UsageCounts, UsageLimits};
use crate::rules::{NextTier, TierReached};
use crate::values::Timestamp;
use crate::values::{parse_decimal, Category, Code, Currency, CustomerId, IdempotencyKey, InputError, Money, Sku};

mod deals;

#[cfg(any(test, all(target_arch = "wasm32", feature = "wasm")))]
pub(super) use deals::{from_count, FROM_EXPECTING};
pub(super) use deals::{BuyRepr, GetRepr, TierRepr};

/// `Deserialize` for a value read from a JSON string by its parser.
macro_rules! from_string {
    ($name:ty, $parse:path) => {
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                struct StrVisitor;

                impl Visitor<'_> for StrVisitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(<$name>::EXPECTING)
                    }

                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$name, E> {
                        $parse(v).map_err(|err| invalid("", err))
                    }
                }

                deserializer.deserialize_str(StrVisitor)
            }
        }
    };
}

from_string!(Code, Code::parse);
from_string!(CustomerId, CustomerId::parse);
from_string!(IdempotencyKey, IdempotencyKey::parse);
from_string!(Sku, Sku::parse);
from_string!(Category, Category::parse);
from_string!(Timestamp, Timestamp::parse);
from_string!(Currency, Currency::from_code);

// Money.

/// A decimal that arrives as a JSON string; a JSON number is refused.
pub(super) struct DecimalText(pub(super) String);

impl DecimalText {
    /// What a reader expects here, for its "invalid type" message.
    pub(super) const EXPECTING: &'static str = "a decimal number written as a string, such as \"12.50\"";
}

impl<'de> Deserialize<'de> for DecimalText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<DecimalText, D::Error> {
        struct TextVisitor;

        impl Visitor<'_> for TextVisitor {
            type Value = DecimalText;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(DecimalText::EXPECTING)
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<DecimalText, E> {
                Ok(DecimalText(v.to_owned()))
            }
        }

        deserializer.deserialize_str(TextVisitor)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MoneyRepr {
    pub(super) amount: DecimalText,
    pub(super) currency: Currency,
}

impl MoneyRepr {
    /// The money its fields make, or why not.
    pub(super) fn finish(self) -> Result<Money, Refused> {
        Money::parse(&self.amount.0, self.currency).map_err(|err| Refused::at("amount", err))
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Money, D::Error> {
        MoneyRepr::deserialize(deserializer)?
            .finish()
            .map_err(Refused::into_serde)
    }
}

// Usage.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct UsageRepr {
    pub(super) total: u64,
    pub(super) per_customer: u64,
    #[serde(default)]
    pub(super) discounted: Option<Discounted>,
    /// A campaign's code's own uses (as a store writes a reservation's counts).
    #[serde(default)]
    pub(super) per_code: Option<u64>,
}

/// A usage's `discounted`: a decimal string (`"8.00"`, as a store writes it),
/// or a money object (as the Worker's `usage` shows it); the currency is the
/// code's and is not kept.
pub(super) enum Discounted {
    /// `"8.00"`.
    Text(DecimalText),
    /// `{"amount": "8.00", "currency": "EUR"}`.
    Money(Money),
}

impl Discounted {
    /// What a reader expects here, for its "invalid type" message.
    pub(super) const EXPECTING: &'static str =
        "a decimal number written as a string, such as \"12.50\", or a money object";

    /// The amount, or why not.
    fn amount(self) -> Result<Decimal, InputError> {
        match self {
            Discounted::Text(text) => parse_decimal("discounted", &text.0),
            Discounted::Money(money) => Ok(money.amount()),
        }
    }
}

impl<'de> Deserialize<'de> for Discounted {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Discounted, D::Error> {
        struct DiscountedVisitor;

        impl<'de> Visitor<'de> for DiscountedVisitor {
            type Value = Discounted;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(Discounted::EXPECTING)
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Discounted, E> {
                Ok(Discounted::Text(DecimalText(v.to_owned())))
            }

            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Discounted, A::Error> {
                Money::deserialize(de::value::MapAccessDeserializer::new(map)).map(Discounted::Money)
            }
        }

        deserializer.deserialize_any(DiscountedVisitor)
    }
}

impl UsageRepr {
    /// The counts its fields make, or why not (serde's `try_from` error: a message).
    pub(super) fn finish(self) -> Result<UsageCounts, Refused> {
        let mut counts =
            UsageCounts::new(self.total, self.per_customer).map_err(|err| Refused::Message(err.to_string()))?;
        if let Some(uses) = self.per_code {
            counts = counts
                .with_code_uses(uses)
                .map_err(|err| Refused::Message(err.to_string()))?;
        }
        match self.discounted {
            None => Ok(counts),
            Some(discounted) => discounted
                .amount()
                .and_then(|amount| counts.with_discounted(amount))
                .map_err(|err| Refused::at("discounted", err)),
        }
    }
}

impl<'de> Deserialize<'de> for UsageCounts {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<UsageCounts, D::Error> {
        UsageRepr::deserialize(deserializer)?
            .finish()
            .map_err(Refused::into_serde)
    }
}

// Quotes.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuoteRepr {
    code: Code,
    total: Money,
    discount: Money,
    payable: Money,
    quoted_at: Timestamp,
    #[serde(default)]
    lines: Option<Vec<QuoteLine>>,
    #[serde(default)]
    shipping: Option<QuoteShipping>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    budget_clipped: bool,
    #[serde(default)]
    desired: Option<Money>,
    #[serde(default)]
    tier: Option<TierReached>,
    #[serde(default)]
    next_tier: Option<NextTier>,
}

impl<'de> Deserialize<'de> for Quote {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Quote, D::Error> {
        let r = QuoteRepr::deserialize(deserializer)?;
        Quote::from_parts(
            r.code,
            r.total,
            r.discount,
            r.payable,
            r.quoted_at,
            r.lines,
            r.shipping,
            r.note,
            r.desired,
            (r.tier, r.next_tier),
        )
        .and_then(|quote| match quote.budget_clipped() == r.budget_clipped {
            true => Ok(quote),
            false => Err(InputError::Malformed {
                path: ".".to_owned(),
                message: "budget_clipped is true exactly when the quote has a desired discount".to_owned(),
            }),
        })
        .map_err(de::Error::custom)
    }
}

// Baskets.

/// A quantity as read: a JSON integer from 1 to 10,000.
pub(super) struct Quantity(pub(super) u32);

impl Quantity {
    /// What a reader expects in place of a quantity, for its "invalid type" message.
    pub(super) fn expecting(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a whole number from 1 to {}", Basket::MAX_QUANTITY)
    }

    /// A quantity read as a JSON integer (`from_u64`) ...
    pub(super) fn from_u64(v: u64) -> Result<Quantity, InputError> {
        check_quantity(v).map(Quantity)
    }

    /// ... or as a negative one.
    pub(super) fn from_i64(v: i64) -> Result<Quantity, InputError> {
        match u64::try_from(v) {
            Ok(v) => Quantity::from_u64(v),
            Err(_) => Err(InputError::QuantityOutOfRange {
                quantity: v.to_string(),
                max: Basket::MAX_QUANTITY,
            }),
        }
    }
}

impl<'de> Deserialize<'de> for Quantity {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Quantity, D::Error> {
        struct QuantityVisitor;

        impl Visitor<'_> for QuantityVisitor {
            type Value = Quantity;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                Quantity::expecting(f)
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Quantity, E> {
                Quantity::from_u64(v).map_err(|err| invalid("", err))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Quantity, E> {
                Quantity::from_i64(v).map_err(|err| invalid("", err))
            }
        }

        deserializer.deserialize_u64(QuantityVisitor)
    }
}

/// A line's categories as read: at most [`Basket::MAX_CATEGORIES`].
pub(super) struct Categories(pub(super) Vec<Category>);

impl Categories {
    /// The categories of a line, or why not.
    pub(super) fn finish(categories: Vec<Category>) -> Result<Categories, Refused> {
        check_categories(categories.len()).map_err(|err| Refused::at("", err))?;
        Ok(Categories(categories))
    }
}

impl<'de> Deserialize<'de> for Categories {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Categories, D::Error> {
        Categories::finish(Vec::<Category>::deserialize(deserializer)?).map_err(Refused::into_serde)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LineRepr {
    pub(super) sku: Sku,
    pub(super) quantity: Quantity,
    pub(super) unit_price: Money,
    #[serde(default)]
    pub(super) categories: Option<Categories>,
}

impl LineRepr {
    /// The line; its fields were checked as they were read, but the amount may overflow.
    pub(super) fn into_line(self) -> Result<Line, InputError> {
        let line = Line::new(self.sku, self.quantity.0, self.unit_price)?;
        match self.categories {
            Some(categories) => line.with_categories(categories.0),
            None => Ok(line),
        }
    }
}

/// Lines as read, each turned into a [`Line`] with its index in the path of an error.
pub(super) fn into_lines(lines: Vec<LineRepr>) -> Result<Vec<Line>, InputError> {
    lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| line.into_line().map_err(|err| err.at(&format!("lines[{i}]"))))
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BasketRepr {
    #[serde(default)]
    pub(super) total: Option<Money>,
    #[serde(default)]
    pub(super) lines: Option<Vec<LineRepr>>,
    #[serde(default)]
    pub(super) shipping: Option<Money>,
}

impl BasketRepr {
    /// The basket its fields make, or why not.
    pub(super) fn finish(self) -> Result<Basket, Refused> {
        let lines = self.lines.map(into_lines).transpose();
        lines
            .and_then(|lines| Basket::from_parts(self.total, lines, self.shipping))
            .map_err(|err| match err {
                InputError::Field { path, error } => Refused::Invalid(path, *error),
                other => Refused::at("", other),
            })
    }
}

impl<'de> Deserialize<'de> for Basket {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Basket, D::Error> {
        BasketRepr::deserialize(deserializer)?
            .finish()
            .map_err(Refused::into_serde)
    }
}

// Definitions.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LimitsRepr {
    #[serde(default)]
    pub(super) total: Option<u64>,
    #[serde(default)]
    pub(super) per_customer: Option<u64>,
    #[serde(default)]
    pub(super) budget: Option<Money>,
    #[serde(default)]
    pub(super) when_budget_short: Option<String>,
}

impl LimitsRepr {
    /// The limits its fields make, or why not.
    pub(super) fn finish(self) -> Result<UsageLimits, Refused> {
        let limits = UsageLimits::new(self.total, self.per_customer).map_err(|err| {
            let field = match &err {
                InputError::ZeroLimit { field } => *field,
                _ => "",
            };
            Refused::at(field, err)
        })?;
        let when_short = match &self.when_budget_short {
            None => BudgetShort::default(),
            Some(text) => BudgetShort::parse(text).map_err(|err| Refused::at("when_budget_short", err))?,
        };
        match self.budget {
            Some(budget) => limits
                .with_budget(budget, when_short)
                .map_err(|err| Refused::at("budget", err)),
            None if self.when_budget_short.is_some() => Err(Refused::Message(
                "limits.when_budget_short needs a limits.budget".to_owned(),
            )),
            None => Ok(limits),
        }
    }
}

impl<'de> Deserialize<'de> for UsageLimits {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<UsageLimits, D::Error> {
        LimitsRepr::deserialize(deserializer)?
            .finish()
            .map_err(Refused::into_serde)
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub(super) enum KindText {
    Percent,
    Fixed,
    FreeShipping,
    BuyXGetY,
    Tiered,
}

/// A discount as read: flat rather than an internally tagged enum, so that
/// an error in any field keeps its path (`discount.percent`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DiscountFields {
    pub(super) kind: KindText,
    #[serde(default)]
    pub(super) percent: Option<PercentText>,
    #[serde(default)]
    pub(super) max: Option<Money>,
    #[serde(default)]
    pub(super) amount: Option<Money>,
    #[serde(default)]
    pub(super) buy: Option<BuyRepr>,
    #[serde(default)]
    pub(super) get: Option<GetRepr>,
    #[serde(default)]
    pub(super) max_applications: Option<u64>,
    #[serde(default)]
    pub(super) selection: Option<String>,
    #[serde(default)]
    pub(super) by: Option<String>,
    #[serde(default)]
    pub(super) tiers: Option<Vec<TierRepr>>,
}

/// A percent as a JSON string: `"10"`, `"12.5"`.
pub(super) struct PercentText(pub(super) Decimal);

impl PercentText {
    /// The percent written `text`, or why not.
    pub(super) fn from_text(text: &str) -> Result<PercentText, InputError> {
        let value = parse_decimal("percent", text).map_err(|err| match err {
            InputError::NegativeAmount { amount } | InputError::SignedZero { amount } => {
                InputError::PercentOutOfRange { percent: amount }
            }
            other => other,
        });
        value.and_then(|v| Discount::percent(v).map(|_| PercentText(v)))
    }
}

impl<'de> Deserialize<'de> for PercentText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PercentText, D::Error> {
        let text = DecimalText::deserialize(deserializer)?;
        PercentText::from_text(&text.0).map_err(|err| invalid("", err))
    }
}

impl DiscountFields {
    /// The discount, or the field that is wrong and why.
    fn into_discount(self) -> Result<Discount, (&'static str, String)> {
        let stray = |field: &'static str, kind: &str| (field, format!("a {kind} discount has no `{field}`"));
        let with_max = |discount: Discount, max: Option<Money>| match max {
            None => Ok(discount),
            Some(max) => discount.with_max(max).map_err(|e| ("max", e.to_string())),
        };
        match self.kind {
            KindText::Percent => {
                if self.amount.is_some() {
                    return Err((
                        "amount",
                        "a percent discount has no `amount`; did you mean `max`?".to_owned(),
                    ));
                }
                let percent = self.percent.ok_or((".", "missing field `percent`".to_owned()))?;
                let discount = Discount::percent(percent.0).map_err(|e| ("percent", e.to_string()))?;
                with_max(discount, self.max)
            }
            KindText::Fixed => {
                if self.percent.is_some() {
                    return Err(stray("percent", "fixed"));
                }
                let amount = self.amount.ok_or((".", "missing field `amount`".to_owned()))?;
                with_max(
                    Discount::fixed(amount).map_err(|e| ("amount", e.to_string()))?,
                    self.max,
                )
            }
            KindText::FreeShipping => {
                if self.percent.is_some() {
                    return Err(stray("percent", "free_shipping"));
                }
                if self.amount.is_some() {
                    return Err(stray("amount", "free_shipping"));
                }
                with_max(Discount::free_shipping(), self.max)
            }
            // Read by `finish` before this.
            KindText::BuyXGetY | KindText::Tiered => Err((".", "unreachable".to_owned())),
        }
    }
}

impl DiscountFields {
    /// The discount its fields make, or why not.
    pub(super) fn finish(self) -> Result<Discount, Refused> {
        let kind = match self.kind {
            KindText::BuyXGetY => return self.buy_x_get_y(),
            KindText::Tiered => return self.tiered(),
            KindText::Percent => "percent",
            KindText::Fixed => "fixed",
            KindText::FreeShipping => "free_shipping",
        };
        if let Some((field, _)) = self.deal_fields().into_iter().find(|(_, present)| *present) {
            return Err(Refused::at(
                field,
                InputError::Malformed {
                    path: ".".to_owned(),
                    message: format!("a {kind} discount has no `{field}`"),
                },
            ));
        }
        // A zero amount is refused as zero only where the kind takes an amount: elsewhere the
        // amount is refused for being there at all, whatever its value.
        let amount_zero = matches!(self.kind, KindText::Fixed) && self.amount.is_some_and(|a| a.is_zero());
        let max_zero = self.max.is_some_and(|m| m.is_zero());
        self.into_discount().map_err(|(field, message)| match field {
            "amount" if amount_zero => Refused::at(
                "amount",
                InputError::ZeroAmount {
                    field: "discount.amount",
                },
            ),
            "max" if max_zero => Refused::at("max", InputError::ZeroAmount { field: "discount.max" }),
            "." => Refused::Message(message),
            field => Refused::at(
                field,
                InputError::Malformed {
                    path: ".".to_owned(),
                    message,
                },
            ),
        })
    }
}

impl<'de> Deserialize<'de> for Discount {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Discount, D::Error> {
        DiscountFields::deserialize(deserializer)?
            .finish()
            .map_err(Refused::into_serde)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ScopeRepr {
    #[serde(default)]
    pub(super) skus: Vec<Sku>,
    #[serde(default)]
    pub(super) categories: Vec<Category>,
}

impl ScopeRepr {
    /// The scope its fields make, or why not.
    pub(super) fn finish(self) -> Result<AppliesTo, Refused> {
        AppliesTo::new(self.skus, self.categories).map_err(|err| {
            let field = match &err {
                InputError::TooMany { field, .. } => field.strip_prefix("applies_to.").unwrap_or(field),
                _ => "",
            };
            Refused::at(field, err)
        })
    }
}

impl<'de> Deserialize<'de> for AppliesTo {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<AppliesTo, D::Error> {
        ScopeRepr::deserialize(deserializer)?
            .finish()
            .map_err(Refused::into_serde)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DefinitionRepr {
    pub(super) code: Code,
    #[serde(default)]
    pub(super) active: Option<bool>,
    pub(super) discount: Discount,
    #[serde(default)]
    pub(super) applies_to: Option<AppliesTo>,
    #[serde(default)]
    pub(super) limits: Option<UsageLimits>,
    #[serde(default)]
    pub(super) starts_at: Option<Timestamp>,
    #[serde(default)]
    pub(super) ends_at: Option<Timestamp>,
    #[serde(default)]
    pub(super) minimum: Option<Money>,
    #[serde(default)]
    pub(super) audience: Option<Vec<CustomerId>>,
    #[serde(default)]
    pub(super) combines_with: Option<Vec<String>>,
    #[serde(default)]
    pub(super) first_order: Option<bool>,
    #[serde(default)]
    pub(super) automatic: Option<bool>,
    #[serde(default)]
    pub(super) priority: Option<u64>,
    #[serde(default)]
    pub(super) shards: Option<u64>,
}

impl DefinitionRepr {
    fn build(self) -> Result<PromoCode, InputError> {
        let audience = match self.audience {
            None => Audience::public(),
            Some(customers) => Audience::assigned(customers)?,
        };
        let mut builder = PromoCode::builder(self.code, self.discount)
            .active(self.active.unwrap_or(true))
            .first_order(self.first_order.unwrap_or(false))
            .limits(self.limits.unwrap_or_default())
            .audience(audience);
        if let Some(scope) = self.applies_to {
            builder = builder.applies_to(scope);
        }
        if let Some(start) = self.starts_at {
            builder = builder.starts_at(start);
        }
        if let Some(end) = self.ends_at {
            builder = builder.ends_at(end);
        }
        if let Some(minimum) = self.minimum {
            builder = builder.minimum(minimum);
        }
        if let Some(texts) = self.combines_with {
            let mut classes = CodeClasses::NONE;
            for text in &texts {
                classes = classes.with(CodeClass::parse(text)?);
            }
            builder = builder.combines_with(classes.iter());
        }
        if let Some(priority) = self.priority {
            let max = PromoCode::MAX_PRIORITY;
            let priority = u32::try_from(priority)
                .ok()
                .filter(|p| *p <= max)
                .ok_or(InputError::PriorityOutOfRange { priority, max })?;
            builder = builder.priority(priority);
        }
        if let Some(shards) = self.shards {
            let max = PromoCode::MAX_SHARDS;
            let shards = u8::try_from(shards)
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or(InputError::ShardsOutOfRange { shards, max })?;
            builder = builder.shards(shards);
        }
        builder.automatic(self.automatic.unwrap_or(false)).build()
    }
}

impl DefinitionRepr {
    /// The code its fields make, or why not.
    pub(super) fn finish(self) -> Result<PromoCode, Refused> {
        self.build().map_err(|err| {
            let field = match &err {
                InputError::EmptyWindow { .. } => "ends_at",
                InputError::CurrencyMismatch { field, .. } => field,
                InputError::EmptyAudience | InputError::TooMany { .. } => "audience",
                InputError::UnknownCodeClass { .. } => "combines_with",
                InputError::PriorityOutOfRange { .. } => "priority",
                InputError::ShardsOutOfRange { .. } => "shards",
                _ => "",
            };
            Refused::at(field, err)
        })
    }
}

/// A campaign's definition as JSON: a code's definition without `code`,
/// plus `uses_per_code`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CampaignRepr {
    #[serde(default)]
    active: Option<bool>,
    discount: Discount,
    #[serde(default)]
    applies_to: Option<AppliesTo>,
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
    #[serde(default)]
    combines_with: Option<Vec<String>>,
    /// Refused when `true`: a campaign cannot be automatic.
    #[serde(default)]
    automatic: Option<bool>,
    #[serde(default)]
    first_order: Option<bool>,
    #[serde(default)]
    uses_per_code: Option<u64>,
    #[serde(default)]
    shards: Option<u64>,
}

/// A campaign read from JSON, its id not yet given: the shared definition
/// (under a stand-in code) and how often each code may be used.
pub(crate) struct CampaignDraft {
    pub(crate) definition: PromoCode,
    pub(crate) uses_per_code: u64,
}

impl<'de> Deserialize<'de> for CampaignDraft {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CampaignDraft, D::Error> {
        let repr = CampaignRepr::deserialize(deserializer)?;
        let uses_per_code = repr.uses_per_code.unwrap_or(crate::Campaign::DEFAULT_USES_PER_CODE);
        if uses_per_code == 0 {
            return Err(Refused::at("uses_per_code", InputError::ZeroUsesPerCode).into_serde());
        }
        if repr.automatic == Some(true) {
            return Err(Refused::at("automatic", InputError::AutomaticCampaign).into_serde());
        }
        let definition = DefinitionRepr {
            // No rule reads the code: the campaign's id takes its place once the draft is read.
            code: Code::parse("CAMPAIGN").map_err(|err| Refused::Message(err.to_string()).into_serde())?,
            active: repr.active,
            discount: repr.discount,
            applies_to: repr.applies_to,
            limits: repr.limits,
            starts_at: repr.starts_at,
            ends_at: repr.ends_at,
            minimum: repr.minimum,
            audience: repr.audience,
            combines_with: repr.combines_with,
            automatic: None,
            priority: None,
            shards: repr.shards,
            first_order: repr.first_order,
        }
        .finish()
        .map_err(Refused::into_serde)?;
        Ok(CampaignDraft {
            definition,
            uses_per_code,
        })
    }
}

impl<'de> Deserialize<'de> for PromoCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PromoCode, D::Error> {
        DefinitionRepr::deserialize(deserializer)?
            .finish()
            .map_err(Refused::into_serde)
    }
}
