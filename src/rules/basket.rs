use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::quote::Quote;
use crate::values::{Category, Currency, InputError, Money, Sku};

/// One line of a basket: a product (its [`Sku`] and [`Category`]s), how many,
/// and the price of one.
///
/// Its amount, `quantity x unit_price`, is computed exactly when the line is made.
///
/// Serialised as `{"sku": "MUG-1", "quantity": 2, "unit_price": <Money>, "categories": ["mugs"]}`,
/// `categories` optional.
///
/// # Example
///
/// ```
/// use promocodes::{Category, Currency, Line, Money, Sku};
///
/// let mugs = Line::new(Sku::parse("MUG-1")?, 2, Money::parse("12.50", Currency::EUR)?)?
///     .with_categories([Category::parse("mugs")?])?;
/// assert_eq!(mugs.amount().to_string(), "EUR 25.00");
/// assert!(Line::new(Sku::parse("MUG-1")?, 0, Money::parse("12.50", Currency::EUR)?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    sku: Sku,
    quantity: u32,
    unit_price: Money,
    categories: Vec<Category>,
    amount: Money,
}

impl Line {
    /// `quantity` of the product `sku` at `unit_price` each.
    ///
    /// # Errors
    ///
    /// [`InputError::QuantityOutOfRange`] unless `1 <= quantity <= 10,000`;
    /// [`InputError::AmountTooLarge`] when the line's amount is above [`Money::MAX_AMOUNT`].
    pub fn new(sku: Sku, quantity: u32, unit_price: Money) -> Result<Line, InputError> {
        check_quantity(u64::from(quantity))?;
        let amount = unit_price
            .checked_mul(quantity)
            .ok_or_else(|| InputError::AmountTooLarge {
                amount: format!("{quantity} x {}", unit_price.amount_text()),
                max: crate::values::decimal_text(Money::MAX_AMOUNT),
            })?;
        Ok(Line {
            sku,
            quantity,
            unit_price,
            categories: Vec::new(),
            amount,
        })
    }

    /// The line with these categories (at most [`Basket::MAX_CATEGORIES`]).
    ///
    /// # Errors
    ///
    /// [`InputError::TooMany`] beyond [`Basket::MAX_CATEGORIES`].
    pub fn with_categories(mut self, categories: impl IntoIterator<Item = Category>) -> Result<Line, InputError> {
        let categories: Vec<Category> = categories.into_iter().collect();
        check_categories(categories.len())?;
        self.categories = categories;
        Ok(self)
    }

    /// The product.
    pub fn sku(&self) -> &Sku {
        &self.sku
    }

    /// How many, 1 to 10,000.
    pub fn quantity(&self) -> u32 {
        self.quantity
    }

    /// The price of one.
    pub fn unit_price(&self) -> &Money {
        &self.unit_price
    }

    /// The product's categories, as given.
    pub fn categories(&self) -> &[Category] {
        &self.categories
    }

    /// `quantity x unit_price`, exact.
    pub fn amount(&self) -> &Money {
        &self.amount
    }
}

pub(crate) fn check_quantity(quantity: u64) -> Result<u32, InputError> {
    u32::try_from(quantity)
        .ok()
        .filter(|q| (1..=Basket::MAX_QUANTITY).contains(q))
        .ok_or_else(|| InputError::QuantityOutOfRange {
            quantity: quantity.to_string(),
            max: Basket::MAX_QUANTITY,
        })
}

pub(crate) fn check_categories(count: usize) -> Result<(), InputError> {
    if count > Basket::MAX_CATEGORIES {
        return Err(InputError::TooMany {
            field: "categories",
            count,
            max: Basket::MAX_CATEGORIES,
        });
    }
    Ok(())
}

/// What a buyer is about to pay for: either one total, or lines and an
/// optional shipping amount.
///
/// - `{"total": <Money>}`: a basket known only by its total (shipping, if
///   any, is inside it). Codes that apply to everything price it as before;
///   a code scoped to products cannot know what qualifies and refuses it.
/// - `{"lines": [<Line>, ...], "shipping": <Money>}`: up to 500 lines, every
///   amount in one currency, shipping optional. The merchandise subtotal is the
///   sum of the lines' amounts; the total is subtotal + shipping, exactly.
///
/// # Example
///
/// ```
/// use promocodes::{Basket, Currency, Money};
///
/// let basket = Basket::from_json(r#"{
///     "lines": [
///         {"sku": "MUG-1", "quantity": 2, "unit_price": {"amount": "12.50", "currency": "EUR"}, "categories": ["mugs"]},
///         {"sku": "BEANS", "quantity": 1, "unit_price": {"amount": "8.50", "currency": "EUR"}}
///     ],
///     "shipping": {"amount": "4.90", "currency": "EUR"}
/// }"#)?;
/// assert_eq!(basket.subtotal().to_string(), "EUR 33.50");
/// assert_eq!(basket.total().to_string(), "EUR 38.40");
///
/// let simple = Basket::from(Money::parse("80", Currency::EUR)?);
/// assert_eq!(simple.total().to_string(), "EUR 80.00");
/// assert!(!simple.has_lines());
///
/// let err = Basket::from_json(r#"{"lines": [{"sku": "A", "quantity": 0, "unit_price": {"amount": "1", "currency": "EUR"}}]}"#)
///     .unwrap_err();
/// assert_eq!(err.to_string(), "lines[0].quantity: quantity must be a whole number from 1 to 10000, not 0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Basket {
    lines: Vec<Line>,
    shipping: Option<Money>,
    subtotal: Money,
    total: Money,
    itemised: bool,
    customer_orders: Option<u64>,
}

impl Basket {
    /// The most lines a basket may have.
    pub const MAX_LINES: usize = 500;
    /// The most categories a line may have.
    pub const MAX_CATEGORIES: usize = 20;
    /// The largest quantity of a line.
    pub const MAX_QUANTITY: u32 = 10_000;

    /// A basket known only by its total.
    pub fn total_only(total: Money) -> Basket {
        Basket {
            lines: Vec::new(),
            shipping: None,
            subtotal: total,
            total,
            itemised: false,
            customer_orders: None,
        }
    }

    /// A basket of `lines` and optional `shipping`.
    ///
    /// # Errors
    ///
    /// An [`InputError::Field`] naming the line or field: no lines or more than
    /// [`Basket::MAX_LINES`] ([`InputError::TooMany`], [`InputError::BasketForm`]),
    /// an amount in another currency than the first line's
    /// ([`InputError::MixedCurrencies`]), or sums above [`Money::MAX_AMOUNT`].
    pub fn from_lines(lines: Vec<Line>, shipping: Option<Money>) -> Result<Basket, InputError> {
        if lines.is_empty() {
            return Err(InputError::BasketForm {
                message: "a basket needs at least one line",
            }
            .at("lines"));
        }
        if lines.len() > Basket::MAX_LINES {
            return Err(InputError::TooMany {
                field: "lines",
                count: lines.len(),
                max: Basket::MAX_LINES,
            }
            .at("lines"));
        }
        let currency = lines[0].unit_price.currency();
        let too_large = |path: String, what: &str| {
            InputError::AmountTooLarge {
                amount: what.to_owned(),
                max: crate::values::decimal_text(Money::MAX_AMOUNT),
            }
            .at(&path)
        };
        let mut subtotal = Money::zero(currency);
        for (i, line) in lines.iter().enumerate() {
            let actual = line.unit_price.currency();
            if actual != currency {
                return Err(InputError::MixedCurrencies {
                    expected: currency,
                    actual,
                }
                .at(&format!("lines[{i}].unit_price")));
            }
            subtotal = subtotal
                .checked_add(&line.amount)
                .ok_or_else(|| too_large("lines".to_owned(), "the subtotal"))?;
        }
        let total = match &shipping {
            None => subtotal,
            Some(shipping) if shipping.currency() != currency => {
                return Err(InputError::MixedCurrencies {
                    expected: currency,
                    actual: shipping.currency(),
                }
                .at("shipping"))
            }
            Some(shipping) => subtotal
                .checked_add(shipping)
                .ok_or_else(|| too_large("shipping".to_owned(), "the total"))?,
        };
        Ok(Basket {
            lines,
            shipping,
            subtotal,
            total,
            itemised: true,
            customer_orders: None,
        })
    }

    /// Builds a basket from the fields of its JSON form, which may sit inside
    /// a larger document (a request body): errors carry paths relative to it.
    pub(crate) fn from_parts(
        total: Option<Money>,
        lines: Option<Vec<Line>>,
        shipping: Option<Money>,
    ) -> Result<Basket, InputError> {
        match (total, lines, shipping) {
            (Some(total), None, None) => Ok(Basket::total_only(total)),
            (Some(_), Some(_), _) => Err(InputError::BasketForm {
                message: "a basket has either `total` or `lines`, not both",
            }
            .at("total")),
            (Some(_), None, Some(_)) | (None, None, Some(_)) => Err(InputError::BasketForm {
                message: "`shipping` goes with `lines`; a basket of one `total` includes its shipping",
            }
            .at("shipping")),
            (None, Some(lines), shipping) => Basket::from_lines(lines, shipping),
            (None, None, None) => Err(InputError::BasketForm {
                message: "a basket needs either `total` or `lines`",
            }
            .at(".")),
        }
    }

    /// The basket less a quote's parts, for the next code of a stack: each
    /// line at what is left of its amount (its units kept when they share
    /// it exactly, else one unit at the amount), the shipping and the
    /// total less their discounts. A quote of this basket never takes more
    /// than an amount, so nothing goes below zero (a part that would is left
    /// as it was).
    pub(crate) fn take_off(&mut self, quote: &Quote) {
        let less = |amount: &mut Money, off: &Money| {
            if let Some(left) = amount.checked_sub(off) {
                *amount = left;
            }
        };
        for (line, off) in self.lines.iter_mut().zip(quote.lines().unwrap_or_default()) {
            less(&mut line.amount, &off.discount);
            // One division (a call for i128 on wasm32), and none for a single unit.
            let (amount, units) = (line.amount.minor(), i128::from(line.quantity));
            let unit = if units == 1 { amount } else { amount / units };
            match Money::from_minor(unit, line.amount.currency()) {
                Some(price) if unit * units == amount => line.unit_price = price,
                _ => {
                    line.unit_price = line.amount;
                    line.quantity = 1;
                }
            }
        }
        if let (Some(shipping), Some(off)) = (self.shipping.as_mut(), quote.shipping()) {
            less(shipping, &off.discount);
        }
        less(&mut self.total, quote.discount());
        self.subtotal = self.total;
        if let Some(shipping) = &self.shipping {
            less(&mut self.subtotal, shipping);
        }
    }

    /// The basket with what the shop's server vouches about its buyer: the
    /// orders they placed before this one (a first-order code needs it).
    /// It is not part of the basket's JSON form: a request carries it as
    /// `customer_orders`, beside `customer`.
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::{Basket, Currency, Money};
    ///
    /// let basket = Basket::from(Money::parse("80", Currency::EUR)?).with_customer_orders(0);
    /// assert_eq!(basket.customer_orders(), Some(0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_customer_orders(mut self, orders: u64) -> Basket {
        self.customer_orders = Some(orders);
        self
    }

    /// The orders the buyer placed before, when the shop's server said.
    pub fn customer_orders(&self) -> Option<u64> {
        self.customer_orders
    }

    /// Whether the basket has lines (rather than only a total).
    pub fn has_lines(&self) -> bool {
        self.itemised
    }

    /// The lines (none for a basket of one total).
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The shipping amount, if the basket has one.
    pub fn shipping(&self) -> Option<&Money> {
        self.shipping.as_ref()
    }

    /// The merchandise subtotal: the sum of the lines (the total, for a basket of one total).
    pub fn subtotal(&self) -> &Money {
        &self.subtotal
    }

    /// What the basket costs before any discount: subtotal + shipping.
    pub fn total(&self) -> &Money {
        &self.total
    }

    /// The basket's one currency.
    pub fn currency(&self) -> Currency {
        self.total.currency()
    }
}

impl From<Money> for Basket {
    fn from(total: Money) -> Basket {
        Basket::total_only(total)
    }
}

impl Serialize for Line {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Line", 4)?;
        s.serialize_field("sku", &self.sku)?;
        s.serialize_field("quantity", &self.quantity)?;
        s.serialize_field("unit_price", &self.unit_price)?;
        if !self.categories.is_empty() {
            s.serialize_field("categories", &self.categories)?;
        }
        s.end()
    }
}

impl Serialize for Basket {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Basket", 2)?;
        if self.itemised {
            s.serialize_field("lines", &self.lines)?;
            if let Some(shipping) = &self.shipping {
                s.serialize_field("shipping", shipping)?;
            }
        } else {
            s.serialize_field("total", &self.total)?;
        }
        s.end()
    }
}
