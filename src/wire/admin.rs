//! Codes and campaigns on the wire: a code's public lookup and its summary
//! in listings, a campaign's summary, the listings' pages, the codes a
//! campaign's call generates or imports, and a page of a campaign's codes.
//!
//! A definition appears in these answers as its own JSON, flattened in
//! (`D`): the object writes a code's [`PublicDefinition`] or a
//! [`Campaign`], and a reader that only passes the answer on reads it as
//! [`DefinitionFields`]. See [the module](super).
//!
//! [`PublicDefinition`]: crate::PublicDefinition
//! [`Campaign`]: crate::Campaign

use serde::{Deserialize, Serialize};

use crate::{Code, Money};

/// A definition's fields as they came, for a reader that passes them on.
pub type DefinitionFields = serde_json::Map<String, serde_json::Value>;

/// A code's uses counting now: held and captured (`total`), of which held
/// (`held`), and what they took off (`discounted`); for a campaign's code,
/// the campaign's, and the code's own (`per_code`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CodeUsage {
    /// The uses counting now, held and captured (for a campaign's code, the campaign's).
    pub total: u64,
    /// Of `total`, the active holds.
    pub held: u64,
    /// For a campaign's code: the uses of the code itself, held and captured
    /// (`total`, `held` and `discounted` are then the campaign's, across all
    /// of its codes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u64"))]
    pub per_code: Option<u64>,
    /// The sum of the discounts of the uses counting now (active holds
    /// included), in the code's currency; left out for a code without a
    /// currency of its own (a percent code without amounts may be used in several).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Money"))]
    pub discounted: Option<Money>,
    /// Of `discounted`, the discounts of the active holds (what the budget
    /// has promised but not yet given); left out as `discounted` is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Money"))]
    pub held_discounted: Option<Money>,
}

/// `GET /v1/codes/{code}`: a code as anyone may see it (its audience only as
/// `assigned`), with its usage and what is left of its caps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublicCode<D = DefinitionFields> {
    /// The code's definition (for a campaign's code, with `campaign` and `uses_per_code`).
    #[serde(flatten)]
    pub definition: D,
    /// Its uses counting now.
    pub usage: CodeUsage,
    /// The uses left under its total cap (for a campaign's code, also under
    /// its own); left out when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining: Option<u64>,
    /// What is left of its money budget; left out when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining_budget: Option<Money>,
}

/// A code as the catalog lists it (`GET /v1/codes`, and the answer of
/// `DELETE /v1/codes/{code}`): its public view and whether it is archived.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeSummary<D = DefinitionFields> {
    /// The code as its public lookup shows it.
    #[serde(flatten)]
    pub code: PublicCode<D>,
    /// Whether the code is archived (unknown to buyers, its history kept).
    pub archived: bool,
    /// When it was first defined (RFC 3339); left out for a code defined
    /// before this was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defined_at: Option<String>,
}

/// `GET /v1/automatic`: the public definitions of the active automatic
/// promotions (audience only as `assigned`), by priority then code, at most
/// [`Stack::MAX_AUTOMATIC`](crate::Stack::MAX_AUTOMATIC), for the browser
/// module's `PromoStack`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AutomaticPromotions<D = DefinitionFields> {
    /// Each promotion's public definition.
    pub promotions: Vec<D>,
}

/// One page of the catalog, in code order (`GET /v1/codes`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "CodeList"))]
#[serde(deny_unknown_fields)]
pub struct CodeList<D = DefinitionFields> {
    /// The codes of the page.
    #[cfg_attr(feature = "schema", schemars(length(max = 1000)))]
    pub codes: Vec<CodeSummary<D>>,
    /// The `after` of the next page, or null on the last.
    #[cfg_attr(feature = "schema", schemars(with = "Option<Code>"))]
    pub next: Option<String>,
}

/// How many codes a campaign has, and how many of them were used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignCodeCounts {
    /// The campaign's codes.
    pub count: u64,
    /// Those with a use that counts now.
    pub used: u64,
}

/// `GET /v1/campaigns/{id}`: a campaign with its usage now (every code's),
/// what is left of its caps and its codes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CampaignSummary<D = DefinitionFields> {
    /// The campaign's definition (`id`, `uses_per_code` and the definition its codes share).
    #[serde(flatten)]
    pub campaign: D,
    /// Whether the campaign is archived (its codes unknown to buyers, its history kept).
    pub archived: bool,
    /// Its uses counting now, across all of its codes (without `per_code`).
    pub usage: CodeUsage,
    /// The uses left under its total cap; left out when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining: Option<u64>,
    /// What is left of its money budget; left out when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining_budget: Option<Money>,
    /// Its codes.
    pub codes: CampaignCodeCounts,
    /// When it was first defined (RFC 3339); left out for a campaign
    /// defined before this was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defined_at: Option<String>,
}

/// A page of campaigns in id order, each as `GET /v1/campaigns/{id}`
/// answers it; `next` is the cursor of the next page (`?after=`), or null
/// (`GET /v1/campaigns`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "CampaignList"))]
#[serde(deny_unknown_fields)]
pub struct CampaignList<D = DefinitionFields> {
    /// The campaigns of the page, each as `GET /v1/campaigns/{id}` answers it.
    pub campaigns: Vec<CampaignSummary<D>>,
    /// The cursor of the next page (`?after=`), or null on the last.
    pub next: Option<String>,
}

/// The body of `POST /v1/campaigns/{id}/codes` (and of the campaign
/// object's call that plans them): `count` codes to generate (each `#` of
/// `pattern` one character of `charset`, drawn by a cryptographic
/// generator; at least 8 `#`, and 1,000,000 combinations per code of the
/// campaign after the call), or `codes` to import. 1 to 10,000 a call,
/// 1,000,000 a campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CodesRequest {
    /// How many codes to generate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "u64", range(min = 1, max = 10_000)))]
    pub count: Option<u64>,
    /// The pattern of a generated code: each `#` one character of `charset`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String", extend("default" = "####-####-####")))]
    pub pattern: Option<String>,
    /// The characters a generated code's `#` are drawn from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String", extend("default" = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")))]
    pub charset: Option<String>,
    /// The codes to import.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "schema",
        schemars(with = "Vec<crate::schema::CodeInput>", length(min = 1, max = 10_000))
    )]
    pub codes: Option<Vec<Code>>,
}

/// The codes a call created (the same for a retry with the same
/// `Idempotency-Key`): the answer of `POST /v1/campaigns/{id}/codes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CodesCreated {
    /// The campaign's id.
    pub campaign: Code,
    /// How many codes the call created.
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub created: u64,
    /// The codes, in the order they were added.
    pub codes: Vec<Code>,
}

/// The campaign object's answer to planning, committing or drawing again a
/// call's codes: the plan, and whether its codes are in the campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodesPlan {
    /// What the call answers once its codes are in.
    pub plan: CodesCreated,
    /// Whether the codes are in the campaign (a retry of a finished call).
    pub committed: bool,
}

/// One code of a page of a campaign's codes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(inline))]
#[serde(deny_unknown_fields)]
pub struct CampaignCode {
    /// The code.
    pub code: Code,
    /// Its captured uses.
    pub uses: u64,
    /// Its holds that count now.
    pub held: u64,
}

/// A page of a campaign's codes in the order they were added, each with its
/// captured uses and the holds that count now; `next` is the cursor of the
/// next page (`?after=`), or null (`GET /v1/campaigns/{id}/codes`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CampaignCodeList {
    /// The codes of the page.
    pub codes: Vec<CampaignCode>,
    /// The cursor of the next page (`?after=`), or null on the last.
    pub next: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_reads_back_with_its_definition_as_fields() {
        let text = r#"{"code":"SAVE10","active":true,"discount":{"percent":"10"},"assigned":false,
            "usage":{"total":2,"held":1,"discounted":{"amount":"4.00","currency":"EUR"}},
            "remaining":8,"archived":true}"#;
        let summary: CodeSummary = serde_json::from_str(text).unwrap();
        assert!(summary.archived);
        assert_eq!(summary.code.usage.held, 1);
        assert_eq!(summary.code.remaining, Some(8));
        assert_eq!(summary.code.definition["code"], "SAVE10");
        assert!(!summary.code.definition.contains_key("usage"));
        let again: serde_json::Value = serde_json::to_value(&summary).unwrap();
        assert_eq!(again, serde_json::from_str::<serde_json::Value>(text).unwrap());
    }

    #[test]
    fn a_plan_without_its_codes_is_refused() {
        let plan = r#"{"plan":{"campaign":"SPRING","created":1},"committed":false}"#;
        assert!(serde_json::from_str::<CodesPlan>(plan).is_err());
    }
}
