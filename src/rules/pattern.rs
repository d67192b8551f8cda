//! How a campaign's codes are made: a pattern of literal characters and `#`
//! (one random character each, drawn from a charset), and the limits on how
//! many codes a call and a campaign may have.

use crate::values::{Code, InputError};

/// How a campaign's codes are generated: `pattern`'s `#` each become one
/// character drawn uniformly from `charset`; every other character is kept.
///
/// The draw itself comes from the caller ([`generate`](CodePattern::generate)
/// takes a source of random `u32`s): the Worker passes its cryptographic
/// generator. The core only decides what a pattern may be and maps random
/// numbers to characters without bias.
///
/// # Example
///
/// ```
/// use promocodes::CodePattern;
///
/// let pattern = CodePattern::parse(Some("bf-####-####"), None)?;
/// assert_eq!(pattern.random_characters(), 8);
/// pattern.check_room(0, 10_000)?;
/// let mut n = 0u32;
/// let code = pattern.generate(|| { n += 1; n });
/// assert_eq!(code.as_str(), "BF-BCDE-FGHJ");
/// assert!(CodePattern::parse(Some("BF-####"), None).is_err(), "fewer than 8 #");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodePattern {
    pattern: String,
    charset: Vec<char>,
}

impl CodePattern {
    /// The charset when none is given: no `0`/`O`, no `1`/`I`/`L`.
    pub const DEFAULT_CHARSET: &'static str = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    /// The pattern when none is given.
    pub const DEFAULT_PATTERN: &'static str = "####-####-####";
    /// The fewest `#` a pattern may have.
    pub const MIN_RANDOM: usize = 8;
    /// How many combinations a pattern must have for each of a campaign's codes.
    pub const COMBINATIONS_PER_CODE: u64 = 1_000_000;
    /// The most codes one call may create.
    pub const MAX_PER_CALL: u64 = 10_000;
    /// The most codes a campaign may have.
    pub const MAX_PER_CAMPAIGN: u64 = 1_000_000;

    /// A pattern (default [`DEFAULT_PATTERN`](CodePattern::DEFAULT_PATTERN))
    /// over a charset (default [`DEFAULT_CHARSET`](CodePattern::DEFAULT_CHARSET)),
    /// both case-insensitive, as codes are.
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidPattern`] for a character a code may not hold
    /// (or a `#` in the charset, a charset with a character twice or fewer
    /// than two, a pattern longer than a code); [`InputError::PatternTooFewRandom`]
    /// for fewer than [`MIN_RANDOM`](CodePattern::MIN_RANDOM) `#`.
    pub fn parse(pattern: Option<&str>, charset: Option<&str>) -> Result<CodePattern, InputError> {
        let text = pattern.unwrap_or(Self::DEFAULT_PATTERN);
        let invalid = |field, text: &str, reason| InputError::InvalidPattern {
            field,
            text: text.to_owned(),
            reason,
        };
        let is_code_char = |c: char| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '_';
        let upper: String = text.trim().chars().map(|c| c.to_ascii_uppercase()).collect();
        if upper.chars().count() > Code::MAX_LEN {
            return Err(invalid("pattern", text, "longer than a code may be"));
        }
        if !upper.chars().all(|c| c == '#' || is_code_char(c)) {
            return Err(invalid(
                "pattern",
                text,
                "a code holds letters, digits, - and _ (and # for a random one)",
            ));
        }
        let random = upper.chars().filter(|c| *c == '#').count();
        if random < Self::MIN_RANDOM {
            return Err(InputError::PatternTooFewRandom {
                pattern: text.to_owned(),
                random,
                min: Self::MIN_RANDOM,
            });
        }
        let set_text = charset.unwrap_or(Self::DEFAULT_CHARSET);
        let mut set = Vec::new();
        for c in set_text.chars().map(|c| c.to_ascii_uppercase()) {
            if !is_code_char(c) {
                return Err(invalid("charset", set_text, "a code holds letters, digits, - and _"));
            }
            if set.contains(&c) {
                return Err(invalid(
                    "charset",
                    set_text,
                    "a character is named twice (as codes are, case-insensitive)",
                ));
            }
            set.push(c);
        }
        if set.len() < 2 {
            return Err(invalid("charset", set_text, "at least two characters are needed"));
        }
        Ok(CodePattern {
            pattern: upper,
            charset: set,
        })
    }

    /// How many `#` the pattern has.
    pub fn random_characters(&self) -> usize {
        self.pattern.chars().filter(|c| *c == '#').count()
    }

    /// How many codes the pattern can make (saturating at `u64::MAX`).
    pub fn combinations(&self) -> u64 {
        let base = self.charset.len() as u64;
        (0..self.random_characters()).fold(1u64, |n, _| n.saturating_mul(base))
    }

    /// Whether a campaign with `existing` codes may generate `count` more
    /// with this pattern.
    ///
    /// # Errors
    ///
    /// As [`check_count`](CodePattern::check_count); [`InputError::PatternTooSmall`]
    /// when the pattern has fewer than 1,000,000 combinations per code of the
    /// campaign after the call.
    pub fn check_room(&self, existing: u64, count: u64) -> Result<(), InputError> {
        let codes = Self::check_count(existing, count)?;
        let needed = Self::COMBINATIONS_PER_CODE.saturating_mul(codes);
        let combinations = self.combinations();
        if combinations < needed {
            return Err(InputError::PatternTooSmall {
                pattern: self.pattern.clone(),
                combinations,
                codes,
                needed,
            });
        }
        Ok(())
    }

    /// Whether a campaign with `existing` codes may add `count` (generated
    /// or imported): the campaign's codes after the call.
    ///
    /// # Errors
    ///
    /// [`InputError::TooMany`] (`count`, or `codes` for an import) for 0 or
    /// more than [`MAX_PER_CALL`](CodePattern::MAX_PER_CALL) in one call;
    /// [`InputError::CampaignFull`] beyond [`MAX_PER_CAMPAIGN`](CodePattern::MAX_PER_CAMPAIGN).
    pub fn check_count(existing: u64, count: u64) -> Result<u64, InputError> {
        if count == 0 || count > Self::MAX_PER_CALL {
            return Err(InputError::TooMany {
                field: "count",
                count: usize::try_from(count).unwrap_or(usize::MAX),
                max: Self::MAX_PER_CALL as usize,
            });
        }
        let codes = existing.saturating_add(count);
        if codes > Self::MAX_PER_CAMPAIGN {
            return Err(InputError::CampaignFull {
                codes,
                max: Self::MAX_PER_CAMPAIGN,
            });
        }
        Ok(codes)
    }

    /// Codes to import, each once.
    ///
    /// # Errors
    ///
    /// [`InputError::CodeImportedTwice`] for a code named twice (as codes
    /// compare: case-insensitive).
    pub fn check_import(codes: &[Code]) -> Result<(), InputError> {
        let mut seen = std::collections::HashSet::with_capacity(codes.len());
        for code in codes {
            if !seen.insert(code) {
                return Err(InputError::CodeImportedTwice {
                    code: code.as_str().to_owned(),
                });
            }
        }
        Ok(())
    }

    /// One code: each `#` a character of the charset, drawn from `random`
    /// (uniform `u32`s) without bias (a draw past the last whole multiple of
    /// the charset's size is drawn again).
    pub fn generate(&self, mut random: impl FnMut() -> u32) -> Code {
        let n = self.charset.len() as u32;
        let limit = u32::MAX - (u32::MAX % n);
        let text: String = self
            .pattern
            .chars()
            .map(|c| {
                if c != '#' {
                    return c;
                }
                loop {
                    let draw = random();
                    if draw < limit {
                        return self.charset[(draw % n) as usize];
                    }
                }
            })
            .collect();
        // Every character is a code's, and the length was checked.
        Code::parse(&text).unwrap_or_else(|_| unreachable!("a pattern makes only valid codes"))
    }
}
