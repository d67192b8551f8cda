// The catalog: codes and campaigns in one list, by name (#/), or campaigns only (#/campaigns), with
// each row's status, kill switch, Edit, Duplicate, Archive and Restore; filtered by status and sorted
// newest or most used first (over the first 1,000 of each list, one page).
import { $, cell } from "../lib/dom.js";
import { count, zone } from "../lib/format.js";
import { api, definitionOf, KINDS, mergePages } from "./api.js";
import { duplicateCode } from "./editor.js";
import { clearMessages, confirmArchive, confirmSwitchOff, report, showNotice, showProblem } from "./messages.js";
import { filterAndSort, STATUSES, statusOf } from "./status.js";
import { show } from "./views.js";
import { automaticInWords, budgetInWords, discountInWords, usesInWords, windowInWords } from "./words.js";

export const CODES_PAGE = 20;

/** The most of each list a filtered or sorted catalog reads (the API's largest page). */
export const SORTED_LIMIT = 1000;

export const catalog = { cursors: [""], page: 0, prefix: "", archived: false, kind: "all", loads: 0, status: "all", sort: "name" };

export async function openCatalog(kind) {
  if (catalog.kind !== kind) {
    catalog.kind = kind;
    catalog.cursors = [""];
    catalog.page = 0;
  }
  const campaignsOnly = kind === "campaigns";
  show("catalog", campaignsOnly ? "Campaigns" : "Codes");
  $("catalog-heading").textContent = campaignsOnly ? "Campaigns" : "Codes";
  $("catalog-lede").textContent = campaignsOnly
    ? "A campaign is one definition shared by many codes: its limits and budget hold across all of them. New campaign defines one; generate, import and download its codes on its page."
    : "Codes and campaigns, by name. A campaign is one definition shared by many codes: its limits and budget hold across all of them; its codes are on its page.";
  $("codes").tHead.rows[0].cells[2].textContent = `Valid (${zone()})`;
  $("prefix").value = catalog.prefix;
  $("show-archived").checked = catalog.archived;
  $("status-filter").value = catalog.status;
  $("sort").value = catalog.sort;
  await loadCatalog();
}

/** The status filter and the order apply as chosen, from the first page. */
export function wireCatalog() {
  for (const [id, key] of [["status-filter", "status"], ["sort", "sort"]]) {
    $(id).addEventListener("change", () => {
      catalog[key] = $(id).value;
      catalog.cursors = [""];
      catalog.page = 0;
      clearMessages();
      loadCatalog().catch(report);
    });
  }
}

/** Whether the catalog shows one filtered or sorted page rather than pages by name. */
const reordered = () => catalog.status !== "all" || catalog.sort !== "name";

export async function loadCatalog() {
  if (reordered()) return loadReordered();
  $("catalog-partial").hidden = true;
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

/** The catalog filtered by status or sorted: the first 1,000 codes and campaigns matching, on one page. */
async function loadReordered() {
  const query = new URLSearchParams({ limit: String(SORTED_LIMIT) });
  if (catalog.prefix) query.set("prefix", catalog.prefix);
  if (catalog.archived) query.set("archived", "true");
  const load = ++catalog.loads;
  const [codes, campaigns] = await Promise.all([
    catalog.kind === "campaigns" ? { json: { codes: [], next: null } } : api("GET", `/v1/codes?${query}`, { what: "search" }),
    api("GET", `/v1/campaigns?${query}`, { what: "search" }),
  ]);
  if (load !== catalog.loads) return;
  const all = [
    ...codes.json.codes.map((summary) => ({ kind: "code", name: KINDS.code.nameOf(summary), summary })),
    ...campaigns.json.campaigns.map((summary) => ({ kind: "campaign", name: KINDS.campaign.nameOf(summary), summary })),
  ];
  renderCatalog(filterAndSort(all, catalog.status, catalog.sort));
  const partial = Boolean(codes.json.next || campaigns.json.next);
  $("catalog-partial").hidden = !partial;
  $("catalog-partial").textContent = partial
    ? `Filtered and sorted over the first ${count(SORTED_LIMIT)} codes and the first ${count(SORTED_LIMIT)} campaigns by name: narrow them with "Code starts with".`
    : "";
  $("codes-prev").disabled = true;
  $("codes-next").disabled = true;
  $("codes-page").textContent = "One page";
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
  const which = catalog.status === "all" ? "" : ` ${STATUSES[catalog.status].toLowerCase()}`;
  $("catalog-empty").textContent = catalog.kind === "campaigns" ? `No${which} campaigns match.` : `No${which} codes or campaigns match.`;
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
    else nameCell.append(statusTag(summary));
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
    cell(row, automaticInWords(summary));

    const activeCell = cell(row, "");
    const label = document.createElement("label");
    label.className = "switch";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.setAttribute("role", "switch");
    input.checked = summary.active;
    input.disabled = summary.archived;
    const text = document.createElement("span");
    text.className = "state";
    text.textContent = summary.active ? "On" : "Off";
    text.setAttribute("aria-hidden", "true"); // the switch says its state itself
    label.append(input, text);
    input.setAttribute("aria-label", `Active: ${name}`);
    input.addEventListener("change", () => toggleActive(item, input));
    activeCell.className = "cell-active";
    activeCell.append(label);

    const actions = cell(row, "");
    const box = document.createElement("div");
    box.className = "row-actions";
    if (summary.archived) {
      box.append(button("Restore", `Restore ${name}`, "quiet", () => restore(item)));
    } else {
      if (kind === "code" || kind === "campaign") {
        const edit = document.createElement("a");
        edit.className = "button quiet";
        edit.href = `#/${kind === "campaign" ? "editcampaign" : "edit"}/${encodeURIComponent(name)}`;
        edit.textContent = "Edit";
        edit.setAttribute("aria-label", `Edit ${name}`);
        box.append(edit);
        box.append(button("Duplicate", `Duplicate ${name}`, "quiet", () => duplicateCode(definitionToCopy(summary))));
      }
      box.append(button("Archive", `Archive ${name}`, "danger", () => archive(item)));
    }
    actions.append(box);
    body.append(row);
  }
}

/** A row's status in words ("Active", "Scheduled", "Expired", "Off"), marked for its colour. */
function statusTag(summary) {
  const status = statusOf(summary);
  const span = document.createElement("span");
  span.className = "status";
  span.dataset.status = status;
  span.textContent = STATUSES[status];
  return span;
}

/** A code's definition to start a new one from: without its campaign, its audience unknown (not listed). */
function definitionToCopy(summary) {
  const { campaign: _campaign, uses_per_code: _uses, ...definition } = definitionOf(summary);
  return definition;
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
    const row = input.closest("tr");
    input.closest("label").querySelector(".state").textContent = json.active ? "On" : "Off";
    row.querySelector(".status")?.replaceWith(statusTag(summary));
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
