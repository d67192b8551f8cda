// Misuses that the generated types must refuse: `tsc` has to fail on every line marked `// error`
// and on no other line (scripts/test-browser.sh checks both).
import { check, definitionFields, holdTtlBounds, minorUnits, normalizeCode, quote, PromoCode } from "../../pkg/promocodes.js";
import type { Basket, CodeProblem, Definition, Quote, QuoteResult } from "../../pkg/promocodes.js";

const basket: Basket = { total: { amount: "80.00", currency: "EUR" } };
const ok: Definition = { code: "SAVE10", discount: { kind: "percent", percent: "10" } };

const badKind: Definition = { code: "X", discount: { kind: "bogus", percent: "10" } }; // error
const floatAmount: Definition = { code: "X", discount: { kind: "fixed", amount: { amount: 5, currency: "EUR" } } }; // error
const noDiscount: Definition = { code: "X" }; // error
const camel: Definition = { code: "X", discount: { kind: "percent", percent: "10" }, startsAt: "2026-12-01T00:00:00Z" }; // error
quote(ok, { total: { amount: "1.00" } }); // error
quote(ok, basket, { colour: "red" }); // error
quote(ok, basket, { usage: { total: 1, perCustomer: 0 } }); // error
quote(ok, basket, { now: 1767225600000 }); // error
quote(42, basket); // error
const r: QuoteResult = quote(ok, basket);
console.log(r.quote); // error
if (!r.ok) console.log(r.quote); // error
if (r.ok) console.log(r.rejection); // error
if (!r.ok) { const wrongCode: "too_small" = r.rejection; console.log(wrongCode); } // error
const n: number = normalizeCode("x"); // error
normalizeCode(10); // error
check(ok); // error
quote(ok, { lines: [{ sku: "A", quantity: "2", unit_price: { amount: "1.00", currency: "EUR" } }] }); // error
quote(ok, { total: { amount: "1.00", currency: "EUR" }, lines: [] }); // error
const shipAmount: Definition = { code: "X", discount: { kind: "free_shipping", amount: { amount: "5", currency: "EUR" } } }; // error
PromoCode.parse(42); // error
PromoCode.parse(ok).quote(ok); // error
const places: number = minorUnits("EUR"); // error
const longest: string = holdTtlBounds().max; // error
const field: "colour" = definitionFields()[0]!; // error
const where: CodeProblem = { kind: "code_character", position: 4 }; // error
const notAClass: Definition = { code: "X", discount: { kind: "free_shipping" }, combines_with: ["orders"] }; // error
const notACurrency: Basket = { total: { amount: "1.00", currency: "EURO" } }; // error
const served: Quote = { code: "X", total: basket.total, discount: basket.total, payable: basket.total }; // error
console.log(badKind, floatAmount, noDiscount, camel, n, shipAmount, places, longest, field, where, notAClass);
