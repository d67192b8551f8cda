// The Webhooks view (#/webhooks, #/webhooks/ID): the endpoints the events go to, a form to add one
// (its signing secret shown once), Rotate and Delete, and an endpoint's newest deliveries with a
// "Send again" per row. Also a code's (a campaign's) events on its page: no API lists an object's
// events, so they are the deliveries of the enabled endpoints whose `object` is the code.
// The pure parts are in hooks.js.
import { $, cell, el, markInvalid } from "../lib/dom.js";
import { count, plural, when } from "../lib/format.js";
import { api } from "./api.js";
import {
  deliveriesPath, deliveryState, endpointState, EVENT_TYPES, eventsOf, nextTry, objectOf, retryOutcome, retryPath,
  secretNotice, webhookFromForm, webhookPath,
} from "./hooks.js";
import { clearMessages, confirmAction, report, showNotice } from "./messages.js";
import { nav, show } from "./views.js";

/** The deliveries the view shows: the newest this many. */
export const SHOWN_DELIVERIES = 100;
const PAGE = 1000; // the API's largest page
const MAX_PAGES = 10; // it keeps the newest 10,000

/** Every delivery of endpoint `id`, oldest first (the API's order), read page by page. */
async function allDeliveries(id) {
  const all = [];
  let after = null;
  for (let i = 0; i < MAX_PAGES; i++) {
    const { json } = await api("GET", deliveriesPath(id, { after, limit: PAGE }), { what: "deliveries" });
    all.push(...json.deliveries);
    if (!json.next) break;
    after = json.next;
  }
  return all;
}

let wired = false;

/** Opens the Webhooks view; with `id`, that endpoint's deliveries too. */
export async function openWebhooks(id) {
  show("webhooks", id ? `Webhook ${id}` : "Webhooks");
  if (!wired) wire();
  nav.leave = () => hideSecret();
  const { json } = await api("GET", "/v1/webhooks", { what: "webhooks" });
  renderEndpoints(json.webhooks);
  const section = $("deliveries-card");
  if (!id) {
    section.hidden = true;
    return;
  }
  const endpoint = json.webhooks.find((w) => w.id === id);
  section.hidden = false;
  $("deliveries-heading").textContent = `Deliveries to ${id}`;
  if (!endpoint) {
    $("deliveries-lede").textContent = `No endpoint is called ${id}.`;
    $("deliveries").tBodies[0].replaceChildren();
    return;
  }
  await loadDeliveries(endpoint);
}

function wire() {
  wired = true;
  const boxes = $("hook-events");
  for (const [type, meaning] of EVENT_TYPES) {
    const input = el("input", { type: "checkbox", id: `hook-event-${type}`, name: "events", value: type, "aria-describedby": `hook-event-${type}-hint` });
    input.defaultChecked = true; // a reset form checks them all again
    boxes.append(el("div", {}, el("div", { class: "check" }, input, el("label", { for: input.id }, el("code", {}, type))),
      el("p", { class: "hint", id: `hook-event-${type}-hint` }, meaning)));
  }
  $("hook-form").addEventListener("submit", (event) => { event.preventDefault(); addEndpoint().catch(report); });
  $("hook-secret-copy").addEventListener("click", copySecret);
  $("hook-secret-done").addEventListener("click", hideSecret);
  $("deliveries-reload").addEventListener("click", () => openWebhooks(currentId()).catch(report));
}

const currentId = () => {
  const m = location.hash.match(/^#\/webhooks\/(.+)$/);
  return m ? decodeURIComponent(m[1]) : "";
};

function button(text, label, className, onClick) {
  const b = el("button", { type: "button", class: className, "aria-label": label }, text);
  b.addEventListener("click", onClick);
  return b;
}

function renderEndpoints(endpoints) {
  const body = $("hooks").tBodies[0];
  body.replaceChildren();
  $("hooks-empty").hidden = endpoints.length > 0;
  for (const endpoint of endpoints) {
    const row = document.createElement("tr");
    const name = el("th", { scope: "row", class: "code" },
      el("a", { href: `#/webhooks/${encodeURIComponent(endpoint.id)}`, "aria-label": `Deliveries to ${endpoint.id}` }, endpoint.id));
    row.append(name);
    const url = cell(row, endpoint.url, "url");
    if (endpoint.description) url.append(el("span", { class: "sub" }, endpoint.description));
    cell(row, endpoint.events.join(", "), "events");
    const state = cell(row, endpointState(endpoint));
    if (endpoint.disabled) state.className = "bad";
    cell(row, when(endpoint.created_at));
    const box = el("div", { class: "row-actions" },
      button("Rotate the secret", `Rotate the secret of ${endpoint.id}`, "quiet", () => rotate(endpoint.id).catch(report)),
      button("Delete", `Delete ${endpoint.id}`, "danger", () => remove(endpoint.id).catch(report)));
    cell(row, "").append(box);
    body.append(row);
  }
}

/** The form's fields, checked; the endpoint defined (201: its secret shown once) or replaced (200). */
async function addEndpoint() {
  clearMessages();
  const form = $("hook-form");
  const fields = {
    id: $("hook-id").value, url: $("hook-url").value, description: $("hook-description").value,
    events: [...form.querySelectorAll("input[name=events]:checked")].map((i) => i.value),
  };
  const checked = webhookFromForm(fields);
  const errors = checked.errors ?? {};
  for (const name of ["id", "url", "events", "description"]) {
    $(`hook-${name}-error`).textContent = errors[name] ?? "";
    const input = name === "events" ? null : $(`hook-${name}`);
    if (input) markInvalid(input, Boolean(errors[name]));
  }
  if (checked.errors) {
    const first = ["id", "url", "events", "description"].find((n) => errors[n]);
    (first === "events" ? form.querySelector("input[name=events]") : $(`hook-${first}`)).focus();
    return;
  }
  const { status, json } = await api("PUT", webhookPath(checked.id), { body: checked.request, what: "endpoint" });
  form.reset();
  await openWebhooks(currentId());
  if (status === 201) showSecret(json.id, json.secret, false);
  else showNotice(`${json.id} is replaced (it was defined already): its secret is kept, and it is enabled.`);
}

async function rotate(id) {
  clearMessages();
  const { json } = await api("POST", `${webhookPath(id)}/rotate`, { what: "endpoint" });
  showSecret(id, json.secret, true);
}

async function remove(id) {
  clearMessages();
  const sure = await confirmAction(`Delete ${id}?`,
    `Nothing more is sent to ${id}, and its deliveries are no longer listed. Its secret cannot be brought back: to receive events again, add it anew.`,
    "Delete");
  if (!sure) return;
  await api("DELETE", webhookPath(id), { what: "endpoint" });
  if (currentId() === id) location.hash = "#/webhooks";
  else await openWebhooks(currentId());
  showNotice(`${id} is deleted.`);
}

/** The secret, once: in a read-only field with a Copy button, until "Done" or another view. */
function showSecret(id, secret, rotated) {
  $("hook-secret-text").textContent = secretNotice(id, rotated);
  $("hook-secret").value = secret;
  $("hook-secret-copied").textContent = "";
  $("hook-secret-card").hidden = false;
  $("hook-secret").focus();
  $("hook-secret").select();
}

function hideSecret() {
  $("hook-secret").value = "";
  $("hook-secret-card").hidden = true;
}

async function copySecret() {
  const secret = $("hook-secret").value;
  try {
    await navigator.clipboard.writeText(secret);
    $("hook-secret-copied").textContent = "Copied.";
  } catch {
    $("hook-secret").select();
    $("hook-secret-copied").textContent = "The browser did not let the page copy: the secret is selected, copy it with the keyboard.";
  }
}

/** The endpoint's newest deliveries, newest first, each with its "Send again". */
async function loadDeliveries(endpoint) {
  const all = await allDeliveries(endpoint.id);
  const shown = all.slice(-SHOWN_DELIVERIES).reverse();
  $("deliveries-lede").textContent = all.length === 0
    ? `Nothing was sent to ${endpoint.id} yet: it receives the events written after it was defined.`
    : `${count(all.length)} ${plural(all.length, "delivery", "deliveries")}; ${all.length > shown.length ? `the newest ${count(shown.length)}` : "all"} here, newest first. ${endpointState(endpoint)}.`;
  const body = $("deliveries").tBodies[0];
  body.replaceChildren();
  for (const record of shown) body.append(deliveryRow(endpoint.id, record));
}

function deliveryRow(id, record) {
  const row = document.createElement("tr");
  row.append(el("th", { scope: "row", class: "code" }, record.event_id));
  cell(row, record.type);
  cell(row, record.object, "code");
  const state = cell(row, deliveryState(record));
  if (record.state === "failed") state.className = "bad";
  cell(row, count(record.attempts), "num");
  cell(row, record.tried_at ? when(record.tried_at) : "Not yet");
  cell(row, nextTry(record));
  cell(row, record.error ?? "");
  const outcome = el("span", { class: "outcome", role: "status" });
  const again = button("Send again", `Send again: ${record.event_id}`, "quiet", async () => {
    again.disabled = true;
    outcome.textContent = "Sending…";
    try {
      const { json } = await api("POST", retryPath(id, record.event_id), { what: "retry" });
      outcome.textContent = retryOutcome(json);
      const fresh = deliveryRow(id, json);
      fresh.querySelector(".outcome").textContent = outcome.textContent;
      row.replaceWith(fresh);
      fresh.querySelector("button").focus();
    } catch (err) {
      outcome.textContent = err.message;
      again.disabled = false;
    }
  });
  cell(row, "").append(el("div", { class: "row-actions" }, again, outcome));
  return row;
}

/**
 * The events of code or campaign `name` (`kind`) on its page: the deliveries of every enabled
 * endpoint whose object it is, one row per event with where it went.
 */
export async function loadEvents(kind, name) {
  const { json } = await api("GET", "/v1/webhooks", { what: "webhooks" });
  const enabled = json.webhooks.filter((w) => !w.disabled);
  const lists = await Promise.all(enabled.map(async (w) => ({ endpoint: w.id, deliveries: await allDeliveries(w.id) })));
  const events = eventsOf(lists, objectOf(kind, name));
  const body = $("events").tBodies[0];
  body.replaceChildren();
  $("events-lede").textContent = enabled.length === 0
    ? "No endpoint is enabled: events are kept for the endpoints only. Add one under Webhooks."
    : events.length === 0
      ? `No event of ${name} was sent to ${enabled.map((w) => w.id).join(", ")} yet.`
      : `${count(events.length)} ${plural(events.length, "event", "events")} of ${name}, as sent to the enabled endpoints (${enabled.map((w) => w.id).join(", ")}), newest first.`;
  for (const event of events.reverse()) {
    const row = document.createElement("tr");
    row.append(el("th", { scope: "row", class: "code" }, event.event_id));
    cell(row, event.type);
    cell(row, when(event.at));
    const list = el("ul", { class: "plain" });
    for (const { endpoint, record } of event.deliveries) {
      list.append(el("li", {}, el("a", { href: `#/webhooks/${encodeURIComponent(endpoint)}` }, endpoint), `: ${deliveryState(record)}`));
    }
    cell(row, "").append(list);
    body.append(row);
  }
}
