// Generates, from docs/openapi.json with openapi-typescript, this package's src/schema.ts and the
// browser module's shapes (src/wasm/shapes.d.ts at the top, which src/wasm/types.rs adds to
// pkg/promocodes.d.ts): the page, this client and the API share one description, itself generated
// from the Rust types.
// Usage: node scripts/generate.mjs [OUT] [MODULE_OUT] (defaults src/schema.ts and
// ../../src/wasm/shapes.d.ts; test/generated.test.mjs writes temp files and compares them with the
// committed ones).
//
// openapi-typescript has no TypeScript for a JSON Schema constraint written only with `required`
// (the request bodies' "a `total`, or `lines`, or a `basket`" and "`code` or `codes`, not both"):
// it renders such a branch `unknown`, which swallows the whole body's type. So, before generating,
// every object schema whose `oneOf`/`anyOf` branches only say which properties are required (and
// `not` which are present) is rewritten into the same constraint spelt out: a `oneOf` of whole
// objects, one per combination of branches, each with its required properties and the ones it
// forbids marked `x-forbidden` (rendered `?: never`). The document's own shapes are not restated.
import openapiTS, { astToString, NEVER } from "openapi-typescript";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const SPEC = path.resolve(here, "../../../docs/openapi.json");
const OUT = process.argv[2] ?? path.resolve(here, "../src/schema.ts");
const MODULE_OUT = process.argv[3] ?? path.resolve(here, "../../../src/wasm/shapes.d.ts");

// The browser module's names for the API's shapes: what the module reads (a definition as
// `PUT /v1/codes/{code}` takes it, a basket as a quote takes it) and what it writes (a quote, a
// stack's quote, a refusal), each the API's own schema.
const MODULE_TYPES = [
  ["CurrencyCode", "Currency", "An active ISO 4217 currency code: \"EUR\", \"JPY\", \"KWD\"."],
  ["Money", "Money", "An amount in a currency: a decimal string, never a float."],
  ["Definition", "DefinitionInput", "A promo code's definition, as the module reads it (and `PUT /v1/codes/{code}` takes it)."],
  ["Discount", "DiscountInput", "What a code takes off."],
  ["UsageLimits", "UsageLimitsInput", "Caps on redemptions and on the money given away."],
  ["AppliesTo", "AppliesToInput", "The lines a code applies to."],
  ["CodeClass", "CodeClass", "What a code discounts, and when it applies in a stack."],
  ["Line", "Line", "One line of a basket."],
  ["Basket", "Basket", "The basket being priced: one total, or lines and optional shipping, all in one currency."],
  ["UsageCounts", "UsageCounts", "How often the code has been redeemed, as the API answers it."],
  ["Quote", "Quote", "A priced basket (one code)."],
  ["QuoteLine", "QuoteLine", "A line of a quote: its amount and its part of the discount."],
  ["QuoteShipping", "QuoteShipping", "The shipping of a quote: its amount and its part of the discount."],
  ["StackQuote", "StackQuote", "A basket priced with several codes."],
  ["StackPart", "StackPart", "One code's part of a stack's quote."],
  ["StackRefusal", "StackRefusal", "One code of a stack that refused."],
  ["Skipped", "Skipped", "An automatic promotion that did not join a stack, and why."],
  ["TierFrom", "TierFrom", "Where a tier starts, or what is missing to reach it: money, or a count of units."],
  ["RejectionCode", "RejectionCode", "Why a code does not apply, in the order the rules are checked."],
  ["ReservationState", "ReservationState", "Where a held or captured use is in its life."],
  ["Hold", "Hold", "A use held for the buyer while they pay (what `POST /v1/holds` answers)."],
];

const CONSTRAINT_KEYS = new Set(["required", "not", "title", "description"]);
/** A branch that only constrains which properties are present. */
const presenceOnly = (branch) =>
  branch && typeof branch === "object" && !("$ref" in branch) && Object.keys(branch).every((k) => CONSTRAINT_KEYS.has(k));

/** The property names a `not` forbids outright: `not: {required: [a]}` or `not: {anyOf: [{required: [a]}, ...]}`. */
function forbidden(not) {
  if (!not) return [];
  if (Array.isArray(not.anyOf)) return not.anyOf.flatMap((b) => (b.required?.length === 1 ? b.required : []));
  return not.required?.length === 1 ? not.required : [];
}

function spellOut(schema) {
  const groups = ["oneOf", "anyOf"].filter((k) => Array.isArray(schema[k]) && schema[k].every(presenceOnly));
  if (!schema.properties || groups.length === 0) return schema;
  let combos = [{ required: [...(schema.required ?? [])], forbid: [], titles: [] }];
  for (const key of groups) {
    combos = combos.flatMap((c) => schema[key].map((b) => ({
      required: [...c.required, ...(b.required ?? [])],
      forbid: [...c.forbid, ...forbidden(b.not)],
      titles: [...c.titles, ...(b.title ? [b.title] : [])],
    })));
  }
  // A top-level `not: {required: [a, b]}` (never both): a combination requiring one forbids the other.
  const pair = schema.not?.required;
  const rest = { ...schema };
  for (const key of [...groups, "required"]) delete rest[key];
  if (pair?.length >= 2) delete rest.not;
  rest.oneOf = combos.map(({ required, forbid, titles }) => {
    if (pair?.length >= 2) {
      const missing = pair.filter((p) => !required.includes(p));
      if (missing.length === 1) forbid.push(missing[0]);
    }
    const properties = { ...schema.properties };
    for (const p of forbid) properties[p] = { "x-forbidden": true };
    return {
      ...(titles.length ? { title: titles.join(", ") } : {}),
      type: "object",
      required: [...new Set(required)],
      properties,
      additionalProperties: schema.additionalProperties ?? false,
    };
  });
  delete rest.properties;
  delete rest.additionalProperties;
  delete rest.type;
  return rest;
}

/** A `oneOf` of closed objects (`additionalProperties: false`): each branch forbids the properties
 * only its siblings have, so TypeScript refuses a mix of two branches (`{total, lines}`) as the
 * schema does, instead of accepting any object literal whose keys some branch knows. */
function exclusive(schema) {
  const branches = schema.oneOf;
  const closed = (b) => b && b.type === "object" && b.additionalProperties === false && b.properties;
  if (!Array.isArray(branches) || branches.length < 2 || !branches.every(closed)) return schema;
  const all = new Set(branches.flatMap((b) => Object.keys(b.properties)));
  return {
    ...schema,
    oneOf: branches.map((b) => {
      const properties = { ...b.properties };
      for (const p of all) if (!(p in properties)) properties[p] = { "x-forbidden": true };
      return { ...b, properties };
    }),
  };
}

/** Walks the document and spells out every presence-only constraint and every closed `oneOf`. */
function walk(node) {
  if (Array.isArray(node)) return node.map(walk);
  if (!node || typeof node !== "object") return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = walk(v);
  return exclusive(spellOut(out));
}

const OPTIONS = {
  // A default is the server's, not the caller's: a request may leave such a field out.
  defaultNonNullable: false,
  transform(schemaObject) {
    if (schemaObject["x-forbidden"]) return NEVER;
  },
};
const spec = walk(JSON.parse(readFileSync(SPEC, "utf8")));
const header = "// Generated from docs/openapi.json by `npm run generate` (scripts/generate.mjs). Do not edit.\n\n";
writeFileSync(OUT, header + astToString(await openapiTS(spec, OPTIONS)));

/** The names of the component schemas `names` reach through `$ref`s, themselves included. */
function reached(names) {
  const seen = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const ref = typeof node.$ref === "string" && node.$ref.match(/^#\/components\/schemas\/(.+)$/);
    if (ref && !seen.has(ref[1])) {
      seen.add(ref[1]);
      visit(spec.components.schemas[ref[1]]);
    }
    Object.values(node).forEach(visit);
  };
  names.forEach((name) => visit({ $ref: `#/components/schemas/${name}` }));
  return [...seen].sort();
}

// The module's shapes: only the schemas its names reach, as one interface, and its names for them.
const schemas = Object.fromEntries(reached(MODULE_TYPES.map(([, api]) => api)).map((n) => [n, spec.components.schemas[n]]));
const shapes = astToString(await openapiTS({ ...spec, paths: {}, components: { schemas } }, OPTIONS))
  // Only the schemas: a module has no paths or operations.
  .replace(/^export type (paths|webhooks|\$defs|operations) = Record<string, never>;\n/gm, "")
  .replaceAll('components["schemas"]', 'ApiShapes["schemas"]')
  .replace("export interface components {", "/** The API's shapes the module reads and writes (docs/openapi.json's component schemas). */\nexport interface ApiShapes {");
const names = MODULE_TYPES.map(([name, api, doc]) => `/** ${doc} */\nexport type ${name} = ApiShapes["schemas"]["${api}"];\n`);
writeFileSync(MODULE_OUT, header + shapes + "\n" + names.join(""));
