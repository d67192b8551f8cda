//! Why a code does not apply: the rules' refusals, in the order they are checked.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::definition::PromoCode;
use super::quote::Quote;
use crate::values::{Code, Money};

/// Why a code does not apply: an answer for the buyer, who can act on it.
///
/// Rules are checked in the order of the variants here; the first that
/// applies is the one reported. Each has a stable snake_case [`code`](Rejection::code),
/// which is how it is serialised for JSON and JavaScript, and a human sentence.
/// [`Rejection::QuoteChanged`] is not a rule of the code: only a capture pinned
/// to the quote the buyer was shown reports it, after every rule has passed.
///
/// # Example
///
/// ```
/// use promocodes::Rejection;
///
/// assert_eq!(Rejection::BelowMinimum.code(), "below_minimum");
/// assert_eq!(Rejection::from_code("exhausted"), Some(Rejection::Exhausted));
/// assert_eq!(serde_json::to_string(&Rejection::NotStarted)?, r#""not_started""#);
/// assert_eq!(Rejection::ALL[0], Rejection::Inactive);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Rejection {
    /// The code is switched off (its kill switch).
    Inactive,
    /// The code has a per-customer cap or an assigned audience, and no customer was given.
    CustomerRequired,
    /// The code is assigned to other customers.
    NotAssigned,
    /// The code's window has not opened yet.
    NotStarted,
    /// The code's window has closed.
    Expired,
    /// The code's total cap is reached.
    Exhausted,
    /// The customer has used the code as often as it allows.
    CustomerLimitReached,
    /// A first-order code, and the customer placed orders before.
    NotFirstOrder,
    /// The basket is in a currency the code's amounts are not in.
    CurrencyMismatch,
    /// The code applies to some products only, and no line of the basket is one
    /// (or the basket has no lines to tell).
    NoEligibleItems,
    /// The basket has eligible lines but too few units (or too little spent)
    /// for the code: a buy X get Y short of one application, a tiered code by
    /// quantity below its first tier. The sentence says what is missing
    /// ("add 1 more item from mugs").
    NotEnoughItems,
    /// The code's money budget has nothing left, or (when it refuses a short
    /// budget) less than this discount. It is checked after the caps and the
    /// basket's currency and lines (it needs the discount), before the minimum.
    BudgetExhausted,
    /// The eligible subtotal is below the code's minimum.
    BelowMinimum,
    /// In a basket with several codes ([`Stack`](crate::Stack)): this code and
    /// one listed before it do not combine (each must list the other's class
    /// in `combines_with`). Checked after every rule of the code's own.
    NotCombinable,
    /// A capture pinned to the quote the buyer was shown: pricing now gives
    /// another discount or amount to pay.
    QuoteChanged,
}

impl Rejection {
    /// Every rejection, in the order the rules are checked.
    pub const ALL: [Rejection; 15] = [
        Rejection::Inactive,
        Rejection::CustomerRequired,
        Rejection::NotAssigned,
        Rejection::NotStarted,
        Rejection::Expired,
        Rejection::Exhausted,
        Rejection::CustomerLimitReached,
        Rejection::NotFirstOrder,
        Rejection::CurrencyMismatch,
        Rejection::NoEligibleItems,
        Rejection::NotEnoughItems,
        Rejection::BudgetExhausted,
        Rejection::BelowMinimum,
        Rejection::NotCombinable,
        Rejection::QuoteChanged,
    ];

    /// The stable snake_case code: `"below_minimum"`.
    pub fn code(self) -> &'static str {
        match self {
            Rejection::Inactive => "inactive",
            Rejection::CustomerRequired => "customer_required",
            Rejection::NotAssigned => "not_assigned",
            Rejection::NotStarted => "not_started",
            Rejection::Expired => "expired",
            Rejection::Exhausted => "exhausted",
            Rejection::CustomerLimitReached => "customer_limit_reached",
            Rejection::NotFirstOrder => "not_first_order",
            Rejection::CurrencyMismatch => "currency_mismatch",
            Rejection::NoEligibleItems => "no_eligible_items",
            Rejection::NotEnoughItems => "not_enough_items",
            Rejection::BudgetExhausted => "budget_exhausted",
            Rejection::BelowMinimum => "below_minimum",
            Rejection::NotCombinable => "not_combinable",
            Rejection::QuoteChanged => "quote_changed",
        }
    }

    /// The rejection with this stable code, if any.
    pub fn from_code(code: &str) -> Option<Rejection> {
        Rejection::ALL.into_iter().find(|r| r.code() == code)
    }

    /// Whether the basket decided it (its currency, its lines, its subtotal)
    /// rather than the code or the customer. The rules about the basket are
    /// checked after every rule about the customer, so such a refusal also
    /// says that the customer may use the code.
    pub fn is_about_the_basket(self) -> bool {
        matches!(
            self,
            Rejection::CurrencyMismatch
                | Rejection::NoEligibleItems
                | Rejection::NotEnoughItems
                | Rejection::BelowMinimum
        )
    }

    /// A general sentence for the buyer. [`PromoCodeRejected`]'s message is the
    /// same sentence with the code's own figures in it.
    pub fn message(self) -> &'static str {
        match self {
            Rejection::Inactive => "this code is not active",
            Rejection::CustomerRequired => "this code needs you to be signed in",
            Rejection::NotAssigned => "this code is not available to you",
            Rejection::NotStarted => "this code is not valid yet",
            Rejection::Expired => "this code has expired",
            Rejection::Exhausted => "this code has been used up",
            Rejection::CustomerLimitReached => "you have already used this code as often as it allows",
            Rejection::NotFirstOrder => "this code is for a first order only",
            Rejection::CurrencyMismatch => "this code does not apply to a basket in this currency",
            Rejection::NoEligibleItems => "this code does not apply to anything in this basket",
            Rejection::NotEnoughItems => "this code needs more items in this basket",
            Rejection::BudgetExhausted => "this promotion's budget is used up",
            Rejection::BelowMinimum => "this code needs a larger basket",
            Rejection::NotCombinable => "this code cannot be combined with another code in this basket",
            Rejection::QuoteChanged => "the price changed since it was quoted",
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// A code refused by its rules: which code, which rule, and a sentence for the buyer.
///
/// # Example
///
/// ```
/// use promocodes::{Basket, Code, Currency, Discount, Money, PromoCode, Rejection, Timestamp, UsageCounts};
///
/// let promo = PromoCode::builder(Code::parse("BIG")?, Discount::percent("10".parse()?)?)
///     .minimum(Money::parse("50", Currency::EUR)?)
///     .build()?;
/// let small = Basket::from(Money::parse("20", Currency::EUR)?);
/// let now: Timestamp = "2026-12-02T10:00:00Z".parse()?;
///
/// let refused = promo.validate(None, UsageCounts::ZERO, &small, now).unwrap_err();
/// assert_eq!(refused.rejection(), Rejection::BelowMinimum);
/// assert_eq!(refused.to_string(), "this code needs a basket of at least EUR 50.00");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PromoCodeRejected {
    code: Code,
    rejection: Rejection,
    message: String,
}

impl PromoCodeRejected {
    /// The rejection of `promo` for `rejection`, with a message that uses the code's figures.
    pub fn new(promo: &PromoCode, rejection: Rejection) -> PromoCodeRejected {
        let message = match rejection {
            Rejection::NotStarted => match promo.starts_at() {
                Some(start) => format!("this code is valid from {start}"),
                None => rejection.message().to_owned(),
            },
            Rejection::Expired => match promo.ends_at() {
                Some(end) => format!("this code expired at {end}"),
                None => rejection.message().to_owned(),
            },
            Rejection::CurrencyMismatch => match promo.currency() {
                Some(currency) => format!("this code applies to baskets in {currency} only"),
                None => rejection.message().to_owned(),
            },
            Rejection::NoEligibleItems => match promo.applies_to() {
                Some(scope) => format!("this code applies only to {}", scope.describe()),
                None => rejection.message().to_owned(),
            },
            Rejection::BelowMinimum => match (promo.minimum(), promo.applies_to()) {
                (Some(minimum), None) => format!("this code needs a basket of at least {minimum}"),
                (Some(minimum), Some(scope)) => {
                    format!("this code needs at least {minimum} of {}", scope.describe())
                }
                (None, _) => rejection.message().to_owned(),
            },
            other => other.message().to_owned(),
        };
        PromoCodeRejected {
            code: promo.code().clone(),
            rejection,
            message,
        }
    }

    /// The refusal of `promo` for `rejection` with its own sentence (what a
    /// basket is missing).
    pub(crate) fn with_message(promo: &PromoCode, rejection: Rejection, message: String) -> PromoCodeRejected {
        PromoCodeRejected {
            code: promo.code().clone(),
            rejection,
            message,
        }
    }

    /// The refusal of a discount that does not fit what is left of the
    /// code's budget: `left` (nothing left reads as used up).
    pub fn budget_short(promo: &PromoCode, left: &Money) -> PromoCodeRejected {
        let message = if left.is_zero() {
            Rejection::BudgetExhausted.message().to_owned()
        } else {
            format!("only {left} is left in this promotion's budget")
        };
        PromoCodeRejected {
            code: promo.code().clone(),
            rejection: Rejection::BudgetExhausted,
            message,
        }
    }

    /// The refusal of `promo` in a basket with `other`, listed before it,
    /// when the two do not combine.
    pub fn not_combinable(promo: &PromoCode, other: &PromoCode) -> PromoCodeRejected {
        PromoCodeRejected {
            code: promo.code().clone(),
            rejection: Rejection::NotCombinable,
            message: format!("this code cannot be combined with {}", other.code()),
        }
    }

    /// The refusal of `code` with [`Rejection::QuoteChanged`] and `message`
    /// (a stack's part that changed since it was quoted).
    pub(crate) fn changed(code: &Code, message: String) -> PromoCodeRejected {
        PromoCodeRejected {
            code: code.clone(),
            rejection: Rejection::QuoteChanged,
            message,
        }
    }

    /// The refusal of a capture pinned to `shown`, when pricing now gives `current`.
    pub fn quote_changed(shown: &Quote, current: &Quote) -> PromoCodeRejected {
        PromoCodeRejected {
            code: current.code().clone(),
            rejection: Rejection::QuoteChanged,
            message: format!(
                "the price changed since it was quoted: {} to pay then, {} now",
                shown.payable(),
                current.payable()
            ),
        }
    }

    /// The code that was refused.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// The rule that refused it.
    pub fn rejection(&self) -> Rejection {
        self.rejection
    }

    /// The sentence for the buyer (also this error's `Display`).
    pub fn message(&self) -> &str {
        &self.message
    }
}
