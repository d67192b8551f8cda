// promocodes-client against the real Worker in workerd (tests/worker/harness.mjs starts wrangler dev
// on the Worker built into PROMOCODES_WORKER_BUILD; every answer is also checked against
// docs/openapi.json there). The package is imported by its name, built, as a shop imports it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { workerForFile, ADMIN_TOKEN, CAPTURE_TOKEN } from "../../../tests/worker/harness.mjs";
import { createClient, PromocodesError } from "promocodes-client";

// `snapshot`: the Worker is served from a copy, so a build into worker/ meanwhile cannot reload it.
const worker = workerForFile({ snapshot: true });
const eur = (amount) => ({ amount, currency: "EUR" });
const admin = () => createClient({ baseUrl: worker.base, token: ADMIN_TOKEN });
const shop = () => createClient({ baseUrl: worker.base, token: CAPTURE_TOKEN });

/** The PromocodesError a call throws, asserted. */
async function thrown(promise) {
  try { await promise; } catch (err) { assert.ok(err instanceof PromocodesError, String(err)); return err; }
  assert.fail("the call did not throw");
}

test("codes: put, get, list, patch (the kill switch), archive", async () => {
  const pc = admin();
  const put = await pc.codes.put("SAVE10", { code: "SAVE10", discount: { kind: "percent", percent: "10" }, limits: { total: 2 } });
  assert.equal(put.code, "SAVE10");
  const again = await pc.codes.put("save10", { code: "SAVE10", discount: { kind: "percent", percent: "10" }, limits: { total: 2 } });
  assert.equal(again.code, "SAVE10");
  const got = await pc.codes.get("SAVE10");
  assert.deepEqual(got.usage, { total: 0, held: 0 });
  assert.equal(got.remaining, 2);

  await pc.codes.put("OTHER", { code: "OTHER", discount: { kind: "fixed", amount: eur("5.00") } });
  const page = await pc.codes.list({ limit: 1 });
  assert.deepEqual(page.codes.map((c) => c.code), ["OTHER"]);
  assert.equal(page.next, "OTHER");
  const rest = await pc.codes.list({ after: page.next ?? undefined });
  assert.deepEqual(rest.codes.map((c) => c.code), ["SAVE10"]);

  const off = await pc.codes.patch("OTHER", { active: false });
  assert.equal(off.active, false);
  const refused = await shop().quote({ code: "OTHER", total: eur("20.00") });
  assert.equal(refused.outcome, "rejection");
  assert.equal(refused.outcome === "rejection" && refused.rejection.rejection, "inactive");
  assert.equal((await pc.codes.patch("OTHER", { active: true })).active, true);

  const archived = await pc.codes.archive("OTHER");
  assert.equal(archived.archived, true);
  const gone = await thrown(pc.codes.get("OTHER"));
  assert.equal(gone.status, 404);
  assert.equal(gone.problem?.type, "/problems/unknown_code");

  // No lost update: a write with the ETag it was read with lands; one with an older tag is 412.
  const read = pc.etag(await pc.codes.get("SAVE10"));
  assert.match(read ?? "", /^"/);
  const edited = await pc.codes.put("SAVE10", { code: "SAVE10", discount: { kind: "percent", percent: "10" }, limits: { total: 2 } }, { ifMatch: read });
  assert.notEqual(pc.etag(edited), undefined);
  const stale = await thrown(pc.codes.patch("SAVE10", { active: false }, { ifMatch: '"stale"' }));
  assert.equal(stale.status, 412);
  assert.equal(stale.problem?.type, "/problems/precondition_failed");
  assert.equal((await pc.codes.get("SAVE10")).active, true);
  assert.equal(pc.etag({}), undefined);
  // Bad input is thrown, not an outcome; a wrong token too.
  const bad = await thrown(pc.codes.put("SAVE 10", { code: "SAVE 10", discount: { kind: "percent", percent: "10" } }));
  assert.equal(bad.status, 400);
  assert.equal(bad.problem?.type, "/problems/invalid_request");
  const anonymous = createClient({ baseUrl: worker.base, token: "wrong" });
  assert.equal((await thrown(anonymous.codes.list())).status, 401);
});

test("one code: quote, hold, capture, replay, rejection, conflict, release", async () => {
  const pc = shop();
  await admin().codes.put("ONCE", { code: "ONCE", discount: { kind: "percent", percent: "10" }, limits: { total: 1 } });

  const q = await pc.quote({ code: "ONCE", total: eur("80.00") });
  assert.equal(q.outcome, "receipt");
  if (q.outcome !== "receipt") return;
  assert.equal(q.status, 200);
  assert.deepEqual(q.receipt.discount, eur("8.00"));
  assert.deepEqual(q.receipt.payable, eur("72.00"));

  const h = await pc.hold({ code: "ONCE", total: eur("80.00"), customer: "c1", ttl_seconds: 600 }, { idempotencyKey: "pi_1" });
  assert.equal(h.outcome, "receipt");
  assert.equal(h.outcome === "receipt" && h.receipt.state, "held");
  assert.equal(h.status, 201);

  // The hold is the code's one use: another buyer's capture is a rejection.
  const other = await pc.capture({ code: "ONCE", total: eur("50.00"), customer: "c2" }, { idempotencyKey: "pi_2" });
  assert.equal(other.outcome, "rejection");
  if (other.outcome !== "rejection") return;
  assert.equal(other.rejection.rejection, "exhausted");
  assert.equal(other.rejection.type, "/problems/rejected");
  assert.match(other.rejection.detail, /\S/);

  const r = await pc.capture({ code: "ONCE", total: eur("80.00"), customer: "c1" }, { idempotencyKey: "pi_1" });
  assert.equal(r.outcome, "receipt");
  if (r.outcome !== "receipt") return;
  assert.equal(r.status, 201);
  assert.equal(r.receipt.state, "captured");
  assert.equal(r.receipt.replayed, false);
  assert.deepEqual(r.receipt.quote.discount, eur("8.00"));

  const replay = await pc.capture({ code: "ONCE", total: eur("80.00"), customer: "c1" }, { idempotencyKey: "pi_1" });
  assert.equal(replay.status, 200);
  assert.equal(replay.outcome === "receipt" && replay.receipt.replayed, true);

  // Another basket under the same key is bad input for the developer: thrown.
  const reused = await thrown(pc.capture({ code: "ONCE", total: eur("90.00"), customer: "c1" }, { idempotencyKey: "pi_1" }));
  assert.equal(reused.status, 422);
  assert.equal(reused.problem?.type, "/problems/idempotency_key_reused");

  // Test builds make every compare-and-set lose on x-test-conflict: a conflict, with Retry-After.
  await admin().codes.put("BUSY", { code: "BUSY", discount: { kind: "percent", percent: "10" } });
  const busy = createClient({
    baseUrl: worker.base,
    token: CAPTURE_TOKEN,
    fetch: (request) => { request.headers.set("x-test-conflict", "1"); return fetch(request); },
  });
  const c = await busy.capture({ code: "BUSY", total: eur("80.00") }, { idempotencyKey: "pi_busy" });
  assert.equal(c.outcome, "conflict");
  if (c.outcome !== "conflict") return;
  assert.equal(c.retryAfter, 1);
  assert.equal(c.problem.type, "/problems/conflict");
  // The same key again, without the test header: captured.
  assert.equal((await pc.capture({ code: "BUSY", total: eur("80.00") }, { idempotencyKey: "pi_busy" })).status, 201);

  const released = await pc.release({ code: "ONCE", key: "pi_1", reason: "refunded" });
  assert.equal(released.outcome, "receipt");
  if (released.outcome !== "receipt") return;
  assert.equal(released.receipt.was, "captured");
  assert.equal(released.receipt.state, "released");
  assert.equal((await pc.quote({ code: "ONCE", total: eur("80.00") })).outcome, "receipt");

  const unknown = await thrown(pc.release({ code: "ONCE", key: "pi_never" }));
  assert.equal(unknown.status, 404);
  assert.equal(unknown.problem?.type, "/problems/unknown_key");
  const unknownCode = await thrown(pc.quote({ code: "NOPE", total: eur("1.00") }));
  assert.equal(unknownCode.problem?.type, "/problems/unknown_code");
  const badMoney = await thrown(pc.quote({ code: "ONCE", total: { amount: "1.000", currency: "EUR" } }));
  assert.equal(badMoney.status, 400);
});

test("stacks: quote, hold, capture, release and a refusal of several codes", async () => {
  const pc = shop();
  await admin().codes.put("MUGS20", { code: "MUGS20", discount: { kind: "percent", percent: "20" }, applies_to: { categories: ["mugs"] }, combines_with: ["order", "shipping"] });
  await admin().codes.put("TEN", { code: "TEN", discount: { kind: "percent", percent: "10" }, combines_with: ["product", "shipping"] });
  await admin().codes.put("ALONE", { code: "ALONE", discount: { kind: "percent", percent: "5" } });
  const basket = {
    lines: [
      { sku: "MUG", quantity: 2, unit_price: eur("12.50"), categories: ["mugs"] },
      { sku: "GRINDER", quantity: 1, unit_price: eur("46.50") },
    ],
    shipping: eur("4.90"),
  };

  const q = await pc.quote({ codes: ["TEN", "MUGS20"], ...basket });
  assert.equal(q.outcome, "receipt");
  if (q.outcome !== "receipt") return;
  assert.deepEqual(q.receipt.codes.map((p) => [p.code, p.discount.amount]), [["MUGS20", "5.00"], ["TEN", "6.65"]]);
  assert.deepEqual(q.receipt.discount, eur("11.65"));

  const h = await pc.hold({ codes: ["TEN", "MUGS20"], ...basket }, { idempotencyKey: "stack_1" });
  assert.equal(h.outcome === "receipt" && h.receipt.holds.length, 2);
  const r = await pc.capture({ codes: ["TEN", "MUGS20"], ...basket }, { idempotencyKey: "stack_1" });
  assert.equal(r.outcome, "receipt");
  if (r.outcome !== "receipt") return;
  assert.deepEqual(r.receipt.receipts.map((x) => [x.quote.code, x.state]), [["MUGS20", "captured"], ["TEN", "captured"]]);

  const rel = await pc.release({ codes: ["TEN", "MUGS20"], key: "stack_1" });
  assert.equal(rel.outcome === "receipt" && rel.receipt.releases.every((x) => x.state === "released"), true);

  const refused = await pc.quote({ codes: ["TEN", "ALONE"], ...basket });
  assert.equal(refused.outcome, "rejection");
  if (refused.outcome !== "rejection") return;
  assert.equal(refused.rejection.rejection, "not_combinable");
  assert.deepEqual(refused.rejection.rejections?.map((x) => x.code), ["ALONE"]);
});

test("campaigns: put, get, generate (a retry answers the same), codes, the CSV as a stream", async () => {
  const pc = admin();
  const put = await pc.campaigns.put("SPRING", { discount: { kind: "percent", percent: "20" }, limits: { total: 150 } });
  assert.equal(put.id, "SPRING");
  const made = await pc.campaigns.generate("SPRING", { count: 5, pattern: "SP-####-####" }, { idempotencyKey: "batch-1" });
  assert.equal(made.created, 5);
  assert.ok(made.codes.every((c) => /^SP-[A-Z2-9]{4}-[A-Z2-9]{4}$/.test(c)), made.codes.join());
  const retry = await pc.campaigns.generate("SPRING", { count: 5, pattern: "SP-####-####" }, { idempotencyKey: "batch-1" });
  assert.deepEqual(retry.codes, made.codes);
  const imported = await pc.campaigns.generate("SPRING", { codes: ["SPRING-VIP"] }, { idempotencyKey: "batch-2" });
  assert.deepEqual(imported.codes, ["SPRING-VIP"]);
  const taken = await thrown(pc.campaigns.generate("SPRING", { codes: ["SPRING-VIP"] }, { idempotencyKey: "batch-3" }));
  assert.equal(taken.status, 409);
  assert.equal(taken.problem?.type, "/problems/code_exists");

  const r = await shop().capture({ code: made.codes[0].toLowerCase(), total: eur("80.00") }, { idempotencyKey: "pi_spring" });
  assert.equal(r.outcome === "receipt" && r.receipt.quote.discount.amount, "16.00");

  const got = await pc.campaigns.get("SPRING");
  assert.deepEqual(got.codes, { count: 6, used: 1 });
  const page = await pc.campaigns.codes("SPRING", { limit: 2 });
  assert.deepEqual(page.codes.map((c) => c.code), made.codes.slice(0, 2));
  assert.deepEqual(page.codes[0], { code: made.codes[0], uses: 1, held: 0 });

  const stream = await pc.campaigns.csv("SPRING");
  let text = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) text += chunk;
  const rows = text.trim().split(/\r?\n/);
  assert.equal(rows[0], "code,uses,held");
  assert.deepEqual(rows.slice(1), [...made.codes, "SPRING-VIP"].map((c, i) => `${c},${i === 0 ? 1 : 0},0`));

  const missing = await thrown(pc.campaigns.get("NOPE"));
  assert.equal(missing.status, 404);
});
