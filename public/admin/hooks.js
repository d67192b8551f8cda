// The webhooks' pure parts (issue 36): the event types in words, the admin API's paths, a webhook
// form as the request `PUT /v1/webhooks/{id}` takes, an endpoint's and a delivery's state in words,
// and a code's events gathered from the endpoints' deliveries. No DOM: tested under
// `node --test tests/js/`.
import { when } from "../lib/format.js";

/** Every event type, in the documentation's order, with what it means (docs/openapi.json's EventType). */
export const EVENT_TYPES = [
  ["redemption.held", "A use was held while the buyer pays"],
  ["redemption.captured", "A use was captured (spent)"],
  ["redemption.released", "A held or captured use was given back"],
  ["redemption.expired", "A hold ran out before it was captured or released"],
  ["code.exhausted", "A code has no use left under its caps or its budget"],
  ["budget.threshold", "The spend crossed 50 %, 80 % or 100 % of the budget"],
  ["campaign.exhausted", "A campaign has no use left under its shared cap or budget"],
  ["code.updated", "A code was defined, changed, switched on or off, archived or restored"],
  ["campaign.updated", "The same for a campaign"],
];

/** An endpoint's id as the API takes it: 1 to 64 letters, digits, `-` or `_`. */
export const WEBHOOK_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const webhookPath = (id) => `/v1/webhooks/${encodeURIComponent(id)}`;
export const deliveriesPath = (id, { after, limit } = {}) => {
  const query = new URLSearchParams();
  if (after) query.set("after", after);
  if (limit) query.set("limit", String(limit));
  const text = query.toString();
  return `${webhookPath(id)}/deliveries${text ? `?${text}` : ""}`;
};
export const retryPath = (id, eventId) => `${webhookPath(id)}/deliveries/${encodeURIComponent(eventId)}/retry`;

/**
 * The webhook form (`{ id, url, events, description }`, text as typed) as `{ id, request }` for
 * `PUT /v1/webhooks/{id}`, or `{ errors }` (field → sentence) when a field is plainly wrong. The
 * server checks again (its own rules for the id and which hosts may be `http://`).
 */
export function webhookFromForm({ id = "", url = "", events = [], description = "" }) {
  const errors = {};
  const name = id.trim();
  const target = url.trim();
  if (!name) errors.id = "Enter an id for the endpoint, such as shop or crm.";
  else if (!WEBHOOK_ID.test(name)) errors.id = "An id is 1 to 64 letters, digits, - or _.";
  else if (name.toLowerCase() === "stripe") errors.id = "stripe is reserved for Stripe's own webhook: choose another id.";
  if (!target) errors.url = "Enter the URL the events are sent to.";
  else if (!/^https?:\/\/[^\s/]+/i.test(target)) errors.url = "The URL starts with https:// (http:// only to a host the Worker allows for development).";
  const known = new Set(EVENT_TYPES.map(([type]) => type));
  const chosen = EVENT_TYPES.map(([type]) => type).filter((type) => events.includes(type));
  if (chosen.length === 0 || events.some((type) => !known.has(type))) errors.events = "Choose at least one event type.";
  if (description.length > 500) errors.description = "A description is at most 500 characters.";
  if (Object.keys(errors).length) return { errors };
  const request = { url: target, events: chosen };
  const note = description.trim();
  if (note) request.description = note;
  return { id: name, request };
}

/** An endpoint's state in words: "Enabled", or "Disabled: why" (a 410 disables it; a PUT enables it). */
export const endpointState = (endpoint) => (endpoint.disabled ? `Disabled: ${endpoint.disabled}` : "Enabled");

/** A delivery's state in words, with the last answer: "Delivered (200)", "Pending (error 500)", "Failed: timeout". */
export function deliveryState(record) {
  const word = { pending: "Pending", delivered: "Delivered", failed: "Failed, given up" }[record.state] ?? record.state;
  if (record.status != null) return `${word} (${record.status})`;
  if (record.attempts === 0) return `${word} (not tried yet)`;
  return word;
}

/** When the next try is due, in words: a date while pending, "none" otherwise. */
export const nextTry = (record) => (record.state === "pending" && record.next_try ? when(record.next_try) : "None");

/** What a "Send again" came to, as a sentence: the delivery after the retry (`record`). */
export function retryOutcome(record) {
  if (record.state === "delivered" && record.status != null && record.status >= 200 && record.status < 300) {
    return `Sent again: the endpoint answered ${record.status}.`;
  }
  const answer = record.status != null ? `the endpoint answered ${record.status}` : `no answer${record.error ? ` (${record.error})` : ""}`;
  const still = record.state === "pending" ? `; the next try is due ${nextTry(record)}` : record.state === "failed" ? "; it stays failed" : "";
  return `Sent again, not delivered: ${answer}${still}.`;
}

/** Which object keeps the events of a code (the code) or a campaign (`campaign:<id>`), as deliveries name it. */
export const objectOf = (kind, name) => (kind === "campaign" ? `campaign:${name}` : name);

/**
 * A code's (a campaign's) events, from the deliveries of several endpoints (`[{ endpoint,
 * deliveries }]`): the records whose `object` is `object` (see `objectOf`; case-insensitively, as
 * codes are), one row per event in the
 * order of its writes (`seq`), each with its delivery to every endpoint that got it.
 */
export function eventsOf(lists, object) {
  object = object.toUpperCase();
  const byEvent = new Map();
  for (const { endpoint, deliveries } of lists) {
    for (const record of deliveries) {
      if (String(record.object).toUpperCase() !== object) continue;
      let event = byEvent.get(record.event_id);
      if (!event) {
        event = { event_id: record.event_id, type: record.type, at: record.at, seq: record.seq, deliveries: [] };
        byEvent.set(record.event_id, event);
      }
      event.deliveries.push({ endpoint, record });
    }
  }
  const events = [...byEvent.values()].sort((a, b) => a.seq - b.seq);
  for (const event of events) event.deliveries.sort((a, b) => (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0));
  return events;
}

/** How a secret is shown: it is the only time; the sentence says so. */
export const secretNotice = (id, rotated) => (rotated
  ? `The new signing secret of ${id}. Copy it now: it will not be shown again. The one before also signs for 24 hours.`
  : `The signing secret of ${id}. Copy it now: it will not be shown again.`);
