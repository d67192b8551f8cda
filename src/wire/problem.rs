//! See [the module](super).

use serde::{Deserialize, Serialize};

use crate::{Quote, Rejection, StackRefusal};

/// An RFC 9457 problem's body (`application/problem+json`): what every
/// error answer of the API carries.
///
/// # Example
///
/// ```
/// use promocodes::wire::ProblemDetails;
///
/// let problem = ProblemDetails::new("unknown_code", "Unknown promo code", 404, "no promo code NOPE is defined".to_owned());
/// assert_eq!(
///     serde_json::to_string(&problem)?,
///     r#"{"type":"/problems/unknown_code","title":"Unknown promo code","status":404,"detail":"no promo code NOPE is defined"}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProblemDetails {
    /// The problem's type, a path naming it: `/problems/<slug>`, such as
    /// `/problems/rejected` or `/problems/conflict`.
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the type, the same for every problem of the type.
    pub title: String,
    /// The HTTP status of the answer.
    pub status: u16,
    /// What went wrong this time, in a sentence.
    pub detail: String,
    /// On a rejection: the rule that refused (for a stack, the first code's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejection: Option<Rejection>,
    /// On a stack's rejection: every code that refused, and why, in the
    /// order the codes apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejections: Option<Vec<RefusedCode>>,
    /// On a capture's rejection: the stale quote (the one the capture was
    /// pinned to, else the hold's, else the basket priced without the code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<Quote>,
    /// On a capture's `quote_changed` rejection: the quote pricing gives now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<Quote>,
}

impl ProblemDetails {
    /// A problem of type `/problems/<slug>` with its `title`, `status` and
    /// `detail`, and no other member.
    pub fn new(slug: &str, title: &str, status: u16, detail: String) -> ProblemDetails {
        ProblemDetails {
            kind: format!("/problems/{slug}"),
            title: title.to_owned(),
            status,
            detail,
            rejection: None,
            rejections: None,
            quote: None,
            current: None,
        }
    }
}

/// Its JSON, as the answer's body carries it (for log lines).
impl std::fmt::Display for ProblemDetails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| std::fmt::Error)?)
    }
}

/// One code of a stack that refused, and why:
/// `{"code": "SAVE10", "rejection": "not_combinable", "with": "MUGS20", "message": "..."}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusedCode {
    /// The code that refused, normalised.
    pub code: String,
    /// The rule that refused it.
    pub rejection: Rejection,
    /// For `not_combinable`: the code it cannot combine with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<String>,
    /// The sentence for the buyer.
    pub message: String,
}

impl From<&StackRefusal> for RefusedCode {
    fn from(refusal: &StackRefusal) -> RefusedCode {
        RefusedCode {
            code: refusal.code().as_str().to_owned(),
            rejection: refusal.rejection(),
            with: refusal.with().map(|code| code.as_str().to_owned()),
            message: refusal.message().to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rejection_is_written_as_its_code() {
        for rejection in Rejection::ALL {
            let written = serde_json::to_value(rejection).unwrap();
            assert_eq!(written, rejection.code(), "{rejection:?}");
        }
    }
}
