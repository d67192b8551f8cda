//! Every error the API answers with, and its one mapping to HTTP:
//! `application/problem+json` (RFC 9457) with `type`, `title`, `status`,
//! `detail`, plus `rejection` and `quote` on a 422 rejection: a
//! [`ProblemDetails`].

use promocodes::wire::{ProblemDetails, RefusedCode};
use promocodes::{Code, IdempotencyKey, InputError, Misuse, PromoCodeRejected, RedemptionConflict, RedemptionError};
use promocodes::{RedemptionRejected, ReleaseError, StackRejected, StoreError};
use worker::Response;

use crate::etag::ETAG_HEADER;
use crate::limits::CONFLICT_RETRY_AFTER_SECONDS;

/// Why a request got no success answer.
#[derive(Debug)]
pub enum Problem {
    /// No such route.
    NotFound,
    /// The route exists, not for this method; `allow` lists the ones it takes.
    MethodNotAllowed {
        /// The `Allow` header value.
        allow: String,
    },
    /// No or a wrong bearer token.
    Unauthorized,
    /// The body is over the route's limit (see [`crate::limits`]).
    PayloadTooLarge {
        /// The route's limit in bytes.
        limit: usize,
    },
    /// A request body whose `Content-Type` is not JSON (`application/json` or
    /// an `application/*+json` type), or a body without one: refused before it
    /// is read, so that a cross-site form (whose types are `text/plain`,
    /// `application/x-www-form-urlencoded` and `multipart/form-data`) drives nothing.
    UnsupportedMediaType {
        /// The media type sent, without its parameters; `None` when none was sent.
        given: Option<String>,
    },
    /// A public route's per-address rate limit is spent.
    TooManyRequests {
        /// Seconds until the limit's window has passed (`Retry-After`).
        retry_after: u32,
    },
    /// The request is invalid (body, path or header), as the core says.
    Input(InputError),
    /// The request asks the core for a call it refuses whatever the input
    /// (a capture pinned to a quote of another code): a 400 like bad input.
    Misuse(Misuse),
    /// The code in the body is not the code in the path.
    CodeMismatch {
        /// The path's code.
        path: Code,
        /// The body's code.
        body: Code,
    },
    /// A capture without an `Idempotency-Key` header.
    MissingIdempotencyKey,
    /// No definition is stored for the code (or it is archived).
    UnknownCode(Code),
    /// The code exists already, as a plain code or a campaign's: codes are
    /// unique across all codes and campaigns.
    CodeExists(Code),
    /// A release names a key under which nothing was ever held or captured.
    UnknownKey(IdempotencyKey),
    /// A rule refused a quote (`POST /v1/quotes`): nothing to show but the rule.
    Refused(PromoCodeRejected),
    /// A stack of codes refused a quote (`POST /v1/quotes` with `codes`):
    /// every code that refused, and why (`rejections`; `rejection` is the first's).
    StackRefused(StackRejected),
    /// A rule refused a hold or a capture: the core's refusal, with its
    /// stale quote (and current one, for `quote_changed`) shown on captures.
    Rejected {
        /// The refusal, with its quotes.
        refusal: Box<RedemptionRejected>,
        /// Whether the answer carries the quotes (a capture's).
        with_quotes: bool,
    },
    /// The idempotency key was used for another customer or total.
    IdempotencyKeyReused(IdempotencyKey),
    /// Every compare-and-set attempt lost.
    Conflict(RedemptionConflict),
    /// Every attempt lost on a payment provider's confirmation: a 5xx, so that
    /// the provider delivers it again.
    RetryLater(RedemptionConflict),
    /// A webhook without a valid signature: nothing happened.
    InvalidSignature(String),
    /// A signed webhook body that is not an event promocodes can read.
    InvalidEvent(String),
    /// A write's `If-Match` names a definition that is no longer the stored
    /// one (or there is none), or its `If-None-Match: *` finds one.
    PreconditionFailed {
        /// The stored definition's tag now, if there is one.
        current: Option<String>,
    },
    /// The SQLite store failed.
    Store(StoreError),
    /// A secret the route needs is not configured.
    Misconfigured(&'static str),
    /// Anything else (a runtime error): a bug or an outage, never bad input.
    Internal(String),
    /// Not an answer: a hold, capture or payment that another object of the
    /// code decides (its `shards` changed since the Worker routed it, or the
    /// key was taken under an earlier layout there). The object sends it on.
    Forward {
        /// The object's name.
        object: String,
        /// Its shard number; `None` for the code's own object.
        shard: Option<u8>,
    },
    /// No webhook endpoint of this id.
    UnknownWebhook(String),
    /// No delivery of this event to the endpoint.
    UnknownDelivery(String),
    /// A new endpoint over the most there may be.
    WebhookLimit {
        /// The most endpoints there may be.
        max: u32,
    },
}

impl Problem {
    /// The problem without the quotes of a rejection: what a hold answers.
    pub fn without_quotes(self) -> Problem {
        match self {
            Problem::Rejected { refusal, .. } => Problem::Rejected {
                refusal,
                with_quotes: false,
            },
            other => other,
        }
    }

    /// The rule that refused, for a rejection.
    pub fn rejection(&self) -> Option<&PromoCodeRejected> {
        match self {
            Problem::Refused(rejected) => Some(rejected),
            Problem::Rejected { refusal, .. } => Some(&refusal.rejected),
            Problem::StackRefused(refused) => refused.refusals().first().map(|r| r.as_rejected()),
            _ => None,
        }
    }

    /// The problem's type slug: `rejected`, `conflict`, ...
    pub fn slug(&self) -> &'static str {
        self.kind().1
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        self.kind().0
    }
}

impl From<worker::Error> for Problem {
    fn from(err: worker::Error) -> Problem {
        Problem::Internal(err.to_string())
    }
}

impl From<InputError> for Problem {
    fn from(err: InputError) -> Problem {
        Problem::Input(err)
    }
}

impl From<StoreError> for Problem {
    fn from(err: StoreError) -> Problem {
        Problem::Store(err)
    }
}

impl From<ReleaseError> for Problem {
    fn from(err: ReleaseError) -> Problem {
        match err {
            ReleaseError::UnknownKey { key, .. } => Problem::UnknownKey(key),
            ReleaseError::Input(input) => Problem::Input(input),
            ReleaseError::Store(store) => Problem::Store(store),
            other => Problem::Internal(other.to_string()),
        }
    }
}

impl From<RedemptionError> for Problem {
    fn from(err: RedemptionError) -> Problem {
        match err {
            RedemptionError::Rejected(refusal) => Problem::Rejected {
                refusal,
                with_quotes: true,
            },
            RedemptionError::Conflict(conflict) => Problem::Conflict(conflict),
            RedemptionError::IdempotencyKeyReused { key } => Problem::IdempotencyKeyReused(key),
            RedemptionError::Input(input) => Problem::Input(input),
            RedemptionError::Misuse(misuse) => Problem::Misuse(misuse),
            RedemptionError::Store(store) => Problem::Store(store),
            other => Problem::Internal(other.to_string()),
        }
    }
}

impl Problem {
    /// `(status, type slug, title)`.
    fn kind(&self) -> (u16, &'static str, &'static str) {
        match self {
            Problem::NotFound => (404, "not_found", "No such route"),
            Problem::MethodNotAllowed { .. } => (405, "method_not_allowed", "Method not allowed"),
            Problem::Unauthorized => (401, "unauthorized", "Missing or wrong bearer token"),
            Problem::PayloadTooLarge { .. } => (413, "payload_too_large", "Request body too large"),
            Problem::UnsupportedMediaType { .. } => (415, "unsupported_media_type", "The body is not JSON"),
            Problem::TooManyRequests { .. } => (429, "too_many_requests", "Too many requests"),
            Problem::Input(_) | Problem::Misuse(_) => (400, "invalid_request", "Invalid request"),
            Problem::CodeMismatch { .. } => (400, "code_mismatch", "The body's code is not the path's"),
            Problem::MissingIdempotencyKey => (400, "missing_idempotency_key", "Idempotency-Key header required"),
            Problem::UnknownCode(_) => (404, "unknown_code", "Unknown promo code"),
            Problem::CodeExists(_) => (409, "code_exists", "The code exists already"),
            Problem::UnknownKey(_) => (404, "unknown_key", "Nothing recorded under this key"),
            Problem::Refused(_) | Problem::Rejected { .. } | Problem::StackRefused(_) => {
                (422, "rejected", "Promo code rejected")
            }
            Problem::IdempotencyKeyReused(_) => (
                422,
                "idempotency_key_reused",
                "Idempotency key used for another redemption",
            ),
            Problem::Conflict(_) => (409, "conflict", "Busy, retry with the same idempotency key"),
            Problem::RetryLater(_) => (503, "conflict", "Busy, deliver the event again"),
            Problem::InvalidSignature(_) => (400, "invalid_signature", "Webhook signature missing or wrong"),
            Problem::InvalidEvent(_) => (400, "invalid_event", "Not an event promocodes can read"),
            Problem::PreconditionFailed { .. } => {
                (412, "precondition_failed", "The definition changed since it was read")
            }
            Problem::Store(_) => (503, "store_unavailable", "Storage unavailable"),
            Problem::Misconfigured(_) => (500, "misconfigured", "Server misconfigured"),
            Problem::Internal(_) | Problem::Forward { .. } => (500, "internal", "Internal error"),
            Problem::UnknownWebhook(_) => (404, "unknown_webhook", "Unknown webhook endpoint"),
            Problem::UnknownDelivery(_) => (404, "unknown_delivery", "No delivery of this event"),
            Problem::WebhookLimit { .. } => (409, "webhook_limit", "Too many webhook endpoints"),
        }
    }

    fn detail(&self) -> String {
        match self {
            Problem::NotFound => "no such route; see the route table in docs/http-api.md".to_owned(),
            Problem::MethodNotAllowed { allow } => format!("this route takes {allow}"),
            Problem::Unauthorized => "send Authorization: Bearer <token>".to_owned(),
            Problem::PayloadTooLarge { limit } => format!("the body of this route may have at most {limit} bytes"),
            Problem::UnsupportedMediaType { given: Some(given) } => {
                format!("the body is {given}; send it as JSON with Content-Type: application/json")
            }
            Problem::UnsupportedMediaType { given: None } => {
                "the body has no Content-Type; send it as JSON with Content-Type: application/json".to_owned()
            }
            Problem::TooManyRequests { retry_after } => {
                format!("too many requests from this address; retry after {retry_after} seconds")
            }
            Problem::Input(InputError::NotJson { message }) => format!("the body is not JSON: {message}"),
            Problem::Input(err) => err.to_string(),
            Problem::Misuse(misuse) => misuse.to_string(),
            Problem::CodeMismatch { path, body } => format!("the path names {path} but the body defines {body}"),
            Problem::MissingIdempotencyKey => {
                "send an Idempotency-Key header of 1 to 255 visible ASCII characters".to_owned()
            }
            Problem::UnknownCode(code) => format!("no promo code {code} is defined"),
            Problem::CodeExists(code) => {
                format!("{code} exists already (as a code or a campaign's); codes are unique across all of them")
            }
            Problem::UnknownKey(key) => format!("no hold or redemption is recorded under the key {key}"),
            Problem::Refused(rejected) => rejected.message().to_owned(),
            Problem::StackRefused(refused) => refused.to_string(),
            Problem::Rejected { refusal, .. } => refusal.rejected.message().to_owned(),
            Problem::IdempotencyKeyReused(key) => {
                format!("idempotency key {key} was already used for a different customer or total")
            }
            Problem::Conflict(conflict) | Problem::RetryLater(conflict) => conflict.to_string(),
            Problem::InvalidSignature(why) | Problem::InvalidEvent(why) => why.clone(),
            Problem::PreconditionFailed { current: Some(tag) } => format!(
                "the definition changed since it was read (If-Match), or exists (If-None-Match); it is now {tag}: read it again and reapply the change"
            ),
            Problem::PreconditionFailed { current: None } => {
                "If-Match names a definition, but the code has none: read it again".to_owned()
            }
            Problem::Store(err) => err.to_string(),
            Problem::Misconfigured(what) => format!("{what} is not configured"),
            Problem::Internal(message) => message.clone(),
            Problem::Forward { object, .. } => format!("to be sent on to {object}, not answered"),
            Problem::UnknownWebhook(id) => format!("no webhook endpoint {id} is defined"),
            Problem::UnknownDelivery(event) => {
                format!("no event {event} was ever sent to this endpoint: only an event tried at least once is sent again")
            }
            Problem::WebhookLimit { max } => {
                format!("there are {max} webhook endpoints already, the most there may be: delete one first")
            }
        }
    }

    /// The problem document.
    pub fn body(&self) -> ProblemDetails {
        let (status, slug, title) = self.kind();
        let mut body = ProblemDetails::new(slug, title, status, self.detail());
        body.rejection = self.rejection().map(PromoCodeRejected::rejection);
        if let Problem::StackRefused(refused) = self {
            body.rejections = Some(refused.refusals().iter().map(RefusedCode::from).collect());
        }
        if let Problem::Rejected {
            refusal,
            with_quotes: true,
        } = self
        {
            body.quote = Some(refusal.quote.clone());
            body.current.clone_from(&refusal.current);
        }
        body
    }

    /// The HTTP answer: the only place a problem becomes a status and headers.
    ///
    /// # Errors
    ///
    /// A runtime error building the response.
    pub fn into_response(self) -> worker::Result<Response> {
        let (status, _, _) = self.kind();
        if let Problem::Internal(message) = &self {
            worker::console_error!("internal error: {message}");
        }
        let mut response = Response::from_json(&self.body())?.with_status(status);
        let headers = response.headers_mut();
        headers.set("content-type", "application/problem+json")?;
        match &self {
            Problem::MethodNotAllowed { allow } => headers.set("allow", allow)?,
            Problem::Unauthorized => headers.set("www-authenticate", "Bearer")?,
            Problem::Conflict(_) | Problem::RetryLater(_) => {
                headers.set("retry-after", &CONFLICT_RETRY_AFTER_SECONDS.to_string())?
            }
            Problem::TooManyRequests { retry_after } => headers.set("retry-after", &retry_after.to_string())?,
            Problem::PreconditionFailed { current: Some(tag) } => headers.set(ETAG_HEADER, tag)?,
            _ => {}
        }
        Ok(response)
    }
}

#[cfg(test)]
mod tests {
    use promocodes::{capture, Basket, CaptureOptions, Currency, InMemoryRedemptionStore, Money, PromoCode, Timestamp};
    use promocodes::{Code, RedemptionConflict, Rejection};

    use super::Problem;

    #[test]
    fn a_stale_capture_carries_the_rejection_and_the_quote() {
        let promo =
            PromoCode::from_json(r#"{"code":"ONE","discount":{"kind":"percent","percent":"10"},"limits":{"total":1}}"#)
                .unwrap();
        let store = InMemoryRedemptionStore::new();
        let now: Timestamp = "2026-12-02T10:00:00Z".parse().unwrap();
        let cart = Basket::from(Money::parse("80.00", Currency::EUR).unwrap());
        capture(&promo, &store, None, &cart, now, CaptureOptions::new()).unwrap();
        let err = capture(&promo, &store, None, &cart, now, CaptureOptions::new()).unwrap_err();
        let body = Problem::from(err).body();
        assert_eq!(body.status, 422);
        assert_eq!(body.kind, "/problems/rejected");
        assert_eq!(body.rejection, Some(Rejection::Exhausted));
        assert_eq!(body.detail, "this code has been used up");
        assert_eq!(body.quote.expect("the quote").payable().amount_text(), "72.00");
    }

    #[test]
    fn a_large_body_names_the_limit_a_body_not_json_is_a_415_and_a_spent_rate_limit_a_429() {
        let large = Problem::PayloadTooLarge { limit: 65536 }.body();
        assert_eq!(large.status, 413);
        assert_eq!(large.kind, "/problems/payload_too_large");
        assert_eq!(large.detail, "the body of this route may have at most 65536 bytes");
        let form = Problem::UnsupportedMediaType {
            given: Some("text/plain".to_owned()),
        }
        .body();
        assert_eq!(form.status, 415);
        assert_eq!(form.kind, "/problems/unsupported_media_type");
        assert_eq!(
            form.detail,
            "the body is text/plain; send it as JSON with Content-Type: application/json"
        );
        let busy = Problem::TooManyRequests { retry_after: 10 }.body();
        assert_eq!(busy.status, 429);
        assert_eq!(busy.kind, "/problems/too_many_requests");
        assert_eq!(
            busy.detail,
            "too many requests from this address; retry after 10 seconds"
        );
    }

    #[test]
    fn a_conflict_is_a_409_and_bad_input_a_400() {
        let conflict = Problem::Conflict(RedemptionConflict {
            code: Code::parse("BUSY").unwrap(),
            attempts: 3,
        })
        .body();
        assert_eq!(conflict.status, 409);
        assert_eq!(conflict.kind, "/problems/conflict");
        let input = Problem::from(Code::parse("").unwrap_err()).body();
        assert_eq!(input.status, 400);
        assert_eq!(input.kind, "/problems/invalid_request");
        assert_eq!(input.detail, "promo code is empty");
        assert!(input.rejection.is_none());
    }
}
