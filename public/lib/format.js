// Words, numbers and dates for the pages, in the browser's locale and time zone (the buyer's words
// are English: lists and ordinals are written in English whatever the locale).
//
// Pure: no DOM, no browser module (tested under `node --test tests/js/`).
import { movePoint } from './money.js';

const numberFormat = new Intl.NumberFormat();

/** A count (or a decimal string) in the locale's digits and grouping: "12,345". */
export const count = (n) => numberFormat.format(n);

const percentFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 4 });

/**
 * A percent written as the core writes it ("12.5", a decimal string) in the locale's style: "12.5%",
 * exactly (the point moves in the text; no number). Text that is not a decimal is shown as it is.
 */
export function percent(text) {
  try {
    return percentFormat.format(movePoint(text, 2));
  } catch {
    return `${text}%`;
  }
}

/** The first letter in capitals: "the budget" → "The budget". */
export const capitalise = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : text);

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

/** 1 → "first", …, 10 → "tenth", then "number 11". */
export const ordinalWord = (n) => ORDINALS[n - 1] ?? `number ${n}`;

/** "one thing" or "several things": `plural(n, "is", "are")`. */
export const plural = (n, one, many) => (n === 1 ? one : many);

const conjunction = new Intl.ListFormat('en-GB', { type: 'conjunction' });
const disjunction = new Intl.ListFormat('en', { type: 'disjunction' });

/** "SAVE10", "MUGS20 and SAVE10", "MUGS20, SAVE10 and SHIPFREE". */
export const listOf = (items) => conjunction.format(items);

/** "mugs", "mugs or coffee", "mugs, coffee, or tea". */
export const eitherOf = (items) => disjunction.format(items);

/** A text ending in exactly one full stop: `sentence("used up.")` is "Used up.". */
export const sentence = (text) => `${capitalise(text)}.`.replace(/\.\.$/, '.');

/** Milliseconds left as minutes and seconds, rounded up: 61000 → "1:01"; never below "0:00". */
export function minutesSeconds(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

// ---- dates and times, in the browser's time zone ----

/** The browser's time zone: "Europe/Paris". */
export const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const longDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' });
const mediumDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const shortClock = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const clockSeconds = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const clockMinutes = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** An RFC 3339 time for the buyer: "6 December 2026 at 13:05". */
export const longWhen = (rfc3339) => longDateTime.format(new Date(rfc3339));

/** An RFC 3339 time for the operator: "6 Dec 2026, 13:05"; '' for none. */
export const when = (rfc3339) => (rfc3339 ? mediumDateTime.format(new Date(rfc3339)) : '');

/** A time of day (a Date, or milliseconds since the epoch): "13:05". */
export const clock = (time) => shortClock.format(new Date(time));

/** A time of day with seconds: "13:05:09". */
export const clockWithSeconds = (time) => clockSeconds.format(new Date(time));

/** A time of day to the minute, two digits each: "13:05". */
export const clockToMinute = (time) => clockMinutes.format(new Date(time));

/** A `datetime-local` field's value (the browser's time zone) as RFC 3339 UTC: "2026-12-06T12:05:00Z". */
export const toUtc = (local) => new Date(local).toISOString().replace(/\.000Z$/, 'Z');

/** An RFC 3339 time as a `datetime-local` field's value in the browser's time zone: "2026-12-06T13:05". */
export function toLocal(utc) {
  const d = new Date(utc);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
