// The console's webhooks (issue 36): an endpoint added through the form at a real receiver on this
// machine (http:// allowed for 127.0.0.1 by WEBHOOK_ALLOW_HTTP), its secret shown once and copied,
// a capture's event refused once by the receiver then listed as pending with its next try, sent again
// from the console and verified by the receiver with the Standard Webhooks library, the code's page
// listing its events, the secret rotated, the endpoint deleted. The real Worker under `wrangler dev`
// (tests/worker/harness.mjs), Debian's Chromium through playwright-core, axe-core on each state.
// Run with scripts/test-admin.sh.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { ROOT, ADMIN_TOKEN, call, admin, captureReq, eur, putCode, workerForFile } from "../worker/harness.mjs";

const OUTPUT = path.join(ROOT, "test-output");
const AXE = readFileSync(path.join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
let browser;
let receiver;

/** A receiver on a free port: verifies each try with the secret, answers what `answer()` says. */
async function startReceiver() {
  const r = { secret: null, tries: [], verified: [], bad: 0, answer: () => 200 };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => { body += d; });
    req.on("end", () => {
      const headers = { "webhook-id": req.headers["webhook-id"], "webhook-timestamp": req.headers["webhook-timestamp"],
        "webhook-signature": req.headers["webhook-signature"] };
      let payload;
      try {
        payload = new Webhook(r.secret).verify(body, headers);
      } catch (err) {
        r.bad += 1;
        res.writeHead(400).end(String(err));
        return;
      }
      const status = r.answer(payload);
      r.tries.push({ id: headers["webhook-id"], type: payload.type, code: payload.data.code, status });
      res.writeHead(status).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  r.url = `http://127.0.0.1:${server.address().port}/hooks`;
  r.close = () => new Promise((resolve) => server.close(resolve));
  return r;
}

const worker = workerForFile(
  {
    snapshot: true,
    logLevel: "log",
    vars: { WEBHOOK_ALLOW_HTTP: "127.0.0.1" },
    logTo: () => {
      mkdirSync(OUTPUT, { recursive: true });
      return createWriteStream(path.join(OUTPUT, "admin-webhooks-wrangler.log"));
    },
    startupTimeoutMs: 3 * 60 * 1000,
  },
  async () => {
    receiver = await startReceiver();
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium", headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  },
  async () => {
    await browser?.close().catch(() => {});
    await receiver?.close();
  },
);

async function axe(page, view) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  const violations = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join("; ")})`);
  assert.deepEqual(violations, [], `axe on ${view}`);
}

/** Screenshots at 1280 and 768 px (the layout holds at both), back to 1280. */
async function shoot(page, name) {
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(OUTPUT, `admin-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function until(what, check, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

test("an endpoint added with its secret shown once, a delivery sent again, a code's events, rotate and delete", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB", timezoneId: "Europe/Berlin" });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: worker.base });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  page.on("console", (msg) => { if (msg.type() === "error" && !/favicon|Failed to load resource/.test(msg.text())) errors.push(msg.text()); });
  page.setDefaultTimeout(15_000);
  await page.goto(`${worker.base}/admin/#/webhooks`);
  await page.getByLabel("Admin token").fill(ADMIN_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
  assert.equal(await page.getByRole("link", { name: "Webhooks" }).getAttribute("aria-current"), "page");
  await page.getByText("No endpoint yet: add one below.").waitFor();
  await axe(page, "webhooks, none");

  // A plainly wrong id is refused next to its field; nothing is sent.
  const form = page.getByRole("form", { name: "Add an endpoint" });
  await form.getByLabel("Id", { exact: true }).fill("the shop");
  await form.getByLabel("URL").fill(receiver.url);
  await form.getByLabel("Description").fill("The shop's server");
  await form.getByRole("checkbox", { name: "code.updated" }).uncheck();
  await form.getByRole("button", { name: "Add the endpoint" }).click();
  await page.locator("#hook-id-error").filter({ hasText: "An id is 1 to 64 letters, digits, - or _." }).waitFor();
  assert.equal(await form.getByLabel("Id", { exact: true }).getAttribute("aria-invalid"), "true");
  assert.equal((await call(worker.base, "GET", "/v1/webhooks", { headers: admin })).json.webhooks.length, 0);
  await axe(page, "webhooks, refused id");

  // Added: the secret shows once, with a copy button.
  await form.getByLabel("Id", { exact: true }).fill("shop");
  await form.getByRole("button", { name: "Add the endpoint" }).click();
  await page.getByRole("heading", { name: "Signing secret" }).waitFor();
  await page.getByText("The signing secret of shop. Copy it now: it will not be shown again.").waitFor();
  const secret = await page.getByLabel("Secret", { exact: true }).inputValue();
  assert.match(secret, /^whsec_[A-Za-z0-9+/=]{32,}$/);
  receiver.secret = secret;
  await page.getByRole("button", { name: "Copy the secret" }).click();
  await page.getByText("Copied.").waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
  const row = page.locator("#hooks tbody tr").filter({ hasText: receiver.url });
  await row.getByRole("cell", { name: "Enabled" }).waitFor();
  await row.getByText(receiver.url).waitFor();
  await row.getByText("The shop's server").waitFor();
  const stored = (await call(worker.base, "GET", "/v1/webhooks/shop", { headers: admin })).json;
  assert.deepEqual(stored.events, ["redemption.held", "redemption.captured", "redemption.released", "redemption.expired",
    "code.exhausted", "budget.threshold", "campaign.exhausted", "campaign.updated"]);
  assert.equal(stored.description, "The shop's server");
  // The form is empty again, every event type checked as for a new endpoint.
  assert.equal(await form.getByLabel("Id", { exact: true }).inputValue(), "");
  assert.equal(await form.getByRole("checkbox", { checked: false }).count(), 0, "every event type checked again");
  await axe(page, "webhooks, secret shown");
  await shoot(page, "webhooks-secret");
  await page.getByRole("button", { name: "Done, hide it" }).click();
  assert.equal(await page.getByRole("heading", { name: "Signing secret" }).isVisible(), false);
  assert.equal(await page.locator("#hook-secret").inputValue(), "", "the secret leaves the page");

  // A capture whose event the receiver refuses (500) until told otherwise.
  let refuse = true;
  receiver.answer = (payload) => (refuse && payload.type === "redemption.captured" ? 500 : 200);
  assert.equal((await putCode(worker.base, { code: "HOOKED", discount: { kind: "fixed", amount: eur("5.00") } })).status, 201);
  const captured = await captureReq(worker.base, "hooked-1", { code: "HOOKED", total: eur("50.00") });
  assert.equal(captured.status, 201, captured.text);
  const first = await until("the capture's first try", () => receiver.tries.find((t) => t.type === "redemption.captured"));
  assert.equal(first.status, 500);
  assert.match(first.id, /^evt_HOOKED_\d+$/);

  await page.getByRole("link", { name: "Deliveries to shop" }).click();
  await page.getByRole("heading", { name: "Deliveries to shop" }).waitFor();
  const delivery = page.getByRole("row", { name: new RegExp(`^${first.id} `) });
  await delivery.getByRole("cell", { name: "redemption.captured" }).waitFor();
  await delivery.getByRole("cell", { name: /^Pending \(500\)$|^Delivered|^Failed/ }).waitFor();
  const cells = await delivery.getByRole("cell").allTextContents();
  assert.equal(cells[1], "HOOKED", "the object");
  assert.match(cells[2], /^Pending \(500\)$/, "refused once, pending");
  assert.ok(Number(cells[3]) >= 1, `attempts: ${cells[3]}`);
  assert.notEqual(cells[5], "None", "a next try is due");
  await axe(page, "deliveries");
  await shoot(page, "webhooks-deliveries");

  // Send again: the receiver now takes it; the row says what came of it.
  refuse = false;
  const triesBefore = receiver.tries.filter((t) => t.id === first.id).length;
  await delivery.getByRole("button", { name: `Send again: ${first.id}` }).click();
  const again = page.getByRole("row", { name: new RegExp(`^${first.id} `) });
  await again.getByText("Sent again: the endpoint answered 200.").waitFor();
  await again.getByRole("cell", { name: "Delivered (200)" }).waitFor();
  assert.ok(receiver.tries.filter((t) => t.id === first.id && t.status === 200).length >= 1);
  assert.ok(receiver.tries.filter((t) => t.id === first.id).length > triesBefore, "the receiver got it again, same webhook-id");
  assert.equal(receiver.bad, 0, "every try verifies with the secret shown");
  await axe(page, "deliveries, sent again");

  // The code's page: its events, as the enabled endpoints got them.
  await page.goto(`${worker.base}/admin/#/code/HOOKED`);
  await page.getByRole("heading", { name: "HOOKED", level: 1 }).waitFor();
  const event = page.getByRole("row", { name: new RegExp(`^${first.id} `) });
  await event.getByRole("cell", { name: "redemption.captured" }).waitFor();
  await event.getByText(": Delivered (200)").waitFor();
  await event.getByRole("link", { name: "shop" }).waitFor();
  await page.getByText(/^1 events? of HOOKED, as sent to the enabled endpoints \(shop\)/).waitFor();
  await axe(page, "code page, events");
  await shoot(page, "code-events");

  // Rotate: a new secret, shown once; the one before signs for 24 hours.
  await page.goto(`${worker.base}/admin/#/webhooks`);
  await page.getByRole("button", { name: "Rotate the secret of shop" }).click();
  await page.getByText(/^The new signing secret of shop\. Copy it now: it will not be shown again\. The one before also signs for 24 hours\.$/).waitFor();
  const rotated = await page.getByLabel("Secret", { exact: true }).inputValue();
  assert.match(rotated, /^whsec_/);
  assert.notEqual(rotated, secret);
  assert.ok((await call(worker.base, "GET", "/v1/webhooks/shop", { headers: admin })).json.previous_secret_until);
  await axe(page, "webhooks, rotated");

  // Delete, after a confirmation (cancelled once).
  await page.getByRole("button", { name: "Delete shop" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete shop?" });
  await dialog.waitFor();
  await axe(page, "webhooks, delete dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  assert.equal((await call(worker.base, "GET", "/v1/webhooks/shop", { headers: admin })).status, 200);
  await page.getByRole("button", { name: "Delete shop" }).click();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await page.getByText("shop is deleted.").waitFor();
  await page.getByText("No endpoint yet: add one below.").waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/webhooks/shop", { headers: admin })).status, 404);
  assert.deepEqual(errors, []);
  await context.close();
});
