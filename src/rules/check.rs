//! Checking and pricing: the rules of a definition run against the counts,
//! a basket and a moment passed in.

use super::basket::Basket;
use super::counts::UsageCounts;
use super::definition::{DiscountKind, PromoCode};
use super::quote::{Quote, QuoteLine, QuoteShipping};
use super::rejection::{PromoCodeRejected, Rejection};
use crate::values::{largest_remainder, CustomerId, Money, Timestamp};

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
        if !self.active() {
            return Some(Rejection::Inactive);
        }
        self.check_held(customer, basket, now, |rejection| match rejection {
            Rejection::Exhausted => self.limits().total().is_some_and(|cap| usage.total() >= cap),
            Rejection::CustomerLimitReached => {
                customer.is_some()
                    && self
                        .limits()
                        .per_customer()
                        .is_some_and(|cap| usage.per_customer() >= cap)
            }
            _ => false,
        })
    }

    /// The rules for a use already held for this buyer: every rule but the
    /// kill switch and the caps, which applied when the hold was taken. `caps`
    /// says whether a cap refuses (`Exhausted`, `CustomerLimitReached`).
    fn check_held(
        &self,
        customer: Option<&CustomerId>,
        basket: &Basket,
        now: Timestamp,
        caps: impl Fn(Rejection) -> bool,
    ) -> Option<Rejection> {
        let limits = self.limits();
        let assigned = self.audience().is_assigned();
        if customer.is_none() && (limits.per_customer().is_some() || assigned) {
            return Some(Rejection::CustomerRequired);
        }
        if customer.is_some_and(|c| !self.audience().admits(c)) {
            return Some(Rejection::NotAssigned);
        }
        if self.starts_at().is_some_and(|start| now < start) {
            return Some(Rejection::NotStarted);
        }
        if self.ends_at().is_some_and(|end| now >= end) {
            return Some(Rejection::Expired);
        }
        for cap in [Rejection::Exhausted, Rejection::CustomerLimitReached] {
            if caps(cap) {
                return Some(cap);
            }
        }
        if self.currency().is_some_and(|currency| currency != basket.currency()) {
            return Some(Rejection::CurrencyMismatch);
        }
        let eligible = self.eligible_subtotal(basket);
        let Some(eligible) = eligible else {
            return Some(Rejection::NoEligibleItems);
        };
        if let Some(minimum) = self.minimum() {
            if minimum.partial_cmp_same(&eligible).is_some_and(|o| o.is_gt()) {
                return Some(Rejection::BelowMinimum);
            }
        }
        None
    }

    /// Checks a use held for this buyer against a changed basket: every rule
    /// but the kill switch and the caps.
    pub(crate) fn validate_held(
        &self,
        customer: Option<&CustomerId>,
        basket: &Basket,
        now: Timestamp,
    ) -> Result<Quote, PromoCodeRejected> {
        match self.check_held(customer, basket, now, |_| false) {
            None => self.price(basket, now),
            Some(rejection) => Err(PromoCodeRejected::new(self, rejection)),
        }
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
        match self.check(customer, usage, basket, now) {
            None => Ok(()),
            Some(rejection) => Err(PromoCodeRejected::new(self, rejection)),
        }
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
        self.validate(customer, usage, basket, now)?;
        self.price(basket, now)
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
        if self.currency().is_some_and(|currency| currency != basket.currency()) {
            return Err(PromoCodeRejected::new(self, Rejection::CurrencyMismatch));
        }
        let currency = basket.currency();
        let zero = Money::zero(currency);
        let mut note = None;
        let mut shipping_off = zero;
        let eligible = self.eligible_subtotal(basket).unwrap_or(zero);
        let discount = match self.discount().kind() {
            DiscountKind::FreeShipping => {
                let shipping = basket.shipping().copied().unwrap_or(zero);
                if !basket.has_lines() {
                    note = Some("free shipping needs a basket with lines and shipping; this one has only a total");
                } else if basket.shipping().is_none() {
                    note = Some("this basket has no shipping to take off");
                }
                shipping_off = cap(shipping, self.discount().max());
                shipping_off
            }
            DiscountKind::Percent => {
                let percent = self.discount().as_percent().unwrap_or_default();
                let off = eligible.percent_of(percent);
                cap(off, self.discount().max()).min_same(eligible)
            }
            DiscountKind::Fixed => {
                let amount = self.discount().fixed_amount().copied().unwrap_or(zero);
                cap(amount, self.discount().max()).min_same(eligible)
            }
        };
        let payable = basket.total().checked_sub(&discount).unwrap_or(zero);
        let lines = basket.has_lines().then(|| self.split(basket, discount, shipping_off));
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
        })
    }

    /// The discount's parts per line: what is not taken off shipping, over
    /// the eligible lines by the largest-remainder method.
    fn split(&self, basket: &Basket, discount: Money, shipping_off: Money) -> Vec<QuoteLine> {
        let currency = basket.currency();
        let eligible: Vec<bool> = basket
            .lines()
            .iter()
            .map(|l| self.applies_to().is_none_or(|scope| scope.includes(l)))
            .collect();
        let weights: Vec<i128> = basket
            .lines()
            .iter()
            .zip(&eligible)
            .map(|(l, e)| if *e { l.amount().minor() } else { 0 })
            .collect();
        let parts = largest_remainder(discount.minor() - shipping_off.minor(), &weights);
        basket
            .lines()
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

/// `amount`, at most `max` when there is one (in the same currency).
fn cap(amount: Money, max: Option<&Money>) -> Money {
    match max {
        Some(max) => amount.min_same(*max),
        None => amount,
    }
}
