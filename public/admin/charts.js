// A code's or a campaign's figures over a range (uPlot): the last hour by minute, or the last 24 hours
// or 7 days by hour; the events chart with its table (each series told apart by its dash pattern and
// its width as well as its colour, named in the legend), and a budgeted one's spending. Every amount
// shown is decimal text; the spending's points are numbers only as chart coordinates (figures.js).
import uPlot from "./vendor/uplot.min.js";
import { $, cell } from "../lib/dom.js";
import { clockToMinute, clockWithSeconds, count, when } from "../lib/format.js";
import { chartCoordinate, formatMoney as money, toMinor } from "../lib/money.js";
import { pointTime, RANGES, refusedOf, spendingByMinute } from "./figures.js";
import { minorUnits } from "./wasm.js";
import { watch } from "./watch.js";

// Each series: its figure, its name, its colour, its dash pattern (canvas setLineDash) and width, so
// that no two are told apart by colour alone (the legend shows each line's pattern).
const SERIES = [
  { key: "captures", css: "solid", label: "Captures", stroke: "#146c43", dash: [], width: 3 },
  { key: "holds", css: "dashed", label: "Holds", stroke: "#2451c7", dash: [10, 5], width: 2 },
  { key: "releases", css: "dotted", label: "Releases", stroke: "#8a4b00", dash: [3, 4], width: 2 },
  { key: "expired", css: "double", label: "Expired", stroke: "#6b7280", dash: [14, 4, 3, 4], width: 2 },
  { key: "conflicts", css: "dotted", label: "Conflicts", stroke: "#a11d2b", dash: [1, 3], width: 3 },
  { key: "replays", css: "dashed", label: "Replays", stroke: "#7c3aed", dash: [6, 3, 1, 3, 1, 3], width: 1.5 },
  { key: "tries", css: "dashed", label: "Tried on the page", stroke: "#0b7285", dash: [18, 6], width: 1.5 },
  { key: "refused", css: "solid", label: "Refused", stroke: "#d9480f", dash: [], width: 1.5, points: true },
];

const valueOf = (point, key) => (key === "refused" ? refusedOf(point.figures) : point.figures[key] ?? 0);

/** A point's time in the legend and the table: to the second for a minute, the date and hour for an hour. */
const pointLabel = (unit, seconds) => (unit === "minute" ? clockWithSeconds(seconds * 1000) : when(new Date(seconds * 1000).toISOString()));
// An hour's tick: its clock time over a day or less ("18:00"), its day over a week ("6 Dec").
const dayTick = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short" });
const ticks = (unit) => (u, vals) => {
  if (unit === "minute") return vals.map((v) => clockToMinute(v * 1000));
  const days = (vals.at(-1) - vals[0]) / 86_400 > 1;
  return vals.map((v) => (days ? dayTick.format(new Date(v * 1000)) : clockToMinute(v * 1000)));
};

/** The events chart of `range` (a key of RANGES) from a stats answer, and its table. */
export function renderChart(stats, range = "hour") {
  const holder = watch;
  const container = $("chart");
  const { unit } = RANGES[range];
  const points = RANGES[range].points(stats);
  const xs = points.map((p) => Date.parse(pointTime(p)) / 1000);
  const data = [xs, ...SERIES.map(({ key }) => points.map((p) => valueOf(p, key)))];
  renderPointTable(points, range);

  const width = Math.max(300, container.clientWidth || 600);
  if (holder.chart && holder.series === range) {
    holder.chart.setData(data);
    return;
  }
  holder.chart?.destroy();
  container.replaceChildren();
  holder.series = range;
  const opts = {
    width,
    height: 280,
    series: [
      { label: unit === "minute" ? "Minute" : "Hour", value: (u, v) => (v == null ? "" : pointLabel(unit, v)) },
      ...SERIES.map(({ label, stroke, dash, width: w, points: marked }) => ({
        label,
        stroke,
        dash,
        width: w,
        // The refusals also carry a marker (a filled dot) at each point where there were some.
        points: marked
          ? { show: true, size: 7, fill: stroke, stroke, filter: (u, i) => u.data[i].flatMap((v, at) => (v > 0 ? [at] : [])) }
          : { show: false },
        value: (u, v) => (v == null ? "" : count(v)),
      })),
    ],
    // The legend names each series in words, its marker drawn in the line's style (solid, dashed, dotted).
    legend: { markers: { width: 3, dash: (u, i) => SERIES[i - 1]?.css ?? "solid" } },
    axes: [
      { values: ticks(unit), space: unit === "minute" ? 50 : 70 },
      { values: (u, vals) => vals.map((v) => count(v)) },
    ],
    scales: { y: { range: (u, min, max) => [0, Math.max(4, max)] } },
  };
  holder.chart = new uPlot(opts, data, container);
}

const minuteLabel = (u, v) => (v == null ? "" : clockWithSeconds(v * 1000));
const minuteTicks = (u, vals) => vals.map((v) => clockToMinute(v * 1000));

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

function renderPointTable(points, range) {
  const { unit, during } = RANGES[range];
  const series = SERIES;
  const table = $("minutes");
  const head = document.createElement("tr");
  for (const name of [unit === "minute" ? "Minute" : "Hour", ...series.map((s) => s.label)]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = name;
    head.append(th);
  }
  table.tHead.replaceChildren(head);
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const m of points.filter((m) => series.some(({ key }) => valueOf(m, key) > 0))) {
    const row = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = unit === "minute" ? clockWithSeconds(pointTime(m)) : when(pointTime(m));
    row.append(th);
    for (const { key } of series) cell(row, count(valueOf(m, key)), "num");
    body.append(row);
  }
  if (!body.rows.length) {
    const row = document.createElement("tr");
    const td = cell(row, `Nothing happened ${during === "since it was defined" ? "in the last 7 days" : during}.`);
    td.colSpan = series.length + 1;
    body.append(row);
  }
}
