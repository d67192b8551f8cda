//! See [the module](super).

use serde::{Deserialize, Serialize};

/// The outcome of a hold, capture or release, for its one JSON log line: a
/// code's object decides it and sends it to the Worker in a header; the
/// Worker adds `code` when the object could not and the milliseconds the
/// request took (`ms`), writes the line, and purges the code's cached
/// lookup when `purge` says so.
///
/// # Example
///
/// ```
/// use promocodes::wire::OutcomeLine;
///
/// let line = OutcomeLine::new(Some("SAVE10"), "hold", "held");
/// assert_eq!(serde_json::to_string(&line)?, r#"{"code":"SAVE10","op":"hold","outcome":"held"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeLine {
    /// The code, normalised; `null` when the object refused the request
    /// before it knew the code (the Worker then adds the code it routed by).
    pub code: Option<String>,
    /// The operation: `hold`, `capture` or `release`.
    pub op: String,
    /// What came of it: `held`, `captured`, `released`, `replayed`,
    /// `rejected`, `problem`, ...
    pub outcome: String,
    /// For a release: the state the use was in before (`held`, `captured`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub was: Option<String>,
    /// For a rejection: the rule that refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejection: Option<String>,
    /// For a problem: its type's slug (`conflict`, `unknown_code`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// `reached` when the request moved the code to its total cap, `freed`
    /// when giving a use back moved it from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap: Option<String>,
    /// The request changed counts a cached public lookup may show: the
    /// Worker purges that lookup.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub purge: bool,
    /// For a request ignored: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// For a payment provider's event: the event's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// For a payment's capture refused after the payment: the payment's idempotency key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment: Option<String>,
    /// For a payment's capture refused after the payment: why, in a sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The milliseconds the request took, as the Worker measured it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
}

impl OutcomeLine {
    /// The line for `op` on `code` (if known) that came to `outcome`, with no detail.
    pub fn new(code: Option<&str>, op: &str, outcome: &str) -> OutcomeLine {
        OutcomeLine {
            code: code.map(str::to_owned),
            op: op.to_owned(),
            outcome: outcome.to_owned(),
            ..OutcomeLine::default()
        }
    }
}
