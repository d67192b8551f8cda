use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use super::error::InputError;

/// A normalised promo code: trimmed, upper case, 1 to 64 characters from `A-Z 0-9 _ -`.
///
/// Buyers type codes in any case, so `save10`, ` SAVE10 ` and `SAVE10` are one
/// code. Everything that keys on a code (a store, a Durable Object name)
/// takes a `Code`, never a raw string, so no two spellings can count apart.
///
/// # Example
///
/// ```
/// use promocodes::Code;
///
/// let code = Code::parse("  save10 ")?;
/// assert_eq!(code.as_str(), "SAVE10");
/// assert_eq!(code, Code::parse("SAVE10")?);
/// assert!(Code::parse("").is_err());
/// assert!(Code::parse("SAVE 10").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(String);

impl Code {
    /// The most characters a code may have.
    pub const MAX_LEN: usize = 64;

    /// Normalises and checks a code.
    ///
    /// # Errors
    ///
    /// [`InputError::EmptyCode`], [`InputError::CodeTooLong`] or
    /// [`InputError::CodeCharacter`].
    pub fn parse(text: &str) -> Result<Code, InputError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(InputError::EmptyCode);
        }
        let mut code = String::with_capacity(trimmed.len());
        for (position, character) in trimmed.chars().enumerate() {
            if position == Code::MAX_LEN {
                return Err(InputError::CodeTooLong {
                    length: trimmed.chars().count(),
                    max: Code::MAX_LEN,
                });
            }
            let upper = character.to_ascii_uppercase();
            if !(upper.is_ascii_uppercase() || upper.is_ascii_digit() || upper == '_' || upper == '-') {
                return Err(InputError::CodeCharacter { character, position });
            }
            code.push(upper);
        }
        Ok(Code(code))
    }

    /// The normalised code.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An identifier of a buyer, as the shop knows them: trimmed, not empty, at
/// most 256 characters, no control characters. Compared exactly (case matters).
///
/// # Example
///
/// ```
/// use promocodes::CustomerId;
///
/// assert_eq!(CustomerId::parse(" alice ")?.as_str(), "alice");
/// assert!(CustomerId::parse("   ").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CustomerId(String);

impl CustomerId {
    /// The most characters an identifier may have.
    pub const MAX_LEN: usize = 256;

    /// Trims and checks a customer identifier.
    ///
    /// # Errors
    ///
    /// [`InputError::EmptyCustomer`], [`InputError::CustomerTooLong`] or
    /// [`InputError::CustomerControlCharacter`].
    pub fn parse(text: &str) -> Result<CustomerId, InputError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(InputError::EmptyCustomer);
        }
        let length = trimmed.chars().count();
        if length > CustomerId::MAX_LEN {
            return Err(InputError::CustomerTooLong {
                length,
                max: CustomerId::MAX_LEN,
            });
        }
        if trimmed.chars().any(char::is_control) {
            return Err(InputError::CustomerControlCharacter);
        }
        Ok(CustomerId(trimmed.to_owned()))
    }

    /// The identifier.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A key that makes a redemption safe to retry: 1 to 255 visible ASCII
/// characters (`!` to `~`), compared exactly.
///
/// Use a fact the payment provider gives you (its event or payment intent
/// id) and that you persist, never one derived at handling time.
///
/// # Example
///
/// ```
/// use promocodes::IdempotencyKey;
///
/// assert_eq!(IdempotencyKey::parse("evt_1")?.as_str(), "evt_1");
/// assert!(IdempotencyKey::parse("evt 1").is_err());
/// assert!(IdempotencyKey::parse("").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// The most characters a key may have.
    pub const MAX_LEN: usize = 255;

    /// Checks a key. Unlike codes and customers it is not trimmed.
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidIdempotencyKey`].
    pub fn parse(text: &str) -> Result<IdempotencyKey, InputError> {
        let visible = text.bytes().all(|b| (0x21..=0x7e).contains(&b));
        if text.is_empty() || text.len() > IdempotencyKey::MAX_LEN || !visible {
            return Err(InputError::InvalidIdempotencyKey {
                max: IdempotencyKey::MAX_LEN,
            });
        }
        Ok(IdempotencyKey(text.to_owned()))
    }

    /// The key.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A product's stock-keeping unit, as a basket line names it: 1 to 64 visible
/// ASCII characters, kept exactly as given (case matters: `MUG-1` is not `mug-1`).
///
/// # Example
///
/// ```
/// use promocodes::Sku;
///
/// assert_eq!(Sku::parse("MUG-ENAMEL")?.as_str(), "MUG-ENAMEL");
/// assert!(Sku::parse("").is_err());
/// assert!(Sku::parse("mug enamel").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sku(String);

impl Sku {
    /// The most characters a sku may have.
    pub const MAX_LEN: usize = 64;

    /// Checks a sku.
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidName`] unless it is 1 to 64 visible ASCII characters.
    pub fn parse(text: &str) -> Result<Sku, InputError> {
        visible_name("sku", text, Sku::MAX_LEN).map(Sku)
    }

    /// The sku.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A product category, as basket lines and a code's `applies_to` name it:
/// 1 to 64 visible ASCII characters, kept exactly as given.
///
/// # Example
///
/// ```
/// use promocodes::Category;
///
/// assert_eq!(Category::parse("mugs")?.as_str(), "mugs");
/// assert!(Category::parse("tea\tcups").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Category(String);

impl Category {
    /// The most characters a category may have.
    pub const MAX_LEN: usize = 64;

    /// Checks a category.
    ///
    /// # Errors
    ///
    /// [`InputError::InvalidName`] unless it is 1 to 64 visible ASCII characters.
    pub fn parse(text: &str) -> Result<Category, InputError> {
        visible_name("category", text, Category::MAX_LEN).map(Category)
    }

    /// The category.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn visible_name(field: &'static str, text: &str, max: usize) -> Result<String, InputError> {
    let visible = text.bytes().all(|b| (0x21..=0x7e).contains(&b));
    if text.is_empty() || text.len() > max || !visible {
        return Err(InputError::InvalidName { field, max });
    }
    Ok(text.to_owned())
}

/// The string-like plumbing every identifier shares: `Display`, `Debug`,
/// `FromStr`, `AsRef<str>`, and serde as a plain string that is checked on
/// the way in.
macro_rules! string_identifier {
    ($name:ident, $expecting:literal) => {
        impl $name {
            /// What a reader expects in place of one, for its "invalid type" message.
            pub(crate) const EXPECTING: &'static str = $expecting;
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:?})", stringify!($name), self.0)
            }
        }

        impl FromStr for $name {
            type Err = InputError;

            fn from_str(s: &str) -> Result<$name, InputError> {
                $name::parse(s)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.0)
            }
        }
    };
}

string_identifier!(Code, "a promo code such as \"SAVE10\"");
string_identifier!(CustomerId, "a customer identifier string");
string_identifier!(IdempotencyKey, "an idempotency key string");
string_identifier!(Sku, "a sku string");
string_identifier!(Category, "a category string");
