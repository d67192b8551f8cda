// The operator's console (/admin/) end to end: the real Worker under `wrangler dev` (started by the
// Worker tests' harness, tests/worker/harness.mjs, on snapshots of the built Worker and of public/),
// driven by Debian's Chromium through playwright-core. Controls are found by their accessible names,
// as a screen reader finds them. axe-core (npm, injected) checks each view; screenshots of each view
// at 1280 and 768 px go to test-output/.
//
// Run with scripts/test-admin.sh (it builds public/pkg, public/admin/vendor and the Worker first).
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, ADMIN_TOKEN, admin, call, capturer } from "../worker/harness.mjs";
import { axe, consoleSuite, OUTPUT, shoot as shootAs } from "./console-page.mjs";

const suite = consoleSuite("admin");
const { worker, signIn } = suite;
const shoot = (page, name) => shootAs(page, "admin-", name);
/** A page in a fresh context (its own sessionStorage) at `width`, collecting page errors. */
const open = (width = 1280) => suite.open({ width, height: 900 });

const WIDTHS = [1280, 768];
const XSS = "<img src=x onerror=window.__xss=1>";
const XSS_SKU = "<img/src=x/onerror=window.__xss=1>"; // a sku has no spaces

const eur = (amount) => ({ amount, currency: "EUR" });
const put = (definition) => call(worker.base, "PUT", `/v1/codes/${definition.code}`, { body: definition, headers: admin });
const capture = (code, key, extra = {}) => call(worker.base, "POST", "/v1/captures", {
  body: { code, total: eur("80.00"), ...extra }, headers: { ...capturer, "idempotency-key": key },
});

/** Parses CSV as the console writes it (every field quoted). */
function parseCsv(text) {
  const rows = [];
  for (const line of text.split("\r\n").filter(Boolean)) {
    const fields = [];
    const re = /"((?:[^"]|"")*)"|([^,]*)/g;
    let m;
    let pos = 0;
    while (pos <= line.length) {
      re.lastIndex = pos;
      m = re.exec(line);
      fields.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]);
      pos = re.lastIndex + 1;
    }
    rows.push(fields);
  }
  return rows;
}

test("/admin/ is served with a Content-Security-Policy without inline script, framing forbidden; its files hold no secret", async () => {
  const page = await open();
  const response = await page.goto(`${worker.base}/admin/`);
  assert.equal(response.status(), 200);
  const csp = response.headers()["content-security-policy"] ?? "";
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/);
  for (const file of ["index.html", "admin.js", "admin.css"]) {
    const text = readFileSync(path.join(ROOT, "public/admin", file), "utf8");
    assert.ok(!text.includes(ADMIN_TOKEN), `${file} holds no token`);
    if (file === "index.html") {
      assert.doesNotMatch(text, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script");
      assert.doesNotMatch(text, /\son[a-z]+=/, "no inline handler");
      assert.doesNotMatch(text, /\sstyle=/, "no inline style");
    }
  }
  await page.context().close();
});

test("sign in: a wrong token says so in a sentence; the right one opens the catalog, kept in sessionStorage only; Sign out forgets it", async () => {
  for (const width of WIDTHS) {
    const page = await open(width);
    await page.goto(`${worker.base}/admin/`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await axe(page, "sign in");
    await shoot(page, "signin");
    await page.getByLabel("Admin token").fill("not-the-token");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("That admin token was not accepted. Check it").waitFor();
    assert.equal(await page.locator("#problem").textContent(), "", "said once, next to the field");
    assert.equal(await page.getByLabel("Admin token").getAttribute("aria-invalid"), "true");
    await axe(page, "sign in, wrong token");
    await shoot(page, "signin-wrong-token");
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);

    await page.getByLabel("Admin token").fill(ADMIN_TOKEN);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Codes" }).waitFor();
    const stored = await page.evaluate(() => ({ session: { ...sessionStorage }, local: localStorage.length, cookie: document.cookie }));
    assert.deepEqual(Object.values(stored.session), [ADMIN_TOKEN]);
    assert.equal(stored.local, 0);
    assert.equal(stored.cookie, "");
    assert.ok(!page.url().includes(ADMIN_TOKEN));
    assert.equal((await page.context().cookies()).length, 0);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("create a code in the form: a field refused when left with the server's sentence, then saved, listed and defined", async () => {
  const page = await open();
  await signIn(page, "#/new");
  await page.getByRole("heading", { name: "New code" }).waitFor();
  await page.getByRole("textbox", { name: "Code", exact: true }).fill("CONSOLE10");
  const percent = page.getByRole("textbox", { name: "Percent", exact: true });
  await percent.fill("120");
  await percent.press("Tab"); // a field is checked when left (tests/admin/form.test.mjs)
  await page.getByText("Percent must be above 0 and at most 100, not 120").waitFor();
  assert.equal(await percent.getAttribute("aria-invalid"), "true");
  // The same refusal the server gives for that definition.
  const server = await call(worker.base, "PUT", "/v1/codes/CONSOLE10", {
    body: { code: "CONSOLE10", discount: { kind: "percent", percent: "120" } }, headers: admin,
  });
  assert.equal(server.status, 400);
  assert.match(server.json.detail, /percent must be above 0 and at most 100, not 120/);
  await axe(page, "new code, refused field");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shoot(page, "new-code-refused");
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("textbox", { name: "Code", exact: true }).fill("bad code");
  await page.getByRole("textbox", { name: "Code", exact: true }).blur();
  await page.getByText("promo code contains ' ' at position 3").waitFor();
  await page.getByRole("textbox", { name: "Code", exact: true }).fill("CONSOLE10");
  await percent.fill("10");
  assert.equal(await percent.getAttribute("aria-invalid"), null);
  await page.getByLabel("Minimum basket").fill("20.00");
  await page.getByRole("textbox", { name: "Currency", exact: true }).fill("EUR");
  await page.getByLabel("Total uses").fill("100");
  await page.getByText("A basket of €80.00 now: €8.00 off, €72.00 to pay.").waitFor();
  await page.getByLabel("Total uses").fill("0");
  await page.getByLabel("Total uses").blur();
  await page.getByText("Limits.total must be at least 1").waitFor();
  await page.getByLabel("Total uses").fill("100");
  await axe(page, "new code, valid");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "CONSOLE10" }).waitFor();
  await page.getByText("CONSOLE10 is defined.").waitFor();
  const stored = await call(worker.base, "GET", "/v1/codes/CONSOLE10", { headers: admin });
  assert.equal(stored.status, 200);
  assert.equal(stored.json.discount.percent, "10");
  assert.equal(stored.json.limits.total, 100);
  assert.deepEqual(stored.json.minimum, eur("20.00"));

  await page.getByRole("link", { name: "Codes" }).click();
  const row = page.getByRole("row", { name: /CONSOLE10/ });
  await row.waitFor();
  const text = await row.textContent();
  assert.match(text, /10% off, on €20\.00 or more/);
  assert.match(text, /0 used · 100 left: the limit of 100 uses/);
  assert.match(text, /Always/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the catalog: search by prefix, archived on request, Archive and Restore; axe and screenshots", async () => {
  for (const code of ["PAGEA1", "PAGEA2", "PAGEB1"]) {
    assert.equal((await put({ code, discount: { kind: "fixed", amount: eur("5.00") }, starts_at: "2026-01-01T09:00:00Z", ends_at: "2027-01-01T00:00:00Z" })).status, 201);
  }
  const page = await open();
  await signIn(page);
  await page.getByLabel("Code starts with").fill("pagea");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("row", { name: /PAGEA2/ }).waitFor();
  await page.getByRole("row", { name: /PAGEB1/ }).waitFor({ state: "hidden" });
  const row = page.getByRole("row", { name: /PAGEA1/ });
  assert.match(await row.textContent(), /€5\.00 off/);
  assert.match(await row.textContent(), /1 Jan 2026, 10:00 – 1 Jan 2027, 01:00/, "the window in the operator's time zone");

  await row.getByRole("button", { name: "Archive PAGEA1" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Archive" }).click();
  await page.getByText("PAGEA1 is archived.").waitFor();
  await page.getByRole("row", { name: /PAGEA1/ }).waitFor({ state: "hidden" });
  assert.equal((await call(worker.base, "GET", "/v1/codes/PAGEA1")).status, 404);
  await page.getByLabel("Show archived codes").check();
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("button", { name: "Restore PAGEA1" }).click();
  await page.getByText("PAGEA1 is restored.").waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/codes/PAGEA1")).status, 200);
  await page.getByLabel("Code starts with").fill("");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("row", { name: /PAGEB1/ }).waitFor();
  await axe(page, "catalog");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shoot(page, "catalog");
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the kill switch: off after a confirmation refuses a checkout quote with inactive; on again quotes", async () => {
  assert.equal((await put({ code: "KILLME", discount: { kind: "percent", percent: "10" } })).status, 201);
  const quote = () => call(worker.base, "POST", "/v1/quotes", { body: { code: "KILLME", total: eur("80.00") } });
  assert.equal((await quote()).status, 200);
  const page = await open();
  await signIn(page);
  const toggle = page.getByRole("switch", { name: "Active: KILLME" });
  assert.equal(await toggle.isChecked(), true);
  await toggle.click();
  const dialog = page.getByRole("dialog");
  await dialog.getByText("Buyers' quotes, holds and captures of KILLME are refused at once").waitFor();
  await axe(page, "confirmation");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shoot(page, "confirm-switch-off");
  }
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await page.waitForFunction(() => document.querySelector('[aria-label="Active: KILLME"]').checked, null, { timeout: 5_000 });
  assert.equal(await toggle.isChecked(), true, "cancelled: still on");
  assert.equal((await quote()).status, 200);

  await toggle.focus();
  await page.keyboard.press("Space");
  await dialog.getByRole("button", { name: "Switch off" }).click();
  await page.getByText("KILLME is now switched off.").waitFor();
  const refused = await quote();
  assert.equal(refused.status, 422);
  assert.equal(refused.json.rejection, "inactive");

  await toggle.click();
  await page.getByText("KILLME is now active.").waitFor();
  assert.equal((await quote()).status, 200);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a code's page: a capture made through the API appears in the chart within 15 s; totals; axe and screenshots", async () => {
  assert.equal((await put({ code: "WATCHED", discount: { kind: "percent", percent: "10" } })).status, 201);
  const page = await open();
  await signIn(page, "#/code/WATCHED");
  await page.getByRole("heading", { name: "WATCHED", exact: true }).waitFor();
  await page.locator("#chart canvas").waitFor();
  await page.getByText("Nothing happened in the last hour.").waitFor({ state: "attached" });
  const captured = await capture("WATCHED", "watch-1");
  assert.equal(captured.status, 201, captured.text);
  const started = Date.now();
  // The chart's figures are also its table: the capture's minute shows 1 capture; the totals too.
  await page.locator("#minutes tbody tr th").first().waitFor({ state: "attached", timeout: 15_000 });
  await page.waitForFunction(() => [...document.querySelectorAll("#totals div")]
    .some((d) => d.querySelector("dt").textContent === "Captures" && d.querySelector("dd").textContent === "1"), null, { timeout: 15_000 });
  assert.ok(Date.now() - started <= 15_000);
  const header = await page.locator("#minutes thead th").allTextContents();
  const row = await page.locator("#minutes tbody tr").first().locator("th, td").allTextContents();
  assert.equal(row[header.indexOf("Captures")], "1");
  assert.equal(await page.locator(".u-legend").count(), 1, "uPlot drew the chart");
  // Let the history show it too.
  await page.reload();
  await page.getByRole("cell", { name: "watch-1" }).waitFor();
  await page.getByText("The last hour as a table").click();
  await axe(page, "code page");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shoot(page, "code-page");
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the redemptions list: filtered by state, customer or key; the CSV download equals the API's list", async () => {
  assert.equal((await put({ code: "LISTED", discount: { kind: "percent", percent: "10" } })).status, 201);
  for (let i = 0; i < 30; i++) {
    const r = await capture("LISTED", `listed-${i}`, { customer: i % 3 === 0 ? "carol" : `cust-${i}` });
    assert.equal(r.status, 201, r.text);
  }
  const held = await call(worker.base, "POST", "/v1/holds", {
    body: { code: "LISTED", total: eur("40.00"), customer: "dave" }, headers: { ...capturer, "idempotency-key": "listed-hold" },
  });
  assert.equal(held.status, 201, held.text);
  const released = await call(worker.base, "POST", "/v1/releases", {
    body: { code: "LISTED", key: "listed-3", reason: "refund, \"quoted\"" }, headers: capturer,
  });
  assert.equal(released.status, 200, released.text);
  const api = (await call(worker.base, "GET", "/v1/codes/LISTED/redemptions?limit=1000", { headers: admin })).json.redemptions;
  assert.equal(api.length, 31);
  const expected = (items) => items.map((r) => [
    String(r.seq), r.idempotency_key ?? "", r.state, r.customer ?? "", r.quote?.total.amount ?? "", r.quote?.discount.amount ?? "",
    r.quote?.payable.amount ?? "", r.quote?.total.currency ?? "", r.released_at ?? r.captured_at ?? r.expires_at ?? "", r.reason ?? "",
  ]);

  const page = await open();
  await signIn(page, "#/code/LISTED");
  await page.getByText("31 redemptions.").waitFor();
  // The README's picture: the top of a code's page.
  await page.setViewportSize({ width: 1100, height: 720 });
  await page.locator("#chart canvas").waitFor();
  await page.screenshot({ path: path.join(OUTPUT, "admin-readme.png") });
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.equal(await page.locator("#redemptions tbody tr").count(), 25, "paged");
  await page.getByRole("button", { name: "Next page" }).last().click();
  assert.equal(await page.locator("#redemptions tbody tr").count(), 6);

  const download = async () => {
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    return parseCsv(readFileSync(await file.path(), "utf8"));
  };
  const all = await download();
  assert.deepEqual(all[0], ["seq", "idempotency_key", "state", "customer", "total", "discount", "payable", "currency", "at", "reason"]);
  assert.deepEqual(all.slice(1), expected(api));

  await page.getByRole("searchbox", { name: "Customer" }).fill("carol");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByText("10 of 31 redemptions match.").waitFor();
  assert.deepEqual((await download()).slice(1), expected(api.filter((r) => r.customer === "carol")));
  await page.getByRole("searchbox", { name: "Customer" }).fill("");
  await page.getByLabel("State").selectOption("held");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByText("1 of 31 redemptions match.").waitFor();
  assert.deepEqual((await download()).slice(1), expected(api.filter((r) => r.state === "held")));
  await page.getByLabel("State").selectOption("");
  await page.getByRole("searchbox", { name: "Key" }).fill("listed-3");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByText("1 of 31 redemptions match.").waitFor();
  const one = await download();
  assert.deepEqual(one.slice(1), expected(api.filter((r) => r.idempotency_key === "listed-3")));
  assert.equal(one[1][2], "released");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("two editors: the second save is refused with 412 and both versions are shown; keeping mine then saves", async () => {
  assert.equal((await put({ code: "SHARED", discount: { kind: "percent", percent: "10" } })).status, 201);
  const first = await open();
  const second = await open(768);
  await signIn(first, "#/edit/SHARED");
  await signIn(second, "#/edit/SHARED");
  for (const page of [first, second]) await page.getByRole("heading", { name: "Edit SHARED" }).waitFor();
  assert.equal(await first.getByRole("textbox", { name: "Percent", exact: true }).inputValue(), "10");

  await first.getByRole("textbox", { name: "Percent", exact: true }).fill("20");
  await first.getByRole("button", { name: "Save", exact: true }).click();
  await first.getByRole("heading", { name: "SHARED", exact: true }).waitFor();

  await second.getByRole("textbox", { name: "Percent", exact: true }).fill("30");
  await second.getByRole("button", { name: "Save", exact: true }).click();
  await second.getByRole("heading", { name: "Someone else saved this code meanwhile" }).waitFor();
  await second.getByText("Someone changed this code since you opened it.").waitFor();
  assert.match(await second.locator("#conflict-mine").textContent(), /"percent": "30"/);
  assert.match(await second.locator("#conflict-theirs").textContent(), /"percent": "20"/);
  assert.equal((await call(worker.base, "GET", "/v1/codes/SHARED", { headers: admin })).json.discount.percent, "20");
  await axe(second, "conflict");
  for (const width of WIDTHS) {
    await second.setViewportSize({ width, height: 900 });
    await shoot(second, "conflict");
  }
  await second.getByRole("button", { name: "Save mine over theirs" }).click();
  await second.getByRole("heading", { name: "SHARED", exact: true }).waitFor();
  // The code's page shows once the save has been answered; the definition read back is mine.
  await second.getByRole("heading", { name: "Someone else saved this code meanwhile" }).waitFor({ state: "hidden" });
  assert.equal((await call(worker.base, "GET", "/v1/codes/SHARED", { headers: admin })).json.discount.percent, "30");

  // A new code over an existing one: refused too (If-None-Match: *), both shown.
  await second.goto(`${worker.base}/admin/#/new`);
  await second.getByRole("textbox", { name: "Code", exact: true }).fill("SHARED");
  await second.getByRole("textbox", { name: "Percent", exact: true }).fill("5");
  await second.getByRole("button", { name: "Save", exact: true }).click();
  await second.getByText("A code SHARED already exists.").waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/codes/SHARED", { headers: admin })).json.discount.percent, "30");
  for (const page of [first, second]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("what anyone typed is shown as text: a sku, a category, a reason and a customer id holding HTML", async () => {
  assert.equal((await put({ code: "XSS", discount: { kind: "percent", percent: "10" }, applies_to: { skus: [XSS_SKU], categories: [XSS_SKU] } })).status, 201);
  const line = { sku: XSS_SKU, quantity: 1, unit_price: eur("20.00"), categories: [XSS_SKU] };
  const r = await call(worker.base, "POST", "/v1/captures", {
    body: { code: "XSS", lines: [line], customer: XSS }, headers: { ...capturer, "idempotency-key": "xss-1" },
  });
  assert.equal(r.status, 201, r.text);
  assert.equal((await call(worker.base, "POST", "/v1/releases", { body: { code: "XSS", key: "xss-1", reason: XSS }, headers: capturer })).status, 200);
  const page = await open();
  await signIn(page);
  const row = page.getByRole("row", { name: /XSS/ }).first();
  await row.waitFor();
  assert.ok((await row.textContent()).includes(XSS_SKU));
  await page.goto(`${worker.base}/admin/#/code/XSS`);
  await page.getByRole("cell", { name: XSS }).first().waitFor();
  // The summary and the redemptions are read separately: wait for the summary's text too.
  await page.waitForFunction((sku) => document.getElementById("code-summary")?.textContent.includes(sku), XSS_SKU);
  assert.ok((await page.locator("#code-summary").textContent()).includes(XSS_SKU));
  assert.equal(await page.locator("#redemptions tbody tr").first().locator("td").nth(3).textContent(), XSS);
  assert.equal(await page.locator("#redemptions tbody tr").first().locator("td").nth(7).textContent(), XSS);
  await page.goto(`${worker.base}/admin/#/edit/XSS`);
  await page.getByRole("heading", { name: "Edit XSS" }).waitFor();
  await page.waitForFunction(() => document.getElementById("f-skus").value !== "");
  assert.equal(await page.getByLabel("SKUs", { exact: true }).inputValue(), XSS_SKU);
  assert.equal(await page.locator("main img").count(), 0, "no element was made of the text");
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("API errors as sentences with what to do: 404, 401 (a token revoked meanwhile), and 412, 413, 429, 5xx", async () => {
  const page = await open();
  await page.goto(`${worker.base}/admin/`);
  const sentences = await page.evaluate(async () => {
    const { explain } = await import("/admin/admin.js");
    return Object.fromEntries([400, 401, 404, 412, 413, 429, 500, 503, 0]
      .map((status) => [status, explain(status, { type: "/problems/x", detail: "the detail" })]));
  });
  assert.match(sentences[412], /Someone changed this code since you opened it\. Compare both versions, then save again\./);
  assert.match(sentences[413], /too large to send \(the detail\)\. Shorten it/);
  assert.match(sentences[429], /Too many requests for now\. Wait a few seconds, then try again\./);
  assert.match(sentences[500], /The server failed to answer \(error 500: the detail\)\. Try again in a minute/);
  assert.match(sentences[503], /error 503/);
  assert.match(sentences[400], /The server refused this: the detail\. Correct it and try again\./);
  assert.match(sentences[0], /could not be reached/);
  for (const sentence of Object.values(sentences)) assert.match(sentence, /^[A-Z].*\.$/, "a sentence");
  await signIn(page, "#/code/NOSUCHCODE");
  await page.getByText("This code does not exist or is archived").waitFor();
  assert.match(await page.getByRole("alert").first().textContent(), /Check its name, or show archived codes in the list\./);
  await page.evaluate(() => sessionStorage.setItem("promocodes.admin-token", "revoked"));
  await page.goto(`${worker.base}/admin/#/`);
  await page.getByText("The admin token was not accepted. Sign in again with the current token.").waitFor();
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.length), 0);
  await page.context().close();
});

test("numbers, money and dates in the browser's locale: German", async () => {
  assert.equal((await put({ code: "LOCALE", discount: { kind: "percent", percent: "12.5", max: eur("1000.00") }, starts_at: "2026-03-01T12:00:00Z" })).status, 201);
  for (let i = 0; i < 2; i++) assert.equal((await capture("LOCALE", `locale-${i}`, { total: eur("1234.50") })).status, 201);
  const context = await suite.browser().newContext({ viewport: { width: 1280, height: 900 }, locale: "de-DE", timezoneId: "Europe/Berlin" });
  const page = await context.newPage();
  await signIn(page, "#/code/LOCALE");
  await page.getByRole("cell", { name: "locale-1" }).waitFor();
  const summary = await page.locator("#code-summary").textContent();
  assert.match(summary, /12,5\s%/, summary);
  assert.match(summary, /1\.000,00\s€/, summary);
  assert.match(summary, /01\.03\.2026, 13:00/, summary);
  const row = await page.locator("#redemptions tbody tr").first().locator("td").allTextContents();
  assert.match(row[4], /1\.234,50\s€/);
  await shoot(page, "code-page-de");
  await context.close();
});
test("everything with the keyboard: sign in, New code, Save, the kill switch and its confirmation", async () => {
  const page = await open();
  await page.goto(`${worker.base}/admin/`);
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), "token", "the token field has the focus");
  await page.keyboard.type(ADMIN_TOKEN);
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "Codes" }).waitFor();
  /** Presses Tab (or Shift+Tab, `back`) until the focused element matches `selector` (at most 40 times). */
  const tabTo = async (selector, back = false) => {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press(back ? "Shift+Tab" : "Tab");
      if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
    }
    assert.fail(`Tab never reached ${selector}`);
  };
  await tabTo('nav a[href="#/new"]', true);
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "New code" }).waitFor();
  await page.getByText("The preview waits for a valid definition.").waitFor();
  await tabTo("#f-code");
  await page.keyboard.type("KEYED1");
  await tabTo("#f-percent");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("15");
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "KEYED1" }).waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/codes/KEYED1", { headers: admin })).json.discount.percent, "15");

  await tabTo('nav a[href="#/"]', true);
  await page.keyboard.press("Enter");
  await page.getByRole("switch", { name: "Active: KEYED1" }).waitFor();
  await tabTo('[aria-label="Active: KEYED1"]');
  await page.keyboard.press("Space");
  await page.getByRole("dialog").waitFor();
  await tabTo("#confirm-ok");
  await page.keyboard.press("Enter");
  await page.getByText("KEYED1 is now switched off.").waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/codes/KEYED1", { headers: admin })).json.active, false);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Active: KEYED1", "the focus returns to the switch");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a view that loads slowly leaves the focus where the keyboard moved it meanwhile: Enter on New code opens it", async () => {
  const page = await open();
  // Every catalog page takes 3 s, the one sign in asks for included.
  await page.route(/\/v1\/codes\?/, async (request) => {
    await new Promise((r) => setTimeout(r, 3000));
    await request.continue();
  });
  const listed = page.waitForResponse((r) => r.url().includes("/v1/codes?") && !r.url().endsWith("?limit=1"));
  let loaded = false;
  listed.then(() => { loaded = true; }, () => {});
  await page.goto(`${worker.base}/admin/`);
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  await page.keyboard.type(ADMIN_TOKEN);
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "Codes" }).waitFor(); // shown before its list has loaded
  for (let i = 0; i < 40 && !(await page.evaluate(() => document.activeElement?.matches('nav a[href="#/new"]'))); i++) {
    await page.keyboard.press("Shift+Tab");
  }
  assert.equal(loaded, false, "the link is reached while the view still loads");
  await listed; // the catalog's list: the view has loaded, and then moves the focus if it may
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("href")), "#/new", "the focus stays on the link");
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "New code" }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the audience from a CSV file: its customer ids fill the field, the code is saved assigned to them", async () => {
  const page = await open();
  await signIn(page, "#/new");
  await page.getByRole("textbox", { name: "Code", exact: true }).fill("FORSOME");
  await page.getByRole("textbox", { name: "Percent", exact: true }).fill("10"); // nothing is prefilled
  await page.getByLabel("Customer ids from a CSV file").setInputFiles({
    name: "customers.csv", mimeType: "text/csv", buffer: Buffer.from("customer_id,name\r\nalice,Alice A\r\n\"bob\",Bob\r\n"),
  });
  await page.waitForFunction(() => document.getElementById("f-audience").value === "alice\nbob");
  await page.getByText("A basket of €80.00 now: €8.00 off, €72.00 to pay.").waitFor();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "FORSOME", exact: true }).waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/codes/FORSOME", { headers: admin })).json.assigned, true);
  const quote = (customer) => call(worker.base, "POST", "/v1/quotes", {
    body: { code: "FORSOME", customer, total: eur("80.00") }, headers: capturer,
  });
  assert.equal((await quote("bob")).status, 200);
  assert.equal((await quote("mallory")).json.rejection, "not_assigned");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a budget in the form: a zero budget refused as typed, then saved; the catalog shows the budget used", async () => {
  const page = await open();
  await signIn(page, "#/new");
  await page.getByRole("textbox", { name: "Code", exact: true }).fill("BUDGETED");
  await page.getByRole("textbox", { name: "Percent", exact: true }).fill("10"); // nothing is prefilled
  await page.getByRole("textbox", { name: "Currency", exact: true }).fill("EUR");
  await page.getByLabel("Budget", { exact: true }).fill("0");
  await page.getByLabel("Budget", { exact: true }).blur();
  await page.getByText("Limits.budget must be above zero; omit it for no budget").waitFor();
  await page.getByLabel("Budget", { exact: true }).fill("20.00");
  await page.getByLabel("When the budget is short").selectOption("partial");
  await page.getByText("A basket of €80.00 now: €8.00 off, €72.00 to pay.").waitFor();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "BUDGETED", exact: true }).waitFor();
  const stored = await call(worker.base, "GET", "/v1/codes/BUDGETED", { headers: admin });
  assert.deepEqual(stored.json.limits, { budget: eur("20.00"), when_budget_short: "partial" });
  const capture = await call(worker.base, "POST", "/v1/captures", {
    body: { code: "BUDGETED", total: eur("80.00") }, headers: { ...capturer, "idempotency-key": "budgeted-1" },
  });
  assert.equal(capture.status, 201, capture.text);
  await page.getByRole("link", { name: "Codes" }).click();
  const row = page.getByRole("row", { name: /BUDGETED/ });
  await row.waitFor();
  await page.waitForFunction(() => /€8\.00 of €20\.00/.test(document.querySelector("#codes tbody")?.textContent ?? ""));
  assert.match(await row.textContent(), /€8\.00 of €20\.00/);
  await page.goto(`${worker.base}/admin/#/edit/BUDGETED`);
  await page.getByRole("heading", { name: "Edit BUDGETED" }).waitFor();
  await page.waitForFunction(() => document.getElementById("f-budget").value === "20.00");
  assert.equal(await page.getByLabel("When the budget is short").inputValue(), "partial");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("combines with: the classes checked are saved as combines_with and shown again when editing", async () => {
  const page = await open();
  await signIn(page, "#/new");
  await page.getByRole("textbox", { name: "Code", exact: true }).fill("STACKS");
  await page.getByRole("textbox", { name: "Percent", exact: true }).fill("10"); // nothing is prefilled
  await page.getByRole("checkbox", { name: "Order codes" }).check();
  await page.getByRole("checkbox", { name: "Shipping codes" }).check();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "STACKS" }).waitFor();
  const stored = await call(worker.base, "GET", "/v1/codes/STACKS", { headers: admin });
  assert.deepEqual(stored.json.combines_with, ["order", "shipping"]);
  await page.goto(`${worker.base}/admin/#/edit/STACKS`);
  await page.getByRole("heading", { name: "Edit STACKS" }).waitFor();
  await page.waitForFunction(() => document.getElementById("f-combines-shipping").checked);
  assert.equal(await page.getByRole("checkbox", { name: "Order codes" }).isChecked(), true);
  assert.equal(await page.getByRole("checkbox", { name: "Product codes" }).isChecked(), false);
  // Unchecked again: saved without combines_with.
  await page.getByRole("checkbox", { name: "Order codes" }).uncheck();
  await page.getByRole("checkbox", { name: "Shipping codes" }).uncheck();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "STACKS" }).waitFor();
  let again;
  for (let i = 0; i < 50; i++) {
    again = await call(worker.base, "GET", "/v1/codes/STACKS", { headers: admin });
    if (again.json.combines_with === undefined) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(again.json.combines_with, undefined);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("an automatic promotion: the switch and its priority are saved, listed in the catalog and shown again", async () => {
  const page = await open();
  await signIn(page, "#/new");
  await page.getByRole("textbox", { name: "Code", exact: true }).fill("AUTOADM");
  await page.getByRole("textbox", { name: "Percent", exact: true }).fill("10"); // nothing is prefilled
  await page.getByRole("checkbox", { name: "Automatic: applies without a code to type" }).check();
  // A priority the core refuses is shown next to its field, as typed.
  await page.getByRole("textbox", { name: "Priority" }).fill("1000001");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.locator("#f-priority-error").filter({ hasText: "priority" }).waitFor();
  await page.getByRole("textbox", { name: "Priority" }).fill("7");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "AUTOADM" }).waitFor();
  const stored = await call(worker.base, "GET", "/v1/codes/AUTOADM", { headers: admin });
  assert.equal(stored.json.automatic, true);
  assert.equal(stored.json.priority, 7);
  const listed = await call(worker.base, "GET", "/v1/automatic", { headers: admin });
  assert.ok(listed.json.promotions.some((p) => p.code === "AUTOADM"));
  await page.goto(`${worker.base}/admin/#/`);
  await page.getByLabel("Code starts with").fill("autoadm");
  await page.getByRole("button", { name: "Search" }).click();
  const row = page.getByRole("row", { name: /AUTOADM/ });
  await row.waitFor();
  assert.equal(await row.locator("td").nth(4).innerText(), "Priority 7");
  await page.goto(`${worker.base}/admin/#/edit/AUTOADM`);
  await page.getByRole("heading", { name: "Edit AUTOADM" }).waitFor();
  await page.waitForFunction(() => document.getElementById("f-automatic").checked);
  assert.equal(await page.getByRole("textbox", { name: "Priority" }).inputValue(), "7");
  assert.deepEqual(page.errors, []);
  await page.context().close();
  await call(worker.base, "DELETE", "/v1/codes/AUTOADM", { headers: admin });
});

test("a budgeted code's page: budget spent over the last hour, what was given away and back", async () => {
  assert.equal((await put({
    code: "SPENDWATCH", discount: { kind: "percent", percent: "10" }, limits: { budget: eur("50.00") },
  })).status, 201);
  for (const key of ["watch-1", "watch-2"]) {
    const r = await call(worker.base, "POST", "/v1/captures", {
      body: { code: "SPENDWATCH", total: eur("80.00") }, headers: { ...capturer, "idempotency-key": key },
    });
    assert.equal(r.status, 201, r.text);
  }
  const released = await call(worker.base, "POST", "/v1/releases", { body: { code: "SPENDWATCH", key: "watch-2", reason: "refund" }, headers: capturer });
  assert.equal(released.status, 200);
  const page = await open();
  await signIn(page, "#/code/SPENDWATCH");
  await page.getByRole("heading", { name: "Budget spent, the last hour" }).waitFor();
  await page.getByText("€8.00 of €50.00 counted now, held uses included; €42.00 left.").waitFor();
  await page.locator("#budget-chart canvas").first().waitFor();
  const totals = await page.locator("#totals").textContent();
  assert.match(totals, /Given away€16\.00/);
  assert.match(totals, /Given back€8\.00/);
  await axe(page, "budgeted code");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shoot(page, "code-budget");
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("campaigns: listed, a campaign's figures, codes generated from a pattern, the CSV download equals the API's export; axe and screenshots", async () => {
  const defined = await call(worker.base, "PUT", "/v1/campaigns/SPRING", {
    body: { discount: { kind: "percent", percent: "15" }, limits: { total: 100 } }, headers: admin,
  });
  assert.equal(defined.status, 201, defined.text);
  const page = await open();
  await signIn(page, "#/campaigns");
  await page.getByRole("heading", { name: "Campaigns", exact: true }).waitFor();
  await page.getByRole("link", { name: "SPRING", exact: true }).waitFor();
  await axe(page, "campaigns");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shoot(page, "campaigns");
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole("link", { name: "SPRING", exact: true }).click();
  await page.getByRole("heading", { name: "SPRING", exact: true }).waitFor();
  await page.locator("#code-summary").getByText(/0 codes of 1 use each; 0 used · 0 left: no codes yet\.$/).waitFor();

  // Refused as the server refuses: a pattern with fewer than 8 #.
  await page.getByRole("textbox", { name: "Count", exact: true }).fill("3");
  await page.getByRole("textbox", { name: "Pattern", exact: true }).fill("SP-####");
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  await page.getByText(/The codes were not generated/).waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/campaigns/SPRING", { headers: admin })).json.codes.count, 0);

  await page.getByRole("textbox", { name: "Pattern", exact: true }).fill("SP-####-####");
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  await page.getByText(/^Generated 3 codes, for example SP-/).waitFor();
  await page.locator("#code-summary").getByText(/3 codes of 1 use each; 0 used · 3 left: its 3 codes\.$/).waitFor();
  await axe(page, "campaign");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shoot(page, "campaign");
  }

  // The chart of the campaign's last hour, and its kill switch (If-Match, after a confirmation).
  await page.locator("#chart canvas").waitFor();
  await page.getByRole("button", { name: "Switch off", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Switch off" }).click();
  await page.getByText("SPRING is now switched off.").waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/campaigns/SPRING", { headers: admin })).json.active, false);
  await page.locator("#code-summary").getByText(/^Switched off: /).waitFor();
  await page.getByRole("button", { name: "Switch on", exact: true }).click();
  await page.getByText("SPRING is now active.").waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/campaigns/SPRING", { headers: admin })).json.active, true);

  const exported = await fetch(`${worker.base}/v1/campaigns/SPRING/codes`, { headers: { ...admin, accept: "text/csv" } });
  assert.equal(exported.status, 200);
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download the codes as CSV" }).click()]);
  const text = readFileSync(await file.path(), "utf8");
  assert.equal(text, await exported.text(), "the download is the API's export");
  const downloaded = text.split(/\r?\n/).filter(Boolean).map((line) => line.split(","));
  assert.deepEqual(downloaded[0], ["code", "uses", "held"]);
  assert.equal(downloaded.length, 4);
  assert.ok(downloaded.slice(1).every(([code]) => /^SP-[A-Z2-9]{4}-[A-Z2-9]{4}$/.test(code)), String(downloaded));

  await page.getByRole("button", { name: "Archive", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Archive" }).click();
  await page.getByText("SPRING is archived.").waitFor();
  await page.getByRole("heading", { name: "Campaigns", exact: true }).waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/campaigns/SPRING", { headers: admin })).json.archived, true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

const putCampaign = (id, definition) => call(worker.base, "PUT", `/v1/campaigns/${id}`, { body: definition, headers: admin });
const addCodes = (id, codes) => call(worker.base, "POST", `/v1/campaigns/${id}/codes`, {
  body: { codes }, headers: { ...admin, "idempotency-key": `console-test-${id}` },
});

test("the catalog lists campaigns beside codes: marked, its switch (a quote of its code refused inactive), Archive and Restore; axe and screenshots", async () => {
  const definition = {
    discount: { kind: "percent", percent: "20" }, limits: { total: 10, budget: eur("50.00") },
    starts_at: "2026-01-01T09:00:00Z", ends_at: "2027-01-01T00:00:00Z",
  };
  assert.equal((await putCampaign("CATCAMP", definition)).status, 201);
  assert.equal((await addCodes("CATCAMP", ["CATCAMP-1", "CATCAMP-2"])).status, 201);
  assert.equal((await put({ code: "CATCODE", discount: { kind: "percent", percent: "5" } })).status, 201);
  const quote = () => call(worker.base, "POST", "/v1/quotes", { body: { code: "CATCAMP-1", total: eur("80.00") } });
  assert.equal((await quote()).status, 200);

  const page = await open();
  await signIn(page);
  await page.getByLabel("Code starts with").fill("cat");
  await page.getByRole("button", { name: "Search" }).click();
  const row = page.getByRole("row", { name: /CATCAMP/ });
  await row.waitFor();
  await page.getByRole("row", { name: /CATCODE/ }).waitFor();
  const names = () => page.locator("#codes tbody th a").allTextContents();
  await page.waitForFunction(() => document.querySelectorAll("#codes tbody tr").length === 2);
  assert.deepEqual(await names(), ["CATCAMP", "CATCODE"], "one list, by name");
  const text = await row.textContent();
  assert.match(text, /Campaign/, "marked as a campaign");
  assert.match(text, /20% off/);
  assert.match(text, /1 Jan 2026, 10:00 – 1 Jan 2027, 01:00/, "the window in the operator's time zone");
  assert.equal(await row.locator("td").nth(2).innerText(), "0 used · 2 left: its 2 codes\n2 codes, 0 used", "uses, then its codes");
  assert.match(text, /€0\.00 of €50\.00/, "the budget used");
  assert.doesNotMatch(await page.getByRole("row", { name: /CATCODE/ }).textContent(), /Campaign/);
  assert.equal(await row.getByRole("link", { name: "CATCAMP", exact: true }).getAttribute("href"), "#/campaign/CATCAMP");
  assert.equal(await row.getByRole("link", { name: /Edit/ }).getAttribute("href"), "#/editcampaign/CATCAMP", "a campaign is edited in the campaign's form");
  await axe(page, "catalog with a campaign");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shoot(page, "catalog-campaign");
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The kill switch: off after a confirmation, with the campaign's ETag; every code of it refused.
  const toggle = page.getByRole("switch", { name: "Active: CATCAMP" });
  assert.equal(await toggle.isChecked(), true);
  await toggle.click();
  const dialog = page.getByRole("dialog");
  await dialog.getByText("Buyers' quotes, holds and captures of every code of CATCAMP are refused at once").waitFor();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await page.waitForFunction(() => document.querySelector('[aria-label="Active: CATCAMP"]').checked, null, { timeout: 5_000 });
  assert.equal((await quote()).status, 200, "cancelled: still on");
  await toggle.click();
  await dialog.getByRole("button", { name: "Switch off" }).click();
  await page.getByText("CATCAMP is now switched off.").waitFor();
  const refused = await quote();
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.json.rejection, "inactive");
  await toggle.click();
  await page.getByText("CATCAMP is now active.").waitFor();
  assert.equal((await quote()).status, 200);

  // Archive, then Restore: defined again as it was, its codes usable again.
  const before = (await call(worker.base, "GET", "/v1/campaigns/CATCAMP", { headers: admin })).json;
  await row.getByRole("button", { name: "Archive CATCAMP" }).click();
  await dialog.getByText("Every code of CATCAMP reads as unknown to buyers").waitFor();
  await dialog.getByRole("button", { name: "Archive" }).click();
  await page.getByText("CATCAMP is archived.").waitFor();
  await page.getByRole("row", { name: /CATCAMP/ }).waitFor({ state: "hidden" });
  assert.equal((await quote()).status, 404);
  await page.getByLabel("Show archived codes").check();
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("row", { name: /CATCAMP/ }).getByText("Archived").waitFor();
  assert.equal(await page.getByRole("switch", { name: "Active: CATCAMP" }).isDisabled(), true);
  await page.getByRole("button", { name: "Restore CATCAMP" }).click();
  await page.getByText("CATCAMP is restored.").waitFor();
  const after = (await call(worker.base, "GET", "/v1/campaigns/CATCAMP", { headers: admin })).json;
  assert.equal(after.archived, false);
  assert.deepEqual({ ...after, archived: undefined }, { ...before, archived: undefined }, "the same definition, counts and codes");
  assert.equal((await quote()).status, 200);
  await page.getByRole("button", { name: "Archive CATCAMP" }).waitFor();

  // The Campaigns link: the same list, campaigns only.
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Campaigns" }).click();
  await page.getByRole("heading", { name: "Campaigns", exact: true }).waitFor();
  await page.getByRole("row", { name: /CATCODE/ }).waitFor({ state: "hidden" });
  await page.getByRole("row", { name: /CATCAMP/ }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the catalog pages codes and campaigns together, in name order", async () => {
  const names = Array.from({ length: 24 }, (_, i) => `PGX${String(i).padStart(2, "0")}`);
  for (const [i, name] of names.entries()) {
    const r = i % 2 === 0
      ? await put({ code: name, discount: { kind: "percent", percent: "10" } })
      : await putCampaign(name, { discount: { kind: "percent", percent: "10" } });
    assert.equal(r.status, 201, r.text);
  }
  const page = await open();
  await signIn(page);
  await page.getByLabel("Code starts with").fill("PGX");
  await page.getByRole("button", { name: "Search" }).click();
  const onPage = (n) => page.waitForFunction((text) => document.getElementById("codes-page").textContent === text, `Page ${n}`);
  await page.getByRole("row", { name: /PGX19/ }).waitFor();
  await onPage(1);
  const shown = () => page.locator("#codes tbody th a").allTextContents();
  assert.deepEqual(await shown(), names.slice(0, 20));
  const kinds = await page.locator("#codes tbody tr").evaluateAll((rows) => rows.map((r) => r.dataset.kind));
  assert.deepEqual(kinds, names.slice(0, 20).map((_, i) => (i % 2 === 0 ? "code" : "campaign")));
  assert.equal(await page.getByRole("button", { name: "Previous page" }).isDisabled(), true);
  await page.getByRole("button", { name: "Next page" }).click();
  await onPage(2);
  await page.getByRole("row", { name: /PGX23/ }).waitFor();
  assert.deepEqual(await shown(), names.slice(20));
  assert.equal(await page.getByRole("button", { name: "Next page" }).isDisabled(), true);
  await page.getByRole("button", { name: "Previous page" }).click();
  await page.getByRole("row", { name: /PGX00/ }).waitFor();
  assert.deepEqual(await shown(), names.slice(0, 20));

  // The merge itself: a list is known only up to its cursor.
  const merged = await page.evaluate(async () => {
    const { mergePages } = await import("/admin/admin.js");
    const codes = (...names) => names.map((code) => ({ code }));
    const campaigns = (...names) => names.map((id) => ({ id }));
    const names = ({ rows, next }) => ({ rows: rows.map((r) => `${r.kind}:${r.name}`), next });
    return [
      names(mergePages([{ kind: "code", items: codes("A", "C", "E"), next: "E" }, { kind: "campaign", items: campaigns("B", "D", "F", "G"), next: null }], 10)),
      names(mergePages([{ kind: "code", items: codes("A", "C", "E"), next: "E" }, { kind: "campaign", items: campaigns("B", "D", "F", "G"), next: null }], 3)),
      names(mergePages([{ kind: "code", items: codes("A"), next: null }, { kind: "campaign", items: campaigns("B"), next: null }], 3)),
    ];
  });
  assert.deepEqual(merged, [
    { rows: ["code:A", "campaign:B", "code:C", "campaign:D", "code:E"], next: "E" },
    { rows: ["code:A", "campaign:B", "code:C"], next: "C" },
    { rows: ["code:A", "campaign:B"], next: null },
  ]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a campaign's page: totals, budget spent, its redemptions with their codes, filtered (code too); the CSV equals the API's list; axe and screenshots", async () => {
  assert.equal((await putCampaign("WATCHCAMP", {
    discount: { kind: "percent", percent: "10" }, limits: { budget: eur("100.00") }, uses_per_code: 3,
  })).status, 201);
  assert.equal((await addCodes("WATCHCAMP", ["WC-1", "WC-2", "WC-3"])).status, 201);
  for (const [code, key, customer] of [["WC-1", "wc-a", "erin"], ["WC-1", "wc-b", "frank"], ["WC-2", "wc-c", "erin"]]) {
    const r = await capture(code, key, { customer });
    assert.equal(r.status, 201, r.text);
  }
  const held = await call(worker.base, "POST", "/v1/holds", {
    body: { code: "WC-3", total: eur("40.00"), customer: "gina" }, headers: { ...capturer, "idempotency-key": "wc-d" },
  });
  assert.equal(held.status, 201, held.text);
  const released = await call(worker.base, "POST", "/v1/releases", { body: { code: "WC-2", key: "wc-c", reason: "refund" }, headers: capturer });
  assert.equal(released.status, 200, released.text);

  const page = await open();
  await signIn(page, "#/campaign/WATCHCAMP");
  await page.getByRole("heading", { name: "WATCHCAMP", exact: true }).waitFor();
  await page.getByText("4 redemptions.").waitFor();
  // A capture made through the API now appears, with the code it came through.
  assert.equal((await capture("WC-3", "wc-e", { customer: "hal" })).status, 201);
  await page.waitForFunction(() => [...document.querySelectorAll("#totals div")]
    .some((d) => d.querySelector("dt").textContent === "Captures" && d.querySelector("dd").textContent === "4"), null, { timeout: 15_000 });
  await page.reload();
  await page.getByText("5 redemptions.").waitFor();
  const api = (await call(worker.base, "GET", "/v1/campaigns/WATCHCAMP/redemptions?limit=1000", { headers: admin })).json.redemptions;
  assert.equal(api.length, 5);
  const added = page.getByRole("row", { name: /wc-e/ });
  assert.deepEqual((await added.locator("td").allTextContents()).slice(0, 5),
    [String(api.find((r) => r.idempotency_key === "wc-e").seq), "WC-3", "wc-e", "captured", "hal"]);
  assert.equal(await page.getByRole("columnheader", { name: "Code", exact: true }).isVisible(), true);

  // Totals since it was defined and the budget, as the API counts them.
  const totals = await page.locator("#totals").textContent();
  assert.match(totals, /Captures4/);
  assert.match(totals, /Releases1/);
  assert.match(totals, /Given away€32\.00/);
  assert.match(totals, /Given back€8\.00/);
  const summary = (await call(worker.base, "GET", "/v1/campaigns/WATCHCAMP", { headers: admin })).json;
  assert.deepEqual([summary.usage.discounted, summary.remaining_budget], [eur("28.00"), eur("72.00")], "3 captures and a hold of €4.00 count");
  await page.getByRole("heading", { name: "Budget spent, the last hour" }).waitFor();
  await page.getByText("€28.00 of €100.00 counted now, held uses included; €72.00 left.").waitFor();
  await page.locator("#budget-chart canvas").first().waitFor();
  const { codes, usage } = summary;
  assert.ok((await page.locator("#code-summary").textContent()).includes(
    `${codes.count} codes of 3 uses each; ${usage.total - usage.held} used · ${usage.held} held`,
  ));
  assert.deepEqual([codes.count, usage.held], [3, 1]);
  await axe(page, "campaign page");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shoot(page, "campaign-page");
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  const expected = (items) => items.map((r) => [
    String(r.seq), r.code, r.idempotency_key ?? "", r.state, r.customer ?? "", r.quote?.total.amount ?? "", r.quote?.discount.amount ?? "",
    r.quote?.payable.amount ?? "", r.quote?.total.currency ?? "", r.released_at ?? r.captured_at ?? r.expires_at ?? "", r.reason ?? "",
  ]);
  const download = async () => {
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    return parseCsv(readFileSync(await file.path(), "utf8"));
  };
  const all = await download();
  assert.deepEqual(all[0], ["seq", "code", "idempotency_key", "state", "customer", "total", "discount", "payable", "currency", "at", "reason"]);
  assert.deepEqual(all.slice(1), expected(api));

  for (const [field, value, keep, matching] of [
    ["Code", "wc-1", (r) => r.code === "WC-1", "2 of 5 redemptions match."],
    ["Customer", "erin", (r) => r.customer === "erin", "2 of 5 redemptions match."],
    ["Key", "wc-d", (r) => r.idempotency_key === "wc-d", "1 of 5 redemptions match."],
  ]) {
    await page.getByRole("searchbox", { name: field, exact: true }).fill(value);
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText(matching).waitFor();
    const rows = await download();
    assert.ok(rows.length > 1, `${field} ${value}: rows`);
    assert.deepEqual(rows.slice(1), expected(api.filter(keep)), `${field} ${value}`);
    await page.getByRole("searchbox", { name: field, exact: true }).fill("");
  }
  await page.getByLabel("State").selectOption("released");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByText("1 of 5 redemptions match.").waitFor();
  const releasedRows = await download();
  assert.deepEqual(releasedRows.slice(1), expected(api.filter((r) => r.state === "released")));
  assert.deepEqual(releasedRows[1].slice(1, 4), ["WC-2", "wc-c", "released"]);

  // A code's page has no code column or filter.
  await page.goto(`${worker.base}/admin/#/code/WC-1`);
  await page.getByRole("heading", { name: "WC-1", exact: true }).waitFor();
  await page.getByText("2 redemptions.").waitFor();
  assert.equal(await page.getByRole("searchbox", { name: "Code", exact: true }).count(), 0);
  assert.equal(await page.getByRole("button", { name: "Generate", exact: true }).count(), 0);
  await page.goto(`${worker.base}/admin/#/campaign/NOSUCHCAMP`);
  await page.getByText("This campaign does not exist or is archived").waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
