// The operator's console over the admin API: sign in, the catalog of codes and campaigns, define and
// edit a code (checked as typed by the browser module, saved with If-Match), and a page per code and per
// campaign with the last hour by minute (uPlot), the totals, the budget spent and the redemptions with a
// CSV download; a campaign's page also generates and exports its codes.
//
// Rules of this file: nothing from the API or from a field is ever put into the page as HTML (only
// textContent and attributes set through the DOM); the admin token lives in sessionStorage only and
// goes only in the Authorization header; numbers, money and dates are formatted in the browser's
// locale and time zone.
import init, { PromoCode, minorUnits } from "/pkg/promocodes.js";
import uPlot from "/admin/vendor/uplot.min.js";

const TOKEN_KEY = "promocodes.admin-token";
const CODES_PAGE = 20;
const HISTORY_PAGE = 25;
const REFRESH_MS = 10_000;
const MAX_AUDIENCE = 10_000;
const HISTORY_MAX = 10_000; // redemptions read for the filter and the CSV

const $ = (id) => document.getElementById(id);
const moduleReady = init();

// ---------------------------------------------------------------------------------------------
// Formatting in the browser's locale

const numberFormat = new Intl.NumberFormat();
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
const shortTime = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

const count = (n) => numberFormat.format(n);
function money(m) {
  if (!m) return "";
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency: m.currency }).format(Number(m.amount));
  } catch {
    return `${m.currency} ${m.amount}`;
  }
}
const when = (t) => (t ? dateFormat.format(new Date(t)) : "");

/** A definition's discount in words: "10 % off, at most €5.00, on a basket of €20.00 or more". */
export function discountInWords(def) {
  const d = def.discount ?? {};
  let words;
  if (d.kind === "percent") {
    words = `${new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 4 }).format(Number(d.percent) / 100)} off`;
  } else if (d.kind === "fixed") {
    words = `${money(d.amount)} off`;
  } else if (d.kind === "free_shipping") {
    words = "Free shipping";
  } else {
    words = String(d.kind ?? "unknown discount");
  }
  if (d.max) words += `, at most ${money(d.max)}`;
  if (def.minimum) words += `, on ${money(def.minimum)} or more`;
  const skus = def.applies_to?.skus ?? [];
  const categories = def.applies_to?.categories ?? [];
  if (skus.length || categories.length) {
    const parts = [];
    if (skus.length) parts.push(`SKUs ${skus.join(", ")}`);
    if (categories.length) parts.push(`categories ${categories.join(", ")}`);
    words += `; only ${parts.join(" and ")}`;
  }
  if (def.assigned || (Array.isArray(def.audience) && def.audience.length)) words += "; named customers only";
  return words;
}

/** The validity window in the operator's time zone. */
function windowInWords(def) {
  if (def.starts_at && def.ends_at) return `${when(def.starts_at)} – ${when(def.ends_at)}`;
  if (def.starts_at) return `From ${when(def.starts_at)}`;
  if (def.ends_at) return `Until ${when(def.ends_at)}`;
  return "Always";
}

// ---------------------------------------------------------------------------------------------
// The API

const token = () => sessionStorage.getItem(TOKEN_KEY);

/** An API error as a sentence for the operator, with what to do. */
class ApiError extends Error {
  constructor(status, problem, sentence) {
    super(sentence);
    this.status = status;
    this.problem = problem;
  }
}

/** The sentence for an API error: what happened and what to do. */
export function explain(status, problem, what = "") {
  const detail = problem?.detail ? ` (${problem.detail})` : "";
  switch (status) {
    case 0: return "The server could not be reached. Check your connection, then try again.";
    case 400: return `The server refused this${what ? ` ${what}` : ""}: ${problem?.detail ?? "bad input"}. Correct it and try again.`;
    case 401: return "The admin token was not accepted. Sign in again with the current token.";
    case 404: return problem?.type === "/problems/unknown_code"
      ? `This ${what.startsWith("campaign") ? "campaign" : "code"} does not exist or is archived${detail}. Check its name, or show archived codes in the list.`
      : `Not found${detail}. Go back to the list of codes and try again.`;
    case 412: return "Someone changed this code since you opened it. Compare both versions, then save again.";
    case 413: return `This is too large to send${detail}. Shorten it (for example, a smaller audience) and save again.`;
    case 429: return "Too many requests for now. Wait a few seconds, then try again.";
    default:
      if (status >= 500) return `The server failed to answer (error ${status}${problem?.detail ? `: ${problem.detail}` : ""}). Try again in a minute; if it keeps failing, check the Worker's logs.`;
      return `The request failed (error ${status}${problem?.detail ? `: ${problem.detail}` : ""}). Reload the page and try again.`;
  }
}

/** Calls the admin API; resolves to { status, json, etag } for a 2xx, throws an ApiError otherwise. */
async function api(method, path, { body, headers = {}, what, auth = token() } = {}) {
  const init = { method, headers: { ...headers }, cache: "no-store" };
  if (auth) init.headers.authorization = `Bearer ${auth}`;
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, null, explain(0));
  }
  const text = await res.text();
  let json;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  if (res.ok) return { status: res.status, json, etag: res.headers.get("etag") };
  const error = new ApiError(res.status, json, explain(res.status, json, what));
  error.etag = res.headers.get("etag");
  if (res.status === 401 && auth && auth === token()) {
    signOut(false);
    showProblem(error.message);
  }
  throw error;
}

const codePath = (code) => `/v1/codes/${encodeURIComponent(code)}`;
const campaignPath = (id) => `/v1/campaigns/${encodeURIComponent(id)}`;

/** What differs between a code and a campaign, for the catalog's rows and the pages that watch them. */
const KINDS = {
  code: {
    path: codePath,
    nameOf: (summary) => summary.code,
    page: (name) => `#/code/${encodeURIComponent(name)}`,
    reach: (name) => name,
  },
  campaign: {
    path: campaignPath,
    nameOf: (summary) => summary.id,
    page: (name) => `#/campaign/${encodeURIComponent(name)}`,
    reach: (name) => `every code of ${name}`,
  },
};

// ---------------------------------------------------------------------------------------------
// Messages

function showProblem(text) { $("problem").textContent = text ?? ""; }
function showNotice(text) { $("notice").textContent = text ?? ""; }
function clearMessages() { showProblem(""); showNotice(""); }

/** Shows an error as a sentence; a 401 has already signed out. */
function report(err) {
  if (err instanceof ApiError) {
    if (err.status !== 401) showProblem(err.message);
  } else {
    showProblem(`Something went wrong in the console: ${err?.message ?? err}. Reload the page and try again.`);
  }
}

/** Asks for confirmation in a modal dialog; resolves to true when confirmed. */
function confirmAction(heading, text, ok) {
  const dialog = $("confirm");
  $("confirm-heading").textContent = heading;
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = ok;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
  });
}

/** Asks before switching a code or a campaign (`kind`) off. */
const confirmSwitchOff = (kind, name) => confirmAction(
  `Switch ${name} off?`,
  `Buyers' quotes, holds and captures of ${KINDS[kind].reach(name)} are refused at once (holds already made still capture). You can switch it on again.`,
  "Switch off",
);

/** Asks before archiving a code or a campaign (`kind`). */
const confirmArchive = (kind, name) => confirmAction(
  `Archive ${name}?`,
  kind === "campaign"
    ? `Every code of ${name} reads as unknown to buyers from now on; its counts and history stay, and Restore brings it back.`
    : `Buyers can no longer use ${name}; its history stays, and Restore brings it back with its counts.`,
  "Archive",
);

/** Saves `text` as the file `name` through a download link. */
function saveFile(text, name, type = "text/csv;charset=utf-8") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ---------------------------------------------------------------------------------------------
// Views and routing (#/, #/campaigns, #/new, #/edit/CODE, #/code/CODE, #/campaign/ID)

const VIEWS = ["signin", "catalog", "edit", "code"];
let leaveView = () => {};

function show(view, title) {
  for (const name of VIEWS) $(`view-${name}`).hidden = name !== view;
  document.title = `${title} · promocodes console`;
  const signedIn = Boolean(token());
  $("nav").hidden = !signedIn;
  $("sign-out").hidden = !signedIn;
  // The page each link opens: the catalog of all (#/) or of campaigns only (#/campaigns), a new code.
  const here = view === "catalog" ? (catalog.kind === "campaigns" ? "#/campaigns" : "#/")
    : view === "edit" && location.hash === "#/new" ? "#/new" : null;
  for (const link of $("nav").querySelectorAll("a")) {
    if (link.getAttribute("href") === here) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
}

/** A notice to show once the next view is open (after a save moves to the code's page). */
let nextNotice = "";

async function route() {
  leaveView();
  leaveView = () => {};
  clearMessages();
  if (nextNotice) {
    showNotice(nextNotice);
    nextNotice = "";
  }
  if (!token()) {
    show("signin", "Sign in");
    $("token").focus();
    return;
  }
  const hash = location.hash || "#/";
  const [, page, rawCode] = hash.match(/^#\/([a-z]*)\/?(.*)$/) ?? [];
  const code = rawCode ? decodeURIComponent(rawCode) : "";
  try {
    if (page === "new") await openEditor(null);
    else if (page === "edit" && code) await openEditor(code);
    else if (page === "code" && code) await openWatch("code", code);
    else if (page === "campaign" && code) await openWatch("campaign", code);
    else await openCatalog(page === "campaigns" ? "campaigns" : "all");
  } catch (err) {
    report(err);
  }
  // The new view takes the focus, unless the operator already moved into it while it loaded.
  const active = document.activeElement;
  if (!$("main").contains(active) || active.closest("[hidden]")) $("main").focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------------------------
// Sign in / out

async function signIn(event) {
  event.preventDefault();
  const entered = $("token").value.trim();
  $("signin-error").textContent = "";
  $("token").removeAttribute("aria-invalid");
  if (!entered) {
    $("signin-error").textContent = "Enter the admin token.";
    $("token").setAttribute("aria-invalid", "true");
    return;
  }
  try {
    await api("GET", "/v1/codes?limit=1", { auth: entered });
  } catch (err) {
    const sentence = err.status === 401
      ? "That admin token was not accepted. Check it (the Worker's ADMIN_TOKEN) and try again."
      : err.message;
    $("signin-error").textContent = sentence;
    $("token").setAttribute("aria-invalid", "true");
    $("token").focus();
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, entered);
  $("token").value = "";
  await route();
}

function signOut(navigate = true) {
  sessionStorage.removeItem(TOKEN_KEY);
  leaveView();
  leaveView = () => {};
  if (navigate) {
    clearMessages();
    show("signin", "Sign in");
    showNotice("Signed out: the token is forgotten.");
    $("token").focus();
  } else {
    show("signin", "Sign in");
  }
}

// ---------------------------------------------------------------------------------------------
// The catalog: codes and campaigns in one list, by name (#/), or campaigns only (#/campaigns)

const catalog = { cursors: [""], page: 0, prefix: "", archived: false, kind: "all", loads: 0 };

async function openCatalog(kind) {
  if (catalog.kind !== kind) {
    catalog.kind = kind;
    catalog.cursors = [""];
    catalog.page = 0;
  }
  const campaignsOnly = kind === "campaigns";
  show("catalog", campaignsOnly ? "Campaigns" : "Codes");
  $("catalog-heading").textContent = campaignsOnly ? "Campaigns" : "Codes";
  $("catalog-lede").textContent = campaignsOnly
    ? "A campaign is one definition shared by many codes: its limits and budget hold across all of them. Define campaigns with PUT /v1/campaigns/{id}; generate and export their codes on a campaign's page."
    : "Codes and campaigns, by name. A campaign is one definition shared by many codes: its limits and budget hold across all of them; its codes are on its page.";
  $("codes").tHead.rows[0].cells[2].textContent = `Valid (${zone})`;
  $("prefix").value = catalog.prefix;
  $("show-archived").checked = catalog.archived;
  await loadCatalog();
}

async function loadCatalog() {
  const query = new URLSearchParams({ limit: String(CODES_PAGE) });
  if (catalog.prefix) query.set("prefix", catalog.prefix);
  if (catalog.archived) query.set("archived", "true");
  const after = catalog.cursors[catalog.page];
  if (after) query.set("after", after);
  // Only the last load shows: a search typed while the first page loads is not overwritten by it.
  const load = ++catalog.loads;
  const [codes, campaigns] = await Promise.all([
    catalog.kind === "campaigns" ? { json: { codes: [], next: null } } : api("GET", `/v1/codes?${query}`, { what: "search" }),
    api("GET", `/v1/campaigns?${query}`, { what: "search" }),
  ]);
  const { rows, next } = mergePages([
    { kind: "code", items: codes.json.codes, next: codes.json.next },
    { kind: "campaign", items: campaigns.json.campaigns, next: campaigns.json.next },
  ], CODES_PAGE);
  if (load !== catalog.loads) return;
  catalog.cursors[catalog.page + 1] = next;
  renderCatalog(rows);
  $("codes-prev").disabled = catalog.page === 0;
  $("codes-next").disabled = !next;
  $("codes-page").textContent = `Page ${count(catalog.page + 1)}`;
}

/**
 * One page of several lists, each a page in name order with the cursor of its next page (`next`, or
 * null at its end): their rows in name order, `limit` of them (more when names tie at the end), and
 * the name the next page of every list starts after (null when all are done). Each list is known only
 * up to its cursor, so the rows after the smallest cursor wait for the next page.
 */
export function mergePages(lists, limit) {
  const cursors = lists.map((list) => list.next).filter((next) => next != null).sort();
  const bound = cursors[0] ?? null;
  const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const known = lists
    .flatMap(({ kind, items }) => items.map((summary) => ({ kind, name: KINDS[kind].nameOf(summary), summary })))
    .filter((row) => bound === null || row.name <= bound)
    .sort(byName);
  if (known.length <= limit) return { rows: known, next: bound };
  let end = limit;
  while (end < known.length && known[end].name === known[limit - 1].name) end += 1;
  return { rows: known.slice(0, end), next: end < known.length || bound !== null ? known[end - 1].name : null };
}

function cell(row, text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text;
  row.append(td);
  return td;
}

function usesInWords(summary) {
  const used = summary.usage?.total ?? 0;
  const held = summary.usage?.held ?? 0;
  let words = `${count(used)} used`;
  if (held) words += `, ${count(held)} held`;
  if (typeof summary.remaining === "number") words += `, ${count(summary.remaining)} left`;
  return words;
}

/** Budget used (the discounts counting now, holds included), for codes and campaigns that have one. */
function budgetInWords(summary) {
  const budget = summary.limits?.budget;
  if (!budget || typeof budget !== "object" || !budget.amount) return "—";
  const used = summary.usage?.discounted;
  if (used && typeof used === "object" && used.amount !== undefined) return `${money(used)} of ${money(budget)}`;
  return `${money(budget)} budget`;
}

function tag(text) {
  const span = document.createElement("span");
  span.className = "tag";
  span.textContent = text;
  return span;
}

function button(text, label, className, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = className;
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

/** The catalog's rows: a code's or a campaign's (marked "Campaign", with its number of codes). */
function renderCatalog(rows) {
  const body = $("codes").tBodies[0];
  body.replaceChildren();
  $("catalog-empty").hidden = rows.length > 0;
  $("catalog-empty").textContent = catalog.kind === "campaigns" ? "No campaigns match." : "No codes or campaigns match.";
  for (const item of rows) {
    const { kind, name, summary } = item;
    const row = document.createElement("tr");
    row.dataset.kind = kind;
    const nameCell = document.createElement("th");
    nameCell.scope = "row";
    nameCell.className = "code";
    const link = document.createElement("a");
    link.href = KINDS[kind].page(name);
    link.id = `${kind}-name-${name}`;
    link.textContent = name;
    nameCell.append(link);
    if (kind === "campaign") nameCell.append(tag("Campaign"));
    if (summary.archived) nameCell.append(tag("Archived"));
    row.append(nameCell);
    cell(row, discountInWords(summary));
    cell(row, windowInWords(summary));
    const uses = cell(row, usesInWords(summary), "num");
    if (kind === "campaign") {
      const codes = document.createElement("span");
      codes.className = "sub";
      codes.textContent = `${count(summary.codes?.count ?? 0)} codes, ${count(summary.codes?.used ?? 0)} used`;
      uses.append(codes);
    }
    cell(row, budgetInWords(summary));

    const activeCell = cell(row, "");
    const label = document.createElement("label");
    label.className = "switch";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.setAttribute("role", "switch");
    input.checked = summary.active;
    input.disabled = summary.archived;
    const text = document.createElement("span");
    text.textContent = "Active";
    label.append(input, text);
    input.setAttribute("aria-label", `Active: ${name}`);
    input.addEventListener("change", () => toggleActive(item, input));
    activeCell.append(label);

    const actions = cell(row, "");
    const box = document.createElement("div");
    box.className = "row-actions";
    if (summary.archived) {
      box.append(button("Restore", `Restore ${name}`, "quiet", () => restore(item)));
    } else {
      if (kind === "code") {
        const edit = document.createElement("a");
        edit.className = "button quiet";
        edit.href = `#/edit/${encodeURIComponent(name)}`;
        edit.textContent = "Edit";
        edit.setAttribute("aria-label", `Edit ${name}`);
        box.append(edit);
      }
      box.append(button("Archive", `Archive ${name}`, "danger", () => archive(item)));
    }
    actions.append(box);
    body.append(row);
  }
}

/** The kill switch of a code or a campaign: off only after a confirmation; sent with its ETag. */
async function toggleActive(item, input) {
  const { kind, name, summary } = item;
  const active = input.checked;
  clearMessages();
  if (!active) {
    const sure = await confirmSwitchOff(kind, name);
    if (!sure) {
      input.checked = true;
      input.focus();
      return;
    }
  }
  input.disabled = true;
  try {
    const path = KINDS[kind].path(name);
    const current = await api("GET", path, { what: kind });
    const { json } = await api("PATCH", path, {
      body: { active }, headers: { "if-match": current.etag }, what: "switch",
    });
    summary.active = json.active;
    showNotice(`${name} is now ${json.active ? "active" : "switched off"}.`);
  } catch (err) {
    input.checked = !active;
    report(err);
  } finally {
    input.disabled = false;
    input.focus();
  }
}

async function archive({ kind, name }) {
  clearMessages();
  if (!(await confirmArchive(kind, name))) return;
  try {
    await api("DELETE", KINDS[kind].path(name), { what: kind });
    await loadCatalog();
    showNotice(`${name} is archived.`);
  } catch (err) {
    report(err);
  }
}

/** Restores an archived code or campaign by defining it again (the summary is its definition, less a code's audience). */
async function restore({ kind, name, summary }) {
  clearMessages();
  if (summary.assigned) {
    showProblem(`${name} is assigned to named customers, whom the list does not show: open New code with the code ${name} and paste its audience to restore it.`);
    return;
  }
  try {
    await api("PUT", KINDS[kind].path(name), { body: definitionOf(summary), what: "restore" });
    await loadCatalog();
    showNotice(`${name} is restored.`);
  } catch (err) {
    report(err);
  }
}

/**
 * A definition (the core's shape) from a lookup or a summary of a code or a campaign: without usage,
 * remaining, archived, assigned, and a campaign's id and codes.
 */
function definitionOf(view) {
  const { usage, remaining, archived, assigned, remaining_budget: _rb, id: _id, codes: _codes, ...definition } = view;
  return definition;
}

// ---------------------------------------------------------------------------------------------
// The editor

const editor = { code: null, etag: null, assigned: false, pending: null };

const FIELD_OF = [
  [/^definition\.code/, "f-code"],
  [/^definition\.active/, "f-active"],
  [/\.currency$/, "f-currency"],
  [/^definition\.discount\.kind/, "f-kind"],
  [/^definition\.discount\.percent/, "f-percent"],
  [/^definition\.discount\.amount/, "f-amount"],
  [/^definition\.discount\.max/, "f-max"],
  [/^definition\.discount/, "f-kind"],
  [/^definition\.minimum/, "f-minimum"],
  [/^definition\.starts_at/, "f-starts"],
  [/^definition\.ends_at/, "f-ends"],
  [/^definition\.limits\.total/, "f-total"],
  [/^definition\.limits\.per_customer/, "f-per-customer"],
  [/^definition\.limits\.budget/, "f-budget"],
  [/^definition\.limits\.when_budget_short/, "f-budget-short"],
  [/^definition\.limits/, "f-budget"],
  [/^definition\.applies_to\.skus/, "f-skus"],
  [/^definition\.applies_to\.categories/, "f-categories"],
  [/^definition\.applies_to/, "f-skus"],
  [/^definition\.audience/, "f-audience"],
];
const ERROR_FIELDS = ["f-code", "f-kind", "f-percent", "f-amount", "f-currency", "f-max", "f-minimum", "f-starts", "f-ends", "f-total", "f-per-customer", "f-budget", "f-budget-short", "f-skus", "f-categories", "f-audience"];

const list = (text) => text.split(/[\n,;]/).map((s) => s.trim()).filter(Boolean);
const money$ = (amount) => ({ amount: amount.trim(), currency: $("f-currency").value.trim().toUpperCase() });
/** A count as typed: a number when it is digits, else the text (the module says what is wrong with it). */
const countOf = (text) => (/^\s*\d+\s*$/.test(text) ? Number(text) : text.trim());

/** `datetime-local` (the operator's time zone) to RFC 3339 UTC, and back. */
const toUtc = (local) => new Date(local).toISOString().replace(/\.000Z$/, "Z");
function toLocal(utc) {
  const d = new Date(utc);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The classes of code a definition's `combines_with` lists, in the order of application. */
const COMBINES = ["product", "order", "shipping"];

/** The definition the form describes (the core's JSON shape). */
function formDefinition() {
  const kind = $("f-kind").value;
  const discount = { kind };
  if (kind === "percent") discount.percent = $("f-percent").value.trim();
  if (kind === "fixed") discount.amount = money$($("f-amount").value);
  if ($("f-max").value.trim()) discount.max = money$($("f-max").value);
  const definition = { code: $("f-code").value.trim(), active: $("f-active").checked, discount };
  if ($("f-minimum").value.trim()) definition.minimum = money$($("f-minimum").value);
  if ($("f-starts").value) definition.starts_at = toUtc($("f-starts").value);
  if ($("f-ends").value) definition.ends_at = toUtc($("f-ends").value);
  const limits = {};
  if ($("f-total").value.trim()) limits.total = countOf($("f-total").value);
  if ($("f-per-customer").value.trim()) limits.per_customer = countOf($("f-per-customer").value);
  if ($("f-budget").value.trim()) {
    limits.budget = money$($("f-budget").value);
    limits.when_budget_short = $("f-budget-short").value;
  }
  if (Object.keys(limits).length) definition.limits = limits;
  const skus = list($("f-skus").value);
  const categories = list($("f-categories").value);
  if (skus.length || categories.length) {
    definition.applies_to = {};
    if (skus.length) definition.applies_to.skus = skus;
    if (categories.length) definition.applies_to.categories = categories;
  }
  const audience = list($("f-audience").value);
  if (audience.length) definition.audience = audience;
  const combines = COMBINES.filter((c) => $(`f-combines-${c}`).checked);
  if (combines.length) definition.combines_with = combines;
  return definition;
}

function fillForm(definition) {
  const d = definition.discount ?? {};
  $("f-code").value = definition.code ?? "";
  $("f-active").checked = definition.active !== false;
  $("f-kind").value = d.kind ?? "percent";
  $("f-percent").value = d.percent ?? "";
  $("f-amount").value = d.amount?.amount ?? "";
  $("f-max").value = d.max?.amount ?? "";
  $("f-currency").value =
    d.amount?.currency ?? d.max?.currency ?? definition.minimum?.currency ?? definition.limits?.budget?.currency ?? "EUR";
  $("f-minimum").value = definition.minimum?.amount ?? "";
  $("f-starts").value = definition.starts_at ? toLocal(definition.starts_at) : "";
  $("f-ends").value = definition.ends_at ? toLocal(definition.ends_at) : "";
  $("f-total").value = definition.limits?.total ?? "";
  $("f-per-customer").value = definition.limits?.per_customer ?? "";
  $("f-budget").value = definition.limits?.budget?.amount ?? "";
  $("f-budget-short").value = definition.limits?.when_budget_short ?? "refuse";
  $("f-skus").value = (definition.applies_to?.skus ?? []).join("\n");
  $("f-categories").value = (definition.applies_to?.categories ?? []).join("\n");
  $("f-audience").value = (definition.audience ?? []).join("\n");
  for (const c of COMBINES) $(`f-combines-${c}`).checked = (definition.combines_with ?? []).includes(c);
}

function showKind() {
  const kind = $("f-kind").value;
  for (const el of document.querySelectorAll("[data-kind]")) el.hidden = el.dataset.kind !== kind;
}

function setFieldError(id, text) {
  const input = $(id);
  $(`${id}-error`).textContent = text;
  if (text) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
}

/**
 * Checks the form with the browser module (the same refusal the server gives) and shows the refusal
 * next to its field; quotes the sample basket. Returns the definition, or null when refused.
 */
function checkForm() {
  for (const id of ERROR_FIELDS) setFieldError(id, "");
  $("form-problem").textContent = "";
  const definition = formDefinition();
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
    const field = err.field ?? "";
    const id = FIELD_OF.find(([re]) => re.test(field))?.[1];
    const sentence = String(err.message ?? err).replace(/^[\w.[\]]+: /, "");
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

const capitalise = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** The preview: the sample basket quoted now (one line of the first SKU or category the code applies to). */
function quoteSample(promo, definition) {
  const preview = $("preview");
  const currency = $("f-currency").value.trim().toUpperCase();
  const total = { amount: $("f-sample").value.trim() || "0", currency };
  const sku = definition.applies_to?.skus?.[0] ?? "SAMPLE";
  const category = definition.applies_to?.categories?.[0];
  const basket = definition.applies_to
    ? { lines: [{ sku, quantity: 1, unit_price: total, ...(category ? { categories: [category] } : {}) }], shipping: { amount: "4.90", currency } }
    : { total };
  const customer = definition.audience?.[0] ?? (definition.limits?.per_customer ? "sample-customer" : undefined);
  let result;
  try {
    result = promo.quote(basket, customer ? { customer } : undefined);
  } catch (err) {
    preview.dataset.state = "refused";
    return `The sample basket cannot be priced: ${String(err.message ?? err).replace(/^[\w.[\]]+: /, "")}.`;
  }
  if (!result.ok) {
    preview.dataset.state = "refused";
    return `A basket of ${money(total)} now: refused (${result.rejection}) — ${result.message}.`;
  }
  preview.dataset.state = "ok";
  const q = result.quote;
  const of = definition.applies_to ? ` plus ${money({ amount: "4.90", currency })} shipping` : "";
  return `A basket of ${money(total)}${of} now: ${money(q.discount)} off, ${money(q.payable)} to pay.`;
}

async function openEditor(code) {
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
    const first = ERROR_FIELDS.map($).find((el) => el.getAttribute("aria-invalid") === "true");
    (first ?? $("form-problem")).focus?.();
    showProblem("The code was not saved: correct the field marked in red.");
    return;
  }
  const code = definition.code.toUpperCase();
  const condition = editor.etag ? { "if-match": editor.etag } : { "if-none-match": "*" };
  $("save").disabled = true;
  try {
    const { status, etag } = await api("PUT", codePath(code), { body: definition, headers: condition, what: "definition" });
    editor.etag = etag;
    $("conflict").hidden = true;
    nextNotice = `${code} is ${status === 201 ? "defined" : "saved"}.`;
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

// ---------------------------------------------------------------------------------------------
// A code's or a campaign's page (#/code/CODE, #/campaign/ID): chart, budget, totals, redemptions; a
// campaign's also its kill switch, Archive, generating codes and their export

const watch = {
  kind: null, name: null, chart: null, budgetChart: null, series: [], timer: null, history: [], filtered: [], page: 0,
  etag: null, active: true,
};

const BASE_SERIES = [
  ["captures", "Captures", "#146c43"],
  ["holds", "Holds", "#2451c7"],
  ["releases", "Releases", "#8a4b00"],
  ["expired", "Expired", "#6b7280"],
  ["conflicts", "Conflicts", "#a11d2b"],
  ["replays", "Replays", "#7c3aed"],
];
const REJECTION_COLOURS = ["#d9480f", "#c2255c", "#5f3dc4", "#0b7285", "#2b8a3e", "#e67700", "#495057", "#862e9c", "#1864ab", "#a61e4d", "#364fc7"];

/** Rejections of a minute, summed over quotes, holds and captures, by rejection code. */
function rejectionsOf(figures) {
  const out = {};
  for (const op of ["quotes", "holds", "captures"]) {
    for (const [code, n] of Object.entries(figures.rejections?.[op] ?? {})) out[code] = (out[code] ?? 0) + n;
  }
  return out;
}

/** Opens the page of code or campaign `name` (`kind`: "code" or "campaign"), refreshed every 10 s. */
async function openWatch(kind, name) {
  await moduleReady; // the budget's chart reads its currency's places from the browser module
  show("code", name);
  for (const el of $("view-code").querySelectorAll("[data-for]")) el.hidden = el.dataset.for !== kind;
  watch.kind = kind;
  watch.name = name;
  watch.page = 0;
  watch.history = [];
  watch.filtered = [];
  $("filter-form").reset(); // each page opens unfiltered
  $("code-heading").textContent = name;
  $("code-edit").href = `#/edit/${encodeURIComponent(name)}`;
  $("code-edit").setAttribute("aria-label", `Edit ${name}`);
  $("generated").textContent = "";
  $("chart").replaceChildren();
  watch.chart = null;
  watch.series = [];
  await Promise.all([refreshWatch(), loadHistory()]);
  watch.timer = setInterval(() => refreshWatch().catch(report), REFRESH_MS);
  leaveView = () => {
    clearInterval(watch.timer);
    watch.timer = null;
    watch.chart?.destroy();
    watch.chart = null;
    watch.budgetChart?.destroy();
    watch.budgetChart = null;
    watch.kind = null;
    watch.name = null;
  };
}

/** The page's figures and charts, read again (every 10 s, and after each change). */
async function refreshWatch() {
  const { kind, name } = watch;
  const path = KINDS[kind].path(name);
  const [view, stats] = await Promise.all([api("GET", path, { what: kind }), api("GET", `${path}/stats`, { what: kind })]);
  if (watch.kind !== kind || watch.name !== name) return;
  const json = view.json;
  const state = json.active ? "Active" : "Switched off";
  if (kind === "campaign") {
    watch.etag = view.etag;
    watch.active = json.active;
    $("campaign-switch").textContent = json.active ? "Switch off" : "Switch on";
    $("code-summary").textContent = `${discountInWords(json)}. Valid: ${windowInWords(json)} (${zone}). `
      + `${count(json.codes?.count ?? 0)} codes, ${count(json.codes?.used ?? 0)} used; ${usesInWords(json)}. `
      + `Each code: ${count(json.uses_per_code ?? 1)} use(s). ${state}.`;
  } else {
    $("code-summary").textContent = `${discountInWords(json)}. Valid: ${windowInWords(json)} (${zone}). ${usesInWords(json)}. ${state}.`;
  }
  renderTotals(stats.json);
  renderChart(stats.json.by_minute ?? []);
  renderBudget(json, stats.json);
  $("chart-updated").textContent = `Updated ${timeFormat.format(new Date())}; refreshed every 10 seconds.`;
}

function renderTotals(stats) {
  const t = stats.total;
  const rejections = rejectionsOf(t);
  const items = [
    ["Captures", count(t.captures)], ["Holds", count(t.holds)], ["Releases", count(t.releases)],
    ["Expired", count(t.expired)], ["Conflicts", count(t.conflicts)], ["Replays", count(t.replays)],
    ["Quotes", count(t.quotes)],
    ...(t.discounted ? [["Given away", money(t.discounted)], ["Given back", money(t.returned)]] : []),
    ...Object.entries(rejections).map(([code, n]) => [`Refused: ${code}`, count(n)]),
    ["Defined", stats.defined_at ? when(stats.defined_at) : "before figures were kept"],
  ];
  const dl = $("totals");
  dl.replaceChildren();
  for (const [name, value] of items) {
    const div = document.createElement("div");
    const dt = document.createElement("dt");
    dt.textContent = name;
    const dd = document.createElement("dd");
    dd.textContent = value;
    div.append(dt, dd);
    dl.append(div);
  }
}

function renderChart(minutes) {
  const holder = watch;
  const container = $("chart");
  const rejectionCodes = [...new Set(minutes.flatMap((m) => Object.keys(rejectionsOf(m.figures))))].sort();
  const series = [...BASE_SERIES.map(([key, label]) => ({ key, label })), ...rejectionCodes.map((code) => ({ key: `rejected:${code}`, label: `Refused: ${code}` }))];
  const xs = minutes.map((m) => Date.parse(m.minute) / 1000);
  const valueOf = (m, key) => (key.startsWith("rejected:") ? rejectionsOf(m.figures)[key.slice(9)] ?? 0 : m.figures[key] ?? 0);
  const data = [xs, ...series.map(({ key }) => minutes.map((m) => valueOf(m, key)))];
  renderMinuteTable(minutes, series, valueOf);

  const width = Math.max(300, container.clientWidth || 600);
  const sameSeries = holder.chart && holder.series.join("|") === series.map((s) => s.key).join("|");
  if (sameSeries) {
    holder.chart.setData(data);
    return;
  }
  holder.chart?.destroy();
  container.replaceChildren();
  holder.series = series.map((s) => s.key);
  const opts = {
    width,
    height: 280,
    series: [
      { label: "Minute", value: (u, v) => (v == null ? "" : timeFormat.format(new Date(v * 1000))) },
      ...series.map(({ key, label }, i) => ({
        label,
        stroke: key.startsWith("rejected:") ? REJECTION_COLOURS[(i - BASE_SERIES.length) % REJECTION_COLOURS.length] : BASE_SERIES[i][2],
        width: 2,
        value: (u, v) => (v == null ? "" : count(v)),
      })),
    ],
    axes: [
      { values: (u, vals) => vals.map((v) => shortTime.format(new Date(v * 1000))) },
      { values: (u, vals) => vals.map((v) => count(v)) },
    ],
    scales: { y: { range: (u, min, max) => [0, Math.max(4, max)] } },
  };
  holder.chart = new uPlot(opts, data, container);
}

/** An amount in minor units, from a money object's decimal text (written with its currency's places). */
const minorOf = (m) => (m ? Number(m.amount.replace(".", "")) : 0);

/** A budgeted code's spending over the last hour: what its captures gave away less what releases gave
 * back, minute by minute, ending at what the totals say now (held uses aside). */
function renderBudget(view, stats) {
  const budget = view.limits?.budget;
  const card = $("budget-card");
  card.hidden = !budget || !stats.total?.discounted;
  if (card.hidden) return;
  const minutes = stats.by_minute ?? [];
  const places = minorUnits(budget.currency) ?? 2;
  let spent = minorOf(stats.total.discounted) - minorOf(stats.total.returned);
  const net = minutes.map((m) => minorOf(m.figures.discounted) - minorOf(m.figures.returned));
  const ys = new Array(minutes.length);
  for (let i = minutes.length - 1; i >= 0; i--) {
    ys[i] = spent / 10 ** places; // a chart coordinate only; every amount shown is a decimal string
    spent -= net[i];
  }
  const used = view.usage?.discounted;
  $("budget-now").textContent = used
    ? `${money(used)} of ${money(budget)} counted now, held uses included; ${money(view.remaining_budget ?? budget)} left.`
    : `${money(budget)} budget.`;
  const xs = minutes.map((m) => Date.parse(m.minute) / 1000);
  const container = $("budget-chart");
  if (watch.budgetChart) {
    watch.budgetChart.setData([xs, ys]);
    return;
  }
  container.replaceChildren();
  const width = Math.max(300, container.clientWidth || 600);
  watch.budgetChart = new uPlot(
    {
      width,
      height: 200,
      series: [
        { label: "Minute", value: (u, v) => (v == null ? "" : timeFormat.format(new Date(v * 1000))) },
        { label: `Spent (${budget.currency})`, stroke: "#146c43", width: 2, value: (u, v) => (v == null ? "" : count(v)) },
      ],
      axes: [{ values: (u, vals) => vals.map((v) => shortTime.format(new Date(v * 1000))) }, {}],
      scales: { y: { range: (u, min, max) => [0, Math.max(Number(budget.amount), max)] } },
    },
    [xs, ys],
    container,
  );
}

function renderMinuteTable(minutes, series, valueOf) {
  const table = $("minutes");
  const head = document.createElement("tr");
  for (const name of ["Minute", ...series.map((s) => s.label)]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = name;
    head.append(th);
  }
  table.tHead.replaceChildren(head);
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const m of minutes.filter((m) => series.some(({ key }) => valueOf(m, key) > 0))) {
    const row = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = timeFormat.format(new Date(m.minute));
    row.append(th);
    for (const { key } of series) cell(row, count(valueOf(m, key)), "num");
    body.append(row);
  }
  if (!body.rows.length) {
    const row = document.createElement("tr");
    const td = cell(row, "Nothing happened in the last hour.");
    td.colSpan = series.length + 1;
    body.append(row);
  }
}

/** Every redemption of the code or campaign (up to HISTORY_MAX), page by page from the API. */
async function loadHistory() {
  const { kind, name } = watch;
  const all = [];
  let after = "";
  for (;;) {
    const query = new URLSearchParams({ limit: "1000" });
    if (after) query.set("after", after);
    const { json } = await api("GET", `${KINDS[kind].path(name)}/redemptions?${query}`, { what: kind });
    all.push(...json.redemptions);
    if (!json.next || all.length >= HISTORY_MAX) break;
    after = json.next;
  }
  if (watch.kind !== kind || watch.name !== name) return;
  watch.history = all;
  applyFilter();
}

function applyFilter() {
  const state = $("filter-state").value;
  const customer = $("filter-customer").value.trim();
  const key = $("filter-key").value.trim();
  // A campaign's uses, each through one of its codes, filter by that code too (written in capitals).
  const code = watch.kind === "campaign" ? $("filter-code").value.trim().toUpperCase() : "";
  watch.filtered = watch.history.filter((r) => (!state || r.state === state)
    && (!customer || (r.customer ?? "").includes(customer))
    && (!code || (r.code ?? "").includes(code))
    && (!key || (r.idempotency_key ?? "").includes(key)));
  watch.page = Math.min(watch.page, Math.max(0, Math.ceil(watch.filtered.length / HISTORY_PAGE) - 1));
  renderHistory();
}

/** When a redemption last changed, and its amounts. */
function redemptionRow(r) {
  const quote = r.quote ?? null;
  return {
    seq: r.seq,
    code: r.code ?? "",
    key: r.idempotency_key ?? "",
    state: r.state ?? "",
    customer: r.customer ?? "",
    total: quote?.total ?? r.charged ?? null,
    discount: quote?.discount ?? null,
    payable: quote?.payable ?? null,
    at: r.released_at ?? r.captured_at ?? r.refused_at ?? r.expires_at ?? "",
    reason: r.reason ?? r.detail ?? "",
  };
}

function renderHistory() {
  const body = $("redemptions").tBodies[0];
  body.replaceChildren();
  const pages = Math.max(1, Math.ceil(watch.filtered.length / HISTORY_PAGE));
  const slice = watch.filtered.slice(watch.page * HISTORY_PAGE, (watch.page + 1) * HISTORY_PAGE);
  for (const r of slice.map(redemptionRow)) {
    const row = document.createElement("tr");
    cell(row, count(r.seq), "num");
    if (watch.kind === "campaign") cell(row, r.code);
    cell(row, r.key);
    cell(row, r.state);
    cell(row, r.customer);
    cell(row, money(r.total), "num");
    cell(row, money(r.discount), "num");
    cell(row, when(r.at));
    cell(row, r.reason);
    body.append(row);
  }
  $("history-count").textContent = watch.filtered.length === watch.history.length
    ? `${count(watch.history.length)} redemptions.`
    : `${count(watch.filtered.length)} of ${count(watch.history.length)} redemptions match.`;
  $("history-page").textContent = `Page ${count(watch.page + 1)} of ${count(pages)}`;
  $("history-prev").disabled = watch.page === 0;
  $("history-next").disabled = watch.page + 1 >= pages;
}

/** One CSV field: quoted, and a leading =, +, - or @ neutralised for spreadsheets. */
export function csvField(value) {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export const CSV_COLUMNS = ["seq", "idempotency_key", "state", "customer", "total", "discount", "payable", "currency", "at", "reason"];
/** A campaign's CSV: each use with the code it came through, after its number. */
export const CAMPAIGN_CSV_COLUMNS = ["seq", "code", ...CSV_COLUMNS.slice(1)];

/** What the filter shows, as CSV (amounts as the API writes them, times in UTC as the API writes them). */
function historyCsv() {
  const columns = watch.kind === "campaign" ? CAMPAIGN_CSV_COLUMNS : CSV_COLUMNS;
  const lines = [columns.join(",")];
  for (const r of watch.filtered.map(redemptionRow)) {
    const fields = {
      seq: r.seq, code: r.code, idempotency_key: r.key, state: r.state, customer: r.customer, total: r.total?.amount,
      discount: r.discount?.amount, payable: r.payable?.amount, currency: r.total?.currency, at: r.at, reason: r.reason,
    };
    lines.push(columns.map((column) => csvField(fields[column])).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

function downloadCsv() {
  saveFile(historyCsv(), `${watch.name}-redemptions.csv`);
}

// ---------------------------------------------------------------------------------------------
// A campaign's page: generating codes, the kill switch, Archive and the codes' export

async function generateCodes(event) {
  event.preventDefault();
  const id = watch.name;
  const countText = $("g-count").value.trim();
  if (!/^\d+$/.test(countText)) {
    showProblem("Count: enter a whole number of codes, 1 to 10,000.");
    $("g-count").focus();
    return;
  }
  const body = { count: Number(countText) };
  if ($("g-pattern").value.trim()) body.pattern = $("g-pattern").value.trim();
  $("generate").disabled = true;
  clearMessages();
  try {
    // One key per click: a retry of this call (the network failed) would answer the same codes.
    const key = `console-${crypto.randomUUID()}`;
    const { json } = await api("POST", `${campaignPath(id)}/codes`, { body, headers: { "idempotency-key": key }, what: `campaign ${id}` });
    await refreshWatch();
    $("generated").textContent = `Generated ${count(json.created)} codes, for example ${json.codes.slice(0, 3).join(", ")}.`;
    showNotice(`Generated ${count(json.created)} codes for ${id}.`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) showProblem(`The codes were not generated: ${err.problem?.detail ?? err.message}`);
    else report(err);
  } finally {
    $("generate").disabled = false;
  }
}

/** The campaign's kill switch (with confirmation before switching off), sent with If-Match. */
async function switchCampaign() {
  const id = watch.name;
  const active = !watch.active;
  clearMessages();
  if (!active && !(await confirmSwitchOff("campaign", id))) {
    $("campaign-switch").focus();
    return;
  }
  try {
    const { json } = await api("PATCH", campaignPath(id), { body: { active }, headers: { "if-match": watch.etag }, what: `campaign ${id}` });
    showNotice(`${id} is now ${json.active ? "active" : "switched off"}.`);
    await refreshWatch();
  } catch (err) {
    report(err);
  }
  $("campaign-switch").focus();
}

/** Archives the campaign (its codes then read as unknown; counts and history stay). */
async function archiveCampaign() {
  const id = watch.name;
  clearMessages();
  if (!(await confirmArchive("campaign", id))) return;
  try {
    await api("DELETE", campaignPath(id), { what: `campaign ${id}` });
    nextNotice = `${id} is archived.`;
    location.hash = "#/campaigns";
  } catch (err) {
    report(err);
  }
}

/** The campaign's streamed CSV, fetched with the token in its header (never a URL), then saved. */
async function downloadCampaignCsv() {
  const id = watch.name;
  let res;
  try {
    res = await fetch(`${campaignPath(id)}/codes`, { headers: { authorization: `Bearer ${token()}`, accept: "text/csv" }, cache: "no-store" });
  } catch {
    showProblem(explain(0));
    return;
  }
  if (!res.ok) {
    showProblem(explain(res.status, null, `campaign ${id}`));
    return;
  }
  saveFile(await res.text(), `${id}-codes.csv`);
}

// ---------------------------------------------------------------------------------------------
// Wiring

function wire() {
  $("signin-form").addEventListener("submit", signIn);
  $("sign-out").addEventListener("click", () => signOut(true));
  $("search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    clearMessages();
    catalog.prefix = $("prefix").value.trim();
    catalog.archived = $("show-archived").checked;
    catalog.cursors = [""];
    catalog.page = 0;
    loadCatalog().catch(report);
  });
  $("codes-prev").addEventListener("click", () => { catalog.page = Math.max(0, catalog.page - 1); loadCatalog().catch(report); });
  $("codes-next").addEventListener("click", () => { catalog.page += 1; loadCatalog().catch(report); });

  const form = $("code-form");
  form.addEventListener("input", (event) => {
    if (event.target.id === "f-kind") showKind();
    checkForm();
  });
  form.addEventListener("change", (event) => {
    if (event.target.id === "f-kind") showKind();
    if (event.target.id !== "f-audience-file") checkForm();
  });
  form.addEventListener("submit", (event) => save(event));
  $("f-audience-file").addEventListener("change", async (event) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const text = await file.text();
    const ids = text.split(/\r?\n/).map((line) => line.split(",")[0].trim().replace(/^"|"$/g, "")).filter(Boolean);
    const rows = /^(customer|customer_id|id)$/i.test(ids[0] ?? "") ? ids.slice(1) : ids;
    $("f-audience").value = rows.join("\n");
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

  $("filter-form").addEventListener("submit", (event) => {
    event.preventDefault();
    watch.page = 0;
    applyFilter();
  });
  $("history-prev").addEventListener("click", () => { watch.page = Math.max(0, watch.page - 1); renderHistory(); });
  $("history-next").addEventListener("click", () => { watch.page += 1; renderHistory(); });
  $("download-csv").addEventListener("click", downloadCsv);
  $("generate-form").addEventListener("submit", generateCodes);
  $("campaign-csv").addEventListener("click", downloadCampaignCsv);
  $("campaign-switch").addEventListener("click", switchCampaign);
  $("campaign-archive").addEventListener("click", archiveCampaign);

  window.addEventListener("hashchange", () => route());
  // The chart follows its card's width (a window resized, a layout that changed).
  new ResizeObserver(() => {
    const width = Math.max(300, $("chart").clientWidth);
    if (watch.chart && watch.chart.width !== width) watch.chart.setSize({ width, height: 280 });
  }).observe($("chart"));
}

wire();
route();
