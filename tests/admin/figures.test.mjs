// Figures worth watching and the change history in the console (issue 35, items 8 and 9), end to end:
// the real Worker under wrangler dev (demo routes on, so the checkout page runs too), Chromium through
// playwright-core, axe-core on each view, at 1280 × 800 and 390 × 844; screenshots to test-output/.
//
// Buyers try a code below its minimum on the checkout page (the browser refuses it: no quote reaches
// the Worker), the page's beacon reports it, and the operator reads "below the minimum", shown by the
// page, with the sentence the buyer read; the ranges, the orders and the discount given; the series'
// line styles; a note typed next to Save lands in the code's change history, listed on its page, and
// a campaign's changes on the campaign's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { admin, call, capturer } from "../worker/harness.mjs";
import { axe, consoleSuite, SCREENS, shoot as shootAs } from "./console-page.mjs";

const suite = consoleSuite("figures");
const { worker, signIn } = suite;
const shoot = (page, name) => shootAs(page, "admin-", name);
const open = (size) => suite.open(size, { timeout: 20_000 });

const SIZES = SCREENS;
const eur = (amount) => ({ amount, currency: "EUR" });

/** The figures of a dl as { name: value }. */
const figuresOf = (page, id) => page.evaluate((dl) => Object.fromEntries([...document.querySelectorAll(`#${dl} div`)]
  .map((d) => [d.querySelector("dt").textContent, d.querySelector("dd").textContent])), id);

async function statsOf(code) {
  const r = await call(worker.base, "GET", `/v1/codes/${code}/stats`, { headers: admin });
  assert.equal(r.status, 200, r.text);
  return r.json;
}

test("buyers' refusals on the page reach the operator in words, per range, with orders and the discount given", async () => {
  assert.equal((await call(worker.base, "PUT", "/v1/codes/FIGS10", {
    body: { code: "FIGS10", discount: { kind: "percent", percent: "10" }, minimum: eur("500.00") }, headers: admin,
  })).status, 201);
  // Two buyers try FIGS10 on the checkout page: their baskets are below its €500.00 minimum.
  for (const size of SIZES) {
    const buyer = await open(size);
    await buyer.goto(`${worker.base}/`);
    await buyer.waitForSelector('html[data-ready="true"]');
    await buyer.locator("#code").pressSequentially("figs10");
    await buyer.getByText("FIGS10 needs a basket of at least €500.00.").first().waitFor();
    assert.deepEqual(buyer.errors, []);
    await buyer.context().close();
  }
  // The beacon is counted in the code's object: read with what waits in memory.
  let stats;
  for (let waited = 0; waited < 10_000; waited += 200) {
    stats = await statsOf("FIGS10");
    if (stats.total.tries === 2 && stats.total.rejections.page.below_minimum === 2) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(stats.total.tries, 2, "each buyer's try reported once");
  assert.deepEqual(stats.total.rejections.page, { below_minimum: 2 }, "each refusal shown reported once a page load");
  assert.equal(stats.total.quotes, 0, "the browser priced it: no quote reached the Worker");
  // One order with the code, through a shop server.
  const captured = await call(worker.base, "POST", "/v1/captures", {
    body: { code: "FIGS10", total: eur("600.00") }, headers: { ...capturer, "idempotency-key": "figs-order-1" },
  });
  assert.equal(captured.status, 201, captured.text);

  for (const size of SIZES) {
    const page = await open(size);
    await signIn(page, "#/code/FIGS10");
    await page.locator("#chart canvas").waitFor();
    await page.waitForFunction(() => document.querySelector("#range-figures")?.textContent.includes("Tried on the page"));
    assert.deepEqual(await figuresOf(page, "range-figures"), {
      Orders: "1", "Discount given": "€60.00", "Tried on the page": "2", Refused: "2", Quotes: "0",
    });
    // One table of refusals, in words, by where they were counted, with what the buyer read.
    const header = await page.locator("#refusals thead th").allTextContents();
    const row = await page.locator("#refusals tbody tr").first().locator("th, td").allTextContents();
    const cellOf = (name) => row[header.indexOf(name)];
    assert.equal(cellOf("Reason"), "Below the minimum");
    assert.equal(cellOf("Shown by the page"), "2");
    assert.equal(cellOf("Quotes"), "0");
    assert.equal(cellOf("All"), "2");
    assert.equal(cellOf("What the buyer read"), "FIGS10 needs a basket of at least €500.00.");
    const totals = await figuresOf(page, "totals");
    assert.equal(totals["Refused: below the minimum"], "2", "in words, not below_minimum");
    assert.equal(totals["Tried on the page"], "2");
    assert.doesNotMatch(await page.locator("#view-code").innerText(), /below_minimum/);

    // The series are told apart by their line's style as well as its colour, each named in the legend.
    const markers = await page.locator("#chart .u-legend .u-series").evaluateAll((rows) => rows.slice(1).map((r) => ({
      label: r.querySelector(".u-label")?.textContent, style: getComputedStyle(r.querySelector(".u-marker")).borderTopStyle,
    })));
    assert.deepEqual(markers.map((m) => m.label), ["Captures", "Holds", "Releases", "Expired", "Conflicts", "Replays", "Tried on the page", "Refused"]);
    assert.ok(new Set(markers.map((m) => m.style)).size >= 3, `line styles in the legend: ${markers.map((m) => m.style)}`);
    await axe(page, "a code's figures (last hour)");
    await shoot(page, "figures-hour");

    // Each range: its heading, its table, its figures (the order and the tries are in all of them).
    for (const [label, heading, summary, points] of [
      ["Last 24 hours", "Last 24 hours, by hour", "The last 24 hours as a table", 24],
      ["Last 7 days", "Last 7 days, by hour", "The last 7 days as a table", 168],
      ["Since defined", "Since defined", "The last 7 days as a table (hours are kept for 7 days)", 168],
      ["Last hour", "Last hour, by minute", "The last hour as a table", 60],
    ]) {
      await page.getByLabel(label, { exact: true }).check();
      await page.getByRole("heading", { name: heading, exact: true }).waitFor();
      assert.equal(await page.locator("#points-summary").textContent(), summary);
      const figures = await figuresOf(page, "range-figures");
      assert.equal(figures.Orders, "1", label);
      assert.equal(figures["Tried on the page"], "2", label);
      assert.match(await page.locator("#refusals-heading").textContent(), /^Refusals, /);
      await page.getByText(summary, { exact: true }).click();
      const rows = await page.locator("#minutes tbody tr").count();
      assert.ok(rows >= 1 && rows <= points, `${label}: ${rows} rows of at most ${points}`);
      const firstRow = await page.locator("#minutes tbody tr").first().locator("th, td").allTextContents();
      const head = await page.locator("#minutes thead th").allTextContents();
      assert.equal(head[0], points === 60 ? "Minute" : "Hour");
      assert.equal(firstRow[head.indexOf("Tried on the page")], "2", `${label}: both tries in one ${points === 60 ? "minute" : "hour"}`);
      await page.getByText(summary, { exact: true }).click();
      if (label === "Last 7 days") {
        await axe(page, "a code's figures (7 days)");
        await shoot(page, "figures-week");
      }
    }
    // The range radio buttons are 44 px touch targets.
    const heights = await page.locator("#range label").evaluateAll((labels) => labels.map((l) => l.getBoundingClientRect().height));
    assert.ok(heights.every((h) => h >= 44), `range targets: ${heights}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("a note typed next to Save lands in the code's change history, listed on its page; a campaign's too", async () => {
  assert.equal((await call(worker.base, "PUT", "/v1/codes/NOTE5", {
    body: { code: "NOTE5", discount: { kind: "percent", percent: "5" } }, headers: { ...admin, "x-change-note": "First version" },
  })).status, 201);
  const campaign = { discount: { kind: "percent", percent: "10" }, limits: { total: 100 } };
  assert.equal((await call(worker.base, "PUT", "/v1/campaigns/WINTER", { body: campaign, headers: { ...admin, "x-change-note": "Launch" } })).status, 201);
  assert.equal((await call(worker.base, "PATCH", "/v1/campaigns/WINTER", { body: { active: false }, headers: { ...admin, "x-change-note": encodeURIComponent("Paused: stock – €") } })).status, 200);

  for (const [i, size] of SIZES.entries()) {
    const page = await open(size);
    await signIn(page, "#/edit/NOTE5");
    // The form is filled once the definition is read: wait for it, or that fill overwrites what is typed.
    await page.waitForFunction(() => document.getElementById("f-code").value === "NOTE5");
    const minimum = page.getByLabel("Minimum basket", { exact: false }).first();
    await minimum.fill(`${20 + i}.00`);
    // A minimum needs a currency; the form no longer prefills one.
    await page.getByRole("textbox", { name: "Currency", exact: true }).fill("EUR");
    const note = `Raise the minimum (${size.width} px) – für alle`;
    await page.getByLabel(/^Note/).fill(note);
    const started = Date.now();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("heading", { name: "NOTE5", exact: true }).waitFor();
    await page.locator("#changes tbody tr").nth(i + 1).waitFor();
    console.log(`# ${size.width} px: saved with a note, listed on the code's page in ${Date.now() - started} ms`);
    const rows = await page.locator("#changes tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    assert.equal(rows.length, i + 2);
    const [when, change, fields, noted, tags] = rows[0];
    assert.match(when, /\d/);
    assert.equal(change, "Edited");
    assert.equal(fields, "minimum");
    assert.equal(noted, note, "the note, as typed (any language)");
    assert.match(tags, /^[0-9a-f]{8} → [0-9a-f]{8}$/);
    assert.deepEqual(rows.at(-1).slice(1, 4), ["Defined", "—", "First version"]);
    assert.match(await page.locator("#changes-count").textContent(), new RegExp(`^${i + 2} changes, newest first\\.$`));
    const api = await call(worker.base, "GET", "/v1/codes/NOTE5/changes", { headers: admin });
    assert.equal(api.json.changes.at(-1).note, note);
    assert.equal(await page.getByLabel(/^Note/).inputValue().catch(() => ""), "", "the note field is cleared after a save");
    await page.getByRole("heading", { name: "Changes" }).scrollIntoViewIfNeeded();
    await axe(page, "a code's page with its changes");
    await shoot(page, "changes-code");

    await page.goto(`${worker.base}/admin/#/campaign/WINTER`);
    await page.getByRole("heading", { name: "WINTER", exact: true }).waitFor();
    await page.locator("#changes tbody tr").nth(1).waitFor();
    const campaignRows = await page.locator("#changes tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(1, 4).map((c) => c.textContent)));
    assert.deepEqual(campaignRows, [["Switched off", "active", "Paused: stock – €"], ["Defined", "—", "Launch"]]);
    await axe(page, "a campaign's page with its changes");
    await shoot(page, "changes-campaign");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
