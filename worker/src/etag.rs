//! Entity tags of a code's definition, and the `If-Match` condition on its
//! writes (RFC 9110 §8.8.3, §13.1.1): no lost update between two operators.
//!
//! The tag is strong: a hash of the stored definition (its JSON as the store
//! keeps it, and whether it is archived), so two reads of one unchanged
//! definition answer the same tag and any change of it answers another. The
//! code's object compares it in the same synchronous step as its write
//! ([`crate::ledger`]); the Worker only forwards the header.

use sha2::{Digest, Sha256};

/// The request header a write's condition comes in, forwarded as it came to the code's object.
pub const IF_MATCH_HEADER: &str = "if-match";

/// The answer header with the definition's tag.
pub const ETAG_HEADER: &str = "etag";

/// The strong entity tag, quoted, of a definition whose stored JSON is
/// `json`, archived or not: the first 16 bytes of its SHA-256, in hex.
pub fn of(json: &str, archived: bool) -> String {
    let mut hash = Sha256::new();
    hash.update(json.as_bytes());
    hash.update(if archived { b"\narchived" as &[u8] } else { b"\nlive" });
    let digest = hash.finalize();
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// Whether an `If-Match` value lets a write proceed against the definition
/// tagged `current` (`None`: no definition yet). `*` matches any current
/// definition; otherwise one of the listed tags must equal it by the strong
/// comparison (a weak tag, `W/"…"`, never does).
pub fn matches(if_match: &str, current: Option<&str>) -> bool {
    let Some(current) = current else {
        return false;
    };
    let condition = if_match.trim();
    if condition == "*" {
        return true;
    }
    condition.split(',').map(str::trim).any(|tag| tag == current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_is_strong_and_follows_the_definition() {
        let tag = of(r#"{"code":"A"}"#, false);
        assert_eq!(tag.len(), 34);
        assert!(tag.starts_with('"') && tag.ends_with('"'));
        assert_eq!(tag, of(r#"{"code":"A"}"#, false));
        assert_ne!(tag, of(r#"{"code":"B"}"#, false));
        assert_ne!(tag, of(r#"{"code":"A"}"#, true));
    }

    #[test]
    fn if_match_compares_strongly() {
        let tag = of("x", false);
        assert!(matches(&tag, Some(&tag)));
        assert!(matches(&format!("\"other\", {tag}"), Some(&tag)));
        assert!(matches("*", Some(&tag)));
        assert!(!matches("*", None));
        assert!(!matches(&tag, None));
        assert!(!matches(&format!("W/{tag}"), Some(&tag)));
        assert!(!matches("\"stale\"", Some(&tag)));
    }
}
