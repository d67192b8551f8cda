//! The wire of the two discounts that look at units and tiers, buy X get Y
//! and tiered, read from their flat fields and finished by the core; and how
//! every discount is written.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use super::{DiscountFields, PercentText};
use crate::json::{invalid, Refused};
use crate::rules::DiscountKind;
use crate::rules::{AppliesTo, BuyCondition, BuyXGetY, Discount, GetOff, Selection, Tier, TierBasis, TierFrom};
use crate::values::{InputError, Money, Quoted};

/// A buy X get Y's `buy` as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(in crate::json) struct BuyRepr {
    #[serde(default)]
    pub(in crate::json) quantity: Option<u64>,
    #[serde(default)]
    pub(in crate::json) amount: Option<Money>,
    #[serde(default)]
    pub(in crate::json) applies_to: Option<AppliesTo>,
}

/// A buy X get Y's `get` as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(in crate::json) struct GetRepr {
    pub(in crate::json) quantity: u64,
    #[serde(default)]
    pub(in crate::json) applies_to: Option<AppliesTo>,
    #[serde(default)]
    pub(in crate::json) percent: Option<PercentText>,
    #[serde(default)]
    pub(in crate::json) amount: Option<Money>,
}

/// A tier as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(in crate::json) struct TierRepr {
    pub(in crate::json) from: TierFrom,
    pub(in crate::json) discount: Discount,
}

/// What a tier's `from` is, for a reader's "invalid type" message.
pub(in crate::json) const FROM_EXPECTING: &str = "a money object or a whole number of units";

/// A tier's `from` read as a JSON integer: `text` is how it is written.
pub(in crate::json) fn from_count(v: Option<u32>, text: impl FnOnce() -> String) -> Result<TierFrom, InputError> {
    v.map(TierFrom::Quantity).ok_or_else(|| InputError::CountOutOfRange {
        field: "from",
        count: text(),
        max: u64::from(Tier::MAX_QUANTITY),
    })
}

impl<'de> Deserialize<'de> for TierFrom {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TierFrom, D::Error> {
        struct FromVisitor;

        impl<'de> Visitor<'de> for FromVisitor {
            type Value = TierFrom;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(FROM_EXPECTING)
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<TierFrom, E> {
                from_count(u32::try_from(v).ok(), || v.to_string()).map_err(|err| invalid("", err))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<TierFrom, E> {
                from_count(u32::try_from(v).ok(), || v.to_string()).map_err(|err| invalid("", err))
            }

            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<TierFrom, A::Error> {
                Money::deserialize(de::value::MapAccessDeserializer::new(map)).map(TierFrom::Amount)
            }
        }

        deserializer.deserialize_any(FromVisitor)
    }
}

/// A field that the kind does not take, or takes in another shape.
fn wrong(field: &str, message: String) -> Refused {
    Refused::at(
        field,
        InputError::Malformed {
            path: ".".to_owned(),
            message,
        },
    )
}

/// The first of `fields` that is present, refused for `kind`.
fn strays(kind: &str, fields: &[(&str, bool)]) -> Result<(), Refused> {
    match fields.iter().find(|(_, present)| *present) {
        Some((field, _)) => Err(wrong(field, format!("a {kind} discount has no `{field}`"))),
        None => Ok(()),
    }
}

/// A core error at `field`, a currency mismatch at its own field.
fn at(field: &str, err: InputError) -> Refused {
    let named = match &err {
        InputError::CurrencyMismatch { field: named, .. } => named.strip_prefix("discount.").unwrap_or(named),
        _ => field,
    };
    Refused::at(named, err)
}

impl DiscountFields {
    /// The fields only buy X get Y and tiered take, for the other kinds' refusal.
    pub(super) fn deal_fields(&self) -> [(&'static str, bool); 6] {
        [
            ("buy", self.buy.is_some()),
            ("get", self.get.is_some()),
            ("max_applications", self.max_applications.is_some()),
            ("selection", self.selection.is_some()),
            ("by", self.by.is_some()),
            ("tiers", self.tiers.is_some()),
        ]
    }

    /// A buy X get Y discount from its fields, or why not.
    #[inline(never)]
    pub(super) fn buy_x_get_y(self) -> Result<Discount, Refused> {
        let kind = "buy_x_get_y";
        strays(
            kind,
            &[
                ("percent", self.percent.is_some()),
                ("amount", self.amount.is_some()),
                ("by", self.by.is_some()),
                ("tiers", self.tiers.is_some()),
            ],
        )?;
        let buy = self
            .buy
            .ok_or_else(|| Refused::Message("missing field `buy`".to_owned()))?;
        let get = self
            .get
            .ok_or_else(|| Refused::Message("missing field `get`".to_owned()))?;
        let max = u64::from(BuyXGetY::MAX_QUANTITY);
        let condition = match (buy.quantity, buy.amount) {
            (Some(q), None) => BuyCondition::Quantity(
                crate::rules::check_count("quantity", q, max).map_err(|e| Refused::at("buy.quantity", e))?,
            ),
            (None, Some(a)) if a.is_zero() => {
                return Err(Refused::at(
                    "buy.amount",
                    InputError::ZeroAmount {
                        field: "discount.buy.amount",
                    },
                ))
            }
            (None, Some(a)) => BuyCondition::Amount(a),
            _ => return Err(wrong("buy", "a buy has either a `quantity` or an `amount`".to_owned())),
        };
        let quantity =
            crate::rules::check_count("quantity", get.quantity, max).map_err(|e| Refused::at("get.quantity", e))?;
        let off = match (get.percent, get.amount) {
            (Some(p), None) => GetOff::Percent(p.0),
            (None, Some(a)) if a.is_zero() => {
                return Err(Refused::at(
                    "get.amount",
                    InputError::ZeroAmount {
                        field: "discount.get.amount",
                    },
                ))
            }
            (None, Some(a)) => GetOff::Amount(a),
            _ => return Err(wrong("get", "a get has either a `percent` or an `amount`".to_owned())),
        };
        let mut deal = BuyXGetY::new(condition, quantity, off).map_err(|e| at("get", e))?;
        if let Some(scope) = buy.applies_to {
            deal = deal.buy_applies_to(scope);
        }
        if let Some(scope) = get.applies_to {
            deal = deal.get_applies_to(scope);
        }
        if let Some(n) = self.max_applications {
            let n = crate::rules::check_count("max_applications", n, u64::from(u32::MAX))
                .map_err(|e| Refused::at("max_applications", e))?;
            deal = deal
                .max_applications(n)
                .map_err(|e| Refused::at("max_applications", e))?;
        }
        if let Some(text) = self.selection {
            deal = deal.selection(match text.as_str() {
                "cheapest" => Selection::Cheapest,
                "most_expensive" => Selection::MostExpensive,
                _ => {
                    return Err(wrong(
                        "selection",
                        format!(
                            "unknown selection {}; expected \"cheapest\" or \"most_expensive\"",
                            Quoted(&text)
                        ),
                    ))
                }
            });
        }
        let discount = Discount::buy_x_get_y(deal);
        match self.max {
            None => Ok(discount),
            Some(max) => discount.with_max(max).map_err(|e| Refused::at("max", e)),
        }
    }

    /// A tiered discount from its fields, or why not.
    #[inline(never)]
    pub(super) fn tiered(self) -> Result<Discount, Refused> {
        strays(
            "tiered",
            &[
                ("percent", self.percent.is_some()),
                ("amount", self.amount.is_some()),
                ("max", self.max.is_some()),
                ("buy", self.buy.is_some()),
                ("get", self.get.is_some()),
                ("max_applications", self.max_applications.is_some()),
                ("selection", self.selection.is_some()),
            ],
        )?;
        let by = match self.by.as_deref() {
            None => return Err(Refused::Message("missing field `by`".to_owned())),
            Some("subtotal") => TierBasis::Subtotal,
            Some("quantity") => TierBasis::Quantity,
            Some(other) => {
                return Err(wrong(
                    "by",
                    format!("unknown basis {}; expected \"subtotal\" or \"quantity\"", Quoted(other)),
                ))
            }
        };
        let reprs = self
            .tiers
            .ok_or_else(|| Refused::Message("missing field `tiers`".to_owned()))?;
        let mut tiers = Vec::with_capacity(reprs.len());
        for (i, repr) in reprs.into_iter().enumerate() {
            let tier = Tier::new(repr.from, repr.discount).map_err(|e| match e {
                InputError::TierDiscount => Refused::at(&format!("tiers[{i}].discount"), e),
                e => Refused::at(&format!("tiers[{i}].from"), e),
            })?;
            tiers.push(tier);
        }
        Discount::tiered(by, tiers).map_err(|e| match e {
            InputError::TierFrom { index, .. } | InputError::TiersNotIncreasing { index } => {
                Refused::at(&format!("tiers[{index}].from"), e)
            }
            e => Refused::at("tiers", e),
        })
    }
}

/// A buy's written form.
#[derive(Serialize)]
struct BuyOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    quantity: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    amount: Option<&'a Money>,
    #[serde(skip_serializing_if = "Option::is_none")]
    applies_to: Option<&'a AppliesTo>,
}

/// A get's written form.
#[derive(Serialize)]
struct GetOut<'a> {
    quantity: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    applies_to: Option<&'a AppliesTo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    percent: Option<PercentText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    amount: Option<&'a Money>,
}

/// A tier's written form.
#[derive(Serialize)]
struct TierOut<'a> {
    from: &'a TierFrom,
    discount: &'a Discount,
}

/// The written form of the two kinds.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum DealOut<'a> {
    BuyXGetY {
        buy: BuyOut<'a>,
        get: GetOut<'a>,
        #[serde(skip_serializing_if = "Option::is_none")]
        max_applications: Option<u32>,
        selection: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        max: Option<&'a Money>,
    },
    Tiered {
        by: &'static str,
        tiers: Vec<TierOut<'a>>,
    },
}

/// Writes a buy X get Y or tiered discount (another kind as an empty tiered one: never asked).
pub(super) fn serialize_deal<S: Serializer>(discount: &Discount, serializer: S) -> Result<S::Ok, S::Error> {
    let out = if let Some(deal) = discount.as_buy_x_get_y() {
        let quantity = match deal.buy() {
            BuyCondition::Quantity(q) => Some(q),
            BuyCondition::Amount(_) => None,
        };
        let (percent, get_amount) = match deal.off() {
            GetOff::Percent(p) => (Some(PercentText(p)), None),
            GetOff::Amount(_) => (None, deal.get_amount()),
        };
        DealOut::BuyXGetY {
            buy: BuyOut {
                quantity,
                amount: deal.buy_amount(),
                applies_to: deal.buy_scope(),
            },
            get: GetOut {
                quantity: deal.get_quantity(),
                applies_to: deal.get_scope_written(),
                percent,
                amount: get_amount,
            },
            max_applications: deal.max_applications_cap(),
            selection: deal.selection_rule().as_str(),
            max: discount.max(),
        }
    } else {
        let (by, tiers) = discount.as_tiers().unwrap_or((TierBasis::Subtotal, &[]));
        DealOut::Tiered {
            by: by.as_str(),
            tiers: tiers
                .iter()
                .map(|t| TierOut {
                    from: t.from(),
                    discount: t.discount(),
                })
                .collect(),
        }
    };
    out.serialize(serializer)
}

/// The serialised form of a discount.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum DiscountRepr<'a> {
    Percent {
        percent: PercentText,
        #[serde(skip_serializing_if = "Option::is_none")]
        max: Option<&'a Money>,
    },
    Fixed {
        amount: &'a Money,
        #[serde(skip_serializing_if = "Option::is_none")]
        max: Option<&'a Money>,
    },
    FreeShipping {
        #[serde(skip_serializing_if = "Option::is_none")]
        max: Option<&'a Money>,
    },
}

impl Serialize for PercentText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0.normalize().to_string())
    }
}

impl Serialize for Discount {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if matches!(self.kind(), DiscountKind::BuyXGetY | DiscountKind::Tiered) {
            return serialize_deal(self, serializer);
        }
        let max = self.max();
        let repr = match (self.kind(), self.as_percent(), self.fixed_amount()) {
            (DiscountKind::Percent, Some(percent), _) => DiscountRepr::Percent {
                percent: PercentText(percent),
                max,
            },
            (DiscountKind::Fixed, _, Some(amount)) => DiscountRepr::Fixed { amount, max },
            _ => DiscountRepr::FreeShipping { max },
        };
        repr.serialize(serializer)
    }
}
