//! Rules: a code's definition, the basket, the counts a decision is made
//! on, the rejections, the quote, and the checks that run a definition
//! against counts, a basket and a moment passed in. Pure: no store, no
//! clock, no I/O. It uses the values layer only.

mod basket;
mod campaign;
mod check;
mod counts;
mod definition;
mod pattern;
mod quote;
mod rejection;
mod stack;

pub use basket::{Basket, Line};
pub use campaign::Campaign;
pub use counts::{UsageCounts, UsageInCurrency};
pub use definition::{customer_shard, shard_of};
pub use definition::{
    AppliesTo, Audience, BudgetShort, BuyCondition, BuyXGetY, Discount, DiscountKind, GetOff, PromoCode,
    PromoCodeBuilder, PublicDefinition, Selection, Tier, TierBasis, TierFrom, UsageLimits,
};
pub use pattern::CodePattern;
pub use quote::{NextTier, Quote, QuoteLine, QuoteShipping, TierReached};
pub use rejection::{PromoCodeRejected, Rejection};
pub use stack::{
    CodeClass, CodeClasses, ShownStack, Skipped, Stack, StackPart, StackQuote, StackRefusal, StackRejected,
    StackResumeError,
};

pub(crate) use basket::{check_categories, check_quantity};
pub(crate) use definition::check_count;
