//! Entity tags of a code's definition, and the `If-Match` and `If-None-Match`
//! conditions on its writes (RFC 9110 §8.8.3, §13.1.1, §13.1.2): no lost
//! update between two operators, and no new code written over an existing one.
//!
//! The tag is strong: a hash of the stored definition (its JSON as the store
//! keeps it, and whether it is archived), so two reads of one unchanged
//! definition answer the same tag and any change of it answers another. The
//! code's object compares it in the same synchronous step as its write
//! ([`crate::ledger`]); the Worker only forwards the header.

use sha2::{Digest, Sha256};

/// The request header a write's condition comes in, forwarded as it came to the code's object.
pub const IF_MATCH_HEADER: &str = "if-match";

/// The request header a creation's condition comes in (`*`: only if the code has no definition).
pub const IF_NONE_MATCH_HEADER: &str = "if-none-match";

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

/// Whether an `If-None-Match` value lets a write proceed against the
/// definition tagged `current`: `*` only when there is none; a list of tags
/// when none of them is the current one (weak comparison: `W/` is ignored).
pub fn none_match(if_none_match: &str, current: Option<&str>) -> bool {
    let Some(current) = current else {
        return true;
    };
    let condition = if_none_match.trim();
    if condition == "*" {
        return false;
    }
    !condition
        .split(',')
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == current)
}

/// A write's conditions, as the client sent them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Condition {
    /// `If-Match`.
    pub if_match: Option<String>,
    /// `If-None-Match`.
    pub if_none_match: Option<String>,
}

impl Condition {
    /// The conditions of a request's headers.
    ///
    /// # Errors
    ///
    /// A runtime error reading a header.
    pub fn of(headers: &worker::Headers) -> worker::Result<Condition> {
        Ok(Condition {
            if_match: headers.get(IF_MATCH_HEADER)?,
            if_none_match: headers.get(IF_NONE_MATCH_HEADER)?,
        })
    }

    /// The headers that carry them on to the code's object.
    pub fn headers(&self) -> Vec<(&'static str, &str)> {
        let mut headers = Vec::new();
        if let Some(value) = &self.if_match {
            headers.push((IF_MATCH_HEADER, value.as_str()));
        }
        if let Some(value) = &self.if_none_match {
            headers.push((IF_NONE_MATCH_HEADER, value.as_str()));
        }
        headers
    }

    /// Whether they are unset (an unconditional write).
    pub fn is_none(&self) -> bool {
        self.if_match.is_none() && self.if_none_match.is_none()
    }

    /// Whether a write may proceed against the definition tagged `current`.
    pub fn allows(&self, current: Option<&str>) -> bool {
        self.if_match.as_deref().is_none_or(|c| matches(c, current))
            && self.if_none_match.as_deref().is_none_or(|c| none_match(c, current))
    }
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

    #[test]
    fn if_none_match_star_only_creates() {
        let tag = of("x", false);
        assert!(none_match("*", None));
        assert!(!none_match("*", Some(&tag)));
        assert!(!none_match(&format!("W/{tag}"), Some(&tag)));
        assert!(none_match("\"other\"", Some(&tag)));
        let both = Condition {
            if_match: None,
            if_none_match: Some("*".to_owned()),
        };
        assert!(both.allows(None) && !both.allows(Some(&tag)));
        assert!(Condition::default().allows(None) && Condition::default().is_none());
    }
}
