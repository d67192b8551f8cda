//! Stripe's webhook signature: [`verify`] checks `Stripe-Signature` against
//! the raw body, exactly as Stripe documents it.

use std::fmt;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use subtle::{Choice, ConstantTimeEq};

/// The request header that carries Stripe's webhook signature.
pub const SIGNATURE_HEADER: &str = "Stripe-Signature";

/// Stripe's default tolerance between the signed timestamp and now: five
/// minutes, as in Stripe's own libraries (`DEFAULT_TOLERANCE = 300`).
pub const DEFAULT_TOLERANCE_S: i64 = 300;

/// Why a webhook's signature is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SignatureError {
    /// The endpoint secret is empty: a deployment mistake, never the sender's.
    /// Refused because an empty HMAC key would let anyone sign.
    EmptySecret,
    /// No `Stripe-Signature` header.
    MissingHeader,
    /// The header has no usable timestamp `t`.
    Malformed {
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The header has a timestamp but no `v1` signature.
    NoV1,
    /// No `v1` signature matches the body and the secret.
    Mismatch,
    /// The signature matches, but its timestamp is too far from now (a replay,
    /// or a clock that is off).
    TimestampOutsideTolerance {
        /// The signed timestamp `t`, Unix seconds.
        timestamp: i64,
        /// Now, Unix seconds.
        now: i64,
        /// The tolerance applied, seconds.
        tolerance_s: i64,
    },
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignatureError::EmptySecret => f.write_str("the Stripe webhook signing secret is empty, so no signature is trusted"),
            SignatureError::MissingHeader => write!(f, "the request has no {SIGNATURE_HEADER} header"),
            SignatureError::Malformed { reason } => write!(f, "the {SIGNATURE_HEADER} header is malformed: {reason}"),
            SignatureError::NoV1 => write!(f, "the {SIGNATURE_HEADER} header has no v1 signature"),
            SignatureError::Mismatch => write!(
                f,
                "no v1 signature in the {SIGNATURE_HEADER} header matches the body: the body must be the raw bytes \
                 Stripe sent and the secret the endpoint's signing secret"
            ),
            SignatureError::TimestampOutsideTolerance { timestamp, now, tolerance_s } => write!(
                f,
                "the {SIGNATURE_HEADER} timestamp {timestamp} is {} s away from now ({now}), more than the {tolerance_s} s \
                 tolerance",
                now.abs_diff(*timestamp)
            ),
        }
    }
}

impl std::error::Error for SignatureError {}

/// Verifies a webhook exactly as Stripe documents it ("Verify signatures
/// manually" in docs.stripe.com/webhooks):
///
/// - the header is split on `,` into elements, each element on its first `=`
///   into a prefix and a value; `t` is the timestamp (Unix seconds, digits
///   only, exactly one), every `v1` is a candidate signature, and every other
///   element (`v0`, future schemes, anything without `=`) is ignored;
/// - the expected signature is HMAC-SHA256, keyed with the endpoint secret
///   (the whole `whsec_...` string, as bytes), over `<t>.<raw body>`, where
///   `<t>` is the timestamp text as received;
/// - it is compared in constant time with every `v1` (lower-case hex, as
///   Stripe sends it); one match is enough;
/// - only then the timestamp: refused when `|now_unix - t| > tolerance_s`
///   (both directions, stricter than Stripe's libraries, which only refuse
///   old timestamps). A negative tolerance refuses everything. Use
///   [`DEFAULT_TOLERANCE_S`] unless there is a reason not to.
///
/// Checking the signature first means [`SignatureError::TimestampOutsideTolerance`]
/// is only ever said about a genuine Stripe signature (a replay or a clock
/// problem), as in Stripe's own libraries.
///
/// # Errors
///
/// The [`SignatureError`] that stopped it, in the order above; an empty
/// `secret` is refused first.
pub fn verify(
    header: Option<&str>,
    body: &[u8],
    secret: &str,
    now_unix: i64,
    tolerance_s: i64,
) -> Result<(), SignatureError> {
    if secret.is_empty() {
        return Err(SignatureError::EmptySecret);
    }
    let header = SignatureHeader::parse(header.ok_or(SignatureError::MissingHeader)?)?;
    if header.v1.is_empty() {
        return Err(SignatureError::NoV1);
    }
    let expected = expected_signature(secret, header.timestamp_text, body);
    let mut matched = Choice::from(0);
    for candidate in &header.v1 {
        if let Some(signature) = decode_hex32(candidate) {
            matched |= signature.ct_eq(&expected);
        }
    }
    if !bool::from(matched) {
        return Err(SignatureError::Mismatch);
    }
    if !within_tolerance(header.timestamp, now_unix, tolerance_s) {
        return Err(SignatureError::TimestampOutsideTolerance {
            timestamp: header.timestamp,
            now: now_unix,
            tolerance_s,
        });
    }
    Ok(())
}

/// The parts of a `Stripe-Signature` header that verification reads.
struct SignatureHeader<'a> {
    /// `t` as received: the signed payload starts with exactly this text.
    timestamp_text: &'a str,
    timestamp: i64,
    v1: Vec<&'a str>,
}

impl<'a> SignatureHeader<'a> {
    fn parse(header: &'a str) -> Result<SignatureHeader<'a>, SignatureError> {
        let malformed = |reason| SignatureError::Malformed { reason };
        let mut timestamp_text = None;
        let mut v1 = Vec::new();
        for element in header.split(',') {
            let Some((prefix, value)) = element.trim().split_once('=') else {
                continue;
            };
            match prefix {
                "t" if timestamp_text.is_some() => return Err(malformed("it has more than one timestamp t")),
                "t" => timestamp_text = Some(value),
                "v1" => v1.push(value),
                _ => {}
            }
        }
        let timestamp_text = timestamp_text.ok_or(malformed("it has no timestamp t"))?;
        let timestamp =
            unix_seconds(timestamp_text).ok_or(malformed("its timestamp t is not a whole number of seconds"))?;
        Ok(SignatureHeader {
            timestamp_text,
            timestamp,
            v1,
        })
    }
}

/// Digits only (no sign, no spaces), within `i64`.
fn unix_seconds(text: &str) -> Option<i64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn expected_signature(secret: &str, timestamp_text: &str, body: &[u8]) -> [u8; 32] {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(timestamp_text.as_bytes());
    mac.update(b".");
    mac.update(body);
    let mut out = [0u8; 32];
    out.copy_from_slice(&mac.finalize().into_bytes());
    out
}

/// 64 lower-case hex digits as 32 bytes; anything else is no signature.
fn decode_hex32(text: &str) -> Option<[u8; 32]> {
    let digits = text.as_bytes();
    if digits.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (byte, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        *byte = (hex_digit(pair[0])? << 4) | hex_digit(pair[1])?;
    }
    Some(out)
}

fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

fn within_tolerance(timestamp: i64, now: i64, tolerance_s: i64) -> bool {
    u64::try_from(tolerance_s).is_ok_and(|tolerance| now.abs_diff(timestamp) <= tolerance)
}

// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::super::vector::*;
    use super::*;

    fn vector_header() -> String {
        format!("t={VECTOR_T},v1={VECTOR_V1}")
    }

    fn check(header: &str, body: &[u8], now: i64) -> Result<(), SignatureError> {
        verify(Some(header), body, VECTOR_SECRET, now, DEFAULT_TOLERANCE_S)
    }

    #[test]
    fn the_vector_verifies_and_its_byte_count_is_the_documented_one() {
        assert_eq!(VECTOR_BODY.len(), 239);
        assert_eq!(check(&vector_header(), VECTOR_BODY.as_bytes(), VECTOR_T), Ok(()));
        assert_eq!(
            check(&format!("t={VECTOR_T},v1={EMPTY_BODY_V1}"), b"", VECTOR_T + 10),
            Ok(())
        );
    }

    #[test]
    fn the_computed_signature_is_the_independent_one() {
        let expected = expected_signature(VECTOR_SECRET, "1700000000", VECTOR_BODY.as_bytes());
        assert_eq!(decode_hex32(VECTOR_V1), Some(expected));
    }

    #[test]
    fn any_one_of_several_v1_is_enough_and_other_schemes_are_ignored() {
        let wrong = "0".repeat(64);
        let headers = [
            format!("t={VECTOR_T},v1={wrong},v1={VECTOR_V1}"),
            format!("t={VECTOR_T},v1={VECTOR_V1},v1={wrong}"),
            format!("t={VECTOR_T},v1=not-hex,v1={VECTOR_V1},v0={wrong}"),
            format!("v0={wrong},v1={VECTOR_V1},t={VECTOR_T},v2=future,flag"),
            format!("t={VECTOR_T}, v1={VECTOR_V1}"),
        ];
        for header in headers {
            assert_eq!(check(&header, VECTOR_BODY.as_bytes(), VECTOR_T), Ok(()), "{header}");
        }
    }

    #[test]
    fn a_changed_body_or_another_secret_is_a_mismatch() {
        let mut body = VECTOR_BODY.as_bytes().to_vec();
        body[10] ^= 1;
        assert_eq!(check(&vector_header(), &body, VECTOR_T), Err(SignatureError::Mismatch));
        // The same JSON re-serialised (a space added) is not the signed body.
        let reserialised = VECTOR_BODY.replacen(",", ", ", 1);
        assert_eq!(
            check(&vector_header(), reserialised.as_bytes(), VECTOR_T),
            Err(SignatureError::Mismatch)
        );
        let other = verify(
            Some(&vector_header()),
            VECTOR_BODY.as_bytes(),
            "whsec_other_secret",
            VECTOR_T,
            DEFAULT_TOLERANCE_S,
        );
        assert_eq!(other, Err(SignatureError::Mismatch));
        // ... and that secret's own signature verifies under it, not under ours.
        let theirs = format!("t={VECTOR_T},v1={OTHER_SECRET_V1}");
        let under_theirs = verify(
            Some(&theirs),
            VECTOR_BODY.as_bytes(),
            "whsec_other_secret",
            VECTOR_T,
            DEFAULT_TOLERANCE_S,
        );
        assert_eq!(under_theirs, Ok(()));
        assert_eq!(
            check(&theirs, VECTOR_BODY.as_bytes(), VECTOR_T),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn the_signed_timestamp_is_part_of_the_signature() {
        let header = format!("t={},v1={VECTOR_V1}", VECTOR_T + 1);
        assert_eq!(
            check(&header, VECTOR_BODY.as_bytes(), VECTOR_T),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn only_lower_case_hex_of_the_right_length_is_a_signature() {
        for v1 in [
            VECTOR_V1.to_uppercase(),
            VECTOR_V1[..62].to_owned(),
            format!("{VECTOR_V1}00"),
        ] {
            let header = format!("t={VECTOR_T},v1={v1}");
            assert_eq!(
                check(&header, VECTOR_BODY.as_bytes(), VECTOR_T),
                Err(SignatureError::Mismatch)
            );
        }
    }

    #[test]
    fn missing_or_malformed_headers_are_refused() {
        let body = VECTOR_BODY.as_bytes();
        let none = verify(None, body, VECTOR_SECRET, VECTOR_T, DEFAULT_TOLERANCE_S);
        assert_eq!(none, Err(SignatureError::MissingHeader));
        for header in [
            String::new(),
            format!("v1={VECTOR_V1}"),
            format!("t=,v1={VECTOR_V1}"),
            format!("t=abc,v1={VECTOR_V1}"),
            format!("t=-1,v1={VECTOR_V1}"),
            format!("t=+1700000000,v1={VECTOR_V1}"),
            format!("t=1700000000.5,v1={VECTOR_V1}"),
            format!("t=99999999999999999999,v1={VECTOR_V1}"),
            format!("t={VECTOR_T},t={VECTOR_T},v1={VECTOR_V1}"),
        ] {
            assert!(
                matches!(check(&header, body, VECTOR_T), Err(SignatureError::Malformed { .. })),
                "{header}"
            );
        }
        let only_v0 = format!("t={VECTOR_T},v0={VECTOR_V1}");
        assert_eq!(check(&only_v0, body, VECTOR_T), Err(SignatureError::NoV1));
    }

    #[test]
    fn an_empty_secret_trusts_nothing() {
        let result = verify(
            Some(&vector_header()),
            VECTOR_BODY.as_bytes(),
            "",
            VECTOR_T,
            DEFAULT_TOLERANCE_S,
        );
        assert_eq!(result, Err(SignatureError::EmptySecret));
    }

    #[test]
    fn the_timestamp_must_be_within_the_tolerance_both_ways() {
        let body = VECTOR_BODY.as_bytes();
        let header = vector_header();
        assert_eq!(check(&header, body, VECTOR_T + 300), Ok(()));
        assert_eq!(check(&header, body, VECTOR_T - 300), Ok(()));
        for now in [VECTOR_T + 301, VECTOR_T - 301, 0, i64::MAX, i64::MIN] {
            assert_eq!(
                check(&header, body, now),
                Err(SignatureError::TimestampOutsideTolerance {
                    timestamp: VECTOR_T,
                    now,
                    tolerance_s: 300
                }),
                "now = {now}"
            );
        }
    }

    #[test]
    fn the_tolerance_is_a_parameter() {
        let header = vector_header();
        let body = VECTOR_BODY.as_bytes();
        assert_eq!(verify(Some(&header), body, VECTOR_SECRET, VECTOR_T + 500, 600), Ok(()));
        assert_eq!(verify(Some(&header), body, VECTOR_SECRET, VECTOR_T, 0), Ok(()));
        assert!(verify(Some(&header), body, VECTOR_SECRET, VECTOR_T + 1, 0).is_err());
        assert!(verify(Some(&header), body, VECTOR_SECRET, VECTOR_T, -1).is_err());
    }

    #[test]
    fn a_forged_old_signature_is_a_mismatch_not_a_timestamp_problem() {
        let header = format!("t={VECTOR_T},v1={}", "ab".repeat(32));
        assert_eq!(
            check(&header, VECTOR_BODY.as_bytes(), VECTOR_T + 10_000),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn signature_errors_read_as_sentences() {
        let stale = SignatureError::TimestampOutsideTolerance {
            timestamp: 100,
            now: 500,
            tolerance_s: 300,
        };
        assert_eq!(
            stale.to_string(),
            "the Stripe-Signature timestamp 100 is 400 s away from now (500), more than the 300 s tolerance"
        );
        assert_eq!(
            SignatureError::MissingHeader.to_string(),
            "the request has no Stripe-Signature header"
        );
        assert!(SignatureError::Mismatch.to_string().contains("raw bytes"));
        let malformed = check("v1=00", b"", 0).unwrap_err();
        assert_eq!(
            malformed.to_string(),
            "the Stripe-Signature header is malformed: it has no timestamp t"
        );
    }
}
