// The console's form for the discounts that look at units and size (issue 34): a buy X get Y and a
// tiered code created through the form (a refusal shown next to its field as typed, a tier's on its
// row), saved as the JSON the API takes, described on the code's page and in the catalog, and filled
// in again when edited. The real Worker under `wrangler dev` (tests/worker/harness.mjs), Debian's
// Chromium through playwright-core, axe-core on each state. Run with scripts/test-admin.sh.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { ROOT, ADMIN_TOKEN, admin, call, capturer, workerForFile } from "../worker/harness.mjs";

const OUTPUT = path.join(ROOT, "test-output");
const AXE = readFileSync(path.join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
let browser;

const worker = workerForFile(
  {
    snapshot: true,
    logLevel: "log",
    logTo: () => {
      mkdirSync(OUTPUT, { recursive: true });
      return createWriteStream(path.join(OUTPUT, "admin-deals-wrangler.log"));
    },
    startupTimeoutMs: 3 * 60 * 1000,
  },
  async () => {
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium", headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  },
  async () => { await browser?.close().catch(() => {}); },
);

const eur = (amount) => ({ amount, currency: "EUR" });

/** A signed-in page on the new code form, collecting page errors. */
async function newCodeForm() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB", timezoneId: "Europe/Berlin" });
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (err) => page.errors.push(String(err)));
  page.on("console", (msg) => { if (msg.type() === "error" && !/favicon|Failed to load resource/.test(msg.text())) page.errors.push(msg.text()); });
  page.setDefaultTimeout(15_000);
  await page.goto(`${worker.base}/admin/#/new`);
  await page.getByLabel("Admin token").fill(ADMIN_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "New code" }).waitFor();
  return page;
}

async function axe(page, view) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  const violations = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join("; ")})`);
  assert.deepEqual(violations, [], `axe on ${view}`);
}

async function shoot(page, name) {
  await page.screenshot({ path: path.join(OUTPUT, `admin-${name}-1280.png`), fullPage: true });
}

/** The code's definition as stored, once `ready(json)` holds (a save lands before the page moves on). */
async function stored(code, ready = () => true) {
  let got;
  for (let i = 0; i < 50; i++) {
    got = await call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin });
    if (got.status === 200 && ready(got.json)) return got.json;
    await new Promise((r) => setTimeout(r, 100));
  }
  return got.json;
}

test("buy X get Y through the form: a percent of 0 refused next to its field, saved as the API's JSON, described, filled in again", async () => {
  const page = await newCodeForm();
  await page.getByRole("textbox", { name: "Code", exact: true }).fill("MUGS3FOR2");
  await page.getByLabel("Kind").selectOption({ label: "Buy X get Y" });
  const buy = page.getByRole("group", { name: "Buy", exact: true });
  const get = page.getByRole("group", { name: "Get", exact: true });
  await buy.waitFor();
  assert.equal(await page.getByRole("group", { name: "Tiers", exact: true }).isVisible(), false);
  assert.equal(await page.getByRole("textbox", { name: "Percent", exact: true }).isVisible(), false);
  // Nothing prefilled: placeholders show an example (tests/admin/form.test.mjs).
  assert.equal(await buy.getByLabel("Items to buy").inputValue(), "");
  assert.equal(await buy.getByLabel("Items to buy").getAttribute("placeholder"), "2");
  await buy.getByLabel("Items to buy").fill("2");
  await get.getByLabel("Items given", { exact: true }).fill("1");
  await page.getByRole("textbox", { name: "Currency", exact: true }).fill("EUR");
  await buy.getByLabel("Categories bought").fill("mugs");
  const percent = get.getByLabel("Percent off each");
  await percent.fill("0");
  await percent.blur(); // checked when left
  await page.locator("#f-get-percent-error").filter({ hasText: "Percent must be above 0 and at most 100, not 0" }).waitFor();
  assert.equal(await percent.getAttribute("aria-invalid"), "true");
  await axe(page, "buy X get Y, refused field");
  await percent.fill("100");
  assert.equal(await percent.getAttribute("aria-invalid"), null);
  // The amount fields show for an amount; the get's own lists only when not the buy's.
  assert.equal(await get.getByLabel("Categories given").isVisible(), false);
  await get.getByLabel("Given from the same SKUs and categories as the buy").uncheck();
  assert.equal(await get.getByLabel("Categories given").isVisible(), true);
  await get.getByLabel("Given from the same SKUs and categories as the buy").check();
  await get.getByLabel("Most times per basket").fill("2");
  await get.getByLabel("Items given first").selectOption({ label: "The most expensive" });
  await page.getByLabel("Sample basket total").fill("12.50");
  await page.getByText("A basket of 3 items at €12.50 plus €4.90 shipping now: €12.50 off, €29.90 to pay.").waitFor();
  await axe(page, "buy X get Y, valid");
  await shoot(page, "new-buy-x-get-y");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "MUGS3FOR2" }).waitFor();
  await page.locator("#code-summary").filter({ hasText: "Buy 2 mugs, get 1 free." }).waitFor();

  const json = await stored("MUGS3FOR2");
  assert.deepEqual(json.discount, {
    kind: "buy_x_get_y", buy: { quantity: 2, applies_to: { categories: ["mugs"] } }, get: { quantity: 1, percent: "100" },
    max_applications: 2, selection: "most_expensive",
  });
  // What the server quotes for 3 mugs: one given.
  const quote = await call(worker.base, "POST", "/v1/quotes", {
    body: { code: "MUGS3FOR2", lines: [{ sku: "MUG", quantity: 3, unit_price: eur("12.50"), categories: ["mugs"] }] }, headers: capturer,
  });
  assert.equal(quote.status, 200, JSON.stringify(quote.json));
  assert.deepEqual(quote.json.discount, eur("12.50"));

  await page.reload();
  await page.goto(`${worker.base}/admin/#/edit/MUGS3FOR2`);
  await page.getByRole("heading", { name: "Edit MUGS3FOR2" }).waitFor();
  await page.waitForFunction(() => document.getElementById("f-kind").value === "buy_x_get_y");
  assert.equal(await buy.getByLabel("Categories bought").inputValue(), "mugs");
  assert.equal(await get.getByLabel("Percent off each").inputValue(), "100");
  assert.equal(await get.getByLabel("Most times per basket").inputValue(), "2");
  assert.equal(await get.getByLabel("Items given first").inputValue(), "most_expensive");
  assert.equal(await get.getByLabel("Given from the same SKUs and categories as the buy").isChecked(), true);
  await axe(page, "buy X get Y, edited");

  await page.goto(`${worker.base}/admin/#/`);
  await page.getByLabel("Code starts with").fill("mugs3");
  await page.getByRole("button", { name: "Search" }).click();
  const row = page.getByRole("row", { name: /MUGS3FOR2/ });
  await row.waitFor();
  assert.match(await row.textContent(), /Buy 2 mugs, get 1 free/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a tiered code through the form: rows added and removed (1 to 10), a tier below the one before refused on its row, first order only", async () => {
  const page = await newCodeForm();
  await page.getByRole("textbox", { name: "Code", exact: true }).fill("TIERS");
  await page.getByRole("textbox", { name: "Currency", exact: true }).fill("EUR"); // nothing is prefilled
  await page.getByLabel("Kind").selectOption({ label: "Tiered" });
  const tiers = page.getByRole("group", { name: "Tiers", exact: true });
  await tiers.waitFor();
  assert.equal(await page.getByLabel("Largest discount", { exact: true }).first().isVisible(), false, "a tiered code has no max beside its tiers");
  const add = page.getByRole("button", { name: "Add a tier" });
  const tier = (n) => page.getByRole("group", { name: `Tier ${n}`, exact: true });
  assert.equal(await page.getByRole("button", { name: "Remove tier 1", exact: true }).isDisabled(), true, "one tier at least");
  for (let i = 0; i < 9; i++) await add.click();
  assert.equal(await add.isDisabled(), true, "ten tiers at most");
  assert.equal(await page.evaluate(() => document.activeElement.id), "f-tier-from-9", "the new row's first field has the focus");
  for (let n = 10; n > 2; n--) await page.getByRole("button", { name: `Remove tier ${n}`, exact: true }).click();
  assert.equal(await page.locator("#f-tiers .tier").count(), 2);
  assert.equal(await add.isDisabled(), false);

  await tier(1).getByLabel("From (subtotal)").fill("50.00");
  await tier(1).getByLabel("Percent off").fill("10");
  await tier(2).getByLabel("From (subtotal)").fill("40.00");
  await tier(2).getByLabel("Percent off").fill("15");
  await page.locator("#f-tier-from-1-error").filter({ hasText: "must be above the from of the tier before it" }).waitFor();
  assert.equal(await tier(2).getByLabel("From (subtotal)").getAttribute("aria-invalid"), "true");
  await axe(page, "tiered, refused row");
  await tier(2).getByLabel("From (subtotal)").fill("100.00");
  await add.click();
  await tier(3).getByLabel("Discount", { exact: true }).selectOption({ label: "Amount off" });
  await tier(3).getByLabel("From (subtotal)").fill("200.00");
  await tier(3).getByLabel("Amount off").fill("40.00");
  await page.getByRole("checkbox", { name: "First order only" }).check();
  await page.getByLabel("Sample basket total").fill("80.00");
  await page.getByText("A basket of €80.00 now: €8.00 off, €72.00 to pay.").waitFor();
  await axe(page, "tiered, valid");
  await shoot(page, "new-tiered");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "TIERS" }).waitFor();
  await page.locator("#code-summary")
    .filter({ hasText: "10% off from €50.00, 15% off from €100.00 and €40.00 off from €200.00; first orders only." }).waitFor();

  const json = await stored("TIERS");
  assert.deepEqual(json.discount, {
    kind: "tiered", by: "subtotal", tiers: [
      { from: eur("50.00"), discount: { kind: "percent", percent: "10" } },
      { from: eur("100.00"), discount: { kind: "percent", percent: "15" } },
      { from: eur("200.00"), discount: { kind: "fixed", amount: eur("40.00") } },
    ],
  });
  assert.equal(json.first_order, true);

  await page.reload();
  await page.goto(`${worker.base}/admin/#/edit/TIERS`);
  await page.getByRole("heading", { name: "Edit TIERS" }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll("#f-tiers .tier").length === 3);
  assert.equal(await tier(2).getByLabel("From (subtotal)").inputValue(), "100.00");
  assert.equal(await tier(3).getByLabel("Discount", { exact: true }).inputValue(), "fixed");
  assert.equal(await tier(3).getByLabel("Amount off").inputValue(), "40.00");
  assert.equal(await page.getByRole("checkbox", { name: "First order only" }).isChecked(), true);
  // By items: each from a count; saved again.
  await tiers.getByLabel("Measured by").selectOption({ label: "Items (from a count)" });
  await tier(1).getByLabel("From (items)").fill("3");
  await tier(2).getByLabel("From (items)").fill("5");
  await tier(3).getByLabel("From (items)").fill("10");
  await axe(page, "tiered by items, edited");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "TIERS" }).waitFor();
  const again = await stored("TIERS", (j) => j.discount.by === "quantity");
  assert.deepEqual(again.discount.tiers.map((t) => t.from), [3, 5, 10]);
  await page.locator("#code-summary").filter({ hasText: "10% off from 3 items, 15% off from 5 items" }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
