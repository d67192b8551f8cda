//! The JSON layer: how every value of the core is read from JSON (and the
//! few that need it, written), the request shapes adapters share ([`api`]),
//! and the browser module's own reader, which refuses what serde refuses with
//! the same errors. It uses the values, the rules and the redemption layers;
//! nothing below it knows about JSON text.

use std::cell::RefCell;

use serde::de::DeserializeOwned;

use crate::rules::{Basket, Campaign, PromoCode};
use crate::values::Code;
use crate::values::{join_path, InputError};

mod answers;
pub mod api;
#[cfg(any(test, all(target_arch = "wasm32", feature = "wasm")))]
pub(crate) mod reader;
mod wire;

thread_local! {
    /// The typed error behind the last [`invalid`] serde error, with its path
    /// relative to the value being deserialised. serde's errors are text; this
    /// keeps the [`InputError`] variant so that [`from_json`] can return it.
    static LAST_INVALID: RefCell<Option<(String, InputError)>> = const { RefCell::new(None) };
}

/// A serde error for a value that breaks a rule, remembering the typed
/// [`InputError`] (and where inside the value it is, `relative` to it: `""`
/// for the value itself, `"amount"` for one of its fields) for [`from_json`].
fn invalid<E: serde::de::Error>(relative: &str, error: InputError) -> E {
    let message = error.to_string();
    LAST_INVALID.with(|slot| *slot.borrow_mut() = Some((relative.to_owned(), error)));
    E::custom(message)
}

/// Why a value whose fields were all read is refused: one of serde's two
/// kinds of custom error, kept apart so that every reader of the core's JSON
/// shapes (serde's, and the browser module's own) reports it the same way.
enum Refused {
    /// A value that breaks a rule: the typed error, and where it is inside
    /// the value (`""` for the value itself, `"amount"` for one of its fields).
    Invalid(String, InputError),
    /// Anything else, as serde's `Error::custom` would say it.
    Message(String),
}

impl Refused {
    /// `error` at `relative` inside the value.
    fn at(relative: &str, error: InputError) -> Refused {
        Refused::Invalid(relative.to_owned(), error)
    }

    /// The serde error for it (an [`invalid`] one for a typed error).
    fn into_serde<E: serde::de::Error>(self) -> E {
        match self {
            Refused::Invalid(relative, error) => invalid(&relative, error),
            Refused::Message(message) => E::custom(message),
        }
    }
}

fn take_invalid() -> Option<(String, InputError)> {
    LAST_INVALID.with(|slot| slot.borrow_mut().take())
}

/// Parses any promocodes type from JSON, naming the field that is wrong.
///
/// # Errors
///
/// - [`InputError::NotJson`] when the text is not JSON at all (a syntax
///   error, or it ends too early);
/// - [`InputError::Field`] for a value that breaks a rule, with its dotted
///   path and the specific variant (an unknown currency is
///   [`InputError::UnknownCurrency`], a percent of 0
///   [`InputError::PercentOutOfRange`]);
/// - [`InputError::Malformed`] with the dotted path for a wrong type, a
///   missing or unknown field.
///
/// # Example
///
/// ```
/// use promocodes::{from_json, InputError, Money};
///
/// let total: Money = from_json(r#"{"amount": "80.00", "currency": "EUR"}"#)?;
/// assert_eq!(total.to_string(), "EUR 80.00");
///
/// let err = from_json::<Money>(r#"{"amount": 80, "currency": "EUR"}"#).unwrap_err();
/// assert!(matches!(err, InputError::Malformed { ref path, .. } if path == "amount"));
///
/// let err = from_json::<Money>(r#"{"amount": "8.001", "currency": "EUR"}"#).unwrap_err();
/// assert_eq!(err.path(), Some("amount"));
/// assert!(matches!(err.kind(), InputError::TooManyDecimalPlaces { places: 3, .. }));
///
/// assert!(matches!(from_json::<Money>("hello"), Err(InputError::NotJson { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_json<T: DeserializeOwned>(json: &str) -> Result<T, InputError> {
    // Good input, the common case, is read once without tracking paths; bad input is read
    // again with them, so that the error names its field.
    if let Ok(value) = serde_json::from_str(json) {
        return Ok(value);
    }
    take_invalid();
    let mut deserializer = serde_json::Deserializer::from_str(json);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        if matches!(
            err.inner().classify(),
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof
        ) {
            return InputError::NotJson {
                message: err.inner().to_string(),
            };
        }
        malformed(err)
    })?;
    deserializer.end().map_err(|err| InputError::NotJson {
        message: err.to_string(),
    })?;
    Ok(value)
}

/// An error from a deserializer wrapped by `serde_path_to_error`, as an [`InputError`]:
/// the dotted path of the field, and what is wrong with it; for a value that breaks a rule,
/// the specific [`InputError`] in an [`InputError::Field`].
fn malformed<E: std::fmt::Display>(err: serde_path_to_error::Error<E>) -> InputError {
    let path = err.path().to_string();
    let message = without_location(err.inner());
    match take_invalid() {
        Some((relative, error)) if error.to_string() == message => InputError::Field {
            path: join_path(&path, &relative),
            error: Box::new(error),
        },
        _ => InputError::Malformed { path, message },
    }
}

/// serde_json ends its messages with " at line L column C"; the path says more.
fn without_location(err: &impl std::fmt::Display) -> String {
    let message = err.to_string();
    match message.rfind(" at line ") {
        Some(at) if message[at..].contains(" column ") => message[..at].to_owned(),
        _ => message,
    }
}

impl Basket {
    /// Parses a basket's JSON form.
    ///
    /// # Errors
    ///
    /// As [`from_json`](crate::from_json): the path names the field (`lines[3].quantity`).
    pub fn from_json(json: &str) -> Result<Basket, InputError> {
        from_json(json)
    }
}

impl PromoCode {
    /// Parses a JSON definition.
    ///
    /// # Errors
    ///
    /// As [`from_json`](crate::from_json): [`InputError::Malformed`] naming
    /// the field for a wrong type, a missing or unknown field;
    /// [`InputError::Field`] with the field's path and the specific variant
    /// for a value that breaks a rule (a percent of 0 is
    /// [`InputError::PercentOutOfRange`] at `discount.percent`, a window that
    /// ends before it starts [`InputError::EmptyWindow`] at `ends_at`);
    /// [`InputError::NotJson`] for text that is not JSON.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{InputError, PromoCode};
    ///
    /// let promo = PromoCode::from_json(r#"{
    ///     "code": "save10",
    ///     "discount": {"kind": "percent", "percent": "10"},
    ///     "limits": {"total": 1000, "per_customer": 1}
    /// }"#)?;
    /// assert_eq!(promo.code().as_str(), "SAVE10");
    ///
    /// let err = PromoCode::from_json(r#"{"code": "X", "discount": {"kind": "percent", "percent": 10}}"#)
    ///     .unwrap_err();
    /// assert!(matches!(&err, InputError::Malformed { path, .. } if path == "discount.percent"));
    ///
    /// let err = PromoCode::from_json(r#"{"code": "X", "discount": {"kind": "percent", "percent": "150"}}"#)
    ///     .unwrap_err();
    /// assert_eq!(err.path(), Some("discount.percent"));
    /// assert!(matches!(err.kind(), InputError::PercentOutOfRange { .. }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_json(json: &str) -> Result<PromoCode, InputError> {
        from_json(json)
    }

    /// Parses a definition as this crate writes one (`serde_json` of a
    /// [`PromoCode`]): a plain code's as [`from_json`](PromoCode::from_json),
    /// a campaign's code's with its `"campaign"` and `"uses_per_code"`, read
    /// back as that campaign's code. For definitions a store or another
    /// process wrote; an operator's `PUT` of a code goes through
    /// [`from_json`](PromoCode::from_json), which has no `campaign`.
    ///
    /// # Errors
    ///
    /// As [`PromoCode::from_json`], and as [`Campaign::from_json`] for a
    /// campaign's code.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Campaign, Code, PromoCode};
    ///
    /// let campaign = Campaign::from_json(Code::parse("BF")?, r#"{"discount": {"kind": "percent", "percent": "20"}}"#)?;
    /// let code = campaign.code(Code::parse("BF-K7PQ-X2M9")?);
    /// let written = serde_json::to_string(&code)?;
    /// assert_eq!(PromoCode::from_written_json(&written)?, code);
    /// assert!(PromoCode::from_json(&written).is_err(), "a code's own definition names no campaign");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_written_json(json: &str) -> Result<PromoCode, InputError> {
        let mut definition: serde_json::Map<String, serde_json::Value> = from_json(json)?;
        match definition.remove("campaign") {
            None => PromoCode::from_json(json),
            Some(id) => {
                let id: Code = from_json(&id.to_string()).map_err(|err| err.at("campaign"))?;
                let code: Code = match definition.remove("code") {
                    Some(code) => from_json(&code.to_string()).map_err(|err| err.at("code"))?,
                    None => {
                        return Err(InputError::Malformed {
                            path: String::new(),
                            message: "missing field `code`".to_owned(),
                        })
                    }
                };
                let campaign = Campaign::from_json(id, &serde_json::Value::Object(definition).to_string())?;
                Ok(campaign.code(code))
            }
        }
    }
}

impl Campaign {
    /// Parses campaign `id`'s JSON definition: a code's definition without
    /// `code`, plus `"uses_per_code"` (default 1).
    ///
    /// # Errors
    ///
    /// As [`PromoCode::from_json`]; a `uses_per_code` of 0 is
    /// [`InputError::ZeroUsesPerCode`] at `uses_per_code`, and a `code` field
    /// is unknown (the id names the campaign).
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Campaign, Code, InputError};
    ///
    /// let id = Code::parse("bf2026")?;
    /// let campaign = Campaign::from_json(id, r#"{
    ///     "discount": {"kind": "percent", "percent": "20"},
    ///     "limits": {"total": 150, "budget": {"amount": "500.00", "currency": "EUR"}}
    /// }"#)?;
    /// assert_eq!(campaign.id().as_str(), "BF2026");
    /// assert_eq!(campaign.uses_per_code(), 1);
    ///
    /// let zero = Campaign::from_json(Code::parse("X")?, r#"{"discount": {"kind": "percent", "percent": "5"}, "uses_per_code": 0}"#);
    /// assert_eq!(zero.unwrap_err().path(), Some("uses_per_code"));
    /// let coded = Campaign::from_json(Code::parse("X")?, r#"{"code": "X", "discount": {"kind": "percent", "percent": "5"}}"#);
    /// assert!(matches!(coded, Err(InputError::Malformed { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_json(id: Code, json: &str) -> Result<Campaign, InputError> {
        let draft: wire::CampaignDraft = from_json(json)?;
        Campaign::new(draft.definition.renamed(id), draft.uses_per_code)
    }
}
