// The code form's refusals, every one at once, and the form's small helpers: a random code, a
// refusal's times in the operator's time zone. No DOM and no browser module (the check is passed
// in): tested under `node --test tests/js/`. Every rule is the browser module's: the module names
// one refusal at a time, so the form asks again with the refused field set to a value it accepts,
// until it accepts the definition or names no field it can set.
import { count, when, zone } from "../lib/format.js";
import { definitionFromForm, fieldOf, MAX_AUDIENCE, withoutPath } from "./definition.js";

/**
 * A value each field may take for the form to ask again past its refusal ("" for an optional one:
 * left out of the definition); a field not listed is left out with "". A field whose key maps to
 * `null` stops the asking (its refusal is about the whole discount).
 */
const STAND_INS = {
  code: "CHECK", kind: null, percent: "10", amount: "1", currency: "EUR", buyQuantity: "1", buyAmount: "1",
  getQuantity: "1", getPercent: "100", getAmount: "1", budgetShort: "refuse", selection: "cheapest", tierBy: null,
  active: true, automatic: false, firstOrder: false,
};

/**
 * Every refusal of the form's values `form` (as `definitionFromForm` reads them): `check(definition)`
 * throws the module's error (`{ field, message }`) or returns. Answers `{ definition, errors,
 * problem }`: the definition when accepted as it is (else null), `errors` a Map of form field id to
 * its sentence (capitalised, without its path, its times in the operator's zone) in the order found,
 * and `problem` a refusal no field shows. `fields` maps a form key to its field id (editor.js's
 * FIELDS and CHECKS); `assigned`: the code is assigned to customers the API does not show.
 */
export function refusalsOf(form, check, fields, { assigned = false } = {}) {
  const keyOf = new Map(Object.entries(fields).map(([key, id]) => [id, key]));
  const errors = new Map();
  let problem = "";
  let values = { ...form };
  let definition = null;
  for (let round = 0; round < 40; round += 1) {
    const candidate = definitionFromForm(values);
    if (candidate.audience && candidate.audience.length > MAX_AUDIENCE) {
      errors.set(fields.audience, `At most ${count(MAX_AUDIENCE)} customer ids; this list has ${count(candidate.audience.length)}.`);
      values = { ...values, audience: "" };
      continue;
    }
    if (assigned && !candidate.audience && !errors.has(fields.audience)) {
      errors.set(fields.audience, "This code is assigned to named customers, whom the API does not show: paste them again (or clear them on purpose by saving a public code with another name).");
      values = { ...values, audience: "A" };
      continue;
    }
    try {
      check(candidate);
    } catch (err) {
      const id = fieldOf(err?.field ?? "");
      const sentence = sentenceOf(err?.message ?? err);
      if (!id || errors.has(id)) {
        if (!id) problem = sentence;
        break;
      }
      errors.set(id, sentence);
      const key = keyOf.get(id);
      const standIn = key === undefined ? undefined : STAND_INS[key];
      if (key === undefined || standIn === null) break; // a tier's row, the kind: one at a time
      values = { ...values, [key]: standIn ?? "" };
      continue;
    }
    if (round === 0) definition = candidate;
    break;
  }
  return { definition: errors.size || problem ? null : definition, errors, problem };
}

/** A refusal as the operator reads it: without its field path, capitalised, its times local. */
export function sentenceOf(message) {
  const text = localTimes(withoutPath(String(message)));
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/**
 * `text` with each RFC 3339 time in it written in the operator's locale and time zone ("ends at
 * 2026-12-10T09:00:00Z" → "ends at 10 Dec 2026, 10:00 (Europe/Berlin)" in Berlin).
 */
export const localTimes = (text) =>
  String(text).replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g, (t) => `${when(t)} (${zone()})`);

/**
 * The characters of a generated code: the core's default charset for a campaign's codes (no 0, O, 1
 * or I: unambiguous when read aloud or typed from a print). tests/js checks it is the API's default.
 */
export const CODE_CHARSET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/**
 * A random code of `length` characters of `CODE_CHARSET` in groups of four joined by "-"
 * ("K7PQ-X2M9"), from `random(bytes)` (crypto.getRandomValues: 32 characters divide 256, so each is
 * equally likely).
 */
export function generateCode(length = 8, random = (bytes) => crypto.getRandomValues(bytes)) {
  const bytes = random(new Uint8Array(length));
  const chars = Array.from(bytes, (b) => CODE_CHARSET[b % CODE_CHARSET.length]).join("");
  return chars.match(/.{1,4}/g).join("-");
}
