//! HTTP plumbing shared by the routes: field values, bearer tokens, the
//! `Idempotency-Key`, path segments and query values, the client address,
//! the media type of a body and bodies read under a size limit. Every
//! failure is a [`Problem`].

use promocodes::{Code, IdempotencyKey, InputError};
use subtle::ConstantTimeEq;
use wasm_bindgen::{JsCast, JsValue};
use worker::js_sys::{Reflect, Uint8Array};
use worker::wasm_bindgen_futures::JsFuture;
use worker::web_sys::ReadableStreamDefaultReader;
use worker::{Env, Request, Response};

use crate::problem::Problem;

/// Who a valid bearer token says the caller is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `ADMIN_TOKEN`: defines codes, lists receipts.
    Admin,
    /// `CAPTURE_TOKEN`: the shop's server, captures.
    Capture,
}

impl Role {
    /// The secret that holds this role's token.
    pub fn secret_name(self) -> &'static str {
        match self {
            Role::Admin => "ADMIN_TOKEN",
            Role::Capture => "CAPTURE_TOKEN",
        }
    }
}

/// A field value without the spaces and tabs around it (RFC 9110 `OWS`);
/// other control characters stay and are refused by whoever parses the value.
pub fn trim_ows(value: &str) -> &str {
    value.trim_matches([' ', '\t'])
}

/// Compares two byte strings in constant time (`subtle`): the time depends
/// on their lengths only, never on where they differ.
pub fn constant_time_eq(expected: &[u8], given: &[u8]) -> bool {
    expected.ct_eq(given).into()
}

/// The token of an `Authorization: Bearer <token>` value, trimmed of
/// spaces and tabs; `None` for another scheme or no token.
pub fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = trim_ows(value).split_once(' ')?;
    let token = trim_ows(token);
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

fn configured_secret(env: &Env, role: Role) -> Option<String> {
    env.secret(role.secret_name())
        .map(|s| s.to_string())
        .ok()
        .filter(|s| !s.is_empty())
}

fn given_token(req: &Request) -> Result<Option<String>, Problem> {
    let header = req.headers().get("authorization")?;
    Ok(header.as_deref().and_then(bearer_token).map(str::to_owned))
}

/// Checks that the request carries `role`'s bearer token.
///
/// # Errors
///
/// [`Problem::Misconfigured`] without the secret, [`Problem::Unauthorized`]
/// for a missing or wrong token.
pub fn authorize(req: &Request, env: &Env, role: Role) -> Result<(), Problem> {
    let secret = configured_secret(env, role).ok_or(Problem::Misconfigured(role.secret_name()))?;
    let token = given_token(req)?.ok_or(Problem::Unauthorized)?;
    if constant_time_eq(secret.as_bytes(), token.as_bytes()) {
        Ok(())
    } else {
        Err(Problem::Unauthorized)
    }
}

/// Whether a request on a public route carries a valid admin or capture
/// token: such a caller is a server of the shop, not rate limited, and may
/// quote for a named customer. A wrong token is simply not trusted.
///
/// # Errors
///
/// Only a runtime error reading the headers.
pub fn is_trusted(req: &Request, env: &Env) -> Result<bool, Problem> {
    let Some(token) = given_token(req)? else {
        return Ok(false);
    };
    let matches = |role| configured_secret(env, role).is_some_and(|s| constant_time_eq(s.as_bytes(), token.as_bytes()));
    // Both comparisons run, so the answer's timing does not tell which role matched.
    let admin = matches(Role::Admin);
    let capture = matches(Role::Capture);
    Ok(admin | capture)
}

/// The `Idempotency-Key` header, trimmed of spaces and tabs, parsed by the core.
///
/// # Errors
///
/// [`Problem::MissingIdempotencyKey`] without the header, [`Problem::Input`]
/// for a key the core refuses.
pub fn idempotency_key(req: &Request) -> Result<IdempotencyKey, Problem> {
    let key = req
        .headers()
        .get("idempotency-key")?
        .ok_or(Problem::MissingIdempotencyKey)?;
    Ok(IdempotencyKey::parse(trim_ows(&key))?)
}

fn malformed_path(message: String) -> Problem {
    Problem::Input(InputError::Malformed {
        path: "path".to_owned(),
        message,
    })
}

fn hex_digit(byte: u8) -> Option<u8> {
    char::from(byte).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

/// Why a percent-encoded text does not decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undecodable {
    /// A `%` not followed by two hex digits.
    Escape,
    /// The bytes are not UTF-8.
    Utf8,
}

impl Undecodable {
    /// What is wrong with `text`, as a sentence's end.
    pub fn message(self, text: &str) -> String {
        match self {
            Undecodable::Escape => format!("{text:?} has an invalid percent escape"),
            Undecodable::Utf8 => format!("{text:?} does not decode to UTF-8"),
        }
    }
}

/// Decodes `%XX` escapes in `text` (and, with `plus_is_space`, a `+` as a
/// space, as a query string writes it); the result must be UTF-8.
///
/// # Errors
///
/// [`Undecodable`] for a `%` not followed by two hex digits, or bytes that are not UTF-8.
pub fn decode(text: &str, plus_is_space: bool) -> Result<String, Undecodable> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let pair = bytes
                    .get(i + 1)
                    .copied()
                    .and_then(hex_digit)
                    .zip(bytes.get(i + 2).copied().and_then(hex_digit));
                let (high, low) = pair.ok_or(Undecodable::Escape)?;
                out.push(high << 4 | low);
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            byte => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| Undecodable::Utf8)
}

/// Decodes `%XX` escapes in a path segment; the result must be UTF-8.
///
/// # Errors
///
/// [`Problem::Input`] for a `%` not followed by two hex digits, or bytes
/// that are not UTF-8.
pub fn percent_decode(segment: &str) -> Result<String, Problem> {
    decode(segment, false).map_err(|why| malformed_path(why.message(segment)))
}

/// The request header with the operator's note on a change of a definition.
pub const CHANGE_NOTE_HEADER: &str = "x-change-note";

/// The operator's note on a change of a definition: the `X-Change-Note`
/// header, percent-decoded as UTF-8 (`encodeURIComponent` writes any text
/// so; plain ASCII text is itself), trimmed; `None` without it or when empty.
///
/// # Errors
///
/// [`Problem::Input`] (400) when it does not decode, holds a control
/// character, or is longer than [`CHANGE_NOTE_MAX_CHARS`](crate::limits::CHANGE_NOTE_MAX_CHARS) characters.
pub fn change_note(headers: &worker::Headers) -> Result<Option<String>, Problem> {
    let Some(raw) = headers.get(CHANGE_NOTE_HEADER)? else {
        return Ok(None);
    };
    let malformed = |message: String| {
        Problem::Input(InputError::Malformed {
            path: "X-Change-Note".to_owned(),
            message,
        })
    };
    let note = decode(trim_ows(&raw), false).map_err(|why| malformed(why.message(&raw)))?;
    if note.chars().any(char::is_control) {
        return Err(malformed(
            "is not text: it holds a control character (a line break or a tab)".to_owned(),
        ));
    }
    let note = note.trim();
    let max = crate::limits::CHANGE_NOTE_MAX_CHARS;
    let length = note.chars().count();
    if length > max {
        return Err(malformed(format!("is {length} characters long, more than {max}")));
    }
    Ok((!note.is_empty()).then(|| note.to_owned()))
}

/// The request's `X-Change-Note` as it came, once [`change_note`] found it
/// valid, to forward to the object that writes the change (which reads it with [`change_note`]).
///
/// # Errors
///
/// As [`change_note`].
pub fn forwarded_note(req: &Request) -> Result<Option<String>, Problem> {
    Ok(match change_note(req.headers())? {
        Some(_) => req.headers().get(CHANGE_NOTE_HEADER)?,
        None => None,
    })
}

/// The promo code named by a path segment: percent-decoded, then parsed by the core.
///
/// # Errors
///
/// [`Problem::Input`] for bad percent-encoding or a code the core refuses.
pub fn path_code(segment: &str) -> Result<Code, Problem> {
    Ok(Code::parse(&percent_decode(segment)?)?)
}

/// The client's address as Cloudflare reports it (`CF-Connecting-IP`),
/// trimmed of spaces and tabs; `None` where no edge set it (or set it empty).
/// [`crate::ratelimit::key`] turns it into the limit's key.
///
/// # Errors
///
/// Only a runtime error reading the headers.
pub fn client_address(req: &Request) -> Result<Option<String>, Problem> {
    let address = req.headers().get("cf-connecting-ip")?;
    Ok(address.map(|a| trim_ows(&a).to_owned()).filter(|a| !a.is_empty()))
}

/// Whether a `Content-Type` value names JSON: `application/json` or an
/// `application/<name>+json` type (RFC 6839), in any case, with or without
/// parameters (`; charset=utf-8`).
pub fn is_json_media_type(value: &str) -> bool {
    let essence = media_type(value);
    let Some(subtype) = essence.strip_prefix("application/") else {
        return false;
    };
    subtype == "json" || subtype.strip_suffix("+json").is_some_and(|name| !name.is_empty())
}

/// A `Content-Type` value's type and subtype, lower case, without parameters.
fn media_type(value: &str) -> String {
    let essence = value.split(';').next().unwrap_or_default();
    trim_ows(essence).to_ascii_lowercase()
}

/// Refuses a request body that is not JSON by its `Content-Type`, before it
/// is read: a request with no body at all (no `Content-Length`, or `0`, and
/// no stream) passes, so that the body's parser names what is missing.
///
/// # Errors
///
/// [`Problem::UnsupportedMediaType`] for another type, or a body without one.
pub fn require_json(req: &Request) -> Result<(), Problem> {
    match req.headers().get("content-type")? {
        Some(value) if is_json_media_type(&value) => Ok(()),
        Some(value) => Err(Problem::UnsupportedMediaType {
            given: Some(media_type(&value)).filter(|t| !t.is_empty()),
        }),
        None => {
            let declared = req.headers().get("content-length")?;
            let empty = match declared {
                Some(length) => trim_ows(&length) == "0",
                None => req.inner().body().is_none(),
            };
            if empty {
                Ok(())
            } else {
                Err(Problem::UnsupportedMediaType { given: None })
            }
        }
    }
}

fn js_error(err: JsValue) -> Problem {
    Problem::from(worker::Error::from(err))
}

/// Reads a body of at most `limit` bytes as UTF-8, as a stream: a body over
/// the limit (declared or chunked) stops the read at the limit, cancels the
/// rest and answers [`Problem::PayloadTooLarge`]. No body reads as `""`.
///
/// # Errors
///
/// [`Problem::PayloadTooLarge`], [`Problem::Input`] for a body that is not UTF-8.
pub async fn read_body(req: &Request, limit: usize) -> Result<String, Problem> {
    let declared = req.headers().get("content-length")?.and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(Problem::PayloadTooLarge { limit });
    }
    if declared.is_some() {
        // A declared length within the limit: the runtime holds the body to it, so read it at once.
        let buffer = JsFuture::from(req.inner().array_buffer().map_err(js_error)?)
            .await
            .map_err(js_error)?;
        return utf8(Uint8Array::new(&buffer).to_vec());
    }
    let Some(stream) = req.inner().body() else {
        return Ok(String::new());
    };
    let reader: ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut bytes = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(js_error)?;
        if Reflect::get(&chunk, &JsValue::from_str("done"))
            .map_err(js_error)?
            .is_truthy()
        {
            break;
        }
        let value: Uint8Array = Reflect::get(&chunk, &JsValue::from_str("value"))
            .map_err(js_error)?
            .unchecked_into();
        let start = bytes.len();
        let end = start + value.length() as usize;
        if end > limit {
            // The rest is not wanted: the runtime may stop receiving it.
            let _ = JsFuture::from(reader.cancel()).await;
            return Err(Problem::PayloadTooLarge { limit });
        }
        bytes.resize(end, 0);
        value.copy_to(&mut bytes[start..]);
    }
    utf8(bytes)
}

fn utf8(bytes: Vec<u8>) -> Result<String, Problem> {
    String::from_utf8(bytes).map_err(|_| {
        Problem::Input(InputError::Malformed {
            path: ".".to_owned(),
            message: "the body is not UTF-8".to_owned(),
        })
    })
}

/// The answer to a `HEAD`: the `GET` answer's status and headers, without
/// its body (the runtime sets `Content-Length` for the answer it sends).
pub fn without_body(response: Response) -> Response {
    let (builder, _body) = response.into_parts();
    builder.empty()
}

#[cfg(test)]
mod tests {
    use super::{bearer_token, constant_time_eq, decode, is_json_media_type, percent_decode, trim_ows, Undecodable};

    #[test]
    fn constant_time_eq_compares_bytes_and_lengths() {
        assert!(constant_time_eq(b"s3cret", b"s3cret"));
        assert!(!constant_time_eq(b"s3cret", b"s3cre"));
        assert!(!constant_time_eq(b"s3cret", b"s3cret!"));
        assert!(!constant_time_eq(b"s3cret", b"S3cret"));
        assert!(!constant_time_eq(b"s3cret", b""));
    }

    #[test]
    fn field_values_lose_only_spaces_and_tabs() {
        assert_eq!(trim_ows(" \tkey-1\t "), "key-1");
        assert_eq!(trim_ows("key-1\n"), "key-1\n");
        assert_eq!(trim_ows("\u{b}key"), "\u{b}key");
    }

    #[test]
    fn bearer_tokens_are_trimmed_and_need_the_scheme() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token(" bearer \tabc \t"), Some("abc"));
        assert_eq!(bearer_token("Bearer abc\n"), Some("abc\n"));
        assert_eq!(bearer_token("Bearer"), None);
        assert_eq!(bearer_token("Bearer   "), None);
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("abc"), None);
    }

    #[test]
    fn path_segments_are_percent_decoded() {
        assert_eq!(percent_decode("SAVE%2010").unwrap(), "SAVE 10");
        assert_eq!(percent_decode("SAVE10").unwrap(), "SAVE10");
        assert_eq!(percent_decode("%53%61ve").unwrap(), "Save");
        assert_eq!(percent_decode("SAV%C3%89").unwrap(), "SAVÉ");
        for bad in ["SAVE%", "SAVE%2", "SAVE%zz", "%FF", "%C3"] {
            assert!(percent_decode(bad).is_err(), "{bad}");
        }
        assert_eq!(percent_decode("A+B").unwrap(), "A+B", "a path keeps its plus");
    }

    #[test]
    fn query_values_decode_a_plus_as_a_space_and_refuse_bad_escapes() {
        assert_eq!(decode("SAVE+10%21", true), Ok("SAVE 10!".to_owned()));
        assert_eq!(decode("%", true), Err(Undecodable::Escape));
        assert_eq!(decode("%G1", true), Err(Undecodable::Escape));
        assert_eq!(decode("%FF", true), Err(Undecodable::Utf8));
        assert_eq!(decode("%E0%A4", true), Err(Undecodable::Utf8));
    }

    #[test]
    fn json_is_application_json_or_a_json_suffix() {
        for json in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON;charset=UTF-8",
            " application/json\t",
            "application/merge-patch+json",
            "application/vnd.promocodes+JSON ; v=1",
        ] {
            assert!(is_json_media_type(json), "{json}");
        }
        for other in [
            "",
            "text/plain",
            "text/plain;charset=UTF-8",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "text/json",
            "text/plain; x=application/json",
            "application/+json",
            "application/jsonx",
            "application/json-seq",
            "application",
            "*/*",
        ] {
            assert!(!is_json_media_type(other), "{other}");
        }
    }
}
