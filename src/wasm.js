// The browser module's two JavaScript helpers (src/wasm.rs explains them); wasm-bindgen copies this
// file next to promocodes.js (pkg/snippets/) and imports it from there.
//
// flatten(basket, options): a plain basket and plain options of the documented shape as one string
// of fields, or null for anything it does not vouch for (then the module reads the argument's
// JSON.stringify text instead, as the server reads a request). It bounds the string so that the
// arguments' JSON text stays well under the module's MAX_INPUT_LEN.
//
// build(fields): an answer's objects from its fields, in the order the core's serde shapes write
// them.
const SEP = "\x01";
const BAIL = {};
const OBJECT = Object.prototype;
function plain(v) {
  if (typeof v !== "object" || v === null) throw BAIL;
  const proto = Object.getPrototypeOf(v);
  if ((proto !== OBJECT && proto !== null) || typeof v.toJSON === "function") throw BAIL;
}
function text(v) {
  if (typeof v !== "string" || v.indexOf(SEP) >= 0) throw BAIL;
  return SEP + v;
}
function count(v) {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw BAIL;
  return SEP + v;
}
function list(v) {
  if (!Array.isArray(v) || typeof v.toJSON === "function") throw BAIL;
  return v;
}
function money(m) {
  plain(m);
  let amount, currency;
  for (const k in m) {
    if (k === "amount") amount = m[k];
    else if (k === "currency") currency = m[k];
    else throw BAIL;
  }
  return text(amount) + text(currency);
}
function maybe(v, f) {
  return v == null ? SEP + "-" : SEP + "=" + f(v);
}
function texts(v) {
  const a = list(v);
  let out = SEP + a.length;
  for (let i = 0; i < a.length; i++) out += text(a[i]);
  return out;
}
function line(l) {
  plain(l);
  let sku, quantity, price, categories;
  for (const k in l) {
    if (k === "sku") sku = l[k];
    else if (k === "quantity") quantity = l[k];
    else if (k === "unit_price") price = l[k];
    else if (k === "categories") categories = l[k];
    else throw BAIL;
  }
  return text(sku) + count(quantity) + money(price) + maybe(categories, texts);
}
function lines(v) {
  const a = list(v);
  let out = SEP + a.length;
  for (let i = 0; i < a.length; i++) out += line(a[i]);
  return out;
}
function usage(u) {
  plain(u);
  let total, perCustomer;
  for (const k in u) {
    if (k === "total") total = u[k];
    else if (k === "per_customer") perCustomer = u[k];
    else throw BAIL;
  }
  return count(total) + count(perCustomer);
}
export function flatten(basket, options) {
  try {
    plain(basket);
    let total, items, shipping, customer, used, now;
    for (const k in basket) {
      if (k === "total") total = basket[k];
      else if (k === "lines") items = basket[k];
      else if (k === "shipping") shipping = basket[k];
      else throw BAIL;
    }
    if (options != null) {
      plain(options);
      for (const k in options) {
        if (k === "customer") customer = options[k];
        else if (k === "usage") used = options[k];
        else if (k === "now") now = options[k];
        else throw BAIL;
      }
    }
    const out = maybe(total, money) + maybe(items, lines) + maybe(shipping, money) +
      maybe(customer, text) + maybe(used, usage) + maybe(now, text);
    if (out.length > 32768) return null;
    return typeof out.isWellFormed === "function" ? (out.isWellFormed() ? out : null)
      : (/[\ud800-\udfff]/.test(out) ? null : out);
  } catch {
    return null;
  }
}
export function build(s) {
  const f = s.split(SEP);
  if (f[0] === "r") return { ok: false, rejection: f[1], message: f[2] };
  if (f[0] === "c") return { ok: true };
  let i = 1;
  const next = () => f[i++];
  const money = () => ({ amount: f[i++], currency: f[i++] });
  const quote = { code: next(), total: money(), discount: money(), payable: money(), quoted_at: next() };
  if (next() === "=") {
    const n = +next();
    const lines = [];
    for (let k = 0; k < n; k++) lines.push({ sku: next(), amount: money(), discount: money() });
    quote.lines = lines;
  }
  if (next() === "=") quote.shipping = { amount: money(), discount: money() };
  if (next() === "=") quote.note = next();
  return { ok: true, quote };
}
