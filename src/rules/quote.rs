//! The quote: a priced basket, and its split over the lines.

use serde::{Deserialize, Serialize};

use super::basket::Basket;
use super::definition::TierFrom;
use crate::values::{Code, InputError, Money, Sku, Timestamp};

/// The tier of a tiered code a quote reached: its position (from 0) and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TierReached {
    /// The tier's position, from 0.
    pub index: usize,
    /// Where it starts: money (`by: subtotal`) or units (`by: quantity`).
    pub from: TierFrom,
}

/// The tier above the one a quote reached (or the first, when none is):
/// where it starts and what is still missing to reach it, so that a page can
/// say "spend EUR 20.00 more for 15% off".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextTier {
    /// The tier's position, from 0.
    pub index: usize,
    /// Where it starts.
    pub from: TierFrom,
    /// The money (or units) still missing.
    pub missing: TierFrom,
}

/// One line of a quote: the line's amount and its part of the discount.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuoteLine {
    /// The line's product.
    pub sku: Sku,
    /// The line's amount, `quantity x unit_price`.
    pub amount: Money,
    /// Its part of the discount (zero when the line is not eligible).
    pub discount: Money,
}

/// The shipping of a quote: its amount and the part of the discount taken off it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuoteShipping {
    /// The basket's shipping.
    pub amount: Money,
    /// What the code takes off it (only a free-shipping code takes anything).
    pub discount: Money,
}

/// A priced basket: what the code takes off and what is left to pay.
///
/// A quote touches no counter; it is a promise about the moment it was made,
/// `quoted_at`, and nothing more. The discount never exceeds the total, the
/// payable is never negative, and `discount + payable == total`, exactly.
///
/// For a basket with lines it also carries the split: each line's part of
/// the discount (`lines`) and the shipping's (`shipping`). The parts add up to
/// the discount exactly and no part exceeds its amount: the discount is
/// allocated over the eligible lines in proportion to their amounts, each part
/// rounded down to the minor unit and the cents left over given one by one
/// to the largest remainders (ties by line order). That is what refunding a
/// single item, or computing tax per line, needs.
///
/// It serialises as
/// `{"code", "total": <Money>, "discount": <Money>, "payable": <Money>, "quoted_at",
/// "lines": [{"sku", "amount", "discount"}], "shipping": {"amount", "discount"}, "note"}`,
/// `lines`, `shipping` and `note` only when there is something to say, and
/// `"budget_clipped": true, "desired": <Money>` when a budget that takes a
/// partial discount clipped it (`desired` is the discount before the clip);
/// a tiered code's quote adds `"tier": {"index", "from"}` (the tier reached)
/// and `"next_tier": {"index", "from", "missing"}` (below the top tier).
///
/// For buy X get Y and tiered codes, ties in the split are broken by sku
/// rather than by line order, so that the order of the lines never matters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Quote {
    pub(super) code: Code,
    pub(super) total: Money,
    pub(super) discount: Money,
    pub(super) payable: Money,
    pub(super) quoted_at: Timestamp,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) lines: Option<Vec<QuoteLine>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) shipping: Option<QuoteShipping>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) note: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(super) budget_clipped: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) desired: Option<Money>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) tier: Option<TierReached>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) next_tier: Option<NextTier>,
}

impl Quote {
    /// A quote from its parts (one read back: stored, or shown to the buyer),
    /// if they are consistent: discount and payable add up to the total, and
    /// the lines and shipping to the total and the discount, each part at
    /// most its amount, in one currency.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_parts(
        code: Code,
        total: Money,
        discount: Money,
        payable: Money,
        quoted_at: Timestamp,
        lines: Option<Vec<QuoteLine>>,
        shipping: Option<QuoteShipping>,
        note: Option<String>,
        desired: Option<Money>,
        tiers: (Option<TierReached>, Option<NextTier>),
    ) -> Result<Quote, InputError> {
        let repr = Quote {
            code,
            total,
            discount,
            payable,
            quoted_at,
            lines,
            shipping,
            note,
            budget_clipped: desired.is_some(),
            desired,
            tier: tiers.0,
            next_tier: tiers.1,
        };
        let inconsistent = |message: &str| InputError::Malformed {
            path: ".".to_owned(),
            message: message.to_owned(),
        };
        let consistent = repr.discount.partial_cmp_same(&repr.total).is_some_and(|o| o.is_le())
            && repr.total.checked_sub(&repr.discount) == Some(repr.payable);
        if !consistent {
            return Err(inconsistent("discount and payable do not add up to the total"));
        }
        if repr
            .desired
            .is_some_and(|desired| desired.partial_cmp_same(&repr.discount).is_none_or(|o| o.is_le()))
        {
            return Err(inconsistent("a clipped quote's desired discount is above its discount"));
        }
        if repr.lines.is_none() && repr.shipping.is_some() {
            return Err(inconsistent("a quote with shipping has lines"));
        }
        if let Some(lines) = &repr.lines {
            let currency = repr.total.currency();
            let parts = lines
                .iter()
                .map(|l| (&l.amount, &l.discount))
                .chain(repr.shipping.as_ref().map(|s| (&s.amount, &s.discount)));
            let (mut amounts, mut discounts) = (0_i128, 0_i128);
            for (amount, discount) in parts {
                if amount.currency() != currency || discount.currency() != currency || discount.minor() > amount.minor()
                {
                    return Err(inconsistent(
                        "a line's discount is above its amount or in another currency",
                    ));
                }
                amounts += amount.minor();
                discounts += discount.minor();
            }
            if amounts != repr.total.minor() || discounts != repr.discount.minor() {
                return Err(inconsistent("the lines do not add up to the total and the discount"));
            }
        }
        Ok(repr)
    }

    /// A quote of `basket` that takes nothing off: what the buyer pays without the code.
    pub(crate) fn undiscounted(code: &Code, basket: &Basket, now: Timestamp) -> Quote {
        let zero = Money::zero(basket.currency());
        Quote {
            code: code.clone(),
            total: *basket.total(),
            discount: zero,
            payable: *basket.total(),
            quoted_at: now,
            lines: basket.has_lines().then(|| {
                basket
                    .lines()
                    .iter()
                    .map(|l| QuoteLine {
                        sku: l.sku().clone(),
                        amount: *l.amount(),
                        discount: zero,
                    })
                    .collect()
            }),
            shipping: basket.shipping().map(|amount| QuoteShipping {
                amount: *amount,
                discount: zero,
            }),
            note: None,
            budget_clipped: false,
            desired: None,
            tier: None,
            next_tier: None,
        }
    }

    /// The quote that charges `payable` for `basket`: what a payment
    /// provider's amount says the buyer was shown.
    pub(crate) fn charging(code: &Code, basket: &Basket, payable: Money, now: Timestamp) -> Result<Quote, InputError> {
        let discount = basket
            .total()
            .checked_sub(&payable)
            .ok_or(InputError::ChargedMismatch {
                charged: payable,
                total: *basket.total(),
            })?;
        Ok(Quote {
            code: code.clone(),
            total: *basket.total(),
            discount,
            payable,
            quoted_at: now,
            lines: None,
            shipping: None,
            note: None,
            budget_clipped: false,
            desired: None,
            tier: None,
            next_tier: None,
        })
    }

    /// The code that was applied.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// The basket total before the discount.
    pub fn total(&self) -> &Money {
        &self.total
    }

    /// What the code takes off.
    pub fn discount(&self) -> &Money {
        &self.discount
    }

    /// What is left to pay: `total - discount`.
    pub fn payable(&self) -> &Money {
        &self.payable
    }

    /// When the quote was made.
    pub fn quoted_at(&self) -> Timestamp {
        self.quoted_at
    }

    /// Each line's amount and part of the discount, for a basket with lines.
    pub fn lines(&self) -> Option<&[QuoteLine]> {
        self.lines.as_deref()
    }

    /// The shipping and the part of the discount taken off it, when the basket has shipping.
    pub fn shipping(&self) -> Option<&QuoteShipping> {
        self.shipping.as_ref()
    }

    /// Why the code takes less than it might (a free-shipping code on a basket without shipping).
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Whether what was left of the code's budget clipped the discount (a
    /// budget with [`BudgetShort::Partial`](crate::BudgetShort::Partial)).
    pub fn budget_clipped(&self) -> bool {
        self.budget_clipped
    }

    /// The discount before a budget clipped it, when it did.
    pub fn desired(&self) -> Option<&Money> {
        self.desired.as_ref()
    }

    /// The tier a tiered code reached, if any.
    pub fn tier(&self) -> Option<&TierReached> {
        self.tier.as_ref()
    }

    /// The next tier of a tiered code and what is missing to reach it, below the top tier.
    pub fn next_tier(&self) -> Option<&NextTier> {
        self.next_tier.as_ref()
    }

    /// Whether this quote was made for `basket`: the same total, and for a
    /// basket with lines the same lines (sku and amount, in order) and shipping.
    pub fn is_for(&self, basket: &Basket) -> bool {
        if self.total != *basket.total() {
            return false;
        }
        match &self.lines {
            None => !basket.has_lines(),
            Some(lines) => {
                basket.has_lines()
                    && lines.len() == basket.lines().len()
                    && lines
                        .iter()
                        .zip(basket.lines())
                        .all(|(q, b)| &q.sku == b.sku() && &q.amount == b.amount())
                    && self.shipping.map(|s| s.amount) == basket.shipping().copied()
            }
        }
    }

    /// Whether `other` charges the same: the same discount and amount to pay.
    pub fn charges_as(&self, other: &Quote) -> bool {
        self.discount == other.discount && self.payable == other.payable
    }
}
