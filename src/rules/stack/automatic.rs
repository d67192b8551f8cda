//! Automatic promotions: which of them join a basket beside the typed codes
//! ([`Stack::with_automatic`]), and the ones that did not ([`Skipped`]).

use serde::{Deserialize, Serialize};

use super::{check_codes, Stack, StackQuote, StackResumeError};
use crate::rules::basket::Basket;
use crate::rules::counts::UsageCounts;
use crate::rules::definition::PromoCode;
use crate::rules::quote::Quote;
use crate::rules::rejection::{PromoCodeRejected, Rejection};
use crate::values::{Code, CustomerId, InputError, Timestamp};

/// An automatic promotion that did not join a basket, and why: the first
/// rule that refused it, as a typed code's refusal would say it (or
/// [`Rejection::NotCombinable`] when it does not combine with a code
/// taken before it, or would leave one of them refused).
///
/// Serialised as `{"code", "rejection", "detail"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    code: Code,
    rejection: Rejection,
    detail: String,
}

impl Skipped {
    fn of(refused: &PromoCodeRejected) -> Skipped {
        Skipped {
            code: refused.code().clone(),
            rejection: refused.rejection(),
            detail: refused.message().to_owned(),
        }
    }

    /// The promotion's code.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// The rule that kept it out.
    pub fn rejection(&self) -> Rejection {
        self.rejection
    }

    /// A sentence for the buyer (the refusal's message).
    pub fn detail(&self) -> &str {
        &self.detail
    }
}

impl Stack {
    /// The most automatic promotions one basket is offered.
    pub const MAX_AUTOMATIC: usize = 20;

    /// A stack of the typed `codes` (0 to [`Stack::MAX_CODES`], in the order
    /// the request lists them) and the `automatic` promotions offered beside
    /// them (0 to [`Stack::MAX_AUTOMATIC`], in any order).
    ///
    /// **Deciding.** The typed codes are taken first, refused as a stack of
    /// them alone is ([`Stack::quote`]): an automatic promotion never makes a
    /// typed code refuse. Then each automatic promotion, by
    /// [`priority`](PromoCode::priority) and then by code, joins when it
    /// combines with every code taken so far (each lists the other's class)
    /// and the stack of them all, priced in the order of application
    /// (product, order, shipping; within a class the typed codes as listed,
    /// then the automatic ones as decided), refuses none of them. One that
    /// does not join is [`Skipped`], never an error, whatever the reason (its
    /// window, its caps, its minimum, its audience). An automatic promotion
    /// that is also typed counts as typed. So the quote never depends on the
    /// order the automatic promotions are given in.
    ///
    /// Usage and records (`usage`, `recorded` of [`quote`](Stack::quote),
    /// [`resume`](Stack::resume)) list the typed codes, then the automatic
    /// ones as given here.
    ///
    /// # Errors
    ///
    /// [`InputError::TooMany`] (field `codes` or `automatic`) beyond either
    /// bound, and [`InputError::DuplicateCode`] for a code listed twice in
    /// either list.
    ///
    /// # Example
    ///
    /// Free shipping from EUR 50.00 and 5% off everything, both automatic;
    /// the buyer types SAVE10, which combines with shipping codes only.
    ///
    /// ```
    /// use promocodes::{from_json, Basket, PromoCode, Rejection, Stack, Timestamp};
    ///
    /// let save10: PromoCode = from_json(r#"{"code": "SAVE10", "discount": {"kind": "percent", "percent": "10"},
    ///     "combines_with": ["shipping"]}"#)?;
    /// let automatic: Vec<PromoCode> = vec![
    ///     from_json(r#"{"code": "FIVE", "discount": {"kind": "percent", "percent": "5"},
    ///         "automatic": true, "priority": 20, "combines_with": ["shipping"]}"#)?,
    ///     from_json(r#"{"code": "SHIP50", "discount": {"kind": "free_shipping"}, "automatic": true,
    ///         "priority": 10, "minimum": {"amount": "50.00", "currency": "EUR"},
    ///         "combines_with": ["product", "order"]}"#)?,
    /// ];
    /// let basket: Basket = from_json(r#"{"lines": [
    ///     {"sku": "GRINDER", "quantity": 1, "unit_price": {"amount": "46.50", "currency": "EUR"}}],
    ///     "shipping": {"amount": "4.90", "currency": "EUR"}}"#)?;
    /// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
    ///
    /// let stack = Stack::with_automatic(vec![save10], automatic)?;
    /// let quote = stack.quote(None, &[], &basket, now)?;
    /// let parts: Vec<String> = quote.codes().iter().map(|p| format!("{} {}", p.code(), p.discount().amount_text())).collect();
    /// assert_eq!(parts, ["SAVE10 4.65"]);
    /// let skipped: Vec<(&str, Rejection)> = quote.skipped().iter().map(|s| (s.code().as_str(), s.rejection())).collect();
    /// assert_eq!(skipped, [("SHIP50", Rejection::BelowMinimum), ("FIVE", Rejection::NotCombinable)]);
    /// assert_eq!(quote.skipped()[0].detail(), "this code needs a basket of at least EUR 50.00");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_automatic(codes: Vec<PromoCode>, automatic: Vec<PromoCode>) -> Result<Stack, InputError> {
        if !codes.is_empty() {
            check_codes(&codes)?;
        }
        let count = automatic.len();
        if count > Stack::MAX_AUTOMATIC {
            return Err(InputError::TooMany {
                field: "automatic",
                count,
                max: Stack::MAX_AUTOMATIC,
            });
        }
        for (i, promo) in automatic.iter().enumerate() {
            if automatic[..i].iter().any(|earlier| earlier.code() == promo.code()) {
                return Err(InputError::DuplicateCode {
                    code: promo.code().as_str().to_owned(),
                });
            }
        }
        Ok(Stack { codes, automatic })
    }

    /// The automatic promotions offered, as given to [`Stack::with_automatic`].
    pub fn automatic(&self) -> &[PromoCode] {
        &self.automatic
    }

    /// A stack retried under its idempotency key that decides no automatic
    /// promotion afresh: the typed codes as [`resume`](Stack::resume) has
    /// them, and only the automatic promotions with a use under the key
    /// (`recorded`), as recorded. What a request tried before answers, so
    /// that a retry never takes an automatic promotion its first try had
    /// not taken (one that turned automatic since, or whose caps freed up).
    ///
    /// # Errors
    ///
    /// As [`resume`](Stack::resume).
    pub fn replay(
        &self,
        customer: Option<&CustomerId>,
        usage: &[UsageCounts],
        recorded: &[Option<Quote>],
        basket: &Basket,
        now: Timestamp,
    ) -> Result<StackQuote, StackResumeError> {
        self.resume_or_replay(true, customer, usage, recorded, basket, now)
    }

    /// [`resume`](Stack::resume), or with `replay` [`replay`](Stack::replay).
    pub(super) fn resume_or_replay(
        &self,
        replay: bool,
        customer: Option<&CustomerId>,
        usage: &[UsageCounts],
        recorded: &[Option<Quote>],
        basket: &Basket,
        now: Timestamp,
    ) -> Result<StackQuote, StackResumeError> {
        let typed = self.codes.len();
        if self.automatic.is_empty() {
            let codes: Vec<&PromoCode> = self.codes.iter().collect();
            return Stack::price(&codes, customer, usage, recorded, basket, now);
        }
        // The automatic promotions to decide, by priority then code, each once (a typed one is typed).
        let mut offered: Vec<usize> = (0..self.automatic.len())
            .filter(|&j| !self.codes.iter().any(|t| t.code() == self.automatic[j].code()))
            .collect();
        self.by_priority(&mut offered);
        let has_record = |j: usize| matches!(recorded.get(typed + j), Some(Some(_)));
        // A promotion with a use under the key joins as recorded; the typed codes refuse as alone.
        let mut taken: Vec<usize> = offered.iter().copied().filter(|&j| has_record(j)).collect();
        let mut quote = self.priced_with(&taken, customer, usage, recorded, basket, now)?;
        let mut skipped = Vec::new();
        for &j in offered.iter().filter(|&&j| !replay && !has_record(j)) {
            let promo = &self.automatic[j];
            let taken_codes = self.codes.iter().chain(taken.iter().map(|&t| &self.automatic[t]));
            if let Some(other) = taken_codes.clone().find(|earlier| !earlier.combines(promo)) {
                skipped.push(Skipped::of(&PromoCodeRejected::not_combinable(promo, other)));
                continue;
            }
            let mut trial = taken.clone();
            trial.push(j);
            match self.priced_with(&trial, customer, usage, recorded, basket, now) {
                Ok(with) => {
                    taken = trial;
                    quote = with;
                }
                Err(StackResumeError::Rejected(refused)) => {
                    let own = refused.refusals().iter().find(|r| r.code() == promo.code());
                    let skip = match (own, refused.refusals().first()) {
                        (Some(own), _) => Skipped::of(own.as_rejected()),
                        (None, Some(other)) => Skipped {
                            code: promo.code().clone(),
                            rejection: Rejection::NotCombinable,
                            detail: format!(
                                "this promotion would leave {} refused: {}",
                                other.code(),
                                other.message()
                            ),
                        },
                        (None, None) => unreachable!("a refused stack names at least one code"),
                    };
                    skipped.push(skip);
                }
                Err(other) => return Err(other),
            }
        }
        quote.skipped = skipped;
        Ok(quote)
    }

    /// Sorts positions in [`automatic`](Stack::automatic) by priority, then
    /// code (an insertion sort: a list of at most [`Stack::MAX_AUTOMATIC`],
    /// and the browser module has a size budget that a general sort's code
    /// would take a good part of).
    fn by_priority(&self, positions: &mut [usize]) {
        let key = |j: usize| (self.automatic[j].priority(), self.automatic[j].code().as_str());
        for i in 1..positions.len() {
            let mut k = i;
            while k > 0 && key(positions[k - 1]) > key(positions[k]) {
                positions.swap(k - 1, k);
                k -= 1;
            }
        }
    }

    /// The typed codes and the automatic promotions `taken` (positions in
    /// [`automatic`](Stack::automatic), in the order decided), priced as one
    /// stack of typed codes with their usage and records; each automatic
    /// part is marked so.
    fn priced_with(
        &self,
        taken: &[usize],
        customer: Option<&CustomerId>,
        usage: &[UsageCounts],
        recorded: &[Option<Quote>],
        basket: &Basket,
        now: Timestamp,
    ) -> Result<StackQuote, StackResumeError> {
        let typed = self.codes.len();
        let mut taken = taken.to_vec();
        // Within a class, the automatic ones apply by priority then code, whatever order decided them.
        self.by_priority(&mut taken);
        let codes: Vec<&PromoCode> = self
            .codes
            .iter()
            .chain(taken.iter().map(|&j| &self.automatic[j]))
            .collect();
        let pick = |i: usize| if i < typed { i } else { typed + taken[i - typed] };
        let usage: Vec<UsageCounts> = (0..codes.len())
            .map(|i| usage.get(pick(i)).copied().unwrap_or(UsageCounts::ZERO))
            .collect();
        let recorded: Vec<Option<Quote>> = (0..codes.len())
            .map(|i| recorded.get(pick(i)).cloned().flatten())
            .collect();
        let mut quote = Stack::price(&codes, customer, &usage, &recorded, basket, now)?;
        for part in &mut quote.codes {
            part.automatic = !self.codes.iter().any(|t| t.code() == part.code());
        }
        Ok(quote)
    }
}
