// The console's webhooks, pure parts (public/admin/hooks.js): the form as the request
// PUT /v1/webhooks/{id} takes, paths, states in words, and a code's events gathered from the
// endpoints' deliveries. Run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

process.env.TZ = "UTC";
const {
  EVENT_TYPES, deliveriesPath, deliveryState, endpointState, eventsOf, nextTry, objectOf, retryOutcome, retryPath,
  secretNotice, webhookFromForm, webhookPath,
} = await import("../../public/admin/hooks.js");
const { explain } = await import("../../public/admin/api.js");

const record = (over) => ({
  event_id: "evt_SAVE10_1", type: "redemption.captured", at: "2026-12-06T10:00:00Z", attempts: 1, state: "delivered",
  status: 200, error: null, tried_at: "2026-12-06T10:00:01Z", next_try: null, object: "SAVE10", seq: 1, ...over,
});

test("the event types are the API's, in its order", () => {
  const openapi = JSON.parse(readFileSync(new URL("../../docs/openapi.json", import.meta.url), "utf8"));
  const api = openapi.components.schemas.EventType.oneOf.map((t) => t.const);
  assert.deepEqual(EVENT_TYPES.map(([type]) => type), api);
});

test("the form as PUT /v1/webhooks/{id}'s body: trimmed, events in the documentation's order", () => {
  assert.deepEqual(
    webhookFromForm({ id: " shop ", url: " https://shop.example/hooks ", events: ["code.exhausted", "redemption.held"], description: "" }),
    { id: "shop", request: { url: "https://shop.example/hooks", events: ["redemption.held", "code.exhausted"] } },
  );
  assert.deepEqual(
    webhookFromForm({ id: "crm_2", url: "http://127.0.0.1:9/x", events: ["budget.threshold"], description: " the CRM " }).request,
    { url: "http://127.0.0.1:9/x", events: ["budget.threshold"], description: "the CRM" },
  );
});

test("a plainly wrong form is refused field by field, nothing sent", () => {
  assert.deepEqual(Object.keys(webhookFromForm({ id: "", url: "", events: [] }).errors), ["id", "url", "events"]);
  assert.match(webhookFromForm({ id: "a b", url: "https://x", events: ["code.updated"] }).errors.id, /letters, digits/);
  assert.match(webhookFromForm({ id: "x".repeat(65), url: "https://x", events: ["code.updated"] }).errors.id, /1 to 64/);
  assert.match(webhookFromForm({ id: "Stripe", url: "https://x", events: ["code.updated"] }).errors.id, /reserved/);
  assert.match(webhookFromForm({ id: "shop", url: "ftp://x", events: ["code.updated"] }).errors.url, /https:\/\//);
  assert.match(webhookFromForm({ id: "shop", url: "https://x", events: ["nope"] }).errors.events, /at least one/);
  assert.match(webhookFromForm({ id: "shop", url: "https://x", events: ["code.updated"], description: "d".repeat(501) }).errors.description, /500/);
  assert.equal(webhookFromForm({ id: "x".repeat(64), url: "https://x", events: ["code.updated"] }).errors, undefined);
});

test("paths: ids and event ids encoded, the page's cursor and size", () => {
  assert.equal(webhookPath("shop"), "/v1/webhooks/shop");
  assert.equal(deliveriesPath("shop"), "/v1/webhooks/shop/deliveries");
  assert.equal(deliveriesPath("shop", { after: "42", limit: 1000 }), "/v1/webhooks/shop/deliveries?after=42&limit=1000");
  assert.equal(retryPath("shop", "evt_campaign.BF_3"), "/v1/webhooks/shop/deliveries/evt_campaign.BF_3/retry");
  assert.equal(retryPath("a/b", "evt_x y_1"), "/v1/webhooks/a%2Fb/deliveries/evt_x%20y_1/retry");
});

test("an endpoint's and a delivery's state in words", () => {
  assert.equal(endpointState({ disabled: null }), "Enabled");
  assert.equal(endpointState({ disabled: "answered 410 Gone" }), "Disabled: answered 410 Gone");
  assert.equal(deliveryState(record()), "Delivered (200)");
  assert.equal(deliveryState(record({ state: "pending", status: 500 })), "Pending (500)");
  assert.equal(deliveryState(record({ state: "pending", status: null, attempts: 0 })), "Pending (not tried yet)");
  assert.equal(deliveryState(record({ state: "failed", status: null, error: "timed out" })), "Failed, given up");
  assert.equal(nextTry(record()), "None");
  assert.match(nextTry(record({ state: "pending", next_try: "2026-12-06T10:05:00Z" })), /6 Dec 2026|Dec 6, 2026/);
});

test("what a Send again came to", () => {
  assert.equal(retryOutcome(record({ attempts: 2 })), "Sent again: the endpoint answered 200.");
  assert.equal(retryOutcome(record({ state: "failed", status: 500 })), "Sent again, not delivered: the endpoint answered 500; it stays failed.");
  assert.equal(retryOutcome(record({ state: "failed", status: null, error: "connection refused" })),
    "Sent again, not delivered: no answer (connection refused); it stays failed.");
  assert.match(retryOutcome(record({ state: "pending", status: 503, next_try: "2026-12-06T10:05:00Z" })),
    /^Sent again, not delivered: the endpoint answered 503; the next try is due .*2026/);
});

test("a code's events from several endpoints' deliveries: its own only, by write, each with its deliveries", () => {
  const lists = [
    { endpoint: "shop", deliveries: [record({ seq: 2, event_id: "evt_SAVE10_2" }), record({ object: "OTHER", event_id: "evt_OTHER_1" }),
      record({ seq: 1, event_id: "evt_SAVE10_1", type: "redemption.held" })] },
    { endpoint: "crm", deliveries: [record({ seq: 2, event_id: "evt_SAVE10_2", state: "failed", status: 500 }),
      record({ object: "campaign:BF", event_id: "evt_campaign.BF_1" })] },
  ];
  const events = eventsOf(lists, objectOf("code", "save10"));
  assert.deepEqual(events.map((e) => e.event_id), ["evt_SAVE10_1", "evt_SAVE10_2"]);
  assert.deepEqual(events[1].deliveries.map((d) => [d.endpoint, d.record.state]), [["crm", "failed"], ["shop", "delivered"]]);
  assert.equal(events[0].type, "redemption.held");
  assert.deepEqual(eventsOf(lists, objectOf("campaign", "BF")).map((e) => e.event_id), ["evt_campaign.BF_1"]);
  assert.deepEqual(eventsOf([], "SAVE10"), []);
});

test("the secret is shown once, and the sentence says so", () => {
  assert.match(secretNotice("shop", false), /^The signing secret of shop\. Copy it now: it will not be shown again\.$/);
  assert.match(secretNotice("shop", true), /new signing secret.*not be shown again.*24 hours/);
});

test("the webhooks' errors as sentences", () => {
  assert.match(explain(409, { type: "/problems/webhook_limit" }), /16 webhook endpoints already/);
  assert.match(explain(404, { type: "/problems/unknown_webhook" }), /^This webhook endpoint does not exist/);
  assert.match(explain(404, { type: "/problems/unknown_delivery" }), /never sent to this endpoint/);
  assert.match(explain(409, { detail: "x" }), /^The request failed \(error 409: x\)/);
});
