// The browser module's JavaScript helpers (src/wasm/mod.rs explains the design); wasm-bindgen copies
// this file next to promocodes.js (pkg/snippets/) and imports it from there.
//
// The module and these helpers exchange fields through one buffer in the module's memory (each call
// says where): each field is the byte 1 and the field's UTF-8 text. Why this way:
// docs/performance.md#browser-module-size-and-speed.
//
// flatten(basket, options) writes a plain basket and plain options of the documented shape as
// fields and returns how many bytes it wrote, or -1 for anything it does not vouch for: then the
// module reads the argument's JSON.stringify text instead, as the server reads a request body.
// A value it writes is one JSON.stringify would write as it is: a string, a safe non-negative
// integer, an own enumerable property of a plain object (an inherited one gives up) or an element
// of an array. The buffer's size bounds what it writes, and so the arguments' JSON text, well under
// the module's MAX_INPUT_LEN (src/wasm/mod.rs, SHARED_LEN).
//
// build(..., length) makes an answer's objects from what the module wrote (the answer's number, then
// its fields), in the order the core's serde shapes write them. It keeps the last answer's texts,
// and makes the objects from them again while the number stays the same. The first field says what
// the answer is: q a quote, r a refusal, c a check passed, h the hold's bounds, f the definition's
// fields, p why a text is not a promo code (a PromoInputError's problem),
// s a stack's quote, R a stack's refusals.
const SEP = 1;
const BAIL = {};
const OBJECT = Object.prototype;
const hasOwn = Object.prototype.hasOwnProperty;

/// Gives up on a key of `for (k in o)` that `o` inherits (JSON.stringify writes only its own).
function own(o, k) {
  if (!hasOwn.call(o, k)) throw BAIL;
}

// A view of the buffer, kept from call to call: a new one for another module's buffer, and when the
// memory has grown (the old view is then detached, of length 0).
let memory = null;
let bytes = null;

function shared(wasmMemory, pointer, length) {
  if (bytes === null || bytes.byteLength === 0 || memory !== wasmMemory || bytes.byteOffset !== pointer ||
    bytes.length !== length) {
    memory = wasmMemory;
    bytes = new Uint8Array(wasmMemory.buffer, pointer, length);
  }
  return bytes;
}

// --- flatten ---

let out = null;
let at = 0;

function room(n) {
  if (at + n > out.length) throw BAIL;
}

function tag(present) {
  room(2);
  out[at++] = SEP;
  out[at++] = present ? 0x3d /* = */ : 0x2d /* - */;
}

/// A string field, as UTF-8; a lone surrogate (which JSON.stringify escapes) gives up.
function text(s) {
  if (typeof s !== "string") throw BAIL;
  room(1 + 3 * s.length);
  out[at++] = SEP;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c === SEP) throw BAIL;
      out[at++] = c;
    } else if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      out[at++] = 0xe0 | (c >> 12);
      out[at++] = 0x80 | ((c >> 6) & 0x3f);
      out[at++] = 0x80 | (c & 0x3f);
    } else {
      const d = s.charCodeAt(i + 1);
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) throw BAIL;
      const point = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      i++;
      out[at++] = 0xf0 | (point >> 18);
      out[at++] = 0x80 | ((point >> 12) & 0x3f);
      out[at++] = 0x80 | ((point >> 6) & 0x3f);
      out[at++] = 0x80 | (point & 0x3f);
    }
  }
}

/// A whole number field (what JSON.stringify writes as digits).
function count(v) {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw BAIL;
  text(String(v));
}

function plain(v) {
  if (typeof v !== "object" || v === null) throw BAIL;
  const proto = Object.getPrototypeOf(v);
  if ((proto !== OBJECT && proto !== null) || typeof v.toJSON === "function") throw BAIL;
}

function list(v) {
  if (!Array.isArray(v) || typeof v.toJSON === "function") throw BAIL;
  return v;
}

function money(m) {
  plain(m);
  let amount, currency;
  for (const k in m) {
    own(m, k);
    if (k === "amount") amount = m[k];
    else if (k === "currency") currency = m[k];
    else throw BAIL;
  }
  text(amount);
  text(currency);
}

/// An optional value: `-` when null or absent (as JSON.stringify leaves out undefined), else `=` and it.
function maybe(v, write) {
  tag(v != null);
  if (v != null) write(v);
}

function texts(v) {
  const a = list(v);
  count(a.length);
  for (let i = 0; i < a.length; i++) text(a[i]);
}

function line(l) {
  plain(l);
  let sku, quantity, price, categories;
  for (const k in l) {
    own(l, k);
    if (k === "sku") sku = l[k];
    else if (k === "quantity") quantity = l[k];
    else if (k === "unit_price") price = l[k];
    else if (k === "categories") categories = l[k];
    else throw BAIL;
  }
  text(sku);
  count(quantity);
  money(price);
  maybe(categories, texts);
}

function lines(v) {
  const a = list(v);
  count(a.length);
  for (let i = 0; i < a.length; i++) line(a[i]);
}

function usage(u) {
  plain(u);
  let total, perCustomer;
  for (const k in u) {
    own(u, k);
    if (k === "total") total = u[k];
    else if (k === "per_customer") perCustomer = u[k];
    else throw BAIL;
  }
  count(total);
  count(perCustomer);
}

export function flatten(basket, options, wasmMemory, pointer, size) {
  try {
    plain(basket);
    let total, items, shipping, customer, used, now;
    for (const k in basket) {
      own(basket, k);
      if (k === "total") total = basket[k];
      else if (k === "lines") items = basket[k];
      else if (k === "shipping") shipping = basket[k];
      else throw BAIL;
    }
    if (options != null) {
      plain(options);
      for (const k in options) {
        own(options, k);
        if (k === "customer") customer = options[k];
        else if (k === "usage") used = options[k];
        else if (k === "now") now = options[k];
        else throw BAIL;
      }
    }
    out = shared(wasmMemory, pointer, size);
    at = 0;
    maybe(total, money);
    maybe(items, lines);
    maybe(shipping, money);
    maybe(customer, text);
    maybe(used, usage);
    maybe(now, text);
    return at;
  } catch {
    // Anything at all (a getter or a proxy that throws included): the JSON road decides.
    return -1;
  } finally {
    out = null;
  }
}

// --- a stack's options ---

/// [options without `usage`, usage, fields] when `usage` is an own array of a plain object, else
/// [options, undefined, -1]: the module reads the first as a single code's options (which refuses a
/// `usage` left in them) and each element of the second as a single code's usage. When every
/// element is a plain `{ total, per_customer }` of whole numbers, the list is also written into the
/// buffer as fields (its length, then each one's two counts), as flatten writes a single code's
/// usage, and `fields` is how many bytes; else -1, and the module reads each element's JSON text. A
/// getter that throws leaves the options as they are, for the module's JSON road to refuse.
export function stackOptions(options, wasmMemory, pointer, size) {
  try {
    if (options != null && Object.getPrototypeOf(options) === OBJECT && hasOwn.call(options, "usage") &&
      Array.isArray(options.usage)) {
      const { usage: counts, ...rest } = options;
      return [rest, counts, usages(counts, wasmMemory, pointer, size)];
    }
  } catch {
    // fall through
  }
  return [options, undefined, -1];
}

/// Writes a list of usage counts as fields: how many bytes, or -1.
function usages(counts, wasmMemory, pointer, size) {
  try {
    out = shared(wasmMemory, pointer, size);
    at = 0;
    const a = list(counts);
    count(a.length);
    for (let i = 0; i < a.length; i++) usage(a[i]);
    return at;
  } catch {
    return -1;
  } finally {
    out = null;
  }
}

// --- build ---

const decoder = new TextDecoder();
// The length above which an answer's fields are decoded at once rather than byte by byte.
const LONG = 200;
// The last answer's number, the memory it came from, and its fields: the module gives an answer
// the number of the one before when its fields are the same byte for byte (a page often asks again
// for the same answer, as the buyer types a code), and its text is then not decoded again (the
// objects are always new).
let lastMemory = null;
let lastNumber = -1;
let lastFields = [];

/// Keeps `fields` as the texts of answer `number`, and returns them.
function keep(fields, number) {
  lastMemory = memory;
  lastNumber = number;
  lastFields = fields;
  return fields;
}

/// The fields of the answer in the first `length` bytes of the buffer: its number (4 bytes,
/// little-endian), then the fields.
function fieldsOf(view, length) {
  const number = (view[0] | (view[1] << 8) | (view[2] << 16) | (view[3] << 24)) >>> 0;
  if (number === lastNumber && memory === lastMemory) return lastFields;
  // A short ASCII answer (a quote of a total) is read a byte at a time, anything else decoded as
  // the UTF-8 it is: docs/performance.md#what-each-change-bought.
  // A long answer (a stack's, a quote of many lines) is decoded at once: one call for all its texts.
  if (length > LONG) return keep(decoder.decode(view.subarray(4, length)).split("\x01"), number);
  const fields = [];
  let field = "";
  for (let i = 4; i < length; i++) {
    const c = view[i];
    if (c === SEP) {
      fields.push(field);
      field = "";
    } else if (c < 0x80) {
      field += String.fromCharCode(c);
    } else {
      return keep(decoder.decode(view.subarray(4, length)).split("\x01"), number);
    }
  }
  fields.push(field);
  return keep(fields, number);
}

export function build(wasmMemory, pointer, size, length) {
  const f = fieldsOf(shared(wasmMemory, pointer, size), length);
  if (f[0] === "r") return { ok: false, rejection: f[1], message: f[2] };
  if (f[0] === "c") return { ok: true };
  if (f[0] === "h") return { min: +f[1], max: +f[2], default: +f[3] };
  if (f[0] === "f") return f.slice(1);
  if (f[0] === "p") {
    // Why a text is not a code; a character comes as its code point (it may be the separator).
    if (f[1] === "code_character") return { kind: f[1], character: String.fromCodePoint(+f[2]), position: +f[3] };
    if (f[1] === "code_too_long") return { kind: f[1], length: +f[2], max: +f[3] };
    return { kind: f[1] };
  }
  if (f[0] === "s") return stacked(f);
  if (f[0] === "R") {
    const rejections = [];
    for (let n = +f[1], i = 2; n > 0; n--) {
      const r = { code: f[i], rejection: f[i + 1] };
      i += 2;
      if (f[i++] === "=") r.with = f[i++];
      r.message = f[i++];
      rejections.push(r);
    }
    return { ok: false, rejections };
  }
  return { ok: true, quote: quoteAt(f, 1) };
}

/// A stack's quote: its currency (each amount is written without it), its parts (each its class,
/// whether it is automatic, code, discount, and what it shows), then the sums and what they spread
/// over, then the automatic promotions skipped. Each object is made whole in the order of the
/// core's serde shapes: no field is copied or deleted.
function stacked(f) {
  const c = f[1];
  const codes = [];
  let i = 3;
  for (let n = +f[2]; n > 0; n--) {
    const part = { code: f[i + 2], class: f[i] };
    if (f[i + 1] === "a") part.automatic = true;
    part.discount = { amount: f[i + 3], currency: c };
    i = shown(f, spread(f, i + 4, part, c), part, c);
    codes.push(part);
  }
  const quote = {
    codes,
    total: { amount: f[i], currency: c },
    discount: { amount: f[i + 1], currency: c },
    payable: { amount: f[i + 2], currency: c },
    quoted_at: f[i + 3],
  };
  i = spread(f, i + 4, quote, c);
  const skipped = [];
  for (let n = +f[i++]; n > 0; n--, i += 3) skipped.push({ code: f[i], rejection: f[i + 1], detail: f[i + 2] });
  if (skipped.length > 0) quote.skipped = skipped;
  return { ok: true, quote };
}

/// The quote whose fields start at f[i].
function quoteAt(f, i) {
  const quote = {
    code: f[i],
    total: { amount: f[i + 1], currency: f[i + 2] },
    discount: { amount: f[i + 3], currency: f[i + 4] },
    payable: { amount: f[i + 5], currency: f[i + 6] },
    quoted_at: f[i + 7],
  };
  i = shown(f, spread(f, i + 8, quote), quote);
  if (f[i++] === "=") {
    const index = +f[i++];
    const [from, next] = tierFrom(f, i);
    quote.tier = { index, from };
    i = next;
  }
  if (f[i++] === "=") {
    const index = +f[i++];
    const [from, after] = tierFrom(f, i);
    const [missing] = tierFrom(f, after);
    quote.next_tier = { index, from, missing };
  }
  return quote;
}

/// Sets `into`'s lines and shipping, each when present, from the fields at f[i] (each amount followed
/// by its currency, or in currency `c` when given); where the next field is.
function spread(f, i, into, c) {
  const w = c === undefined ? 2 : 1;
  if (f[i++] === "=") {
    const items = [];
    for (let n = +f[i++]; n > 0; n--, i += 1 + 2 * w) {
      items.push({ sku: f[i], amount: amountAt(f, i + 1, c), discount: amountAt(f, i + 1 + w, c) });
    }
    into.lines = items;
  }
  if (f[i++] === "=") {
    into.shipping = { amount: amountAt(f, i, c), discount: amountAt(f, i + w, c) };
    i += 2 * w;
  }
  return i;
}

/// Sets `into`'s note and desired (and budget_clipped), each when present, from the fields at f[i]
/// (an amount as `spread` reads it); where the next field is.
function shown(f, i, into, c) {
  if (f[i++] === "=") into.note = f[i++];
  if (f[i++] === "=") {
    into.budget_clipped = true;
    into.desired = amountAt(f, i, c);
    i += c === undefined ? 2 : 1;
  }
  return i;
}

/// The amount at f[i], in currency `c`, or in the currency that follows it when `c` is undefined.
function amountAt(f, i, c) {
  return { amount: f[i], currency: c === undefined ? f[i + 1] : c };
}

/// A tier's `from` (money, or a count of units) whose fields start at f[i], and where the next field is.
function tierFrom(f, i) {
  if (f[i] === "m") return [{ amount: f[i + 1], currency: f[i + 2] }, i + 3];
  return [+f[i + 1], i + 2];
}
