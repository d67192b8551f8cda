//! See [the module](super).

use serde::{Deserialize, Serialize};

use crate::{Code, Quote, Rejection, StackRefusal};

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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        rename = "Problem",
        description = "An RFC 9457 problem document (`application/problem+json`). Every error of the API is one; `type` tells which, and fixes `title` and `status`."
    )
)]
#[serde(deny_unknown_fields)]
pub struct ProblemDetails {
    /// The problem's type, a path naming it: `/problems/<slug>`, such as
    /// `/problems/rejected` or `/problems/conflict`.
    #[serde(rename = "type")]
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::ProblemType"))]
    pub kind: String,
    /// A short summary of the type, the same for every problem of the type.
    pub title: String,
    /// The HTTP status of the answer.
    #[cfg_attr(feature = "schema", schemars(range(min = 400, max = 599)))]
    pub status: u16,
    /// A sentence about this occurrence (for `rejected`, the buyer's sentence).
    pub detail: String,
    /// On a rejection: the rule that refused (for a stack, the first code's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Rejection"))]
    pub rejection: Option<Rejection>,
    /// On a refused stack of codes: every code that refused and why, in the
    /// order the codes apply (one entry when a code's object refused its
    /// write); `rejection` is the first's. Nothing is recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<StackRefusal>", length(min = 1)))]
    pub rejections: Option<Vec<RefusedCode>>,
    /// On a refused capture: the quote that no longer holds (the one pinned,
    /// else the hold's, else the basket priced now).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Quote"))]
    pub quote: Option<Quote>,
    /// With `quote_changed`: the quote pricing gives now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Quote"))]
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

    /// The problem with `rejections` naming `code`, when it is a rejection
    /// (its `rejection`, with its `detail` as the sentence): what a stack's
    /// hold or capture answers when one code's object refused its write
    /// (after the codes before it were given back). Another problem is
    /// returned as it was.
    pub fn naming(mut self, code: &Code) -> ProblemDetails {
        if let Some(rejection) = self.rejection {
            self.rejections = Some(vec![RefusedCode {
                code: code.clone(),
                rejection,
                with: None,
                message: self.detail.clone(),
            }]);
        }
        self
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
#[serde(deny_unknown_fields)]
pub struct RefusedCode {
    /// The code that refused, normalised.
    pub code: Code,
    /// The rule that refused it.
    pub rejection: Rejection,
    /// For `not_combinable`: the code listed before it that it cannot
    /// combine with; left out for other rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<Code>,
    /// The sentence for the buyer.
    pub message: String,
}

impl From<&StackRefusal> for RefusedCode {
    fn from(refusal: &StackRefusal) -> RefusedCode {
        RefusedCode {
            code: refusal.code().clone(),
            rejection: refusal.rejection(),
            with: refusal.with().cloned(),
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

    #[test]
    fn a_refused_codes_problem_names_it_in_rejections_and_another_problem_is_as_it_was() {
        let refused = r#"{"type":"/problems/rejected","title":"Promo code rejected","status":422,
            "detail":"this code has been used up","rejection":"exhausted"}"#;
        let problem: ProblemDetails = serde_json::from_str(refused).unwrap();
        let named = serde_json::to_value(problem.naming(&Code::parse("ONCE").unwrap())).unwrap();
        assert_eq!(
            named["rejections"],
            serde_json::json!([{"code": "ONCE", "rejection": "exhausted", "message": "this code has been used up"}])
        );
        assert_eq!(named["detail"], "this code has been used up");
        let busy = r#"{"type":"/problems/conflict","title":"Busy, retry with the same idempotency key","status":409,"detail":"busy"}"#;
        let problem: ProblemDetails = serde_json::from_str(busy).unwrap();
        let named = problem.clone().naming(&Code::parse("ONCE").unwrap());
        assert_eq!(named, problem);
        assert_eq!(
            serde_json::to_value(&named).unwrap(),
            serde_json::from_str::<serde_json::Value>(busy).unwrap()
        );
    }
}
