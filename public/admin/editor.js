// The editor (#/new, #/edit/CODE): the form checked by the browser module (the same refusals the
// server gives) as each field is left and all of it on save, each refusal next to its field and, after
// a save, all of them in a summary at the top linking to their fields; the sample basket quoted; saved
// with If-Match (or If-None-Match: * for a new code), and both versions side by side on a 412.
import { $, markInvalid } from "../lib/dom.js";
import { count, zone } from "../lib/format.js";
import { formatMoney as money } from "../lib/money.js";
import { api, changeNote, codePath, definitionOf, explain } from "./api.js";
import { audienceFromFile, COMBINES, errorFields, formFromDefinition, SAMPLE_SHIPPING, sampleOrder, withoutPath } from "./definition.js";
import { generateCode, localTimes, refusalsOf } from "./refusals.js";
import { labelTiers, readTiers, renderTiers, wireTiers } from "./tiers.js";
import { clearMessages, report, showProblem } from "./messages.js";
import { openCampaignForm, saveCampaign, setFormKind } from "./campaign-form.js";
import { nav, show } from "./views.js";
import { moduleReady, PromoCode } from "./wasm.js";

// `touched`: the fields left once (their refusals show); `submitted`: a save was tried (every refusal shows).
// `dirty`: the fields typed in; `duplicate`: a definition #/new opens with; `kind`: "code" or "campaign".
const editor = {
  code: null, etag: null, assigned: false, pending: null, touched: new Set(), dirty: new Set(), submitted: false, duplicate: null, kind: "code",
};

// The form's fields by their key in definition.js's form object.
const FIELDS = {
  code: "f-code", kind: "f-kind", percent: "f-percent", amount: "f-amount", max: "f-max", currency: "f-currency",
  minimum: "f-minimum", starts: "f-starts", ends: "f-ends", total: "f-total", perCustomer: "f-per-customer",
  budget: "f-budget", budgetShort: "f-budget-short", skus: "f-skus", categories: "f-categories", audience: "f-audience",
  priority: "f-priority", buyBy: "f-buy-by", buyQuantity: "f-buy-quantity", buyAmount: "f-buy-amount", buySkus: "f-buy-skus",
  buyCategories: "f-buy-categories", getQuantity: "f-get-quantity", getOff: "f-get-off", getPercent: "f-get-percent",
  getAmount: "f-get-amount", getSkus: "f-get-skus", getCategories: "f-get-categories", maxApplications: "f-max-applications",
  selection: "f-selection", tierBy: "f-tier-by", shards: "f-shards",
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

/** The module's check of a definition: throws its refusal (`{ field, message }`). */
function parse(definition) {
  PromoCode.parse(definition).free?.();
}

/**
 * Checks the form with the browser module (the same refusals the server gives): each refusal shows next
 * to its field once the field was left (every one after a save, also in the summary); quotes the sample
 * basket. Returns the definition, or null when refused.
 */
function checkForm() {
  const { definition, errors, problem } = refusalsOf(readForm(), parse, { ...FIELDS, ...CHECKS }, { assigned: editor.assigned });
  const shown = (id) => editor.submitted || editor.touched.has(id);
  for (const id of errorIds()) setFieldError(id, shown(id) ? errors.get(id) ?? "" : "");
  $("form-problem").textContent = editor.submitted ? problem : "";
  renderSummary(editor.submitted ? errors : new Map(), editor.submitted ? problem : "");
  const preview = $("preview");
  if (!definition) {
    preview.textContent = "The preview waits for a valid definition.";
    preview.dataset.state = "";
    return null;
  }
  const promo = PromoCode.parse(definition);
  try {
    preview.textContent = quoteSample(promo, definition);
  } finally {
    promo.free?.();
  }
  return definition;
}

/** The field's label as the summary names it ("Percent", a tier row's "From"). */
function labelOf(id) {
  const input = $(id);
  const label = input?.labels?.[0]?.textContent ?? input?.getAttribute("aria-label") ?? id;
  return label.trim();
}

/**
 * The error summary at the top of the form (after a save): every refusal in the form's order, each a
 * link to its field;
 * gone once every field is right, and with it the "not saved" problem.
 */
function renderSummary(errors, problem) {
  const list = $("error-summary-list");
  list.replaceChildren();
  const order = errorIds();
  const inFormOrder = [...errors].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
  for (const [id, text] of inFormOrder) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#${id}`;
    link.dataset.field = id;
    const label = labelOf(id);
    link.textContent = text.toLowerCase().startsWith(label.toLowerCase()) ? text : `${label}: ${text}`;
    item.append(link);
    list.append(item);
  }
  if (problem) {
    const item = document.createElement("li");
    item.textContent = problem;
    list.append(item);
  }
  const n = errors.size + (problem ? 1 : 0);
  $("error-summary-heading").textContent = n === 1 ? "The code was not saved: 1 thing to correct" : `The code was not saved: ${count(n)} things to correct`;
  const wasShown = !$("error-summary").hidden;
  $("error-summary").hidden = n === 0;
  // The banner of a save refused (here, or by the server) goes once the form is right.
  if (n === 0 && (wasShown || /^The server refused/.test($("problem").textContent))) showProblem("");
}

/** The preview: the sample basket quoted now (one line of the first SKU or category the code applies to). */
function quoteSample(promo, definition) {
  const preview = $("preview");
  // The sample basket is in the code's currency, or in the one its placeholder shows while none is typed.
  const currency = ($("f-currency").value.trim() || $("f-currency").placeholder).toUpperCase();
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
    return `A basket of ${basketWords} now: refused (${result.rejection}) — ${localTimes(result.message)}.`;
  }
  preview.dataset.state = "ok";
  const q = result.quote;
  const of = basket.lines ? ` plus ${money({ amount: SAMPLE_SHIPPING, currency })} shipping` : "";
  return `A basket of ${basketWords}${of} now: ${money(q.discount)} off, ${money(q.payable)} to pay.`;
}

/**
 * Opens the form at #/new filled with `definition` (a code's, from the catalog's Duplicate), its code
 * left empty for the operator to name or generate.
 */
export function duplicateCode(definition) {
  editor.duplicate = { ...definition, code: "" };
  editor.duplicateOf = definition.code;
  location.hash = "#/new";
}

/**
 * Opens the form: `code`'s to edit, or a new code's (null): empty, or a duplicate's; with `kind`
 * "campaign", a campaign's (campaign-form.js).
 */
export async function openEditor(code, kind = "code") {
  const duplicate = code || kind !== "code" ? null : editor.duplicate;
  const from = duplicate ? editor.duplicateOf : null;
  editor.duplicate = null;
  await moduleReady;
  editor.kind = kind;
  editor.code = code;
  editor.etag = null;
  editor.assigned = false;
  editor.pending = null;
  editor.touched = new Set();
  editor.dirty = new Set();
  editor.submitted = false;
  $("conflict").hidden = true;
  $("code-form").reset();
  $("tz-name").textContent = zone();
  setFormKind(kind);
  if (kind === "campaign") {
    $("f-code-generate").hidden = true;
    await openCampaignForm(editor, code, fillForm);
  } else if (code) {
    show("edit", `Edit ${code}`);
    $("edit-heading").textContent = `Edit ${code}`;
    const { json, etag } = await api("GET", codePath(code));
    editor.etag = etag;
    editor.assigned = Boolean(json.assigned);
    fillForm(definitionOf(json));
    $("f-code").readOnly = true;
    $("f-code-generate").hidden = true;
  } else {
    show("edit", "New code");
    $("edit-heading").textContent = from ? `New code, a copy of ${from}` : "New code";
    $("f-code").readOnly = false;
    $("f-code-generate").hidden = false;
    fillForm(duplicate ?? { discount: { kind: "percent" }, code: "" });
  }
  showKind();
  checkForm();
}

/** Save: a PUT with If-Match (the ETag the definition was read with), or If-None-Match: * for a new code. */
async function save(event, overwriteWith = null) {
  event?.preventDefault();
  clearMessages();
  editor.submitted = true;
  const definition = overwriteWith ?? checkForm();
  if (!definition) {
    $("error-summary").focus();
    return;
  }
  if (editor.kind === "campaign") return saveCampaign(editor, definition);
  const code = definition.code.toUpperCase();
  const condition = editor.etag ? { "if-match": editor.etag } : { "if-none-match": "*" };
  $("save").disabled = true;
  try {
    const { status, etag } = await api("PUT", codePath(code), { body: definition, headers: { ...condition, ...changeNote($("change-note").value) }, what: "definition" });
    $("change-note").value = "";
    editor.etag = etag;
    $("conflict").hidden = true;
    nav.notice = `${code} is ${status === 201 ? "defined" : "saved"}.`;
    window.scrollTo(0, 0); // the code's page opens at its top
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
  form.addEventListener("input", (event) => {
    if (event.target.id) editor.dirty.add(event.target.id);
    showKind();
    checkForm();
  });
  // A field is checked once left (and as it is corrected from then on).
  form.addEventListener("focusout", (event) => {
    const id = event.target.id;
    // A field passed by without a value typed is checked on save only.
    if (!errorIds().includes(id) || !(event.target.value || editor.dirty.has(id) || editor.touched.has(id))) return;
    editor.touched.add(id);
    checkForm();
  });
  $("error-summary").addEventListener("click", (event) => {
    const link = event.target.closest("a[data-field]");
    if (!link) return;
    event.preventDefault(); // the hash is the console's route
    const field = $(link.dataset.field);
    field.scrollIntoView({ block: "center" });
    field.focus();
  });
  $("f-code-generate").addEventListener("click", () => {
    $("f-code").value = generateCode();
    editor.touched.add("f-code");
    checkForm();
    $("f-code").focus();
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
