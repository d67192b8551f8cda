//! A campaign: one definition shared by many codes, each usable a few times.

use serde::{Serialize, Serializer};

use super::definition::{serialize_definition, PromoCode, Shown};
use crate::values::{Code, InputError};

/// A campaign of many codes: one definition (without a code of its own)
/// whose `limits` (`total`, `per_customer`, `budget`) hold across all of
/// its codes, plus `uses_per_code`, how often each code may be used
/// (default 1: single-use codes).
///
/// A campaign's code is a [`PromoCode`] like any other, made by
/// [`Campaign::code`]: the campaign's definition with its own `code` and
/// the campaign's id. Every rule runs on it as on any code; a store counts
/// its uses through the campaign ([`RedemptionStore::uses_through`](crate::RedemptionStore::uses_through)),
/// so one compare-and-set covers the code's own uses, the campaign's total,
/// the customer's campaign-wide count and the budget. A code used
/// `uses_per_code` times is [`Rejection::Exhausted`](crate::Rejection::Exhausted).
///
/// It serialises as the definition with `"id"` in place of `"code"`, plus
/// `"uses_per_code"`.
///
/// # Example
///
/// ```
/// use promocodes::{Campaign, Code, Discount, PromoCode, UsageLimits};
///
/// let definition = PromoCode::builder(Code::parse("BF2026")?, Discount::percent("20".parse()?)?)
///     .limits(UsageLimits::new(Some(150), None)?)
///     .build()?;
/// let campaign = Campaign::new(definition, 1)?;
/// let code = campaign.code(Code::parse("bf-k7pq-x2m9")?);
/// assert_eq!(code.code().as_str(), "BF-K7PQ-X2M9");
/// assert_eq!(code.campaign(), Some(campaign.id()));
/// assert_eq!(code.uses_per_code(), Some(1));
/// assert_eq!(code.limits(), campaign.definition().limits());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Campaign {
    definition: PromoCode,
    uses_per_code: u64,
}

impl Campaign {
    /// The default `uses_per_code`: each code once.
    pub const DEFAULT_USES_PER_CODE: u64 = 1;

    /// The key a campaign's shared counts and codes live under: `campaign:<id>`
    /// for the campaign whose id is `id` (a normalised code). A store counts
    /// the uses of the campaign's codes under it, and the Worker names the
    /// campaign's Durable Object by it. No code has a `:`, so it never meets
    /// a code's own key.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Campaign, Code};
    ///
    /// assert_eq!(Campaign::key_of(Code::parse("bf2026")?.as_str()), "campaign:BF2026");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn key_of(id: &str) -> String {
        format!("campaign:{id}")
    }

    /// A campaign whose id is `definition`'s code and whose codes take the
    /// rest of `definition`, each usable `uses_per_code` times.
    ///
    /// # Errors
    ///
    /// [`InputError::ZeroUsesPerCode`] for `uses_per_code == 0`,
    /// [`InputError::AutomaticCampaign`] for an automatic `definition`.
    pub fn new(definition: PromoCode, uses_per_code: u64) -> Result<Campaign, InputError> {
        if uses_per_code == 0 {
            return Err(InputError::ZeroUsesPerCode);
        }
        if definition.is_automatic() {
            return Err(InputError::AutomaticCampaign);
        }
        Ok(Campaign {
            definition: definition.without_campaign(),
            uses_per_code,
        })
    }

    /// The campaign's id (written with a code's characters).
    pub fn id(&self) -> &Code {
        self.definition.code()
    }

    /// The shared definition; its `code` is the campaign's id.
    pub fn definition(&self) -> &PromoCode {
        &self.definition
    }

    /// How often each code may be used.
    pub fn uses_per_code(&self) -> u64 {
        self.uses_per_code
    }

    /// How many shard objects its codes' holds and captures are spread over
    /// (1: the campaign's object decides every use). Given as the
    /// definition's `shards` ([`PromoCodeBuilder::shards`](crate::PromoCodeBuilder::shards)),
    /// and carried by each of its codes ([`PromoCode::shards`]).
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Campaign, Code};
    ///
    /// let campaign = Campaign::from_json(Code::parse("BF")?, r#"{"discount": {"kind": "percent", "percent": "20"}, "shards": 4}"#)?;
    /// assert_eq!(campaign.shards(), 4);
    /// assert_eq!(campaign.code(Code::parse("BF-1")?).shards(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shards(&self) -> u8 {
        self.definition.shards()
    }

    /// The same campaign switched on or off (every code with it).
    pub fn with_active(&self, active: bool) -> Campaign {
        Campaign {
            definition: self.definition.with_active(active),
            uses_per_code: self.uses_per_code,
        }
    }

    /// The campaign's code `code`: the campaign's definition with `code`
    /// as its code and this campaign as its campaign.
    pub fn code(&self, code: Code) -> PromoCode {
        self.definition.counted_under(code, self.id(), self.uses_per_code)
    }
}

impl Serialize for Campaign {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_definition(&self.definition, Shown::Campaign(self.uses_per_code), serializer)
    }
}
