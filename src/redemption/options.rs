//! The options of each redemption: keys, attempts, pins and times to live.

use super::{DEFAULT_ATTEMPTS, DEFAULT_HOLD_TTL_SECONDS};
#[cfg(doc)]
use super::{MAX_HOLD_TTL_SECONDS, MIN_HOLD_TTL_SECONDS};
use crate::rules::Quote;
use crate::values::{IdempotencyKey, Money};

/// Options for [`redeem`](crate::redeem): an idempotency key and the attempt budget.
#[derive(Debug, Clone, Copy)]
#[must_use]
pub struct RedeemOptions<'a> {
    pub(super) idempotency_key: Option<&'a IdempotencyKey>,
    pub(super) attempts: u32,
}

impl Default for RedeemOptions<'_> {
    fn default() -> Self {
        RedeemOptions {
            idempotency_key: None,
            attempts: DEFAULT_ATTEMPTS,
        }
    }
}

impl<'a> RedeemOptions<'a> {
    /// No key, [`DEFAULT_ATTEMPTS`] passes.
    pub fn new() -> RedeemOptions<'a> {
        RedeemOptions::default()
    }

    /// Makes the redemption safe to retry under `key`.
    pub fn idempotency_key(mut self, key: &'a IdempotencyKey) -> RedeemOptions<'a> {
        self.idempotency_key = Some(key);
        self
    }

    /// How many passes to make (at least 1).
    pub fn attempts(mut self, attempts: u32) -> RedeemOptions<'a> {
        self.attempts = attempts;
        self
    }
}

/// Options for [`capture`](crate::capture): [`RedeemOptions`] plus the quote the buyer was shown.
#[derive(Debug, Clone, Copy, Default)]
#[must_use]
pub struct CaptureOptions<'a> {
    pub(super) redeem: RedeemOptions<'a>,
    pub(super) quoted: Option<&'a Quote>,
    pub(super) charged: Option<Money>,
}

impl<'a> CaptureOptions<'a> {
    /// No key, [`DEFAULT_ATTEMPTS`] passes, not pinned to a quote.
    pub fn new() -> CaptureOptions<'a> {
        CaptureOptions::default()
    }

    /// Makes the capture safe to retry under `key`; the key of an active hold converts it.
    pub fn idempotency_key(mut self, key: &'a IdempotencyKey) -> CaptureOptions<'a> {
        self.redeem = self.redeem.idempotency_key(key);
        self
    }

    /// How many passes to make (at least 1).
    pub fn attempts(mut self, attempts: u32) -> CaptureOptions<'a> {
        self.redeem = self.redeem.attempts(attempts);
        self
    }

    /// Pins the capture to the quote the buyer was shown (what the payment
    /// provider charged): if pricing now gives another discount or amount to
    /// pay, the capture is refused with
    /// [`Rejection::QuoteChanged`](crate::Rejection::QuoteChanged).
    pub fn quoted(mut self, quote: &'a Quote) -> CaptureOptions<'a> {
        self.quoted = Some(quote);
        self
    }

    /// Pins the capture to the amount the payment provider charged, when
    /// that is all it reports: as [`quoted`](CaptureOptions::quoted) with
    /// the quote that charges `amount` for the basket (its discount is the
    /// basket total minus `amount`). Refused with
    /// [`Rejection::QuoteChanged`](crate::Rejection::QuoteChanged) when
    /// pricing now asks another amount; [`RedemptionError::Input`](crate::RedemptionError::Input) when `amount`
    /// is in another currency than the basket or above its total. With
    /// [`quoted`](CaptureOptions::quoted) too, the quote is what is pinned.
    pub fn charged(mut self, amount: Money) -> CaptureOptions<'a> {
        self.charged = Some(amount);
        self
    }
}

/// Options for [`hold`](crate::hold): how long the hold lasts and the attempt budget.
#[derive(Debug, Clone, Copy)]
#[must_use]
pub struct HoldOptions {
    pub(super) ttl_seconds: u64,
    pub(super) attempts: u32,
}

impl Default for HoldOptions {
    fn default() -> Self {
        HoldOptions {
            ttl_seconds: DEFAULT_HOLD_TTL_SECONDS,
            attempts: DEFAULT_ATTEMPTS,
        }
    }
}

impl HoldOptions {
    /// 15 minutes, [`DEFAULT_ATTEMPTS`] passes.
    pub fn new() -> HoldOptions {
        HoldOptions::default()
    }

    /// How long the hold lasts, from [`MIN_HOLD_TTL_SECONDS`] to [`MAX_HOLD_TTL_SECONDS`].
    pub fn ttl_seconds(mut self, seconds: u64) -> HoldOptions {
        self.ttl_seconds = seconds;
        self
    }

    /// How many passes to make (at least 1).
    pub fn attempts(mut self, attempts: u32) -> HoldOptions {
        self.attempts = attempts;
        self
    }
}
