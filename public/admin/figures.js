// A code's or a campaign's figures (GET …/stats) for the charts, and its redemptions as CSV. No DOM:
// tested under `node --test tests/js/`. Money stays decimal text: a budget's spending is summed in
// minor units (BigInt) and becomes a number only as a chart coordinate.
import { chartCoordinate, fromMinor, toMinor } from "../lib/money.js";

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
