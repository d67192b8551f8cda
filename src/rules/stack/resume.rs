//! A stack retried under its idempotency key: each code's recorded use
//! taken as it is, and only the others priced ([`Stack::resume`]).

use super::{Stack, StackPart, StackQuote, StackRefusal, StackRejected};
use crate::rules::basket::Basket;
use crate::rules::counts::UsageCounts;
use crate::rules::definition::PromoCode;
use crate::rules::quote::Quote;
use crate::rules::rejection::PromoCodeRejected;
use crate::values::{Code, CustomerId, Money, Timestamp};

impl Stack {
    /// The quote of a stack retried under its idempotency key, some of whose
    /// codes already have a use under that key (held or captured):
    /// `recorded[i]` is the quote the `i`-th code as listed was recorded with
    /// (none for a code without a use under the key, or without an entry).
    ///
    /// A recorded code is never priced again: its part is its record, as it
    /// is, whatever changed since (its definition, its counts, a budget), and
    /// it takes off what its record took off. The others are priced as
    /// [`quote`](Stack::quote) prices them, each on the basket the codes
    /// before it left, recorded or not. A stack whose codes are all recorded
    /// is its records, and nothing is priced (in the order its records
    /// chain, should an edit have moved a code to another class since); so a
    /// retry of a stack written whole replays as a whole, and one that
    /// stopped half way is finished.
    ///
    /// # Errors
    ///
    /// [`StackResumeError::KeyReused`] when a code's record is not for the
    /// basket the codes before it leave (the key was used for another
    /// basket: a key names one redemption forever), else
    /// [`StackResumeError::Rejected`] with every code priced now that
    /// refused, as [`quote`](Stack::quote) has them.
    ///
    /// # Example
    ///
    /// A product code captured 5.00 off under the key and an order code not
    /// yet: the product code's part stays 5.00 after its edit to 40%, and the
    /// order code is priced on what it left.
    ///
    /// ```
    /// use promocodes::{from_json, Basket, PromoCode, Stack, Timestamp, UsageCounts};
    ///
    /// let mugs = r#"{"code": "MUGS", "discount": {"kind": "percent", "percent": "20"},
    ///                "applies_to": {"categories": ["mugs"]}, "combines_with": ["order"]}"#;
    /// let save = r#"{"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"},
    ///                "combines_with": ["product"]}"#;
    /// let basket: Basket = from_json(r#"{"lines": [
    ///     {"sku": "MUG", "quantity": 2, "unit_price": {"amount": "12.50", "currency": "EUR"}, "categories": ["mugs"]},
    ///     {"sku": "GRINDER", "quantity": 1, "unit_price": {"amount": "46.50", "currency": "EUR"}}]}"#)?;
    /// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
    /// let first = Stack::new(vec![from_json(mugs)?, from_json(save)?])?;
    /// let recorded = first.quote(None, &[], &basket, now)?.codes()[0].quote().clone();
    ///
    /// let edited = mugs.replace(r#""20""#, r#""40""#);
    /// let stack = Stack::new(vec![from_json::<PromoCode>(&edited)?, from_json(save)?])?;
    /// let quote = stack.resume(None, &[UsageCounts::ZERO; 2], &[Some(recorded)], &basket, now)?;
    /// let parts: Vec<String> = quote.codes().iter().map(|p| format!("{} {}", p.code(), p.discount().amount_text())).collect();
    /// assert_eq!(parts, ["MUGS 5.00", "SAVE10 6.65"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// A stack [with automatic promotions](Stack::with_automatic) takes
    /// each one with a use under the key as it is too, and decides the
    /// others afresh; [`replay`](Stack::replay) decides none afresh.
    pub fn resume(
        &self,
        customer: Option<&CustomerId>,
        usage: &[UsageCounts],
        recorded: &[Option<Quote>],
        basket: &Basket,
        now: Timestamp,
    ) -> Result<StackQuote, StackResumeError> {
        self.resume_or_replay(false, customer, usage, recorded, basket, now)
    }

    /// [`resume`](Stack::resume) of `codes` as typed codes (listed in that
    /// order): what every quote of a stack comes to, once its automatic
    /// promotions are decided. Over references, so that deciding them
    /// clones no definition.
    pub(super) fn price(
        codes: &[&PromoCode],
        customer: Option<&CustomerId>,
        usage: &[UsageCounts],
        recorded: &[Option<Quote>],
        basket: &Basket,
        now: Timestamp,
    ) -> Result<StackQuote, StackResumeError> {
        let mut refusals: Vec<StackRefusal> = Vec::new();
        let mut parts: Vec<StackPart> = Vec::with_capacity(codes.len());
        // The basket as the codes applied so far left it.
        let mut left = basket.clone();
        // The campaign and discount of each code priced so far that counts under a campaign (a
        // recorded code's use is in the counts the store reported already).
        let mut shared: Vec<(&Code, Money)> = Vec::new();
        // By class in the order of application, and within a class as listed.
        for (i, promo) in super::order_of(codes).into_iter().map(|i| (i, codes[i])) {
            if let Some(Some(record)) = recorded.get(i) {
                // Recorded under the key: its part as it was, on the basket it was recorded for.
                if record.code() != promo.code() || !record.is_for(&left) {
                    // Every code recorded, in another order (an edit moved a code to another
                    // class since): the records as they chain.
                    return Stack::chained(codes, recorded, basket, now).ok_or_else(|| StackResumeError::KeyReused {
                        code: promo.code().clone(),
                    });
                }
                left.take_off(record);
                parts.push(StackPart {
                    class: promo.class(),
                    quote: record.clone(),
                    automatic: false,
                });
                continue;
            }
            let mut usage = usage.get(i).copied().unwrap_or(UsageCounts::ZERO);
            // A campaign's counts are shared: each code of its campaign priced before this one in
            // this stack has taken its use by the time this code is written.
            if let Some(campaign) = promo.campaign() {
                for (_, off) in shared.iter().filter(|(other, _)| *other == campaign) {
                    usage = usage.after_campaign_use(customer.is_some(), off);
                }
            }
            let conflict = codes[..i].iter().copied().find(|earlier| !earlier.combines(promo));
            match (promo.quote(customer, usage, &left, now), conflict) {
                (Err(refused), _) => refusals.push(StackRefusal::new(refused)),
                (Ok(_), Some(other)) => refusals.push(StackRefusal {
                    refused: PromoCodeRejected::not_combinable(promo, other),
                    with: Some(other.code().clone()),
                }),
                (Ok(quote), None) => {
                    left.take_off(&quote);
                    if let Some(campaign) = promo.campaign() {
                        shared.push((campaign, *quote.discount()));
                    }
                    parts.push(StackPart {
                        class: promo.class(),
                        quote,
                        automatic: false,
                    });
                }
            }
        }
        if !refusals.is_empty() {
            return Err(StackResumeError::Rejected(StackRejected { refusals }));
        }
        Ok(StackQuote::of(basket, &left, parts, now))
    }

    /// A stack whose every code is recorded, as its records chain: each for
    /// the basket the ones before it left, starting from `basket`, in the
    /// first such order (none when no order chains).
    fn chained(
        codes: &[&PromoCode],
        recorded: &[Option<Quote>],
        basket: &Basket,
        now: Timestamp,
    ) -> Option<StackQuote> {
        fn chain(records: &[&Quote], left: &Basket, order: &mut Vec<usize>) -> Option<Basket> {
            if order.len() == records.len() {
                return Some(left.clone());
            }
            for (i, record) in records.iter().enumerate() {
                if order.contains(&i) || !record.is_for(left) {
                    continue;
                }
                let mut next = left.clone();
                next.take_off(record);
                order.push(i);
                if let Some(end) = chain(records, &next, order) {
                    return Some(end);
                }
                order.pop();
            }
            None
        }
        let records: Vec<&Quote> = codes
            .iter()
            .enumerate()
            .map(|(i, promo)| recorded.get(i)?.as_ref().filter(|q| q.code() == promo.code()))
            .collect::<Option<_>>()?;
        let mut order = Vec::with_capacity(records.len());
        let left = chain(&records, basket, &mut order)?;
        let parts = order
            .into_iter()
            .map(|i| StackPart {
                class: codes[i].class(),
                quote: records[i].clone(),
                automatic: false,
            })
            .collect();
        Some(StackQuote::of(basket, &left, parts, now))
    }
}

/// Why a stack retried under its key ([`Stack::resume`]) has no quote.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StackResumeError {
    /// A code priced now refused: the buyer's rejection, as a fresh stack's.
    #[error(transparent)]
    Rejected(#[from] StackRejected),
    /// A code's record under the key is for another basket than the one the
    /// codes before it leave: the key was used for another redemption.
    #[error("the use of {code} under this key is for another basket")]
    KeyReused {
        /// The code whose record is for another basket.
        code: Code,
    },
}
