// A code's or a campaign's figures (GET …/stats) for the charts and the refusals table (rejections in
// words, the ranges), and its redemptions as CSV. No DOM:
// tested under `node --test tests/js/`. Money stays decimal text: a budget's spending is summed in
// minor units (BigInt) and becomes a number only as a chart coordinate.
import { chartCoordinate, fromMinor, toMinor } from "../lib/money.js";

/** Where a refusal was counted: the operations' names, in the refusals table's order. */
export const REFUSED_ON = ["page", "quotes", "holds", "captures"];

/**
 * Each rejection code of the core (Rejection::code) in the operator's words: the one table the
 * console's figures, charts and refusals table name them by.
 */
export const REJECTION_WORDS = {
  inactive: "switched off",
  customer_required: "no customer given",
  not_assigned: "not assigned to the customer",
  not_started: "not started yet",
  expired: "expired",
  exhausted: "used up",
  customer_limit_reached: "customer's uses used up",
  not_first_order: "not a first order",
  currency_mismatch: "another currency",
  no_eligible_items: "nothing in the basket it applies to",
  not_enough_items: "too few items",
  budget_exhausted: "budget used up",
  below_minimum: "below the minimum",
  not_combinable: "not combinable with another code",
  quote_changed: "the price changed",
};

/** A rejection code in words ("below the minimum"); an unknown one as it is, underscores as spaces. */
export const rejectionWords = (code) => REJECTION_WORDS[code] ?? String(code).replaceAll("_", " ");

/**
 * The figures' periods the page offers: which figures of GET …/stats each reads (`key`), its chart's
 * points (`points(stats)`, oldest first) and their unit, and its words.
 */
export const RANGES = {
  hour: { label: "Last hour", key: "last_hour", unit: "minute", during: "in the last hour", points: (s) => s.by_minute ?? [] },
  day: { label: "Last 24 hours", key: "last_day", unit: "hour", during: "in the last 24 hours", points: (s) => (s.by_hour ?? []).slice(-24) },
  week: { label: "Last 7 days", key: "last_week", unit: "hour", during: "in the last 7 days", points: (s) => s.by_hour ?? [] },
  all: { label: "Since defined", key: "total", unit: "hour", during: "since it was defined", points: (s) => s.by_hour ?? [] },
};

/** A chart point's time: a minute's or an hour's first moment. */
export const pointTime = (point) => point.minute ?? point.hour;

/**
 * A period's refusals, one row per rejection (most first, then in words' order): its words, and how
 * many each of REFUSED_ON counted, and their sum.
 */
export function refusalRows(figures) {
  const byCode = {};
  for (const op of REFUSED_ON) {
    for (const [code, n] of Object.entries(figures?.rejections?.[op] ?? {})) {
      byCode[code] ??= { rejection: code, words: rejectionWords(code), page: 0, quotes: 0, holds: 0, captures: 0, total: 0 };
      byCode[code][op] += n;
      byCode[code].total += n;
    }
  }
  return Object.values(byCode).sort((a, b) => b.total - a.total || a.words.localeCompare(b.words));
}

/** All refusals of a period (or a chart point's figures), whatever the reason and the operation. */
export const refusedOf = (figures) => refusalRows(figures).reduce((sum, row) => sum + row.total, 0);

/**
 * A period's orders and discount: the captures (orders placed with the code), the discount they gave
 * less what releases gave back (decimal text in `digits` places, null without a currency of its own),
 * and, with `codesUsed` (a campaign's), the orders per code used (a ratio, rounded to a tenth).
 */
export function ordersOf(figures, digits, codesUsed = null) {
  const minor = (money) => (money ? toMinor(money.amount, digits) : 0n);
  const given = figures?.discounted
    ? { amount: fromMinor(minor(figures.discounted) - minor(figures.returned), digits), currency: figures.discounted.currency }
    : null;
  const orders = figures?.captures ?? 0;
  const perCode = codesUsed ? Math.round((orders / codesUsed) * 10) / 10 : null;
  return { orders, given, perCode };
}

/** Rejections of a minute, summed over quotes, holds and captures, by rejection code. */
export function rejectionsOf(figures) {
  const out = {};
  for (const op of ["quotes", "holds", "captures"]) {
    for (const [code, n] of Object.entries(figures.rejections?.[op] ?? {})) out[code] = (out[code] ?? 0) + n;
  }
  return out;
}

/**
 * A budgeted code's spending over the last hour: what its captures gave away less what releases gave
 * back, minute by minute, ending at what the totals say now (held uses aside). `digits` are the
 * budget's currency's places. Returns { amounts (decimal text, one per minute), ys (their chart
 * coordinates) }.
 */
export function spendingByMinute(stats, digits) {
  const minor = (money) => (money ? toMinor(money.amount, digits) : 0n);
  const minutes = stats.by_minute ?? [];
  let spent = minor(stats.total?.discounted) - minor(stats.total?.returned);
  const amounts = new Array(minutes.length);
  const ys = new Array(minutes.length);
  for (let i = minutes.length - 1; i >= 0; i--) {
    amounts[i] = fromMinor(spent, digits);
    ys[i] = chartCoordinate(spent, digits);
    spent -= minor(minutes[i].figures.discounted) - minor(minutes[i].figures.returned);
  }
  return { amounts, ys };
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

/** When a redemption last changed, and its amounts. */
export function redemptionRow(r) {
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

/**
 * Redemptions as CSV (`columns`: CSV_COLUMNS, or CAMPAIGN_CSV_COLUMNS for a campaign's): amounts as
 * the API writes them, times in UTC as the API writes them; lines end in CRLF.
 */
export function redemptionsCsv(redemptions, columns) {
  const lines = [columns.join(",")];
  for (const r of redemptions.map(redemptionRow)) {
    const fields = {
      seq: r.seq, code: r.code, idempotency_key: r.key, state: r.state, customer: r.customer, total: r.total?.amount,
      discount: r.discount?.amount, payable: r.payable?.amount, currency: r.total?.currency, at: r.at, reason: r.reason,
    };
    lines.push(columns.map((column) => csvField(fields[column])).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
