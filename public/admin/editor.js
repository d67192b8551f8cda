// The editor (#/new, #/edit/CODE): the form checked as typed by the browser module (the same refusal
// the server gives, shown next to its field), the sample basket quoted, saved with If-Match (or
// If-None-Match: * for a new code), and both versions side by side on a 412.
import { $, markInvalid } from "../lib/dom.js";
import { capitalise, count } from "../lib/format.js";
import { formatMoney as money } from "../lib/money.js";
import { api, changeNote, codePath, definitionOf, explain } from "./api.js";
import {
  audienceFromFile, COMBINES, definitionFromForm, errorFields, fieldOf, formFromDefinition, MAX_AUDIENCE, SAMPLE_SHIPPING,
  sampleOrder, withoutPath,
} from "./definition.js";
import { labelTiers, readTiers, renderTiers, wireTiers } from "./tiers.js";
import { clearMessages, report, showProblem } from "./messages.js";
import { nav, show } from "./views.js";
import { moduleReady, PromoCode } from "./wasm.js";

const editor = { code: null, etag: null, assigned: false, pending: null };

// The form's fields by their key in definition.js's form object.
const FIELDS = {
  code: "f-code", kind: "f-kind", percent: "f-percent", amount: "f-amount", max: "f-max", currency: "f-currency",
  minimum: "f-minimum", starts: "f-starts", ends: "f-ends", total: "f-total", perCustomer: "f-per-customer",
  budget: "f-budget", budgetShort: "f-budget-short", skus: "f-skus", categories: "f-categories", audience: "f-audience",
  priority: "f-priority", buyBy: "f-buy-by", buyQuantity: "f-buy-quantity", buyAmount: "f-buy-amount", buySkus: "f-buy-skus",
  buyCategories: "f-buy-categories", getQuantity: "f-get-quantity", getOff: "f-get-off", getPercent: "f-get-percent",
  getAmount: "f-get-amount", getSkus: "f-get-skus", getCategories: "f-get-categories", maxApplications: "f-max-applications",
  selection: "f-selection", tierBy: "f-tier-by",
};
// The form's checkboxes by their key.
const CHECKS = { active: "f-active", automatic: "f-automatic", getSame: "f-get-same", firstOrder: "f-first-order" };

/** The form's values as typed. */
function readForm() {
  const form = { combines: COMBINES.filter((c) => $(`f-combines-${c}`).checked), tiers: readTiers() };
  for (const [key, id] of Object.entries(CHECKS)) form[key] = $(id).checked;
  for (const [key, id] of Object.entries(FIELDS)) form[key] = $(id).value;
  return form;
}

function fillForm(definition) {
  const form = formFromDefinition(definition);
  for (const [key, id] of Object.entries(FIELDS)) $(id).value = form[key];
  for (const [key, id] of Object.entries(CHECKS)) $(id).checked = form[key];
  for (const c of COMBINES) $(`f-combines-${c}`).checked = form.combines.includes(c);
  renderTiers(form.tiers, form.tierBy);
}

/** Shows the fields of the kind chosen (a `data-kind` lists the kinds it is for) and of its choices. */
function showKind() {
  const kind = $("f-kind").value;
  for (const el of document.querySelectorAll("[data-kind]")) el.hidden = !el.dataset.kind.split(" ").includes(kind);
  for (const el of document.querySelectorAll("[data-buy-by]")) el.hidden = el.dataset.buyBy !== $("f-buy-by").value;
  for (const el of document.querySelectorAll("[data-get-off]")) el.hidden = el.dataset.getOff !== $("f-get-off").value;
  for (const el of document.querySelectorAll("[data-get-same]")) el.hidden = $("f-get-same").checked;
  labelTiers($("f-tier-by").value);
}

/** Every field that may show a refusal now (the tier rows included). */
const errorIds = () => errorFields(readTiers().length);

function setFieldError(id, text) {
  $(`${id}-error`).textContent = text;
  markInvalid($(id), Boolean(text));
}

/**
 * Checks the form with the browser module (the same refusal the server gives) and shows the refusal
 * next to its field; quotes the sample basket. Returns the definition, or null when refused.
 */
function checkForm() {
  for (const id of errorIds()) setFieldError(id, "");
  $("form-problem").textContent = "";
  const definition = definitionFromForm(readForm());
  const preview = $("preview");
  if (definition.audience && definition.audience.length > MAX_AUDIENCE) {
    setFieldError("f-audience", `At most ${count(MAX_AUDIENCE)} customer ids; this list has ${count(definition.audience.length)}.`);
    preview.textContent = "";
    preview.dataset.state = "";
    return null;
  }
  if (editor.assigned && !definition.audience) {
    setFieldError("f-audience", "This code is assigned to named customers, whom the API does not show: paste them again (or clear them on purpose by saving a public code with another name).");
    return null;
  }
  let promo;
  try {
    promo = PromoCode.parse(definition);
  } catch (err) {
    const id = fieldOf(err.field ?? "");
    const sentence = withoutPath(err.message ?? err);
    if (id) setFieldError(id, capitalise(sentence));
    else $("form-problem").textContent = capitalise(sentence);
    preview.textContent = "The preview waits for a valid definition.";
    preview.dataset.state = "";
    return null;
  }
  try {
    preview.textContent = quoteSample(promo, definition);
  } finally {
    promo.free?.();
  }
  return definition;
}

/** The preview: the sample basket quoted now (one line of the first SKU or category the code applies to). */
function quoteSample(promo, definition) {
  const preview = $("preview");
  const currency = $("f-currency").value.trim().toUpperCase();
  const { total, basket, customer, units, orders } = sampleOrder(definition, $("f-sample").value, currency);
  const options = customer ? { customer, ...(orders === undefined ? {} : { customer_orders: orders }) } : undefined;
  const basketWords = units > 1 ? `${count(units)} items at ${money(total)}` : money(total);
  let result;
  try {
    result = promo.quote(basket, options);
  } catch (err) {
    preview.dataset.state = "refused";
    return `The sample basket cannot be priced: ${withoutPath(err.message ?? err)}.`;
  }
  if (!result.ok) {
    preview.dataset.state = "refused";
    return `A basket of ${basketWords} now: refused (${result.rejection}) — ${result.message}.`;
  }
  preview.dataset.state = "ok";
  const q = result.quote;
  const of = basket.lines ? ` plus ${money({ amount: SAMPLE_SHIPPING, currency })} shipping` : "";
  return `A basket of ${basketWords}${of} now: ${money(q.discount)} off, ${money(q.payable)} to pay.`;
}

export async function openEditor(code) {
  await moduleReady;
  editor.code = code;
  editor.etag = null;
  editor.assigned = false;
  editor.pending = null;
  $("conflict").hidden = true;
  $("code-form").reset();
  if (code) {
    show("edit", `Edit ${code}`);
    $("edit-heading").textContent = `Edit ${code}`;
    const { json, etag } = await api("GET", codePath(code));
    editor.etag = etag;
    editor.assigned = Boolean(json.assigned);
    fillForm(definitionOf(json));
    $("f-code").readOnly = true;
  } else {
    show("edit", "New code");
    $("edit-heading").textContent = "New code";
    $("f-code").readOnly = false;
    fillForm({ discount: { kind: "percent", percent: "10" }, code: "" });
  }
  showKind();
  checkForm();
}

/** Save: a PUT with If-Match (the ETag the definition was read with), or If-None-Match: * for a new code. */
async function save(event, overwriteWith = null) {
  event?.preventDefault();
  clearMessages();
  const definition = overwriteWith ?? checkForm();
  if (!definition) {
    const first = errorIds().map($).find((el) => el.getAttribute("aria-invalid") === "true");
    (first ?? $("form-problem")).focus?.();
    showProblem("The code was not saved: correct the field marked in red.");
    return;
  }
  const code = definition.code.toUpperCase();
  const condition = editor.etag ? { "if-match": editor.etag } : { "if-none-match": "*" };
  $("save").disabled = true;
  try {
    const { status, etag } = await api("PUT", codePath(code), { body: definition, headers: { ...condition, ...changeNote($("change-note").value) }, what: "definition" });
    $("change-note").value = "";
    editor.etag = etag;
    $("conflict").hidden = true;
    nav.notice = `${code} is ${status === 201 ? "defined" : "saved"}.`;
    location.hash = `#/code/${encodeURIComponent(code)}`;
  } catch (err) {
    if (err.status === 412) await showConflict(code, definition, err.etag);
    else report(err);
  } finally {
    $("save").disabled = false;
  }
}

/** On 412: both versions side by side, mine kept in the form. */
async function showConflict(code, mine, etag) {
  showProblem(editor.etag
    ? explain(412)
    : `A code ${code} already exists. Compare both versions: save yours over it, or edit it instead.`);
  let theirs = null;
  let theirEtag = etag;
  try {
    const current = await api("GET", codePath(code));
    theirs = definitionOf(current.json);
    theirEtag = current.etag;
  } catch (err) {
    if (err.status !== 404) report(err);
  }
  editor.pending = { mine, theirs, etag: theirEtag, code };
  $("conflict-mine").textContent = JSON.stringify(mine, null, 2);
  $("conflict-theirs").textContent = theirs ? JSON.stringify(theirs, null, 2) : "(no saved version: it was archived meanwhile)";
  $("conflict").hidden = false;
  $("conflict-heading").focus?.();
  $("conflict").scrollIntoView({ block: "nearest" });
}

/** The editor's events: checked as typed, saved on submit, an audience file read, a 412 resolved. */
export function wireEditor() {
  const form = $("code-form");
  form.addEventListener("input", () => {
    showKind();
    checkForm();
  });
  form.addEventListener("change", (event) => {
    showKind();
    if (event.target.id !== "f-audience-file") checkForm();
  });
  wireTiers(checkForm);
  form.addEventListener("submit", (event) => save(event));
  $("f-audience-file").addEventListener("change", async (event) => {
    const file = event.target.files?.[0];
    if (!file) return;
    $("f-audience").value = audienceFromFile(await file.text()).join("\n");
    checkForm();
  });
  $("conflict-keep").addEventListener("click", () => {
    const pending = editor.pending;
    if (!pending) return;
    editor.etag = pending.etag;
    save(null, pending.mine);
  });
  $("conflict-load").addEventListener("click", () => {
    const pending = editor.pending;
    if (!pending?.theirs) return;
    editor.etag = pending.etag;
    fillForm(pending.theirs);
    $("f-code").readOnly = true;
    $("conflict").hidden = true;
    clearMessages();
    showKind();
    checkForm();
    $("f-code").focus();
  });
}
