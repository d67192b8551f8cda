// The real JavaScript API of pkg/ (wasm-bindgen's glue included) under Node:
// `node tests/js/smoke.mjs` after `wasm-pack build --target web`. Exits non-zero on a failure.
import { readFileSync, readdirSync } from "node:fs";
import {
  initSync, check, definitionFields, holdTtlBounds, isBasketRejection, minorUnits, normalizeCode, quote, PromoCode,
  PromoStack,
} from "../../pkg/promocodes.js";

initSync({ module: readFileSync(new URL("../../pkg/promocodes_bg.wasm", import.meta.url)) });

let failed = 0;
const test = (name, fn) => {
  try {
    fn();
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e && e.stack ? e.stack : e}`);
  }
};
const eq = (a, b) => {
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${JSON.stringify(a)} !== ${JSON.stringify(b)}`);
};
const throws = (fn, message) => {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof Error)) throw new Error(`threw a non-Error: ${e}`);
    if (e.message !== message) throw new Error(`message ${JSON.stringify(e.message)} !== ${JSON.stringify(message)}`);
    return e;
  }
  throw new Error("did not throw");
};

const save10 = { code: "SAVE10", discount: { kind: "percent", percent: "10" } };
const basket = { total: { amount: "80.00", currency: "EUR" } };
const now = "2026-12-02T10:00:00Z";

test("quote answers with a plain object", () => {
  const r = quote(save10, basket, { now });
  eq(Object.getPrototypeOf(r), Object.prototype);
  eq(r, { ok: true, quote: { code: "SAVE10", total: basket.total, discount: { amount: "8.00", currency: "EUR" },
    payable: { amount: "72.00", currency: "EUR" }, quoted_at: now } });
});
test("options may be left out, undefined or null", () => {
  for (const r of [quote(save10, basket), quote(save10, basket, undefined), quote(save10, basket, null)]) {
    eq(r.ok, true);
    eq(typeof r.quote.quoted_at, "string");
  }
});
test("check and a rejection", () => {
  const min = { ...save10, minimum: { amount: "100.00", currency: "EUR" } };
  eq(check(min, basket, { now }), { ok: false, rejection: "below_minimum", message: "this code needs a basket of at least EUR 100.00" });
  eq(check(save10, basket, { now }), { ok: true });
});
test("malformed input throws an Error naming the field", () => {
  const e = throws(() => quote(save10, { total: { amount: "80.00", currency: "XYZ" } }),
    'basket.total.currency: unknown currency "XYZ"; expected an active ISO 4217 code such as "EUR"');
  eq(e.name, "PromoInputError");
  eq(e.field, "basket.total.currency");
  throws(() => quote(null, basket), "definition: expected an object, got null");
  throws(() => quote(save10, undefined), "basket: expected an object, got undefined");
  throws(() => quote(save10, basket, 7), "options: expected an object, got a number");
});
test("normalizeCode", () => {
  eq(normalizeCode("  black-friday "), "BLACK-FRIDAY");
  throws(() => normalizeCode(""), "code: promo code is empty");
  throws(() => normalizeCode(5), "code: expected a string, got a number");
  throws(() => normalizeCode(undefined), "code: expected a string, got undefined");
});
test("a text that is not a code says why: its kind, and the character and its position", () => {
  const problem = (text) => {
    try {
      normalizeCode(text);
    } catch (e) {
      if (e.name !== "PromoInputError") throw e;
      return e.problem;
    }
    throw new Error(`${JSON.stringify(text)} was accepted`);
  };
  eq(problem("SAVE 10"), { kind: "code_character", character: " ", position: 4 });
  eq(problem("  save\u20ac "), { kind: "code_character", character: "\u20ac", position: 4 });
  eq(problem("AB\u{1F600}C"), { kind: "code_character", character: "\u{1F600}", position: 2 });
  eq(problem("A\x01"), { kind: "code_character", character: "\x01", position: 1 });
  eq(problem("A".repeat(65)), { kind: "code_too_long", length: 65, max: 64 });
  eq(problem(" \t "), { kind: "empty_code" });
  // A definition's code says so too; another refusal carries no problem.
  const e = throws(() => PromoCode.parse({ ...save10, code: "SAVE 10" }),
    "definition.code: promo code contains ' ' at position 4; only A-Z, 0-9, '_' and '-' are allowed");
  eq(e.problem, { kind: "code_character", character: " ", position: 4 });
  eq(problem(5), undefined);
  const other = throws(() => quote(save10, { total: { amount: "80.00", currency: "XYZ" } }),
    'basket.total.currency: unknown currency "XYZ"; expected an active ISO 4217 code such as "EUR"');
  eq(other.problem, undefined);
});
test("what the core knows: the hold's bounds, minor units, the rejections about the basket, the fields", () => {
  eq(holdTtlBounds(), { min: 1, max: 3600, default: 900 });
  if (holdTtlBounds() === holdTtlBounds()) throw new Error("one object for two calls");
  eq([minorUnits("EUR"), minorUnits("JPY"), minorUnits("KWD"), minorUnits("CLF")], [2, 0, 3, 4]);
  for (const bad of ["", "eur", "XYZ", "EURO", 5, undefined, null, {}]) eq(minorUnits(bad), undefined);
  const rejections = ["inactive", "customer_required", "not_assigned", "not_started", "expired", "exhausted",
    "customer_limit_reached", "not_first_order", "currency_mismatch", "no_eligible_items", "not_enough_items",
    "budget_exhausted", "below_minimum", "not_combinable", "quote_changed"];
  eq(rejections.filter((r) => isBasketRejection(r)), ["currency_mismatch", "no_eligible_items", "not_enough_items", "below_minimum"]);
  for (const other of ["BELOW_MINIMUM", "", undefined, null, 7, {}]) eq(isBasketRejection(other), false);
  eq(definitionFields(), ["code", "active", "discount", "applies_to", "limits", "starts_at", "ends_at", "minimum", "audience", "combines_with",
    "first_order", "automatic", "priority", "shards"]);
  // Every field is one a definition may have (null: its default), and no other.
  const everyField = Object.fromEntries(definitionFields().map((f) => [f, null]));
  eq(quote({ ...everyField, ...save10 }, basket, { now }).ok, true);
  throws(() => quote({ ...save10, assigned: false }, basket, { now }), "definition.assigned: unknown field `assigned`, " +
    `expected one of ${definitionFields().map((f) => `\`${f}\``).join(", ")}`);
});
test("hostile input never traps", () => {
  const cyclic = {}; cyclic.self = cyclic;
  for (const bad of [cyclic, 10n, Symbol("s"), () => 1, { toJSON() { throw new Error("x"); } }, "x".repeat(3e6)]) {
    for (const call of [() => quote(bad, basket), () => quote(save10, bad), () => check(save10, basket, bad), () => normalizeCode(bad),
      () => minorUnits(bad), () => isBasketRejection(bad)]) {
      try { call(); } catch (e) { if (!(e instanceof Error) || e instanceof WebAssembly.RuntimeError) throw e; }
    }
  }
  eq(quote(save10, basket, { now }).quote.payable.amount, "72.00");
});
test("a parsed code quotes many baskets and answers as the one-shot functions do", () => {
  const mugs = { code: "mugs15", discount: { kind: "percent", percent: "15" }, applies_to: { categories: ["mugs"] } };
  const promo = PromoCode.parse(mugs);
  eq(promo.code, "MUGS15");
  for (const quantity of [1, 2, 3]) {
    const lines = { lines: [
      { sku: "MUG", quantity, unit_price: { amount: "12.50", currency: "EUR" }, categories: ["mugs"] },
      { sku: "BEANS", quantity: 1, unit_price: { amount: "8.50", currency: "EUR" } },
    ], shipping: { amount: "4.90", currency: "EUR" } };
    eq(promo.quote(lines, { now }), quote(mugs, lines, { now }));
    eq(promo.check(lines, { now }), check(mugs, lines, { now }));
  }
  const e = throws(() => promo.quote({ lines: [{ sku: "MUG", quantity: 0, unit_price: { amount: "1.00", currency: "EUR" } }] }),
    "basket.lines[0].quantity: quantity must be a whole number from 1 to 10000, not 0");
  eq(e.field, "basket.lines[0].quantity");
  throws(() => PromoCode.parse({ code: "X" }), "definition: missing field `discount`");
  promo.free();
  throws(() => promo.quote(basket), "null pointer passed to rust");
  eq(typeof PromoCode.prototype[Symbol.dispose], "function");
});

// The shared vectors through the handle and the one-shot functions, on both roads the module reads
// arguments by: plain data (its fast road) and anything else (class instances here), read from their
// JSON text. Answers must be the vectors' JSON exactly (key order included), refusals the same text.
const vectors = JSON.parse(readFileSync(new URL("../vectors.json", import.meta.url), "utf8"));
const definitionOf = (c) => (typeof c.definition === "string" ? vectors.definitions[c.definition] : c.definition);
class Data {}
const byJson = (v) => {
  if (Array.isArray(v)) return v.map(byJson);
  if (v && typeof v === "object") return Object.assign(new Data(), Object.fromEntries(Object.entries(v).map(([k, x]) => [k, byJson(x)])));
  return v;
};
const roads = [["plain", (v) => structuredClone(v)], ["by JSON", byJson]];
const refusal = (fn) => {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof Error) || e.name !== "PromoInputError") throw new Error(`threw ${e}`);
    if (!e.message.startsWith(`${e.field}: `)) throw new Error(`field ${e.field} of ${e.message}`);
    return e.message;
  }
  throw new Error("did not throw");
};
test("every vector: the handle and the one-shot functions answer the vector's JSON on both roads", () => {
  for (const c of vectors.cases) {
    const promo = PromoCode.parse(definitionOf(c));
    const expectQuote = JSON.stringify(c.expect);
    const { quote: _, ...checked } = c.expect;
    const expectCheck = JSON.stringify(checked);
    for (const [road, data] of roads) {
      const at = `${c.name} (${road})`;
      const got = [
        promo.quote(data(c.basket), data(c.options)),
        quote(data(definitionOf(c)), data(c.basket), data(c.options)),
      ];
      for (const r of got) if (JSON.stringify(r) !== expectQuote) throw new Error(`${at}: ${JSON.stringify(r)} !== ${expectQuote}`);
      const checks = [promo.check(data(c.basket), data(c.options)), check(definitionOf(c), data(c.basket), data(c.options))];
      for (const r of checks) if (JSON.stringify(r) !== expectCheck) throw new Error(`${at}: check ${JSON.stringify(r)}`);
    }
    promo.free();
  }
});
test("every malformed vector: the handle refuses it as the one-shot functions do, on both roads", () => {
  for (const c of vectors.malformed) {
    const options = c.options ?? { now };
    for (const [road, data] of roads) {
      const at = `${c.name} (${road})`;
      const one = refusal(() => quote(data(definitionOf(c)), data(c.basket), data(options)));
      if (one !== c.error) throw new Error(`${at}: one-shot ${one} !== ${c.error}`);
      if (c.error.startsWith("definition")) {
        const parsed = refusal(() => PromoCode.parse(data(definitionOf(c))));
        if (parsed !== c.error) throw new Error(`${at}: parse ${parsed}`);
        continue;
      }
      const promo = PromoCode.parse(data(definitionOf(c)));
      for (const call of [() => promo.quote(data(c.basket), data(options)), () => promo.check(data(c.basket), data(options))]) {
        const got = refusal(call);
        if (got !== c.error) throw new Error(`${at}: ${got} !== ${c.error}`);
      }
      promo.free();
    }
  }
});
test("a handle's helpers do not leak a thrown getter or a proxy trap", () => {
  const promo = PromoCode.parse(save10);
  const getter = { get total() { throw new RangeError("getter"); } };
  throws(() => promo.quote(getter, { now }), "basket: is not JSON data (a cycle, a BigInt, or a toJSON that throws)");
  const trap = new Proxy({}, { ownKeys() { throw new Error("trap"); } });
  throws(() => promo.quote(basket, trap), "options: is not JSON data (a cycle, a BigInt, or a toJSON that throws)");
  eq(promo.quote(basket, { now }).quote.payable.amount, "72.00");
  promo[Symbol.dispose]();
});

// The helpers themselves (pkg/snippets/.../src/wasm.js): what the fast road hands over, and when it
// gives up (then the module reads the JSON text, as the tests above check).
const snippets = new URL("../../pkg/snippets/", import.meta.url);
const helpers = await import(new URL(`${readdirSync(snippets)[0]}/src/wasm.js`, snippets));
const memory = new WebAssembly.Memory({ initial: 1 });
const written = (basket, options, size = 4096) => {
  const n = helpers.flatten(basket, options, memory, 64, size);
  return n < 0 ? null : new TextDecoder().decode(new Uint8Array(memory.buffer, 64, n));
};
test("flatten hands plain data over as fields", () => {
  eq(written(basket, { now }), `\x01=\x0180.00\x01EUR\x01-\x01-\x01-\x01-\x01=\x01${now}`);
  const lines = { lines: [{ sku: "MUG", quantity: 2, unit_price: { amount: "12.50", currency: "EUR" }, categories: ["mugs"] }],
    shipping: { currency: "EUR", amount: "4.90" } };
  eq(written(lines, { customer: "d\u00f6rte \u{1F600}", usage: { total: 3, per_customer: 0 } }),
    "\x01-\x01=\x011\x01MUG\x012\x0112.50\x01EUR\x01=\x011\x01mugs\x01=\x014.90\x01EUR" +
    "\x01=\x01d\u00f6rte \u{1F600}\x01=\x013\x010\x01-");
  eq(written({ total: basket.total, lines: undefined, shipping: null }), "\x01=\x0180.00\x01EUR\x01-\x01-\x01-\x01-\x01-");
});
test("flatten gives up on anything JSON.stringify would not write as it is", () => {
  class Data {}
  const bad = [
    [Object.assign(new Data(), basket)],
    [{ total: { amount: "80.00", currency: "EUR" }, extra: 1 }],
    [{ total: { amount: 80, currency: "EUR" } }],
    [{ total: { amount: new String("80.00"), currency: "EUR" } }],
    [{ total: { amount: "80.00", currency: "EUR\ud800" } }],
    [{ total: { amount: "8\x010", currency: "EUR" } }],
    [{ total: { amount: "80.00", currency: "EUR" }, toJSON: () => ({}) }],
    [{ get total() { throw new Error("getter"); } }],
    [{ lines: [{ sku: "A", quantity: 1.5, unit_price: basket.total }] }],
    [{ lines: [{ sku: "A", quantity: 2 ** 53, unit_price: basket.total }] }],
    [{ lines: [, { sku: "A", quantity: 1, unit_price: basket.total }] }],
    [basket, { now: new Date() }],
    [basket, { now, usage: { total: 1 } }],
    [basket, 5],
    [new Proxy({}, { ownKeys() { throw new Error("trap"); } })],
  ];
  for (const [b, o] of bad) eq(written(b, o), null);
  // An inherited property is not the page's data (JSON.stringify leaves it out).
  Object.prototype.shipping = { amount: "4.90", currency: "EUR" };
  try {
    eq(written({ lines: [] }), null);
  } finally {
    delete Object.prototype.shipping;
  }
  eq(written(basket, { now }, 20), null);
});
test("build makes an answer's objects from its fields", () => {
  // The module writes the answer's number (4 bytes, little-endian), then its fields.
  const put = (mem, number, fields) => {
    new DataView(mem.buffer).setUint32(64, number, true);
    return 4 + new TextEncoder().encodeInto(fields, new Uint8Array(mem.buffer, 68, 4092)).written;
  };
  const fields = `q\x01SAVE10\x0180.00\x01EUR\x018.00\x01EUR\x0172.00\x01EUR\x01${now}\x01=\x011\x01MUG` +
    "\x0180.00\x01EUR\x018.00\x01EUR\x01-\x01=\x01a note";
  const n = put(memory, 7, fields);
  const expect = { ok: true, quote: { code: "SAVE10", total: basket.total, discount: { amount: "8.00", currency: "EUR" },
    payable: { amount: "72.00", currency: "EUR" }, quoted_at: now,
    lines: [{ sku: "MUG", amount: basket.total, discount: { amount: "8.00", currency: "EUR" } }], note: "a note" } };
  const first = helpers.build(memory, 64, 4096, n);
  eq(first, expect);
  // Asked again for the same answer (the same number): equal objects, new ones.
  const again = helpers.build(memory, 64, 4096, n);
  eq(again, expect);
  if (again === first || again.quote === first.quote || again.quote.total === first.quote.total) throw new Error("objects reused");
  const refusal = "r\x01below_minimum\x01this code needs a basket of at least EUR 50.00";
  const refused = { ok: false, rejection: "below_minimum", message: "this code needs a basket of at least EUR 50.00" };
  eq(helpers.build(memory, 64, 4096, put(memory, 8, refusal)), refused);
  // Text that is not ASCII is decoded as UTF-8.
  const accented = "r\x01below_minimum\x01ce code demande un panier d’au moins 50,00 € — désolé";
  eq(helpers.build(memory, 64, 4096, put(memory, 9, accented)), { ok: false, rejection: "below_minimum",
    message: "ce code demande un panier d’au moins 50,00 € — désolé" });
  eq(helpers.build(memory, 64, 4096, put(memory, 10, "c")), { ok: true });
  // The same number from another memory (another instance of the module) is another answer.
  const other = new WebAssembly.Memory({ initial: 1 });
  eq(helpers.build(other, 64, 4096, put(other, 10, refusal)), refused);
  eq(helpers.build(memory, 64, 4096, put(memory, 10, "c")), { ok: true });
});

test("a stack: every vector answers as written, and the handle is freed like PromoCode's", () => {
  const vectors = JSON.parse(readFileSync(new URL("../vectors.json", import.meta.url), "utf8"));
  for (const c of vectors.stacks) {
    const definitions = c.definitions.map((d) => (typeof d === "string" ? vectors.definitions[d] : d));
    if (c.error !== undefined) {
      throws(() => PromoStack.parse(definitions), c.error);
      continue;
    }
    const stack = PromoStack.parse(definitions);
    const answer = stack.quote(c.basket, c.options);
    // Key order aside (the vectors are written with sorted keys), the vector's answer.
    const sorted = (v) => (Array.isArray(v) ? v.map(sorted) : v && typeof v === "object"
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
    eq(sorted(answer), sorted(c.expect));
    stack.free();
  }
  const stack = PromoStack.parse([save10]);
  eq(Object.keys(stack.quote(basket, { now }).quote), ["codes", "total", "discount", "payable", "quoted_at"]);
  stack.free();
  throws(() => stack.quote(basket, { now }), "null pointer passed to rust");
  throws(() => PromoStack.parse(save10), "definitions: expected an array, got an object");
  const one = PromoStack.parse([save10]);
  throws(() => one.quote(basket, { usage: { total: 1, per_customer: 0 } }),
    "options: usage must be a list of usage counts, one for each code as listed");
  throws(() => one.quote(basket, { usage: [{ total: 1 }] }), "options.usage[0]: missing field `per_customer`");
  throws(() => one.quote(basket, { usage: [], colour: 1 }),
    "options.colour: unknown field `colour`, expected one of `customer`, `usage`, `now`, `customer_orders`");
  eq(one.quote(basket, { now, usage: [{ total: 1000, per_customer: 0 }] }).ok, true);
  one.free();
});

test("a stack with automatic promotions: the ones that join, marked, and the skipped ones with why", () => {
  const ship = { code: "SHIP50", discount: { kind: "free_shipping" }, automatic: true, priority: 10,
    minimum: { amount: "90.00", currency: "EUR" }, combines_with: ["order"] };
  const five = { code: "FIVE", discount: { kind: "percent", percent: "5" }, automatic: true, priority: 20,
    combines_with: ["shipping"] };
  const alone = PromoStack.parse([], [five, ship]);
  const { quote } = alone.quote(basket, { now });
  eq(quote.codes.map((p) => [p.code, p.automatic, p.discount.amount]), [["FIVE", true, "4.00"]]);
  eq(quote.skipped, [{ code: "SHIP50", rejection: "below_minimum", detail: "this code needs a basket of at least EUR 90.00" }]);
  eq(Object.keys(quote.codes[0]), ["code", "class", "automatic", "discount"]);
  alone.free();
  // A typed code comes first and stays: SAVE10 combines with nothing, FIVE is skipped.
  const typed = PromoStack.parse([save10], [five]);
  const answer = typed.quote(basket, { now }).quote;
  eq(answer.codes.map((p) => [p.code, "automatic" in p]), [["SAVE10", false]]);
  eq(answer.skipped.map((s) => [s.code, s.rejection]), [["FIVE", "not_combinable"]]);
  typed.free();
  throws(() => PromoStack.parse([], [{ code: "X" }]), "automatic[0]: missing field `discount`");
});

console.log(failed ? `${failed} failed` : "all passed");
process.exit(failed ? 1 : 0);
