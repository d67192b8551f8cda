//! What an endpoint may be, checked before the catalog keeps it: its id,
//! its URL (`https://`, or `http://` for a host in `WEBHOOK_ALLOW_HTTP`),
//! its events; and the secret a new one gets.

use promocodes::wire::{EventType, WebhookRequest};
use promocodes::InputError;

use super::signature::WebhookSecret;
use crate::problem::Problem;

/// The most endpoints there may be.
pub const MAX_ENDPOINTS: u32 = 16;

/// The most characters of an endpoint's id.
pub const MAX_ID_LEN: usize = 64;

/// The most characters of an endpoint's URL.
pub const MAX_URL_LEN: usize = 2048;

/// The most characters of an endpoint's description.
pub const MAX_DESCRIPTION_LEN: usize = 500;

/// The bytes of key a new secret gets.
pub const SECRET_KEY_BYTES: usize = 32;

/// How long the secret before a rotation keeps signing, in seconds (24 hours).
pub const ROTATION_OVERLAP_S: i64 = 24 * 3600;

/// The id no endpoint may have: `/v1/webhooks/stripe` is Stripe's webhook,
/// whose literal path wins over `/v1/webhooks/{id}` in the route table.
pub const RESERVED_ID: &str = "stripe";

fn invalid(path: &str, message: impl Into<String>) -> Problem {
    Problem::Input(InputError::Malformed {
        path: path.to_owned(),
        message: message.into(),
    })
}

/// The path's endpoint id: 1 to [`MAX_ID_LEN`] of `A-Z a-z 0-9 - _`, not [`RESERVED_ID`].
///
/// # Errors
///
/// [`Problem::Input`] naming `id`.
pub fn check_id(id: &str) -> Result<String, Problem> {
    let fits = !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !fits {
        return Err(invalid(
            "id",
            format!("an endpoint's id is 1 to {MAX_ID_LEN} letters, digits, - or _"),
        ));
    }
    if id.eq_ignore_ascii_case(RESERVED_ID) {
        return Err(invalid(
            "id",
            "stripe is not an endpoint's id: /v1/webhooks/stripe is Stripe's webhook",
        ));
    }
    Ok(id.to_owned())
}

/// The hosts `WEBHOOK_ALLOW_HTTP` lists (comma-separated), lower-cased.
pub fn allowed_http_hosts(var: &str) -> Vec<String> {
    var.split(',')
        .map(|h| h.trim().to_ascii_lowercase())
        .filter(|h| !h.is_empty())
        .collect()
}

/// The request checked, its events each once in the documentation's order.
///
/// # Errors
///
/// [`Problem::Input`] naming the field: a URL that is not absolute
/// `https://` (nor `http://` to a host of `allow_http`), has user info or
/// is too long; no events; a description too long.
pub fn check_request(mut request: WebhookRequest, allow_http: &[String]) -> Result<WebhookRequest, Problem> {
    if request.url.len() > MAX_URL_LEN {
        return Err(invalid("url", format!("a URL has at most {MAX_URL_LEN} characters")));
    }
    let url = worker::Url::parse(&request.url).map_err(|err| invalid("url", format!("not a URL: {err}")))?;
    let host = url.host_str().unwrap_or_default().to_ascii_lowercase();
    match url.scheme() {
        "https" => {}
        "http" if allow_http.contains(&host) => {}
        _ => {
            return Err(invalid(
                "url",
                "an endpoint's URL is https:// (http:// only to a host listed in WEBHOOK_ALLOW_HTTP)",
            ))
        }
    }
    if host.is_empty() || !url.username().is_empty() || url.password().is_some() {
        return Err(invalid("url", "an endpoint's URL names a host and no user"));
    }
    if request.events.is_empty() {
        return Err(invalid("events", "name at least one event type"));
    }
    if request
        .description
        .as_ref()
        .is_some_and(|d| d.chars().count() > MAX_DESCRIPTION_LEN)
    {
        return Err(invalid(
            "description",
            format!("at most {MAX_DESCRIPTION_LEN} characters"),
        ));
    }
    request.events = EventType::ALL
        .into_iter()
        .filter(|t| request.events.contains(t))
        .collect();
    Ok(request)
}

/// A new secret of [`SECRET_KEY_BYTES`] random bytes, as `whsec_...`.
///
/// # Errors
///
/// [`Problem::Internal`] when the runtime's `crypto.getRandomValues` fails.
pub fn new_secret() -> Result<String, Problem> {
    use wasm_bindgen::JsCast;
    let js = |err: wasm_bindgen::JsValue| Problem::Internal(format!("crypto.getRandomValues failed: {err:?}"));
    let global = worker::js_sys::global();
    let crypto = worker::js_sys::Reflect::get(&global, &"crypto".into()).map_err(js)?;
    let get: worker::js_sys::Function = worker::js_sys::Reflect::get(&crypto, &"getRandomValues".into())
        .map_err(js)?
        .dyn_into()
        .map_err(|_| Problem::Internal("crypto.getRandomValues is missing".to_owned()))?;
    let array = worker::js_sys::Uint8Array::new_with_length(SECRET_KEY_BYTES as u32);
    get.call1(&crypto, &array).map_err(js)?;
    let secret = WebhookSecret::from_key(&array.to_vec()).map_err(|err| Problem::Internal(err.to_string()))?;
    Ok(secret.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(url: &str, events: Vec<EventType>) -> WebhookRequest {
        WebhookRequest {
            url: url.to_owned(),
            events,
            description: None,
        }
    }

    fn field(problem: Problem) -> String {
        match problem {
            Problem::Input(InputError::Malformed { path, .. }) => path,
            other => panic!("not a field's problem: {other:?}"),
        }
    }

    #[test]
    fn ids_are_short_plain_and_never_stripe() {
        assert_eq!(check_id("shop-1_a").unwrap(), "shop-1_a");
        for bad in ["", "a b", "shop/x", "é", &"a".repeat(65), "stripe", "Stripe"] {
            assert_eq!(field(check_id(bad).unwrap_err()), "id", "{bad:?}");
        }
    }

    #[test]
    fn urls_are_https_unless_the_host_is_allowed() {
        let local = allowed_http_hosts(" 127.0.0.1, LocalHost ,");
        assert_eq!(local, ["127.0.0.1", "localhost"]);
        let ok = |url: &str| check_request(request(url, vec![EventType::CodeExhausted]), &local);
        assert!(ok("https://shop.example/hooks").is_ok());
        assert!(ok("http://127.0.0.1:8787/hooks").is_ok());
        assert!(ok("http://localhost/x").is_ok());
        for bad in [
            "http://shop.example/hooks",
            "ftp://shop.example/",
            "shop.example/hooks",
            "https://user:pw@shop.example/",
            "mailto:shop@shop.example",
        ] {
            assert_eq!(field(ok(bad).unwrap_err()), "url", "{bad}");
        }
        assert_eq!(
            field(ok(&format!("https://a.example/{}", "x".repeat(2048))).unwrap_err()),
            "url"
        );
    }

    /// The Worker's `url` has IDNA without Unicode's tables (`idna_adapter` pinned to 1.0, for the
    /// upload's size): a host name is given in ASCII, an internationalised one as `xn--`.
    #[test]
    fn an_internationalised_host_is_given_in_its_ascii_form() {
        let ok = |url: &str| check_request(request(url, vec![EventType::CodeExhausted]), &[]);
        let ascii = ok("https://xn--bcher-kva.example/hooks").expect("the xn-- form is a URL");
        assert_eq!(ascii.url, "https://xn--bcher-kva.example/hooks");
        assert_eq!(field(ok("https://bücher.example/hooks").unwrap_err()), "url");
    }

    #[test]
    fn events_are_kept_once_in_order_and_at_least_one() {
        let checked = check_request(
            request(
                "https://shop.example/",
                vec![
                    EventType::CodeExhausted,
                    EventType::RedemptionHeld,
                    EventType::CodeExhausted,
                ],
            ),
            &[],
        )
        .unwrap();
        assert_eq!(checked.events, [EventType::RedemptionHeld, EventType::CodeExhausted]);
        let none = check_request(request("https://shop.example/", vec![]), &[]);
        assert_eq!(field(none.unwrap_err()), "events");
        let long = WebhookRequest {
            description: Some("d".repeat(501)),
            ..request("https://shop.example/", vec![EventType::CodeUpdated])
        };
        assert_eq!(field(check_request(long, &[]).unwrap_err()), "description");
    }
}
