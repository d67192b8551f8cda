//! Writing answers: the fields `build` makes objects of, in the order the
//! core's serde shapes write them.

use super::*;

/// The separator, as a byte.
pub(super) const SEP_BYTE: u8 = SEP as u8;

/// The separator, as text.
pub(super) const SEP_TEXT: &str = "\u{1}";

pub(super) fn field(out: &mut String, text: &str) {
    out.push_str(SEP_TEXT);
    out.push_str(text);
}

pub(super) fn money_fields(out: &mut String, money: &Money) {
    amount_fields(out, money, true);
}

/// An amount, and its currency when `currency` (a stack's answer names its one currency first).
fn amount_fields(out: &mut String, money: &Money, currency: bool) {
    out.push_str(SEP_TEXT);
    money.write_amount(out);
    if currency {
        field(out, money.currency().code());
    }
}

thread_local! {
    /// The last time written, and its text: a page quotes at one `now` many times.
    static LAST_TIME: std::cell::RefCell<Option<(Timestamp, String)>> = const { std::cell::RefCell::new(None) };
}

/// Appends `at` as RFC 3339 (its `Display`).
pub(super) fn time_field(out: &mut String, at: Timestamp) {
    out.push_str(SEP_TEXT);
    LAST_TIME.with(|last| {
        let mut last = last.borrow_mut();
        match &*last {
            Some((time, text)) if *time == at => out.push_str(text),
            _ => {
                let text = at.to_string();
                out.push_str(&text);
                *last = Some((at, text));
            }
        }
    });
}

/// `{ ok: true, quote }`, in `Quote`'s serde shape.
pub(super) fn accepted(quote: &Quote) -> JsValue {
    let mut out = String::with_capacity(160);
    out.push('q');
    quote_fields(&mut out, quote);
    answer(&out)
}

/// A quote's fields, as `build` reads them (after the answer's kind): code, total, discount,
/// payable, when, lines, shipping, note, desired, tier, next tier.
fn quote_fields(out: &mut String, quote: &Quote) {
    field(out, quote.code().as_str());
    sums_fields(
        out,
        [quote.total(), quote.discount(), quote.payable()],
        quote.quoted_at(),
        true,
    );
    shown_fields(out, quote, true);
    match quote.tier() {
        Some(tier) => {
            field(out, "=");
            let _ = write!(out, "{SEP_TEXT}{}", tier.index);
            tier_from(out, &tier.from);
        }
        None => field(out, "-"),
    }
    match quote.next_tier() {
        Some(next) => {
            field(out, "=");
            let _ = write!(out, "{SEP_TEXT}{}", next.index);
            tier_from(out, &next.from);
            tier_from(out, &next.missing);
        }
        None => field(out, "-"),
    }
}

/// What a quote and a stack's part both show after their sums: lines, shipping, note, desired
/// (each amount with its currency when `currency`).
fn shown_fields(out: &mut String, quote: &Quote, currency: bool) {
    spread_fields(out, quote.lines(), quote.shipping(), currency);
    match quote.note() {
        Some(note) => {
            field(out, "=");
            field(out, note);
        }
        None => field(out, "-"),
    }
    match quote.desired() {
        Some(desired) => {
            field(out, "=");
            amount_fields(out, desired, currency);
        }
        None => field(out, "-"),
    }
}

/// A tier's `from` (or what is missing): `m`, amount, currency; or `n`, a count.
fn tier_from(out: &mut String, from: &crate::TierFrom) {
    match from {
        crate::TierFrom::Amount(money) => {
            field(out, "m");
            money_fields(out, money);
        }
        crate::TierFrom::Quantity(n) => {
            field(out, "n");
            let _ = write!(out, "{SEP_TEXT}{n}");
        }
    }
}

/// Total, discount, payable and when.
fn sums_fields(out: &mut String, sums: [&Money; 3], at: Timestamp, currency: bool) {
    for money in sums {
        amount_fields(out, money, currency);
    }
    time_field(out, at);
}

/// The lines and the shipping, each when present.
fn spread_fields(
    out: &mut String,
    lines: Option<&[crate::QuoteLine]>,
    shipping: Option<&crate::QuoteShipping>,
    currency: bool,
) {
    match lines {
        Some(lines) => {
            field(out, "=");
            out.push_str(SEP_TEXT);
            let _ = write!(out, "{}", lines.len());
            for line in lines {
                field(out, line.sku.as_str());
                amount_fields(out, &line.amount, currency);
                amount_fields(out, &line.discount, currency);
            }
        }
        None => field(out, "-"),
    }
    match shipping {
        Some(shipping) => {
            field(out, "=");
            amount_fields(out, &shipping.amount, currency);
            amount_fields(out, &shipping.discount, currency);
        }
        None => field(out, "-"),
    }
}

/// `{ ok: true, quote }` for a stack: its currency (every amount of a stack's quote is in the
/// basket's, so each is written without it), its parts (each its class, whether it is automatic,
/// code, discount, then what it shows: lines, shipping, note, desired; a part has no sums or times
/// of its own), then the sums, when, lines and shipping, then the automatic promotions skipped
/// (code, rejection, detail).
pub(super) fn stacked(quote: &crate::StackQuote) -> JsValue {
    let mut out = String::with_capacity(480);
    out.push('s');
    field(&mut out, quote.total().currency().code());
    out.push_str(SEP_TEXT);
    let _ = write!(out, "{}", quote.codes().len());
    for part in quote.codes() {
        field(&mut out, part.class().as_str());
        field(&mut out, if part.is_automatic() { "a" } else { "-" });
        field(&mut out, part.code().as_str());
        amount_fields(&mut out, part.discount(), false);
        shown_fields(&mut out, part.quote(), false);
    }
    let sums = [quote.total(), quote.discount(), quote.payable()];
    sums_fields(&mut out, sums, quote.quoted_at(), false);
    spread_fields(&mut out, quote.lines(), quote.shipping(), false);
    let _ = write!(out, "{SEP_TEXT}{}", quote.skipped().len());
    for skipped in quote.skipped() {
        field(&mut out, skipped.code().as_str());
        field(&mut out, skipped.rejection().code());
        field(&mut out, skipped.detail());
    }
    answer(&out)
}

/// `{ ok: false, rejections: [{ code, rejection, with?, message }] }`.
pub(super) fn stack_rejected(refused: &crate::StackRejected) -> JsValue {
    let mut out = String::from("R");
    out.push_str(SEP_TEXT);
    let _ = write!(out, "{}", refused.refusals().len());
    for refusal in refused.refusals() {
        field(&mut out, refusal.code().as_str());
        field(&mut out, refusal.rejection().code());
        match refusal.with() {
            Some(with) => {
                field(&mut out, "=");
                field(&mut out, with.as_str());
            }
            None => field(&mut out, "-"),
        }
        field(&mut out, refusal.message());
    }
    answer(&out)
}

thread_local! {
    /// The number of the last answer and its fields: the number changes only
    /// when the fields do.
    static LAST_ANSWER: std::cell::RefCell<(u32, String)> = const { std::cell::RefCell::new((0, String::new())) };
}

/// The answer whose fields are `fields`, made by `build`.
///
/// The buffer holds the answer's number (4 bytes, little-endian), then its
/// fields. The number is the one before when the fields are the same as the
/// answer before, byte for byte: `build` then makes the objects again from the
/// texts it decoded for that number instead of decoding the bytes.
pub(super) fn answer(fields: &str) -> JsValue {
    let number = LAST_ANSWER.with(|last| {
        let mut last = last.borrow_mut();
        if last.1 != fields {
            last.0 = last.0.wrapping_add(1);
            last.1.clear();
            last.1.push_str(fields);
        }
        last.0
    });
    let length = 4 + fields.len();
    with_shared(|shared| {
        // Far larger than any answer (500 lines of some 150 bytes); grown if ever needed.
        if shared.len() < length {
            shared.resize(length, 0);
        }
        shared[..4].copy_from_slice(&number.to_le_bytes());
        shared[4..length].copy_from_slice(fields.as_bytes());
    });
    with_buffer(|memory, pointer, size| build(memory, pointer, size, length as u32))
}

/// `{ ok: false, rejection, message }`.
pub(super) fn rejected(rejected: &PromoCodeRejected) -> JsValue {
    let mut out = String::from("r");
    field(&mut out, rejected.rejection().code());
    field(&mut out, rejected.message());
    answer(&out)
}
