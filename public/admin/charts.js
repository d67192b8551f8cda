// A code's or a campaign's last hour, by minute (uPlot): the events chart with its table, and a
// budgeted one's spending. Every amount shown is decimal text; the spending's points are numbers
// only as chart coordinates (figures.js).
import uPlot from "./vendor/uplot.min.js";
import { $, cell } from "../lib/dom.js";
import { clockToMinute, clockWithSeconds, count } from "../lib/format.js";
import { chartCoordinate, formatMoney as money, toMinor } from "../lib/money.js";
import { rejectionsOf, spendingByMinute } from "./figures.js";
import { minorUnits } from "./wasm.js";
import { watch } from "./watch.js";

const BASE_SERIES = [
  ["captures", "Captures", "#146c43"],
  ["holds", "Holds", "#2451c7"],
  ["releases", "Releases", "#8a4b00"],
  ["expired", "Expired", "#6b7280"],
  ["conflicts", "Conflicts", "#a11d2b"],
  ["replays", "Replays", "#7c3aed"],
];
const REJECTION_COLOURS = ["#d9480f", "#c2255c", "#5f3dc4", "#0b7285", "#2b8a3e", "#e67700", "#495057", "#862e9c", "#1864ab", "#a61e4d", "#364fc7"];

const minuteLabel = (u, v) => (v == null ? "" : clockWithSeconds(v * 1000));
const minuteTicks = (u, vals) => vals.map((v) => clockToMinute(v * 1000));

export function renderChart(minutes) {
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
      { label: "Minute", value: minuteLabel },
      ...series.map(({ key, label }, i) => ({
        label,
        stroke: key.startsWith("rejected:") ? REJECTION_COLOURS[(i - BASE_SERIES.length) % REJECTION_COLOURS.length] : BASE_SERIES[i][2],
        width: 2,
        value: (u, v) => (v == null ? "" : count(v)),
      })),
    ],
    axes: [
      { values: minuteTicks },
      { values: (u, vals) => vals.map((v) => count(v)) },
    ],
    scales: { y: { range: (u, min, max) => [0, Math.max(4, max)] } },
  };
  holder.chart = new uPlot(opts, data, container);
}

/**
 * A budgeted code's spending over the last hour: what its captures gave away less what releases gave
 * back, minute by minute, ending at what the totals say now (held uses aside).
 */
export function renderBudget(view, stats) {
  const budget = view.limits?.budget;
  const card = $("budget-card");
  card.hidden = !budget || !stats.total?.discounted;
  if (card.hidden) return;
  const minutes = stats.by_minute ?? [];
  const places = minorUnits(budget.currency) ?? 2;
  const { amounts, ys } = spendingByMinute(stats, places);
  watch.budgetSpent = amounts; // what the chart's legend shows for a minute: the exact amount
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
  const top = chartCoordinate(toMinor(budget.amount, places), places);
  watch.budgetChart = new uPlot(
    {
      width,
      height: 200,
      series: [
        { label: "Minute", value: minuteLabel },
        {
          label: `Spent (${budget.currency})`,
          stroke: "#146c43",
          width: 2,
          value: (u, v, s, idx) => (v == null || idx == null ? "" : count(watch.budgetSpent[idx] ?? v)),
        },
      ],
      axes: [{ values: minuteTicks }, {}],
      scales: { y: { range: (u, min, max) => [0, Math.max(top, max)] } },
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
    th.textContent = clockWithSeconds(m.minute);
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
