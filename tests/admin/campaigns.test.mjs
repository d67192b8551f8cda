// Campaigns in the console (issue 35, items 4 and 5), end to end at 1280 × 800 and 390 × 844: the real
// Worker under `wrangler dev` (tests/worker/harness.mjs), Debian's Chromium through playwright-core,
// axe-core on each view, screenshots in test-output/ (admin-campaigns-*).
//
// - New campaign (the code form, plus uses per code, its budget and rule), its codes generated
//   (count, pattern, characters), downloaded and the campaign switched off: the clicks and seconds
//   this takes are printed (a figure, not an assertion).
// - Each result or refusal beside the button that caused it; a stale success line cleared.
// - Importing a CSV file of codes (papaparse); Edit campaign.
// - Honest counts: used apart from held, the limit that binds, the budget bar (spent, held, left).
//
// Run with scripts/test-admin.sh (it builds public/pkg, public/admin/vendor and the Worker first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { admin, call, capturer, tempDir } from "../worker/harness.mjs";
import { axe, consoleSuite, SCREENS, shoot as shootAs } from "./console-page.mjs";

const suite = consoleSuite("admin-campaigns");
const { worker, signIn } = suite;
const shoot = (page, name) => shootAs(page, "admin-campaigns-", name);
const { open } = suite;

const eur = (amount) => ({ amount, currency: "EUR" });
const getCampaign = async (id) => (await call(worker.base, "GET", `/v1/campaigns/${id}`, { headers: admin })).json;
const putCampaign = (id, definition) => call(worker.base, "PUT", `/v1/campaigns/${id}`, { body: definition, headers: admin });
const generate = (id, body) => call(worker.base, "POST", `/v1/campaigns/${id}/codes`, {
  body, headers: { ...admin, "idempotency-key": `campaigns-test-${id}-${JSON.stringify(body).length}` },
});
const order = (code, extra = {}) => ({ code, total: eur("80.00"), ...extra });
const capture = (code, key) => call(worker.base, "POST", "/v1/captures", { body: order(code), headers: { ...capturer, "idempotency-key": key } });
const hold = (code, key) => call(worker.base, "POST", "/v1/holds", { body: order(code), headers: { ...capturer, "idempotency-key": key } });

/** Asserts that the result line `line` sits beside the button `button` (its box within 60 px below or beside it) and is visible. */
async function besideButton(page, line, button, view) {
  const [a, b] = [await line.boundingBox(), await button.boundingBox()];
  assert.ok(a && b, `${view}: both shown`);
  const gap = Math.max(0, a.y - (b.y + b.height), b.y - (a.y + a.height));
  assert.ok(gap <= 60, `${view}: the result is ${gap} px from its button`);
  const where = await line.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: window.innerHeight };
  });
  assert.ok(where.top >= -1 && where.bottom <= where.height + 1, `${view}: the result is on screen (${JSON.stringify(where)})`);
}

/** Clicks a control, counting the click. */
async function click(page, locator) {
  page.clicks = (page.clicks ?? 0) + 1;
  await locator.click();
}

for (const screen of SCREENS) {
  const w = screen.width;
  test(`${w} px: a new campaign with a budget and 100 codes, downloaded, switched off (clicks and seconds printed)`, async () => {
    const id = `LAUNCH${w}`;
    const page = await open(screen);
    await signIn(page, "#/campaigns");
    await page.getByRole("heading", { name: "Campaigns", exact: true }).waitFor();
    const started = performance.now();
    page.clicks = 0;
    await click(page, page.getByRole("link", { name: "New campaign" }));
    await page.getByRole("heading", { name: "New campaign" }).waitFor();
    assert.equal(await page.getByRole("checkbox", { name: /Automatic/ }).isVisible(), false, "a campaign is never automatic");
    await page.getByLabel("Campaign id").fill(id);
    await page.getByLabel("Percent", { exact: true }).fill("20");
    await page.getByRole("textbox", { name: "Currency", exact: true }).fill("EUR");
    await page.getByRole("textbox", { name: "Budget", exact: true }).fill("300.00");
    await page.getByLabel("When the budget is short").selectOption("partial");
    await page.getByLabel("Uses per code").fill("1");
    const checking = performance.now(); // axe and the screenshot are not the operator's time
    if (w === 1280) await axe(page, "new campaign");
    await shoot(page, "new");
    const checked = performance.now() - checking;
    await click(page, page.getByRole("button", { name: "Save", exact: true }));
    await page.getByRole("heading", { name: id, exact: true }).waitFor();
    await page.getByText(`Campaign ${id} is defined: generate or import its codes below.`).waitFor();

    await page.getByRole("textbox", { name: "Count", exact: true }).fill("100");
    await click(page, page.getByRole("button", { name: "Generate", exact: true }));
    await page.getByText(/^Generated 100 codes, for example /).waitFor();
    await page.locator("#code-summary").getByText(/100 codes of 1 use each; 0 used · 100 left: its 100 codes\.$/).waitFor();

    page.clicks += 1;
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download the codes as CSV" }).click()]);
    const text = readFileSync(await file.path(), "utf8");
    assert.equal(file.suggestedFilename(), `${id}-codes.csv`);
    const lines = text.split(/\r?\n/).filter(Boolean);
    assert.equal(lines[0], "code,uses,held");
    assert.equal(lines.length, 101, "the header and 100 codes");
    const saved = page.getByText(`Saved ${id}-codes.csv: 100 codes with their uses and holds.`);
    await saved.waitFor();
    await besideButton(page, saved, page.getByRole("button", { name: "Download the codes as CSV" }), "download");
    assert.equal(await page.getByText(/^Generated 100 codes/).count(), 0, "the generation's success line is gone");

    await click(page, page.getByRole("button", { name: "Switch off", exact: true }));
    await click(page, page.getByRole("dialog").getByRole("button", { name: "Switch off" }));
    const off = page.getByText(`${id} is now switched off.`);
    await off.waitFor();
    const seconds = (performance.now() - started - checked) / 1000;
    await besideButton(page, off, page.getByRole("button", { name: "Switch on", exact: true }), "switch");
    const campaign = await getCampaign(id);
    assert.equal(campaign.active, false);
    assert.equal(campaign.codes.count, 100);
    assert.deepEqual(campaign.limits.budget, eur("300.00"));
    assert.equal(campaign.limits.when_budget_short, "partial");
    await page.locator("#code-summary").getByText(/^Switched off: 20% off, always/).waitFor();
    // A figure for the closing note (typing is not counted as clicks).
    console.log(`[measure] ${w} px: new campaign with a budget and 100 codes, downloaded, switched off: ${page.clicks} clicks, ${seconds.toFixed(1)} s scripted (typing instant)`);
    await axe(page, "campaign switched off");
    await shoot(page, "page");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`${w} px: refusals and results beside their buttons, a stale success cleared; codes imported from CSV and generated from characters`, async () => {
    const id = `NEAR${w}`;
    assert.equal((await putCampaign(id, { discount: { kind: "percent", percent: "10" } })).status, 201);
    const taken = `TAKEN-${w}`;
    assert.equal((await call(worker.base, "PUT", `/v1/codes/${taken}`, { body: { code: taken, discount: { kind: "percent", percent: "5" } }, headers: admin })).status, 201);
    const page = await open(screen);
    await signIn(page, `#/campaign/${id}`);
    await page.getByRole("heading", { name: id, exact: true }).waitFor();
    const generateButton = page.getByRole("button", { name: "Generate", exact: true });

    // Refused as the server refuses (fewer than 8 #): beside Generate, not at the top.
    await page.getByRole("textbox", { name: "Count", exact: true }).fill("3");
    await page.getByRole("textbox", { name: "Pattern", exact: true }).fill("N-####");
    await generateButton.click();
    const refused = page.locator("#generated").getByText(/^The codes were not generated: /);
    await refused.waitFor();
    await besideButton(page, refused, generateButton, "generate refused");
    assert.equal(await page.locator("#problem").textContent(), "", "nothing at the top of the page");

    // The characters: each # drawn from them.
    await page.getByRole("textbox", { name: "Pattern", exact: true }).fill(`N${w}-########`);
    await page.getByRole("textbox", { name: "Characters", exact: true }).fill("ABCDEF2345");
    await generateButton.click();
    await page.locator("#generated[data-state=ok], #generated[data-state=error]").waitFor();
    assert.match(await page.locator("#generated").textContent(), /^Generated 3 codes, for example /);
    const generated = (await call(worker.base, "GET", `/v1/campaigns/${id}/codes`, { headers: admin })).json.codes.map((c) => c.code);
    assert.equal(generated.length, 3);
    for (const code of generated) assert.match(code, new RegExp(`^N${w}-[ABCDEF2345]{8}$`));
    if (w === 1280) await axe(page, "campaign, codes generated");

    // An import that names an existing code: refused beside Import, nothing added, the success above cleared.
    const dir = tempDir("promocodes-campaigns-");
    const clash = path.join(dir, "clash.csv");
    writeFileSync(clash, `code\r\nFRESH-${w}-1\r\n${taken}\r\n`);
    const importButton = page.getByRole("button", { name: "Import", exact: true });
    await page.getByLabel("CSV file of codes").setInputFiles(clash);
    await importButton.click();
    const clashLine = page.locator("#imported").getByText(/^clash\.csv was not imported: .*Nothing was added/);
    await clashLine.waitFor();
    await besideButton(page, clashLine, importButton, "import refused");
    assert.equal(await page.locator("#generated").textContent(), "", "the stale success line is gone");
    assert.equal((await getCampaign(id)).codes.count, 3);
    await shoot(page, "refused");

    // A file as a spreadsheet writes it: a BOM, quotes, a second column, a blank line.
    const good = path.join(dir, "codes.csv");
    writeFileSync(good, `\uFEFF"code","note"\r\n"FRESH-${w}-1","a, b"\r\n\r\nFRESH-${w}-2,\r\n`);
    await page.getByLabel("CSV file of codes").setInputFiles(good);
    await importButton.click();
    const imported = page.locator("#imported").getByText(`Imported 2 codes from codes.csv, for example FRESH-${w}-1, FRESH-${w}-2.`);
    await imported.waitFor();
    await besideButton(page, imported, importButton, "import");
    assert.equal((await getCampaign(id)).codes.count, 5);
    const empty = path.join(dir, "empty.csv");
    writeFileSync(empty, "code\r\n\r\n");
    await page.getByLabel("CSV file of codes").setInputFiles(empty);
    await importButton.click();
    await page.locator("#imported").getByText("empty.csv holds no codes: put one code a row, in the first column.").waitFor();
    if (w === 1280) await axe(page, "campaign, import refused");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`${w} px: Edit campaign: the form filled from the campaign, uses per code refused beside its field, then saved`, async () => {
    const id = `EDIT${w}`;
    assert.equal((await putCampaign(id, {
      discount: { kind: "fixed", amount: eur("15.00") }, limits: { total: 150, budget: eur("300.00") }, uses_per_code: 2,
    })).status, 201);
    const page = await open(screen);
    await signIn(page, `#/campaign/${id}`);
    await page.getByRole("heading", { name: id, exact: true }).waitFor();
    await page.getByRole("link", { name: "Edit campaign" }).click();
    await page.getByRole("heading", { name: `Edit campaign ${id}` }).waitFor();
    assert.equal(await page.getByLabel("Campaign id").inputValue(), id);
    assert.equal(await page.getByLabel("Amount", { exact: true }).inputValue(), "15.00");
    assert.equal(await page.getByLabel("Total uses").inputValue(), "150");
    assert.equal(await page.getByRole("textbox", { name: "Budget", exact: true }).inputValue(), "300.00");
    assert.equal(await page.getByLabel("Uses per code").inputValue(), "2");
    await page.getByLabel("Uses per code").fill("0");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Enter a whole number of uses, 1 or more.").waitFor();
    assert.equal(await page.getByLabel("Uses per code").getAttribute("aria-invalid"), "true");
    if (w === 1280) await axe(page, "edit campaign, refused");
    await shoot(page, "edit-refused");
    await page.getByLabel("Uses per code").fill("3");
    await page.getByLabel("Amount", { exact: true }).fill("12.00");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText(`Campaign ${id} is saved.`).waitFor();
    const saved = await getCampaign(id);
    assert.equal(saved.uses_per_code, 3);
    assert.deepEqual(saved.discount.amount, eur("12.00"));
    assert.deepEqual(saved.limits, { total: 150, budget: eur("300.00"), when_budget_short: "refuse" });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`${w} px: honest counts: used apart from held, the limit that binds, the budget bar (spent, held, left), one sentence`, async () => {
    const id = `HONEST${w}`;
    // €15.00 off each, €300.00 to give: the budget pays for 20 uses, fewer than the 150 cap and the 100 codes.
    assert.equal((await putCampaign(id, {
      discount: { kind: "fixed", amount: eur("15.00") }, limits: { total: 150, budget: eur("300.00") },
    })).status, 201);
    assert.equal((await generate(id, { count: 100, pattern: `H${w}-########` })).status, 201);
    const codes = (await call(worker.base, "GET", `/v1/campaigns/${id}/codes`, { headers: admin })).json.codes.map((c) => c.code);
    assert.equal((await capture(codes[0], `${id}-1`)).status, 201);
    assert.equal((await capture(codes[1], `${id}-2`)).status, 201);
    assert.equal((await hold(codes[2], `${id}-3`)).status, 201);
    // A plain code whose total cap binds, with a hold too.
    const plain = `PLAIN${w}`;
    await call(worker.base, "PUT", `/v1/codes/${plain}`, { body: { code: plain, discount: { kind: "percent", percent: "10" }, limits: { total: 100 } }, headers: admin });
    assert.equal((await capture(plain, `${plain}-1`)).status, 201);
    assert.equal((await hold(plain, `${plain}-2`)).status, 201);

    const page = await open(screen);
    await signIn(page, `#/campaign/${id}`);
    await page.getByRole("heading", { name: id, exact: true }).waitFor();
    await page.locator("#code-summary").getByText(/^Active/).waitFor();
    const summary = await page.locator("#code-summary").textContent();
    assert.match(summary, /^Active: €15\.00 off, always \(Europe\/Berlin\), 100 codes of 1 use each; 2 used · 1 held · 17 left: the €300\.00 budget\.$/);
    assert.equal(summary.match(/used/g).length, 1, "said once");
    const bar = page.getByRole("region", { name: "Budget: spent, held, left" });
    await bar.getByText("€30.00 spent").waitFor();
    await bar.getByText("€15.00 held").waitFor();
    await bar.getByText("€255.00 left of €300.00").waitFor();
    const widths = await page.locator("#budget-bar .budget-bar span").evaluateAll((spans) => spans.map((s) => s.style.width));
    assert.deepEqual(widths, ["10%", "5%"], "spent and held as shares of the bar");
    if (w === 1280) await axe(page, "campaign with a budget");
    await shoot(page, "counts");

    await page.goto(`${worker.base}/admin/#/code/${plain}`);
    await page.getByRole("heading", { name: plain, exact: true }).waitFor();
    // The same document (only the hash changed): wait for this code's sentence, not the campaign's.
    await page.locator("#code-summary").getByText(/^10% off\. Valid: Always \(Europe\/Berlin\)\. 1 used · 1 held · 98 left: the limit of 100 uses\. Active\.$/).waitFor();
    assert.equal(await page.locator("#budget-bar").isHidden(), true, "no budget, no bar");

    await page.goto(`${worker.base}/admin/#/campaigns`);
    const row = page.getByRole("row", { name: new RegExp(id) });
    await row.waitFor();
    assert.match(await row.textContent(), /2 used · 1 held · 17 left: the €300\.00 budget/);
    await shoot(page, "catalog");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

// Campaign `id` (10 % off) with the one code `code`; a plain code `code` (10 % off).
async function campaignWithCode(id, code) {
  assert.equal((await putCampaign(id, { discount: { kind: "percent", percent: "10" } })).status, 201);
  const made = await call(worker.base, "POST", `/v1/campaigns/${id}/codes`, { body: { codes: [code] }, headers: { ...admin, "idempotency-key": code.toLowerCase() } });
  assert.equal(made.status, 201, made.text);
}
const putPlain = (code) => call(worker.base, "PUT", `/v1/codes/${code}`, { body: { code, discount: { kind: "percent", percent: "10" } }, headers: admin });

// A campaign's code is switched, edited and archived with its campaign (PATCH and DELETE of it on
// /v1/codes are refused): its page says so and links to the campaign's, with no control of its own.
test("a campaign's code's page: no switch or Archive of its own, a link to its campaign", async () => {
  await campaignWithCode("OWNER", "OWNER-1");
  const page = await open(SCREENS[0]);
  await signIn(page, "#/code/OWNER-1");
  await page.getByRole("heading", { name: "OWNER-1", exact: true }).waitFor();
  await page.locator("#code-switch-state").getByText("On, with campaign OWNER").waitFor();
  assert.equal(await page.getByRole("switch", { name: "Active" }).isDisabled(), true);
  assert.equal(await page.locator("#code-archive").isHidden(), true);
  await page.getByRole("link", { name: "Campaign OWNER" }).click();
  await page.getByRole("heading", { name: "OWNER", exact: true }).waitFor();
  assert.match(page.url(), /#\/campaign\/OWNER$/);
  // A plain code's page, opened next in the same document, has its own controls again.
  assert.equal((await putPlain("OWNFREE")).status, 201);
  await page.goto(`${worker.base}/admin/#/code/OWNFREE`);
  await page.locator("#code-switch-state").getByText("On", { exact: true }).waitFor();
  assert.equal(await page.getByRole("switch", { name: "Active" }).isDisabled(), false);
  assert.equal(await page.locator("#code-archive").isHidden(), false);
  assert.equal(await page.getByRole("link", { name: "Edit OWNFREE" }).textContent(), "Edit");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// A plain code's switch whose request is still running when the operator opens a campaign's code's
// page must not hand that page a switch: the late answer leaves the page it no longer shows alone.
test("a plain code's switch answered after the operator opened a campaign's code leaves that page's switch disabled", async () => {
  await campaignWithCode("LATE", "LATE-1");
  assert.equal((await putPlain("SLOWSW")).status, 201);
  const page = await open(SCREENS[0]);
  await signIn(page, "#/code/SLOWSW");
  await page.getByRole("heading", { name: "SLOWSW", exact: true }).waitFor();
  // The page's own "On" is there before the code's lookup: wait for the switch the lookup set.
  await page.waitForFunction(() => document.querySelector("#code-switch").checked);
  // The switch's PATCH waits until the campaign's code's page shows its disabled switch.
  let release;
  const held = new Promise((r) => { release = r; });
  let patched = false;
  await page.route(/\/v1\/codes\/SLOWSW$/, async (request) => {
    if (request.request().method() !== "PATCH") return request.continue();
    await held;
    await request.continue();
    patched = true;
  });
  await page.getByRole("switch", { name: "Active" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Switch off" }).click();
  await page.evaluate(() => { location.hash = "#/code/LATE-1"; });
  await page.locator("#code-switch-state").getByText("On, with campaign LATE").waitFor();
  assert.equal(await page.getByRole("switch", { name: "Active" }).isDisabled(), true);
  release();
  await page.getByText("SLOWSW is now switched off.").waitFor();
  assert.equal(patched, true, "the PATCH was held until now");
  await page.waitForTimeout(300);
  assert.equal(await page.getByRole("switch", { name: "Active" }).isDisabled(), true, "still the campaign's code's page: no switch of its own");
  assert.equal(await page.locator("#code-switch-state").textContent(), "On, with campaign LATE");
  assert.equal((await call(worker.base, "GET", "/v1/codes/SLOWSW", { headers: admin })).json.active, false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
