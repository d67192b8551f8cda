//! Why a redemption gives no answer: one error for hold, capture and redeem,
//! one for release. Three kinds stay apart in each: a rejection (for the
//! buyer), a conflict (for the operator), and bad input, misuse of the call
//! or a store failure (for the developer).

use crate::rules::{PromoCodeRejected, Quote, Rejection};
use crate::values::{Code, IdempotencyKey, InputError};
use crate::StoreError;

/// Every pass lost its compare-and-set: the code is so contended that
/// `attempts` honest tries could not land a write.
///
/// This is an answer for the operator, not the buyer: nothing is wrong with
/// the code or the basket. Let it bubble up so the payment provider
/// redelivers (or the client retries with the same idempotency key).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("redemption of {code} conflicted {attempts} times in a row; retry with the same idempotency key")]
pub struct RedemptionConflict {
    /// The contended code.
    pub code: Code,
    /// How many writes were tried.
    pub attempts: u32,
}

/// A redemption refused by a rule: the rule that refused, with its sentence
/// for the buyer; the quote the buyer had been shown, which no longer holds;
/// and, for [`Rejection::QuoteChanged`], what pricing gives now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{rejected}")]
pub struct RedemptionRejected {
    /// Which rule refused, with the sentence for the buyer.
    pub rejected: PromoCodeRejected,
    /// The stale quote: the one a capture was pinned to, else the hold's,
    /// else the basket as priced without the rules (or without the code,
    /// when even pricing refuses).
    pub quote: Quote,
    /// For `quote_changed`: the quote pricing gives now.
    pub current: Option<Quote>,
}

impl RedemptionRejected {
    /// The rule that refused.
    pub fn rejection(&self) -> Rejection {
        self.rejected.rejection()
    }
}

/// A call the caller got wrong, whatever the input: not bad input, and
/// never the buyer's doing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Misuse {
    /// Zero attempts were asked for; at least one is needed.
    #[error("attempts must be at least 1")]
    ZeroAttempts,
    /// A capture was pinned to a quote made for another code.
    #[error("the quote is for code {quoted}, not {code}")]
    QuoteForOtherCode {
        /// The code being captured.
        code: String,
        /// The code the quote was made for.
        quoted: String,
    },
}

/// Why [`redeem`](crate::redeem), [`hold`](crate::hold) or
/// [`capture`](crate::capture) returned no answer. In every case but a store
/// failure, nothing was recorded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RedemptionError {
    /// A rule refused, or the price changed: the rule, the stale quote and,
    /// for `quote_changed`, the current one.
    #[error(transparent)]
    Rejected(Box<RedemptionRejected>),
    /// Every attempt lost its compare-and-set.
    #[error(transparent)]
    Conflict(RedemptionConflict),
    /// The idempotency key names another redemption (another customer or basket).
    #[error("idempotency key {key} was already used for a different redemption")]
    IdempotencyKeyReused {
        /// The reused key.
        key: IdempotencyKey,
    },
    /// The request itself is invalid (a hold's time to live, an amount charged).
    #[error(transparent)]
    Input(InputError),
    /// The call itself is wrong (zero attempts, a quote for another code).
    #[error(transparent)]
    Misuse(Misuse),
    /// The store failed; whether anything was recorded is for the store to say.
    #[error(transparent)]
    Store(StoreError),
}

impl RedemptionError {
    /// The rule that refused, for a rejection.
    pub fn rejection(&self) -> Option<Rejection> {
        match self {
            RedemptionError::Rejected(rejected) => Some(rejected.rejection()),
            _ => None,
        }
    }
}

/// Why [`release`](crate::release) gave nothing back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReleaseError {
    /// Nothing was ever recorded under this key for this code. Not a rejection:
    /// the caller named something that does not exist.
    #[error("no hold or redemption of {code} is recorded under idempotency key {key}")]
    UnknownKey {
        /// The code.
        code: Code,
        /// The key asked for.
        key: IdempotencyKey,
    },
    /// The request itself is invalid (a reason too long); nothing was changed.
    #[error(transparent)]
    Input(InputError),
    /// The store failed.
    #[error(transparent)]
    Store(StoreError),
}
