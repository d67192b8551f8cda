// The operator's console over the admin API: sign in, the catalog of codes and campaigns, define and
// edit a code (checked as typed by the browser module, saved with If-Match), and a page per code and per
// campaign with the last hour by minute (uPlot), the totals, the budget spent, the redemptions with a
// CSV download and its events; a campaign's page also generates and exports its codes. The Webhooks
// view lists the endpoints events go to, adds, rotates and deletes them, and sends a delivery again.
//
// Rules of the console: nothing from the API or from a field is ever put into the page as HTML (only
// textContent and attributes set through the DOM); the admin token lives in sessionStorage only and
// goes only in the Authorization header; numbers, money and dates are formatted in the browser's
// locale and time zone, and money stays decimal text (public/lib/money.js), never a JS number.
//
// This file is the entry: it wires the page's events. The modules beside it: api.js (requests, errors
// as sentences, paths, the catalog's paging), messages.js, views.js (routing, sign in and out),
// catalog.js, words.js (a definition in words), definition.js (the editor's form as a definition),
// deals.js (its buy X get Y and tiered fields), editor.js, tiers.js (the tier rows), watch.js (a code's or a campaign's page), figures.js (stats and CSV), charts.js (uPlot),
// history.js (redemptions), campaign.js (a campaign's controls), campaign-form.js (the editor as a
// campaign's), counts.js (uses and budget in words), budget.js (the budget bar), wasm.js (the browser module),
// webhooks.js (the Webhooks view and a page's events) with hooks.js (their pure parts).
import { $ } from "../lib/dom.js";
import { whenUnauthorized } from "./api.js";
import { archiveCampaign, downloadCampaignCsv, generateCodes, importCodes, switchCampaign } from "./campaign.js";
import { catalog, loadCatalog, wireCatalog } from "./catalog.js";
import { wireCodePage } from "./codepage.js";
import { wireEditor } from "./editor.js";
import { applyFilter, downloadCsv, renderHistory } from "./history.js";
import { clearMessages, report, showProblem } from "./messages.js";
import { initRange } from "./range.js";
import { route, signIn, signOut } from "./views.js";
import { watch } from "./watch.js";
import { loadEvents } from "./webhooks.js";

// What the console's tests and tools call directly.
export { explain, mergePages } from "./api.js";
export { discountInWords } from "./words.js";
export { CAMPAIGN_CSV_COLUMNS, CSV_COLUMNS, csvField } from "./figures.js";

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

  wireEditor();
  wireCatalog();
  wireCodePage();

  $("filter-form").addEventListener("submit", (event) => {
    event.preventDefault();
    watch.page = 0;
    applyFilter();
  });
  $("history-prev").addEventListener("click", () => { watch.page = Math.max(0, watch.page - 1); renderHistory(); });
  $("history-next").addEventListener("click", () => { watch.page += 1; renderHistory(); });
  $("download-csv").addEventListener("click", downloadCsv);
  $("generate-form").addEventListener("submit", generateCodes);
  $("import-form").addEventListener("submit", importCodes);
  $("campaign-csv").addEventListener("click", downloadCampaignCsv);
  $("campaign-switch").addEventListener("click", switchCampaign);
  $("campaign-archive").addEventListener("click", archiveCampaign);
  initRange();
  $("events-reload").addEventListener("click", () => { if (watch.name) loadEvents(watch.kind, watch.name).catch(report); });

  window.addEventListener("hashchange", () => route());
  // The chart follows its card's width (a window resized, a layout that changed).
  new ResizeObserver(() => {
    const width = Math.max(300, $("chart").clientWidth);
    if (watch.chart && watch.chart.width !== width) watch.chart.setSize({ width, height: 280 });
  }).observe($("chart"));
}

// The current token refused: sign out and say why.
whenUnauthorized((error) => {
  signOut(false);
  showProblem(error.message);
});
wire();
route();
