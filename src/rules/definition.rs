//! A code's definition: [`PromoCode`], its builder and its JSON form; what
//! it takes off ([`discount`]) and its caps, audience and scope ([`limits`]).

use rust_decimal::prelude::ToPrimitive;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::counts::UsageCounts;
use super::stack::{CodeClass, CodeClasses};
use crate::values::{agreed_currency, Code, Currency, InputError, Money, Timestamp};

mod deals;
mod discount;
mod limits;
mod shards;

pub(crate) use deals::check_count;
pub use deals::{BuyCondition, BuyXGetY, GetOff, Selection, Tier, TierBasis, TierFrom};
pub use discount::{Discount, DiscountKind};
pub use limits::{AppliesTo, Audience, BudgetShort, UsageLimits};
pub use shards::{customer_shard, shard_of};

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
///  "active": true,
///  "discount": {"kind": "percent", "percent": "10", "max": {"amount": "20.00", "currency": "EUR"}},
///  "applies_to": {"categories": ["mugs"]},
///  "limits": {"total": 1000, "per_customer": 1},
///  "starts_at": "2026-12-01T00:00:00Z", "ends_at": "2027-01-01T00:00:00Z",
///  "minimum": {"amount": "50.00", "currency": "EUR"},
///  "audience": ["alice", "bob"],
///  "combines_with": ["order", "shipping"],
///  "first_order": false, "automatic": false, "priority": 100}
/// ```
///
/// Only `code` and `discount` are required; `active` defaults to `true`, no
/// `applies_to` means every line, no `audience` means public, no
/// `combines_with` means it shares a basket with no other code, `first_order`
/// defaults to `false` (a first-order code's `limits.per_customer` defaults to 1). `automatic`
/// (default `false`) makes it an automatic promotion, which joins a basket
/// without being typed ([`Stack::with_automatic`](crate::Stack::with_automatic)), in the order of its
/// `priority` (0 to [`PromoCode::MAX_PRIORITY`], lower first, default
/// [`PromoCode::DEFAULT_PRIORITY`]); a campaign cannot be automatic. Unknown
/// fields are an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromoCode {
    code: Code,
    active: bool,
    discount: Discount,
    applies_to: Option<AppliesTo>,
    limits: UsageLimits,
    starts_at: Option<Timestamp>,
    ends_at: Option<Timestamp>,
    minimum: Option<Money>,
    audience: Audience,
    combines_with: CodeClasses,
    first_order: bool,
    /// Whether it joins a basket untyped, and its priority among those that do.
    automatic: bool,
    priority: u32,
    /// How many shard objects its holds and captures are spread over (1: none).
    shards: u8,
    currency: Option<Currency>,
    /// For a campaign's code: the campaign's id and how often each of its codes may be used.
    campaign: Option<(Code, u64)>,
}

/// Builds a [`PromoCode`]; [`build`](PromoCodeBuilder::build) checks the whole definition.
#[derive(Debug, Clone)]
#[must_use]
pub struct PromoCodeBuilder {
    promo: PromoCode,
}

impl PromoCodeBuilder {
    /// Switches the code on or off (on by default). An inactive code is
    /// refused with [`Rejection::Inactive`](crate::Rejection::Inactive).
    pub fn active(mut self, active: bool) -> PromoCodeBuilder {
        self.promo.active = active;
        self
    }

    /// Limits the code to some lines (every line by default).
    pub fn applies_to(mut self, scope: AppliesTo) -> PromoCodeBuilder {
        self.promo.applies_to = Some(scope);
        self
    }

    /// Caps on redemptions (unlimited by default).
    pub fn limits(mut self, limits: UsageLimits) -> PromoCodeBuilder {
        self.promo.limits = limits;
        self
    }

    /// The first moment the code is valid (inclusive).
    pub fn starts_at(mut self, start: Timestamp) -> PromoCodeBuilder {
        self.promo.starts_at = Some(start);
        self
    }

    /// The first moment the code is no longer valid (exclusive).
    pub fn ends_at(mut self, end: Timestamp) -> PromoCodeBuilder {
        self.promo.ends_at = Some(end);
        self
    }

    /// The smallest eligible subtotal the code applies to.
    pub fn minimum(mut self, minimum: Money) -> PromoCodeBuilder {
        self.promo.minimum = Some(minimum);
        self
    }

    /// Who may redeem it (public by default).
    pub fn audience(mut self, audience: Audience) -> PromoCodeBuilder {
        self.promo.audience = audience;
        self
    }

    /// The classes of code it may share a basket with (none by default):
    /// two codes combine only when each lists the other's
    /// [`class`](PromoCode::class). See [`Stack`](crate::Stack).
    pub fn combines_with(mut self, classes: impl IntoIterator<Item = CodeClass>) -> PromoCodeBuilder {
        self.promo.combines_with = classes.into_iter().fold(CodeClasses::NONE, CodeClasses::with);
        self
    }

    /// Makes it a first-order code: only a customer who placed no order
    /// before may use it, and the request must say so (`customer` and
    /// `customer_orders`, see [`Basket::with_customer_orders`](crate::Basket::with_customer_orders)).
    /// Its per-customer limit defaults to 1.
    pub fn first_order(mut self, first_order: bool) -> PromoCodeBuilder {
        self.promo.first_order = first_order;
        self
    }

    /// Makes it an automatic promotion (or not, the default): it joins a
    /// basket without being typed, see [`Stack::with_automatic`](crate::Stack::with_automatic).
    pub fn automatic(mut self, automatic: bool) -> PromoCodeBuilder {
        self.promo.automatic = automatic;
        self
    }

    /// Its priority among automatic promotions (lower first; default
    /// [`PromoCode::DEFAULT_PRIORITY`]).
    pub fn priority(mut self, priority: u32) -> PromoCodeBuilder {
        self.promo.priority = priority;
        self
    }

    /// Checks the definition as a whole and makes the code.
    ///
    /// # Errors
    ///
    /// [`InputError::EmptyWindow`] when the window does not end after it
    /// starts; [`InputError::CurrencyMismatch`] when the discount and the
    /// minimum name different currencies; [`InputError::PriorityOutOfRange`]
    /// for a priority above [`PromoCode::MAX_PRIORITY`];
    /// [`InputError::ShardsOutOfRange`] for shards outside 1 to [`PromoCode::MAX_SHARDS`].
    pub fn build(self) -> Result<PromoCode, InputError> {
        let mut promo = self.promo;
        if promo.priority > PromoCode::MAX_PRIORITY {
            return Err(InputError::PriorityOutOfRange {
                priority: u64::from(promo.priority),
                max: PromoCode::MAX_PRIORITY,
            });
        }
        if !(1..=PromoCode::MAX_SHARDS).contains(&promo.shards) {
            return Err(InputError::ShardsOutOfRange {
                shards: u64::from(promo.shards),
                max: PromoCode::MAX_SHARDS,
            });
        }
        if promo.first_order && promo.limits.per_customer().is_none() {
            promo.limits = promo.limits.with_per_customer(1);
        }
        if let (Some(starts_at), Some(ends_at)) = (promo.starts_at, promo.ends_at) {
            if ends_at <= starts_at {
                return Err(InputError::EmptyWindow { starts_at, ends_at });
            }
        }
        let inner = promo.discount.inner_currency().map(Money::zero);
        promo.currency = agreed_currency(&[
            ("discount", inner.as_ref()),
            ("discount.amount", promo.discount.fixed_amount()),
            ("discount.max", promo.discount.max()),
            ("minimum", promo.minimum.as_ref()),
            ("limits.budget", promo.limits.budget()),
        ])?;
        Ok(promo)
    }
}

impl PromoCode {
    /// The fields of the JSON definition, in the order it is written: what a
    /// reader of a definition accepts (any other field is an error).
    pub const FIELDS: [&'static str; 14] = [
        "code",
        "active",
        "discount",
        "applies_to",
        "limits",
        "starts_at",
        "ends_at",
        "minimum",
        "audience",
        "combines_with",
        "first_order",
        "automatic",
        "priority",
        "shards",
    ];

    /// An automatic promotion's priority when its definition names none.
    pub const DEFAULT_PRIORITY: u32 = 100;

    /// The largest priority.
    pub const MAX_PRIORITY: u32 = 1_000_000;

    /// Starts a definition of `code` with `discount`: active, public, for
    /// every line, unlimited, always valid.
    pub fn builder(code: Code, discount: Discount) -> PromoCodeBuilder {
        PromoCodeBuilder {
            promo: PromoCode {
                code,
                active: true,
                discount,
                applies_to: None,
                limits: UsageLimits::UNLIMITED,
                starts_at: None,
                ends_at: None,
                minimum: None,
                audience: Audience::public(),
                combines_with: CodeClasses::NONE,
                first_order: false,
                automatic: false,
                priority: PromoCode::DEFAULT_PRIORITY,
                shards: 1,
                currency: None,
                campaign: None,
            },
        }
    }

    /// The same code switched on or off, everything else unchanged.
    pub fn with_active(&self, active: bool) -> PromoCode {
        PromoCode { active, ..self.clone() }
    }

    /// The normalised code.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// For a campaign's code, the campaign's id: its uses are counted with
    /// every other code of the campaign (see [`Campaign::code`](crate::Campaign::code)).
    pub fn campaign(&self) -> Option<&Code> {
        self.campaign.as_ref().map(|(id, _)| id)
    }

    /// For a campaign's code, how often the code itself may be used; its
    /// `limits` are then the campaign's, across all of its codes.
    pub fn uses_per_code(&self) -> Option<u64> {
        self.campaign.as_ref().map(|(_, uses)| *uses)
    }

    /// The same definition under another code.
    pub(crate) fn renamed(self, code: Code) -> PromoCode {
        PromoCode { code, ..self }
    }

    /// This definition as a code of no campaign.
    pub(crate) fn without_campaign(self) -> PromoCode {
        PromoCode { campaign: None, ..self }
    }

    /// How many more uses `usage` leaves the code, if it is capped: the
    /// least of what its total cap, (for a campaign's code) its
    /// `uses_per_code` and its budget leave. `None` for a code without any
    /// of them.
    ///
    /// A budget counts in uses at the discount's full size: a fixed
    /// discount's amount, or its `max` when it has one (a percent or free
    /// shipping with a `max`). Its rest divided by that size, rounded down
    /// with [`BudgetShort::Refuse`] and up with [`BudgetShort::Partial`]
    /// (the last use takes what is left). A smaller basket's discount is
    /// smaller, so the budget may pay for more uses than this says, never
    /// fewer. A discount of no fixed size (a percent or free shipping
    /// without `max`) leaves the budget out, until nothing is left of it:
    /// then no use is left.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{BudgetShort, Campaign, Code, Currency, Discount, Money, PromoCode, UsageCounts, UsageLimits};
    ///
    /// let definition = PromoCode::builder(Code::parse("BF")?, Discount::percent("20".parse()?)?)
    ///     .limits(UsageLimits::new(Some(150), None)?)
    ///     .build()?;
    /// let code = Campaign::new(definition.clone(), 2)?.code(Code::parse("BF-1")?);
    /// assert_eq!(code.remaining_uses(UsageCounts::new(100, 0)?.with_code_uses(1)?), Some(1));
    /// assert_eq!(code.remaining_uses(UsageCounts::new(149, 0)?.with_code_uses(0)?), Some(1));
    /// assert_eq!(definition.remaining_uses(UsageCounts::new(100, 0)?), Some(50));
    ///
    /// // 7.00 off each use, 100.00 to give away, 91.00 of it given: 1 full use
    /// // left, or 1 full and 1 partial when a short rest is given partly.
    /// let eur = |amount: &str| Money::parse(amount, Currency::EUR);
    /// let limits = UsageLimits::new(None, None)?.with_budget(eur("100.00")?, BudgetShort::Refuse)?;
    /// let seven = PromoCode::builder(Code::parse("SEVEN")?, Discount::fixed(eur("7.00")?)?)
    ///     .limits(limits)
    ///     .build()?;
    /// let used = UsageCounts::new(13, 0)?.with_discounted("91.00".parse()?)?;
    /// assert_eq!(seven.remaining_uses(used), Some(1));
    /// let partial = PromoCode::builder(Code::parse("SEVEN")?, Discount::fixed(eur("7.00")?)?)
    ///     .limits(limits.with_budget(eur("100.00")?, BudgetShort::Partial)?)
    ///     .build()?;
    /// assert_eq!(partial.remaining_uses(used), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remaining_uses(&self, usage: UsageCounts) -> Option<u64> {
        let total = self.limits.total().map(|cap| cap.saturating_sub(usage.total()));
        let own = self.uses_per_code().map(|cap| cap.saturating_sub(usage.code_uses()));
        [total, own, self.budget_uses(usage)].into_iter().flatten().min()
    }

    /// The uses the budget's rest pays for at the discount's full size
    /// (see [`PromoCode::remaining_uses`]), if it bounds them.
    fn budget_uses(&self, usage: UsageCounts) -> Option<u64> {
        let left = self.limits.remaining_budget(usage)?;
        if left.is_zero() {
            return Some(0);
        }
        let size = match (self.discount.fixed_amount(), self.discount.max()) {
            (Some(amount), Some(max)) => amount.amount().min(max.amount()),
            (amount, max) => amount.or(max)?.amount(),
        };
        let uses = left.amount().checked_div(size)?;
        let uses = match self.limits.when_budget_short() {
            BudgetShort::Partial => uses.ceil(),
            _ => uses.floor(),
        };
        uses.to_u64()
    }

    /// This definition as `code` of campaign `id`, each code usable
    /// `uses_per_code` times: what [`Campaign::code`](crate::Campaign::code) makes.
    pub(crate) fn counted_under(&self, code: Code, id: &Code, uses_per_code: u64) -> PromoCode {
        PromoCode {
            code,
            campaign: Some((id.clone(), uses_per_code)),
            ..self.clone()
        }
    }

    /// Whether the code is switched on.
    pub fn active(&self) -> bool {
        self.active
    }

    /// What it takes off.
    pub fn discount(&self) -> &Discount {
        &self.discount
    }

    /// Which lines it applies to (`None`: every line).
    pub fn applies_to(&self) -> Option<&AppliesTo> {
        self.applies_to.as_ref()
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

    /// The smallest eligible subtotal it applies to.
    pub fn minimum(&self) -> Option<&Money> {
        self.minimum.as_ref()
    }

    /// Who may use it.
    pub fn audience(&self) -> &Audience {
        &self.audience
    }

    /// Its class, which decides when it applies in a [`Stack`](crate::Stack):
    /// [`CodeClass::Shipping`] for a free-shipping discount,
    /// [`CodeClass::Product`] for buy X get Y or when it has
    /// [`applies_to`](PromoCode::applies_to) (a tiered code too: its tiers are
    /// percent or fixed discounts),
    /// [`CodeClass::Order`] otherwise.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{CodeClass, Code, Discount, PromoCode};
    ///
    /// let ship = PromoCode::builder(Code::parse("SHIPFREE")?, Discount::free_shipping()).build()?;
    /// assert_eq!(ship.class(), CodeClass::Shipping);
    /// assert!(ship.combines_with().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn class(&self) -> CodeClass {
        match (self.discount.kind(), &self.applies_to) {
            (DiscountKind::FreeShipping, _) => CodeClass::Shipping,
            (DiscountKind::BuyXGetY, _) => CodeClass::Product,
            (_, Some(_)) => CodeClass::Product,
            (_, None) => CodeClass::Order,
        }
    }

    /// Whether only a customer's first order may use it.
    pub fn is_first_order(&self) -> bool {
        self.first_order
    }

    /// Whether it is an automatic promotion: it joins a basket without being
    /// typed ([`Stack::with_automatic`](crate::Stack::with_automatic)).
    pub fn is_automatic(&self) -> bool {
        self.automatic
    }

    /// Its priority among automatic promotions: lower joins first.
    pub fn priority(&self) -> u32 {
        self.priority
    }

    /// The classes of code it may share a basket with (empty: none).
    pub fn combines_with(&self) -> CodeClasses {
        self.combines_with
    }

    /// Whether this code and `other` may share a basket: each lists the other's class.
    pub fn combines(&self, other: &PromoCode) -> bool {
        self.combines_with.contains(other.class()) && other.combines_with.contains(self.class())
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
        serialize_definition(self, Shown::Operator, serializer)
    }
}

impl Serialize for PublicDefinition<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_definition(self.0, Shown::Public, serializer)
    }
}

/// Who a definition is written for.
#[derive(Clone, Copy)]
pub(crate) enum Shown {
    /// The operator: everything (a campaign's code names its campaign and `uses_per_code`).
    Operator,
    /// Anyone: no audience's customers (a campaign's code names its campaign too).
    Public,
    /// A campaign's definition, with `uses_per_code`: `id` in place of `code`.
    Campaign(u64),
}

pub(crate) fn serialize_definition<S: Serializer>(
    promo: &PromoCode,
    shown: Shown,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let with_audience = !matches!(shown, Shown::Public);
    let mut s = serializer.serialize_struct("PromoCode", 16)?;
    match shown {
        Shown::Campaign(uses_per_code) => {
            s.serialize_field("id", &promo.code)?;
            s.serialize_field("uses_per_code", &uses_per_code)?;
        }
        Shown::Operator | Shown::Public => {
            s.serialize_field("code", &promo.code)?;
            if let Some((id, uses_per_code)) = &promo.campaign {
                s.serialize_field("campaign", id)?;
                s.serialize_field("uses_per_code", uses_per_code)?;
            }
        }
    }
    s.serialize_field("active", &promo.active)?;
    s.serialize_field("discount", &promo.discount)?;
    if let Some(scope) = &promo.applies_to {
        s.serialize_field("applies_to", scope)?;
    }
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
    match (promo.audience.customers(), with_audience) {
        (Some(customers), true) => s.serialize_field("audience", customers)?,
        (_, false) => s.serialize_field("assigned", &promo.audience.is_assigned())?,
        (None, true) => {}
    }
    if !promo.combines_with.is_empty() {
        s.serialize_field("combines_with", &promo.combines_with)?;
    }
    if promo.first_order {
        s.serialize_field("first_order", &true)?;
    }
    if promo.automatic {
        s.serialize_field("automatic", &true)?;
        s.serialize_field("priority", &promo.priority)?;
    } else if promo.priority != PromoCode::DEFAULT_PRIORITY {
        s.serialize_field("priority", &promo.priority)?;
    }
    if promo.shards > 1 {
        s.serialize_field("shards", &promo.shards)?;
    }
    s.end()
}
