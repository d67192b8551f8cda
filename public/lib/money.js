// Money in the pages: decimal strings, never a JS number.
//
// An amount is the text the API and the browser module write ("12.50", "-3.2", "500"); a money is
// { amount, currency }. Sums and comparisons run on BigInt minor units, at the currency's places
// (`digits`, the core's ISO 4217 exponent: the browser module's `minorUnits(currency)`), so
// 0.1 + 0.2 is 0.3 and an amount beyond 2^53 minor units stays exact. Every discount itself is the
// browser module's (the core's maths); the pages only add up lines, totals and charts.
//
// Pure: no DOM, no browser module (tested under `node --test tests/js/`).

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/**
 * An amount in minor units at `digits` places: `toMinor("12.5", 2)` is 1250n. Throws a RangeError for
 * text that is not a plain decimal, or that has more places than the currency.
 */
export function toMinor(amount, digits) {
  const match = DECIMAL.exec(String(amount).trim());
  if (!match) throw new RangeError(`not an amount: ${amount}`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > digits) throw new RangeError(`more than ${digits} decimal places: ${amount}`);
  const minor = BigInt(whole) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, '0') || '0');
  return sign === '-' ? -minor : minor;
}

/** Minor units back to an amount written with `digits` places: `fromMinor(1250n, 2)` is "12.50". */
export function fromMinor(minor, digits) {
  const negative = minor < 0n;
  const magnitude = (negative ? -minor : minor).toString();
  let text = magnitude;
  if (digits > 0) {
    const padded = magnitude.padStart(digits + 1, '0');
    text = `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
  }
  return negative ? `-${text}` : text;
}

/** The sum of amounts at `digits` places, as an amount: `add(["0.1", "0.2"], 2)` is "0.30". */
export function add(amounts, digits) {
  return fromMinor(amounts.reduce((sum, amount) => sum + toMinor(amount, digits), 0n), digits);
}

/** `a - b` at `digits` places, as an amount. */
export function subtract(a, b, digits) {
  return fromMinor(toMinor(a, digits) - toMinor(b, digits), digits);
}

/** `amount × quantity` (a whole number) at `digits` places, as an amount. */
export function times(amount, quantity, digits) {
  return fromMinor(toMinor(amount, digits) * BigInt(quantity), digits);
}

/** -1, 0 or 1 as decimal amount `a` is below, equal to or above `b` (any places each: "1.5" = "1.50"). */
export function compare(a, b) {
  const places = Math.max(placesOf(a), placesOf(b));
  const x = toMinor(a, places);
  const y = toMinor(b, places);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** How many decimal places an amount is written with. */
function placesOf(amount) {
  const match = DECIMAL.exec(String(amount).trim());
  if (!match) throw new RangeError(`not an amount: ${amount}`);
  return (match[3] ?? '').length;
}

/** Whether a money is absent (null, undefined, no amount) or zero. */
export function isZero(money) {
  return !money || /^[+-]?0*(\.0*)?$/.test(money.amount ?? '');
}

/**
 * Moves the decimal point of an amount `places` to the left (right when negative), exactly:
 * `movePoint("12.5", 2)` is "0.125" (a percent as a fraction, for Intl's percent style).
 */
export function movePoint(amount, places) {
  const match = DECIMAL.exec(String(amount).trim());
  if (!match) throw new RangeError(`not an amount: ${amount}`);
  const [, sign, whole, fraction = ''] = match;
  const digits = `${whole}${fraction}`;
  let point = whole.length - places; // where the point goes in `digits`
  let text = digits;
  if (point <= 0) {
    text = `${'0'.repeat(1 - point)}${digits}`;
    point = 1;
  } else if (point > digits.length) {
    text = digits.padEnd(point, '0');
  }
  const int = text.slice(0, point).replace(/^0+(?=\d)/, '');
  const frac = text.slice(point);
  return `${sign === '-' ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

const currencyFormats = new Map();

/**
 * A money in the locale's style: "€12.50", "¥500", "-$3.20". Intl formats the decimal string itself
 * (never a number), so every digit is kept. A currency Intl does not know is written as the core
 * writes it ("XYZ 12.50"); `null` or `undefined` is ''.
 */
export function formatMoney(money, locale = undefined) {
  if (!money) return '';
  const key = `${locale ?? ''}\n${money.currency}`;
  let format = currencyFormats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency });
    } catch {
      return plainMoney(money);
    }
    currencyFormats.set(key, format);
  }
  return format.format(String(money.amount));
}

/** A discount's minus sign and its money: "−€3.20" (a true minus, U+2212). */
export const formatMinus = (money, locale = undefined) => `−${formatMoney(money, locale)}`;

/**
 * Every money the core wrote in `text` ("only EUR 3.20 is left") in the locale's style ("only €3.20
 * is left"): a currency code Intl knows, a space and a plain decimal. Other text is left as it is.
 */
export function formatMoneyIn(text, locale = undefined) {
  return String(text).replace(/\b([A-Z]{3}) (-?\d+(?:\.\d+)?)(?![\d.])/g, (written, currency, amount) =>
    knownCurrency(currency) ? formatMoney({ amount, currency }, locale) : written,
  );
}

let currencies = null;
/** Whether Intl knows `code` as a currency (ISO 4217); any code where Intl cannot list them. */
function knownCurrency(code) {
  currencies ??= typeof Intl.supportedValuesOf === 'function' ? new Set(Intl.supportedValuesOf('currency')) : { has: () => true };
  return currencies.has(code);
}

/** A money as the core writes it: "EUR 3.20". */
export const plainMoney = (money) => `${money.currency} ${money.amount}`;

/**
 * A minor-unit amount as a chart coordinate (uPlot plots numbers): the one place a money becomes a
 * number, for a point's position only. It is never summed, compared or shown; a chart shows the
 * amount's text.
 */
export function chartCoordinate(minor, digits) {
  return Number(fromMinor(minor, digits));
}
