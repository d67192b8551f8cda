// A code's or a campaign's page (#/code/CODE, #/campaign/ID): its summary, totals, charts and
// redemptions, read again every 10 s, and its events (webhooks.js); a campaign's page also has its own controls (campaign.js).
import { $, fillFigures } from "../lib/dom.js";
import { clockWithSeconds, count, when, zone } from "../lib/format.js";
import { formatMoney as money } from "../lib/money.js";
import { api, KINDS } from "./api.js";
import { renderBudget } from "./charts.js";
import { loadChanges } from "./changes.js";
import { renderCodeControls } from "./codepage.js";
import { REFUSED_ON, refusalRows } from "./figures.js";
import { loadHistory } from "./history.js";
import { report } from "./messages.js";
import { renderRange } from "./range.js";
import { nav, show } from "./views.js";
import { loadEvents } from "./webhooks.js";
import { moduleReady } from "./wasm.js";
import { discountInWords, windowInWords } from "./words.js";
import { campaignInWords, codeInWords } from "./counts.js";
import { renderBudgetBar } from "./budget.js";
import { openCampaignControls } from "./campaign.js";

const REFRESH_MS = 10_000;

/** The open page: which code or campaign, its charts, its timer, its redemptions and their page. */
export const watch = {
  kind: null, name: null, chart: null, budgetChart: null, budgetSpent: [], series: [], timer: null, history: [], filtered: [],
  page: 0, etag: null, active: true, range: "hour", stats: null, view: null, changesEtag: null,
};

/** Opens the page of code or campaign `name` (`kind`: "code" or "campaign"), refreshed every 10 s. */
export async function openWatch(kind, name) {
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
  if (kind === "campaign") openCampaignControls(name);
  $("chart").replaceChildren();
  watch.chart = null;
  watch.series = [];
  $("events").tBodies[0].replaceChildren();
  $("events-lede").textContent = "Loading the events…";
  $("changes").tBodies[0].replaceChildren();
  watch.changesEtag = null;
  await Promise.all([refreshWatch(), loadHistory(), loadEvents(kind, name).catch(report)]);
  watch.timer = setInterval(() => refreshWatch().catch(report), REFRESH_MS);
  nav.leave = () => {
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
export async function refreshWatch() {
  const { kind, name } = watch;
  const path = KINDS[kind].path(name);
  const [view, stats] = await Promise.all([api("GET", path, { what: kind }), api("GET", `${path}/stats`, { what: kind })]);
  if (watch.kind !== kind || watch.name !== name) return;
  const json = view.json;
  const valid = `${windowInWords(json)} (${zone()})`;
  if (kind === "campaign") {
    watch.etag = view.etag;
    watch.active = json.active;
    $("campaign-switch").textContent = json.active ? "Switch off" : "Switch on";
    $("code-summary").textContent = campaignInWords(json, discountInWords(json), valid);
  } else {
    renderCodeControls(json, view.etag);
    $("code-summary").textContent = codeInWords(json, discountInWords(json), valid);
  }
  renderBudgetBar(json);
  watch.stats = stats.json;
  watch.view = json;
  renderTotals(stats.json);
  renderRange(stats.json, json);
  // The change history, read again when the definition changed (its ETag).
  if (view.etag !== watch.changesEtag) {
    watch.changesEtag = view.etag;
    loadChanges().catch(report);
  }
  renderBudget(json, stats.json);
  $("chart-updated").textContent = `Updated ${clockWithSeconds(new Date())}; refreshed every 10 seconds.`;
}

function renderTotals(stats) {
  const t = stats.total;
  const refusals = refusalRows(t);
  const items = [
    ["Captures", count(t.captures)], ["Holds", count(t.holds)], ["Releases", count(t.releases)],
    ["Expired", count(t.expired)], ["Conflicts", count(t.conflicts)], ["Replays", count(t.replays)],
    ["Quotes", count(t.quotes)], ["Tried on the page", count(t.tries ?? 0)],
    ...(t.discounted ? [["Given away", money(t.discounted)], ["Given back", money(t.returned)]] : []),
    // Refused by a rule, in words, wherever it was counted (REFUSED_ON: the page, quotes, holds, captures).
    ...refusals.map((r) => [`Refused: ${r.words}`, count(REFUSED_ON.reduce((n, op) => n + r[op], 0))]),
    ["Defined", stats.defined_at ? when(stats.defined_at) : "before figures were kept"],
  ];
  const dl = $("totals");
  fillFigures(dl, items);
}
