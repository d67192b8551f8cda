use serde::de::DeserializeOwned;

use crate::error::InputError;

/// Parses any promocodes type from JSON, naming the field that is wrong.
///
/// # Errors
///
/// [`InputError::Malformed`] with the dotted path of the field.
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
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_json<T: DeserializeOwned>(json: &str) -> Result<T, InputError> {
    let mut deserializer = serde_json::Deserializer::from_str(json);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(malformed)?;
    deserializer.end().map_err(|err| InputError::Malformed {
        path: ".".to_owned(),
        message: without_location(&err),
    })?;
    Ok(value)
}

/// An error from any serde deserializer wrapped by `serde_path_to_error`, as an [`InputError`].
///
/// This is how every adapter (JSON here, JavaScript values in the browser
/// module) reports malformed input: the dotted path of the field, and what is
/// wrong with it.
pub fn malformed<E: std::fmt::Display>(err: serde_path_to_error::Error<E>) -> InputError {
    let path = err.path().to_string();
    InputError::Malformed {
        path,
        message: without_location(err.inner()),
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
