//! Checking and pricing: the rules of a definition run against the counts,
//! a basket and a moment passed in.

use super::basket::Basket;
use super::counts::UsageCounts;
use super::definition::{BudgetShort, Discount, DiscountKind, PromoCode, TierBasis};
use super::quote::{Quote, QuoteLine, QuoteShipping};
use super::rejection::{PromoCodeRejected, Rejection};
use crate::values::{largest_remainder, CustomerId, Money, Timestamp};

mod deals;

use deals::{Given, Short};

impl PromoCode {
    /// Checks every rule, in order, and returns the first that refuses, if any.
    ///
    /// `usage` is what a store last said about this code (and this
    /// customer); `now` is passed in, since the core never reads a clock.
    /// Checking promises nothing: by the time it returns, the counts may have
    /// moved. Only a store's compare-and-set [`record`](crate::RedemptionStore::record)
    /// makes a cap hold.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Basket, Code, CustomerId, Discount, Money, PromoCode, Rejection, Timestamp};
    /// use promocodes::{UsageCounts, UsageLimits};
    ///
    /// let promo = PromoCode::builder(Code::parse("SAVE10")?, Discount::percent("10".parse()?)?)
    ///     .limits(UsageLimits::new(Some(1000), Some(1))?)
    ///     .build()?;
    /// let alice = CustomerId::parse("alice")?;
    /// let basket = Basket::from(Money::parse("80.00", "EUR".parse()?)?);
    /// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
    ///
    /// assert_eq!(promo.check(Some(&alice), UsageCounts::new(999, 0)?, &basket, now), None);
    /// assert_eq!(
    ///     promo.check(Some(&alice), UsageCounts::new(1000, 0)?, &basket, now),
    ///     Some(Rejection::Exhausted),
    /// );
    /// assert_eq!(
    ///     promo.check(None, UsageCounts::ZERO, &basket, now),
    ///     Some(Rejection::CustomerRequired),
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check(
        &self,
        customer: Option<&CustomerId>,
        usage: UsageCounts,
        basket: &Basket,
        now: Timestamp,
    ) -> Option<Rejection> {
        self.judge(customer, usage, basket, now)
            .err()
            .map(|refused| refused.rejection())
    }

    /// Every rule against the counts, and the quote they allow: the
    /// discount clipped to what is left of a budget that takes a partial
    /// discount. Never inlined: the browser module has one copy for one
    /// code and for a stack.
    #[inline(never)]
    fn judge(
        &self,
        customer: Option<&CustomerId>,
        usage: UsageCounts,
        basket: &Basket,
        now: Timestamp,
    ) -> Result<Quote, PromoCodeRejected> {
        if !self.active() {
            return Err(PromoCodeRejected::new(self, Rejection::Inactive));
        }
        let limits = self.limits();
        let caps = |rejection| match rejection {
            Rejection::Exhausted => {
                limits.total().is_some_and(|cap| usage.total() >= cap)
                    || self.uses_per_code().is_some_and(|cap| usage.code_uses() >= cap)
            }
            Rejection::CustomerLimitReached => {
                customer.is_some() && limits.per_customer().is_some_and(|cap| usage.per_customer() >= cap)
            }
            _ => false,
        };
        self.check_held(customer, basket, now, caps, limits.remaining_budget(usage))
    }

    /// The rules for a use already held for this buyer: every rule but the
    /// kill switch and the caps, which applied when the hold was taken. `caps`
    /// says whether a cap refuses (`Exhausted`, `CustomerLimitReached`);
    /// `left` is what is left of the budget for this use, if there is one.
    fn check_held(
        &self,
        customer: Option<&CustomerId>,
        basket: &Basket,
        now: Timestamp,
        caps: impl Fn(Rejection) -> bool,
        left: Option<Money>,
    ) -> Result<Quote, PromoCodeRejected> {
        let refuse = |rejection| Err(PromoCodeRejected::new(self, rejection));
        let limits = self.limits();
        let assigned = self.audience().is_assigned();
        let orders = basket.customer_orders();
        if self.is_first_order() && (customer.is_none() || orders.is_none()) {
            return Err(PromoCodeRejected::with_message(
                self,
                Rejection::CustomerRequired,
                "this code is for a first order: it needs you to be signed in, and the shop to say how many orders you placed before".to_owned(),
            ));
        }
        if customer.is_none() && (limits.per_customer().is_some() || assigned) {
            return refuse(Rejection::CustomerRequired);
        }
        if customer.is_some_and(|c| !self.audience().admits(c)) {
            return refuse(Rejection::NotAssigned);
        }
        if self.starts_at().is_some_and(|start| now < start) {
            return refuse(Rejection::NotStarted);
        }
        if self.ends_at().is_some_and(|end| now >= end) {
            return refuse(Rejection::Expired);
        }
        for cap in [Rejection::Exhausted, Rejection::CustomerLimitReached] {
            if caps(cap) {
                return refuse(cap);
            }
        }
        if self.is_first_order() && orders.is_some_and(|n| n > 0) {
            return refuse(Rejection::NotFirstOrder);
        }
        if self.currency().is_some_and(|currency| currency != basket.currency()) {
            return refuse(Rejection::CurrencyMismatch);
        }
        let Some(eligible) = self.eligible_subtotal(basket) else {
            return refuse(Rejection::NoEligibleItems);
        };
        let by_units = self
            .discount()
            .as_tiers()
            .is_some_and(|(by, _)| by == TierBasis::Quantity);
        if by_units && !basket.has_lines() {
            return refuse(Rejection::NoEligibleItems);
        }
        // A buy X get Y's units are chosen once, here, for the quote too.
        let mut given = None;
        let short = match self.discount().as_buy_x_get_y() {
            Some(deal) => match self.given(deal, basket) {
                Err(None) => return refuse(Rejection::NoEligibleItems),
                Err(short) => short,
                Ok(units) => {
                    given = Some(units);
                    None
                }
            },
            None => self.below_first_tier(self.tier(basket, eligible).1.as_ref()),
        };
        if let Some(Short::Items(missing)) = short {
            return Err(PromoCodeRejected::with_message(
                self,
                Rejection::NotEnoughItems,
                missing,
            ));
        }
        let quote = match left {
            None => self.price_at_most(basket, now, None, given.as_ref())?,
            Some(left) => self.within_budget(basket, now, left, given.as_ref())?,
        };
        if let Some(minimum) = self.minimum() {
            if minimum.partial_cmp_same(&eligible).is_some_and(|o| o.is_gt()) {
                return refuse(Rejection::BelowMinimum);
            }
        }
        if let Some(Short::Money(missing)) = short {
            return Err(PromoCodeRejected::with_message(self, Rejection::BelowMinimum, missing));
        }
        Ok(quote)
    }

    /// The quote within what is left of the budget: as priced when it fits;
    /// else refused, or clipped to `left` when the code takes a partial
    /// discount. Nothing left is refused either way.
    fn within_budget(
        &self,
        basket: &Basket,
        now: Timestamp,
        left: Money,
        given: Option<&Given>,
    ) -> Result<Quote, PromoCodeRejected> {
        let quote = self.price_at_most(basket, now, None, given)?;
        let fits = quote.discount().partial_cmp_same(&left).is_some_and(|o| o.is_le());
        if left.is_zero() || (!fits && self.limits().when_budget_short() == BudgetShort::Refuse) {
            return Err(PromoCodeRejected::budget_short(self, &left));
        }
        if fits {
            return Ok(quote);
        }
        let desired = *quote.discount();
        let mut clipped = self.price_at_most(basket, now, Some(left), given)?;
        clipped.budget_clipped = true;
        clipped.desired = Some(desired);
        Ok(clipped)
    }

    /// Checks a use held for this buyer against a changed basket: every rule
    /// but the kill switch and the caps. `left` is what is left of the
    /// budget for this use (the budget less every other use), if there is one.
    pub(crate) fn validate_held(
        &self,
        customer: Option<&CustomerId>,
        basket: &Basket,
        now: Timestamp,
        left: Option<Money>,
    ) -> Result<Quote, PromoCodeRejected> {
        self.check_held(customer, basket, now, |_| false, left)
    }

    /// The eligible lines' subtotal (the total, for a basket of one total),
    /// or `None` when nothing in the basket qualifies.
    fn eligible_subtotal(&self, basket: &Basket) -> Option<Money> {
        match (self.applies_to(), basket.has_lines()) {
            (None, false) => Some(*basket.total()),
            (None, true) => Some(*basket.subtotal()),
            (Some(_), false) => None,
            (Some(scope), true) => {
                let eligible: i128 = basket
                    .lines()
                    .iter()
                    .filter(|l| scope.includes(l))
                    .map(|l| l.amount().minor())
                    .sum();
                let any = basket.lines().iter().any(|l| scope.includes(l));
                any.then(|| Money::from_minor(eligible, basket.currency())).flatten()
            }
        }
    }

    /// [`check`](PromoCode::check) as a `Result`.
    ///
    /// # Errors
    ///
    /// [`PromoCodeRejected`] with the first rule that refuses.
    pub fn validate(
        &self,
        customer: Option<&CustomerId>,
        usage: UsageCounts,
        basket: &Basket,
        now: Timestamp,
    ) -> Result<(), PromoCodeRejected> {
        self.judge(customer, usage, basket, now).map(|_| ())
    }

    /// Validates and prices a basket, touching no counter.
    ///
    /// # Errors
    ///
    /// [`PromoCodeRejected`] with the first rule that refuses.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Basket, Code, Currency, Discount, Money, PromoCode, Timestamp, UsageCounts};
    ///
    /// let promo = PromoCode::builder(Code::parse("SAVE10")?, Discount::percent("10".parse()?)?).build()?;
    /// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
    /// let quote = promo.quote(None, UsageCounts::ZERO, &Basket::from(Money::parse("80", Currency::EUR)?), now)?;
    ///
    /// assert_eq!(quote.discount().to_string(), "EUR 8.00");
    /// assert_eq!(quote.payable().to_string(), "EUR 72.00");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn quote(
        &self,
        customer: Option<&CustomerId>,
        usage: UsageCounts,
        basket: &Basket,
        now: Timestamp,
    ) -> Result<Quote, PromoCodeRejected> {
        self.judge(customer, usage, basket, now)
    }

    /// Prices a basket without checking any rule but the one pricing needs:
    /// the basket must be in the code's currency. A code that finds nothing
    /// eligible takes nothing off.
    ///
    /// This is what the buyer was (or would have been) quoted, for a server
    /// that captures without the page's own [`Quote`] in hand.
    ///
    /// # Errors
    ///
    /// [`PromoCodeRejected`] with [`Rejection::CurrencyMismatch`].
    pub fn price(&self, basket: &Basket, now: Timestamp) -> Result<Quote, PromoCodeRejected> {
        self.price_at_most(basket, now, None, None)
    }

    /// [`price`](PromoCode::price) with the discount at most `at_most` (a buy X get Y's
    /// units `given` when they are chosen already).
    fn price_at_most(
        &self,
        basket: &Basket,
        now: Timestamp,
        at_most: Option<Money>,
        given: Option<&Given>,
    ) -> Result<Quote, PromoCodeRejected> {
        if self.currency().is_some_and(|currency| currency != basket.currency()) {
            return Err(PromoCodeRejected::new(self, Rejection::CurrencyMismatch));
        }
        let currency = basket.currency();
        let zero = Money::zero(currency);
        let mut note = None;
        let mut shipping_off = zero;
        let eligible = self.eligible_subtotal(basket).unwrap_or(zero);
        let (tier, next_tier) = self.tier(basket, eligible);
        let mut weights = None;
        let discount = match self.discount().kind() {
            DiscountKind::FreeShipping => {
                let shipping = basket.shipping().copied().unwrap_or(zero);
                if !basket.has_lines() {
                    note = Some("free shipping needs a basket with lines and shipping; this one has only a total");
                } else if basket.shipping().is_none() {
                    note = Some("this basket has no shipping to take off");
                }
                shipping_off = cap(cap(shipping, self.discount().max()), at_most.as_ref());
                shipping_off
            }
            DiscountKind::BuyXGetY => {
                let off = self.discount().as_buy_x_get_y().and_then(|deal| match given {
                    Some(given) => Some(PromoCode::given_off(deal, basket, given)),
                    None => Some(PromoCode::given_off(deal, basket, &self.given(deal, basket).ok()?)),
                });
                let full = Money::from_minor(off.iter().flatten().sum(), currency).unwrap_or(zero);
                weights = off;
                cap(cap(full, self.discount().max()), at_most.as_ref())
            }
            DiscountKind::Tiered => match (tier, self.discount().as_tiers()) {
                (Some(reached), Some((_, tiers))) => off_eligible(tiers[reached.index].discount(), eligible, at_most),
                _ => zero,
            },
            _ => off_eligible(self.discount(), eligible, at_most),
        };
        let payable = basket.total().checked_sub(&discount).unwrap_or(zero);
        let lines = basket
            .has_lines()
            .then(|| self.split(basket, discount, shipping_off, weights));
        Ok(Quote {
            code: self.code().clone(),
            total: *basket.total(),
            discount,
            payable,
            quoted_at: now,
            lines,
            shipping: basket.shipping().map(|amount| QuoteShipping {
                amount: *amount,
                discount: shipping_off,
            }),
            note: note.map(str::to_owned),
            budget_clipped: false,
            desired: None,
            tier,
            next_tier,
        })
    }

    /// The discount's parts per line: what is not taken off shipping, over
    /// the eligible lines by the largest-remainder method (over `weights`
    /// when given: a buy-X-get-Y code's given units). Ties go by line order,
    /// or for buy X get Y and tiered codes by sku, then line order.
    fn split(
        &self,
        basket: &Basket,
        discount: Money,
        shipping_off: Money,
        weights: Option<Vec<i128>>,
    ) -> Vec<QuoteLine> {
        let currency = basket.currency();
        let lines = basket.lines();
        let weights = weights.unwrap_or_else(|| {
            lines
                .iter()
                .map(|l| match self.applies_to().is_none_or(|scope| scope.includes(l)) {
                    true => l.amount().minor(),
                    false => 0,
                })
                .collect()
        });
        let total = discount.minor() - shipping_off.minor();
        let parts = match self.discount().kind() {
            DiscountKind::BuyXGetY | DiscountKind::Tiered => {
                let mut order: Vec<usize> = (0..lines.len()).collect();
                deals::sort_by(&mut order, |&a, &b| lines[a].sku() < lines[b].sku());
                let ordered: Vec<i128> = order.iter().map(|&i| weights[i]).collect();
                let mut parts = vec![0; lines.len()];
                for (&i, part) in order.iter().zip(largest_remainder(total, &ordered)) {
                    parts[i] = part;
                }
                parts
            }
            // In line order: no order to build, nor weights to reorder.
            _ => largest_remainder(total, &weights),
        };
        lines
            .iter()
            .zip(parts)
            .map(|(line, part)| QuoteLine {
                sku: line.sku().clone(),
                amount: *line.amount(),
                discount: Money::from_minor(part, currency).unwrap_or(Money::zero(currency)),
            })
            .collect()
    }
}

/// What a percent or fixed `discount` takes off `eligible`, at most its
/// `max`, `at_most` and `eligible` itself.
fn off_eligible(discount: &Discount, eligible: Money, at_most: Option<Money>) -> Money {
    let off = match (discount.as_percent(), discount.fixed_amount()) {
        (Some(percent), _) => eligible.percent_of(percent),
        (None, Some(amount)) => *amount,
        (None, None) => Money::zero(eligible.currency()),
    };
    cap(cap(off, discount.max()), at_most.as_ref()).min_same(eligible)
}

/// `amount`, at most `max` when there is one (in the same currency).
fn cap(amount: Money, max: Option<&Money>) -> Money {
    match max {
        Some(max) => amount.min_same(*max),
        None => amount,
    }
}
