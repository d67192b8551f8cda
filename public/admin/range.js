// The figures of the range the operator picks on a code's or a campaign's page (the last hour, 24
// hours, 7 days, or since it was defined): orders, the discount given, the codes tried on the checkout
// page, and the refusals in words, one table (where each was counted: shown by the page, or refused
// on a quote, a hold or a capture), with the sentence the buyer read on the page.
import { refusalSentence } from "../checkout/sentences.js";
import { $, cell, fillFigures } from "../lib/dom.js";
import { count } from "../lib/format.js";
import { formatMoney as money } from "../lib/money.js";
import { renderChart } from "./charts.js";
import { ordersOf, RANGES, refusalRows, refusedOf } from "./figures.js";
import { minorUnits } from "./wasm.js";
import { watch } from "./watch.js";

/** Wires the range buttons once: a new range draws the figures read last again, without a request. */
export function initRange() {
  $("range").addEventListener("change", (event) => {
    watch.range = event.target.value;
    if (watch.stats) renderRange(watch.stats, watch.view);
  });
}

/** Draws the chosen range's figures, chart, table and refusals from a stats answer and the code's view. */
export function renderRange(stats, view) {
  const range = RANGES[watch.range] ?? RANGES.hour;
  const figures = stats[range.key] ?? {};
  const checked = $("range").querySelector(`input[value="${watch.range}"]`);
  if (checked) checked.checked = true;
  const byMinute = range.unit === "minute";
  $("chart-heading").textContent = `${range.label}${range.key === "total" ? "" : byMinute ? ", by minute" : ", by hour"}`;
  $("chart").setAttribute("aria-label", `Chart of ${range.during.replace(/^(in|since) /, "")} ${byMinute ? "by minute" : "by hour"}; the same figures are in the table below it`);
  $("points-summary").textContent = range.key === "total"
    ? "The last 7 days as a table (hours are kept for 7 days)"
    : `The ${range.label.toLowerCase()} as a table`;
  renderChart(stats, watch.range);

  const places = minorUnits(figures.discounted?.currency ?? "EUR") ?? 2;
  const used = watch.kind === "campaign" ? view?.codes?.used ?? 0 : null;
  const { orders, given, perCode } = ordersOf(figures, places, used);
  const items = [
    ["Orders", count(orders)],
    ...(given ? [["Discount given", money(given)]] : []),
    ...(perCode !== null ? [["Orders per code used", count(perCode)]] : []),
    ["Tried on the page", count(figures.tries ?? 0)],
    ["Refused", count(refusedOf(figures))],
    ["Quotes", count(figures.quotes ?? 0)],
  ];
  const dl = $("range-figures");
  fillFigures(dl, items);
  renderRefusals(figures, range, view);
}

/** The refusals table: one row a reason, in words, by where it was counted, with the buyer's sentence. */
function renderRefusals(figures, range, view) {
  $("refusals-heading").textContent = `Refusals, ${range.during.replace(/^in /, "")}`;
  const body = $("refusals").tBodies[0];
  body.replaceChildren();
  const rows = refusalRows(figures);
  const name = watch.kind === "code" ? watch.name : "The code"; // a campaign's: any of its codes
  for (const r of rows) {
    const row = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = r.words.charAt(0).toUpperCase() + r.words.slice(1);
    row.append(th);
    for (const n of [r.page, r.quotes, r.holds, r.captures, r.total]) cell(row, count(n), "num");
    cell(row, refusalSentence(r.rejection, name, view ?? null, { currency: figures.discounted?.currency ?? "" }));
    body.append(row);
  }
  if (!rows.length) {
    const row = document.createElement("tr");
    const td = cell(row, `No refusals ${range.during}.`);
    td.colSpan = 7;
    body.append(row);
  }
}
