//! Standard Webhooks 1.0 signatures for the events the Worker sends:
//! `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`,
//! keyed with the endpoint's secret (`whsec_<base64 of the key>`).

use std::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The secret's prefix, as Standard Webhooks writes it.
pub const SECRET_PREFIX: &str = "whsec_";

/// The fewest and the most bytes of key a secret may have (Standard Webhooks: 24 to 64).
pub const SECRET_BYTES: std::ops::RangeInclusive<usize> = 24..=64;

/// An endpoint's signing secret: its key, written `whsec_<base64>`; its
/// `Debug` never shows the key.
#[derive(Clone, PartialEq, Eq)]
pub struct WebhookSecret {
    key: Vec<u8>,
}

/// Why a secret is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SecretError {
    /// It does not start with `whsec_`, or the rest is not base64.
    Malformed,
    /// Its key is shorter or longer than [`SECRET_BYTES`].
    Length {
        /// The key's length in bytes.
        bytes: usize,
    },
}

impl fmt::Display for SecretError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SecretError::Malformed => write!(f, "a webhook secret is {SECRET_PREFIX} and the key in base64"),
            SecretError::Length { bytes } => write!(
                f,
                "a webhook secret's key has {} to {} bytes, not {bytes}",
                SECRET_BYTES.start(),
                SECRET_BYTES.end()
            ),
        }
    }
}

impl std::error::Error for SecretError {}

impl fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebhookSecret(..)")
    }
}

impl fmt::Display for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{SECRET_PREFIX}{}", STANDARD.encode(&self.key))
    }
}

impl WebhookSecret {
    /// The secret of `key` (random bytes the caller drew).
    ///
    /// # Errors
    ///
    /// [`SecretError::Length`] when `key` has fewer or more bytes than [`SECRET_BYTES`].
    pub fn from_key(key: &[u8]) -> Result<WebhookSecret, SecretError> {
        if !SECRET_BYTES.contains(&key.len()) {
            return Err(SecretError::Length { bytes: key.len() });
        }
        Ok(WebhookSecret { key: key.to_vec() })
    }

    /// Reads `whsec_<base64>` back.
    ///
    /// # Errors
    ///
    /// [`SecretError::Malformed`] without the prefix or with bad base64,
    /// [`SecretError::Length`] for a key of the wrong size.
    pub fn parse(text: &str) -> Result<WebhookSecret, SecretError> {
        let encoded = text.strip_prefix(SECRET_PREFIX).ok_or(SecretError::Malformed)?;
        let key = STANDARD.decode(encoded).map_err(|_| SecretError::Malformed)?;
        WebhookSecret::from_key(&key)
    }

    /// The signature of one delivery: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`.
    ///
    /// The Standard Webhooks reference libraries' test vector is this module's
    /// first test (`whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw`, `msg_p5jXN8AQM9LWM0D4loKWxJek`,
    /// `1614265330`, `{"test": 2432232314}`).
    pub fn sign(&self, id: &str, timestamp: i64, body: &str) -> String {
        // HMAC takes a key of any length: this cannot fail.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.key).expect("HMAC takes any key length");
        mac.update(id.as_bytes());
        mac.update(b".");
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(body.as_bytes());
        format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
    }
}

/// The `webhook-signature` header of one delivery, signed with each of
/// `secrets` (during a rotation, the new and the old), space-separated as
/// Standard Webhooks lists several signatures.
pub fn signature_header(secrets: &[WebhookSecret], id: &str, timestamp: i64, body: &str) -> String {
    secrets
        .iter()
        .map(|secret| secret.sign(id, timestamp, body))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const VECTOR_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    #[test]
    fn the_reference_vector_and_a_change_of_any_part() {
        let secret = WebhookSecret::parse(VECTOR_SECRET).unwrap();
        let (id, ts, body) = ("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, r#"{"test": 2432232314}"#);
        let good = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
        assert_eq!(secret.sign(id, ts, body), good);
        assert_ne!(secret.sign("msg_other", ts, body), good);
        assert_ne!(secret.sign(id, ts + 1, body), good);
        assert_ne!(secret.sign(id, ts, r#"{"test": 2432232315}"#), good);
    }

    #[test]
    fn a_rotation_signs_with_both() {
        let new = WebhookSecret::from_key(&[1; 32]).unwrap();
        let old = WebhookSecret::parse(VECTOR_SECRET).unwrap();
        let header = signature_header(&[new.clone(), old.clone()], "msg_1", 5, "{}");
        assert_eq!(
            header,
            format!("{} {}", new.sign("msg_1", 5, "{}"), old.sign("msg_1", 5, "{}"))
        );
    }

    #[test]
    fn secrets_of_the_wrong_shape_are_refused() {
        assert_eq!(
            WebhookSecret::parse("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
            Err(SecretError::Malformed)
        );
        assert_eq!(WebhookSecret::parse("whsec_!!!"), Err(SecretError::Malformed));
        assert_eq!(
            WebhookSecret::from_key(&[0; 23]),
            Err(SecretError::Length { bytes: 23 })
        );
        assert_eq!(
            WebhookSecret::from_key(&[0; 65]),
            Err(SecretError::Length { bytes: 65 })
        );
        assert!(WebhookSecret::from_key(&[0; 64]).is_ok());
    }
}
