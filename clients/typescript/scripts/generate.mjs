// Generates src/schema.ts from docs/openapi.json with openapi-typescript.
// Usage: node scripts/generate.mjs [OUT] (default src/schema.ts; test/generated.test.mjs writes a
// temp file and compares it with the committed one).
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

/** Walks the document and spells out every presence-only constraint. */
function walk(node) {
  if (Array.isArray(node)) return node.map(walk);
  if (!node || typeof node !== "object") return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = walk(v);
  return spellOut(out);
}

const spec = walk(JSON.parse(readFileSync(SPEC, "utf8")));
const ast = await openapiTS(spec, {
  // A default is the server's, not the caller's: a request may leave such a field out.
  defaultNonNullable: false,
  transform(schemaObject) {
    if (schemaObject["x-forbidden"]) return NEVER;
  },
});
const header = "// Generated from docs/openapi.json by `npm run generate` (scripts/generate.mjs). Do not edit.\n\n";
writeFileSync(OUT, header + astToString(ast));
