// A code's or a campaign's redemptions: read page by page, filtered, shown 25 at a time, saved as CSV.
import { $, cell, saveFile } from "../lib/dom.js";
import { count, when } from "../lib/format.js";
import { formatMoney as money } from "../lib/money.js";
import { KINDS, readAllPages } from "./api.js";
import { CAMPAIGN_CSV_COLUMNS, CSV_COLUMNS, redemptionRow, redemptionsCsv } from "./figures.js";
import { watch } from "./watch.js";

const HISTORY_PAGE = 25;
const HISTORY_MAX = 10_000; // redemptions read for the filter and the CSV

/** Every redemption of the code or campaign (up to HISTORY_MAX), page by page from the API. */
export async function loadHistory() {
  const { kind, name } = watch;
  const all = await readAllPages(`${KINDS[kind].path(name)}/redemptions`, "redemptions", { max: HISTORY_MAX, what: kind });
  if (watch.kind !== kind || watch.name !== name) return;
  watch.history = all;
  applyFilter();
}

export function applyFilter() {
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

export function renderHistory() {
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

/** What the filter shows, saved as CSV. */
export function downloadCsv() {
  const columns = watch.kind === "campaign" ? CAMPAIGN_CSV_COLUMNS : CSV_COLUMNS;
  saveFile(redemptionsCsv(watch.filtered, columns), `${watch.name}-redemptions.csv`);
}
