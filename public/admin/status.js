// The catalog's status of a code or a campaign, its filter and its orders. No DOM: tested under
// `node --test tests/js/`.

/** The statuses the catalog filters by, in its menu's order, with their words. */
export const STATUSES = { active: "Active", scheduled: "Scheduled", expired: "Expired", off: "Off" };

/**
 * A summary's status at `now` (ms since the epoch): "off" when switched off (whatever its window),
 * "scheduled" before its start, "expired" from its end, else "active".
 */
export function statusOf(summary, now = Date.now()) {
  if (summary.active === false) return "off";
  if (summary.starts_at && Date.parse(summary.starts_at) > now) return "scheduled";
  if (summary.ends_at && Date.parse(summary.ends_at) <= now) return "expired";
  return "active";
}

/** The catalog's orders: by name (the API's, paged), newest first, most used first. */
export const SORTS = { name: "Name", newest: "Newest first", used: "Most used first" };

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const definedAt = (row) => (row.summary.defined_at ? Date.parse(row.summary.defined_at) : -Infinity);
const uses = (row) => row.summary.usage?.total ?? 0;

/**
 * The catalog's rows (`{ kind, name, summary }`) of status `status` ("all" for every one), in the
 * order `sort`; ties (and rows defined before `defined_at` was kept, last when newest first) by name.
 */
export function filterAndSort(rows, status, sort, now = Date.now()) {
  const kept = status === "all" ? [...rows] : rows.filter((row) => statusOf(row.summary, now) === status);
  if (sort === "newest") return kept.sort((a, b) => definedAt(b) - definedAt(a) || byName(a, b));
  if (sort === "used") return kept.sort((a, b) => uses(b) - uses(a) || byName(a, b));
  return kept.sort(byName);
}
