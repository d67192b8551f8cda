//! Values: the identifiers (a code, a customer, a key, a sku, a category),
//! time, money with its currency table and the exact split of an amount,
//! and the error for bad input. The bottom layer: it uses nothing else of
//! the crate, and knows nothing of rules, stores or JSON text.

mod currency;
mod error;
mod ids;
mod iso4217;
mod money;
mod time;

pub use currency::Currency;
pub use error::InputError;
pub use ids::{Category, Code, CustomerId, IdempotencyKey, Sku};
pub use money::{Money, ROUNDING};
pub use time::Timestamp;

pub(crate) use error::{join_path, Quoted};
pub(crate) use money::{agreed_currency, decimal_text, largest_remainder, parse_decimal};
