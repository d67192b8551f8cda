// The console's code form, a code's page and the catalog (issue 35, items 6, 7 and 10) end to end: the
// real Worker under `wrangler dev` (tests/worker/harness.mjs), Debian's Chromium through playwright-core,
// at 1280 × 800 and 390 × 844, axe-core on each view, screenshots in test-output/ (admin-form-*).
//
// Run with scripts/test-admin.sh (it builds public/pkg, public/admin/vendor and the Worker first).
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { admin, call, capturer } from "../worker/harness.mjs";
import { axe, consoleSuite, SCREENS, shoot as shootAs } from "./console-page.mjs";

const suite = consoleSuite("admin-form");
const { worker, signIn } = suite;
const shoot = (page, name) => shootAs(page, "admin-form-", name);
const { open } = suite;

const SIZES = SCREENS;

const eur = (amount) => ({ amount, currency: "EUR" });
const put = (definition) => call(worker.base, "PUT", `/v1/codes/${definition.code}`, { body: definition, headers: admin });
const lookup = (code) => call(worker.base, "GET", `/v1/codes/${code}`, { headers: admin });
const capture = (code, key) => call(worker.base, "POST", "/v1/captures", {
  body: { code, total: eur("80.00") }, headers: { ...capturer, "idempotency-key": key },
});

/** Counts the operator's clicks and key presses on `page` (for the report). */
async function countActions(page) {
  await page.evaluate(() => {
    window.__actions = 0;
    document.addEventListener("click", (e) => { if (e.isTrusted) window.__actions += 1; }, true);
  });
}

const invalid = (page) => page.locator('#code-form [aria-invalid="true"]');

test("the form: nothing refused while empty, a field checked when left, every refusal at once in a linked summary that goes once fixed", async () => {
  for (const size of SIZES) {
    const page = await open(size);
    await signIn(page, "#/new");
    await page.getByRole("heading", { name: "New code" }).waitFor();
    const code = page.getByRole("textbox", { name: "Code", exact: true });
    const percent = page.getByRole("textbox", { name: "Percent", exact: true });
    const currency = page.getByRole("textbox", { name: "Currency", exact: true });
    // Placeholders, not values: nothing is prefilled in a new code's definition.
    assert.equal(await percent.inputValue(), "");
    assert.equal(await currency.inputValue(), "");
    assert.equal(await currency.getAttribute("placeholder"), "EUR");
    assert.equal(await percent.getAttribute("placeholder"), "10");
    // Passing through the empty form refuses nothing.
    await code.focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press("Tab");
    assert.equal(await invalid(page).count(), 0, "nothing refused while the form is empty");
    assert.equal(await page.locator("#error-summary").isVisible(), false);
    assert.equal(await page.locator("#f-code-error").textContent(), "");
    await axe(page, "new code, empty");
    await shoot(page, "new-empty");

    // A field is checked when it is left, not while it is typed.
    await percent.fill("120");
    assert.equal(await percent.getAttribute("aria-invalid"), null, "not while typing");
    await percent.press("Tab");
    await page.getByText("Percent must be above 0 and at most 100, not 120").waitFor();
    assert.equal(await percent.getAttribute("aria-invalid"), "true");
    assert.equal(await code.getAttribute("aria-invalid"), null, "the code, never left with a value, waits for a save");

    // Save: every refusal at once, in a summary that links to its fields and takes the focus.
    await page.getByLabel("Total uses").fill("0");
    await page.getByLabel("Minimum basket").fill("20.00");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const summary = page.locator("#error-summary");
    await summary.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement.id), "error-summary");
    const links = await summary.getByRole("link").allTextContents();
    assert.equal(links.length, 4, links.join(" | "));
    assert.match(links[0], /^Code: /);
    assert.match(links[1], /^Percent must be above 0 and at most 100, not 120/, "the label not said twice");
    assert.match(links[2], /^Currency: /);
    assert.match(links[3], /^Total uses: Limits\.total must be at least 1/);
    assert.match(await page.getByRole("heading", { name: /The code was not saved/ }).textContent(), /4 things to correct/);
    assert.equal(await invalid(page).count(), 4);
    assert.equal(await lookup("FORMNEW1").then((r) => r.status), 404);
    await axe(page, "new code, refused on save");
    await shoot(page, "new-refused");
    await summary.getByRole("link", { name: /^Percent/ }).click();
    assert.equal(await page.evaluate(() => document.activeElement.id), "f-percent", "the link moves to its field");
    assert.match(page.url(), /#\/new$/, "the link does not change the route");

    // Fixed one by one: each refusal goes as its field is right; the summary goes with the last.
    await code.fill(`FORMNEW${size.width}`);
    await percent.fill("10");
    await page.getByLabel("Total uses").fill("100");
    await currency.fill("EUR");
    await page.getByText("A basket of €80.00 now: €8.00 off, €72.00 to pay.").waitFor();
    await summary.waitFor({ state: "hidden" });
    assert.equal(await invalid(page).count(), 0);
    assert.equal(await page.locator("#problem").textContent(), "");
    await page.context().close();
    assert.deepEqual(page.errors, []);
  }
});

test("dates and times as typed in the operator's zone, the zone said beside them; a refusal's time in it too", async () => {
  const page = await open();
  await signIn(page, "#/new");
  await page.getByRole("heading", { name: "New code" }).waitFor();
  assert.match(await page.locator("#tz-hint").textContent(), /in your time zone \(Europe\/Berlin\)/);
  assert.match(await page.getByLabel("Ends", { exact: true }).getAttribute("aria-describedby"), /tz-hint/);
  await page.getByRole("textbox", { name: "Code", exact: true }).fill("FORMTIME");
  await page.getByRole("textbox", { name: "Percent", exact: true }).fill("10");
  await page.getByLabel("Starts", { exact: true }).fill("2026-12-11T10:00");
  await page.getByLabel("Ends", { exact: true }).fill("2026-12-10T10:00");
  await page.getByLabel("Total uses").focus(); // leaves Ends (Tab moves between its parts)
  const error = page.locator("#f-ends-error");
  await page.waitForFunction(() => document.querySelector("#f-ends-error").textContent !== "");
  const sentence = await error.textContent();
  assert.doesNotMatch(sentence, /Z\b|09:00/, `not in UTC: ${sentence}`);
  assert.match(sentence, /10 Dec 2026, 10:00 \(Europe\/Berlin\)/);
  assert.match(sentence, /11 Dec 2026, 10:00 \(Europe\/Berlin\)/);
  await page.getByLabel("Starts", { exact: true }).fill("2026-12-01T10:00");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "FORMTIME" }).waitFor();
  const saved = await lookup("FORMTIME");
  assert.equal(saved.json.ends_at, "2026-12-10T09:00:00Z", "10:00 in Berlin is 09:00 UTC");
  assert.equal(saved.json.starts_at, "2026-12-01T09:00:00Z");
  await page.goto(`${worker.base}/admin/#/edit/FORMTIME`);
  await page.getByRole("heading", { name: "Edit FORMTIME" }).waitFor();
  // The heading comes before the definition is read and filled in: wait for the form's code.
  await page.waitForFunction(() => document.getElementById("f-code").value === "FORMTIME");
  assert.equal(await page.getByLabel("Ends", { exact: true }).inputValue(), "2026-12-10T10:00", "shown back as typed");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("Generate a code: a random code of the unambiguous charset; saved, the code's page opens at its top", async () => {
  for (const size of SIZES) {
    const page = await open(size);
    await signIn(page, "#/new");
    await countActions(page);
    const started = Date.now();
    await page.getByRole("button", { name: "Generate a code" }).click();
    const code = page.getByRole("textbox", { name: "Code", exact: true });
    const first = await code.inputValue();
    assert.match(first, /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    await page.getByRole("button", { name: "Generate a code" }).click();
    assert.notEqual(await code.inputValue(), first, "another each time");
    await page.getByRole("textbox", { name: "Percent", exact: true }).fill("15");
    const name = await code.inputValue();
    await page.getByRole("button", { name: "Save", exact: true }).evaluate((b) => b.scrollIntoView());
    assert.ok(await page.evaluate(() => window.scrollY) > 0, "the form was scrolled to its Save button");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("heading", { name }).waitFor();
    await page.getByText(`${name} is defined.`).waitFor();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const clicks = await page.evaluate(() => window.__actions);
    console.log(`# a new code with a generated name at ${size.width} px: ${clicks} clicks (and one field typed), ${seconds} s`);
    assert.equal(await page.evaluate(() => window.scrollY), 0, "the code's page opens at its top");
    assert.equal((await lookup(name)).json.discount.percent, "15");
    await axe(page, "code page after save");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("a code's page: its Active switch says On or Off, off after a confirmation, on again; Archive", async () => {
  for (const size of SIZES) {
    const name = `FORMPAGE${size.width}`;
    assert.equal((await put({ code: name, discount: { kind: "percent", percent: "10" } })).status, 201);
    const page = await open(size);
    await signIn(page, `#/code/${name}`);
    await page.getByRole("heading", { name }).waitFor();
    const toggle = page.getByRole("switch", { name: "Active" });
    const state = page.locator("#code-switch-state");
    await page.waitForFunction(() => document.querySelector("#code-switch").checked);
    assert.equal(await state.textContent(), "On");
    for (const control of [toggle, page.getByRole("button", { name: "Archive" })]) {
      const box = await control.boundingBox();
      assert.ok(box && box.y + box.height <= size.height && box.x + box.width <= size.width, "in view at the page's top");
    }
    await axe(page, "code page, on");
    await shoot(page, "code-page-on");

    await countActions(page);
    await toggle.click();
    await page.getByRole("dialog").getByRole("button", { name: "Switch off" }).click();
    await page.getByText(`${name} is now switched off.`).waitFor();
    console.log(`# switch a code off from its page at ${size.width} px: ${await page.evaluate(() => window.__actions)} clicks`);
    assert.equal(await state.textContent(), "Off");
    assert.equal(await toggle.isChecked(), false);
    assert.equal((await lookup(name)).json.active, false);
    await page.waitForFunction(() => /Switched off\.$/.test(document.querySelector("#code-summary").textContent));
    await axe(page, "code page, off");
    await shoot(page, "code-page-off");

    await toggle.click();
    await page.getByText(`${name} is now active.`).waitFor();
    assert.equal(await state.textContent(), "On");
    assert.equal((await lookup(name)).json.active, true);

    await page.getByRole("button", { name: "Archive" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Archive" }).click();
    await page.getByText(`${name} is archived.`).waitFor();
    await page.getByRole("heading", { name: "Codes" }).waitFor();
    assert.equal((await call(worker.base, "GET", `/v1/codes/${name}`)).status, 404);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("the catalog: filtered by status, sorted newest or most used first, a code duplicated into the form; status and switch in view at 390 px", async () => {
  const later = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().replace(/\.\d+Z$/, "Z");
  const codes = [
    { code: "FLT-ACTIVE", discount: { kind: "percent", percent: "10" }, minimum: eur("20.00") },
    { code: "FLT-SOON", discount: { kind: "percent", percent: "10" }, starts_at: later },
    { code: "FLT-PAST", discount: { kind: "percent", percent: "10" }, starts_at: "2025-01-01T00:00:00Z", ends_at: "2025-02-01T00:00:00Z" },
    { code: "FLT-OFF", discount: { kind: "fixed", amount: eur("5.00") }, active: false },
    { code: "FLT-USED", discount: { kind: "fixed", amount: eur("3.00") } },
  ];
  for (const definition of codes) {
    assert.equal((await put(definition)).status, 201);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // each defined in a later second
  }
  for (const key of ["flt-1", "flt-2"]) assert.equal((await capture("FLT-USED", key)).status, 201);
  assert.equal((await capture("FLT-ACTIVE", "flt-3")).status, 201);

  for (const size of SIZES) {
    const page = await open(size);
    await signIn(page);
    await page.getByLabel("Code starts with").fill("flt-");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: "FLT-USED", exact: true }).waitFor();
    const names = () => page.locator("#codes tbody th a").allTextContents();
    const listed = (want) => page.waitForFunction((w) => [...document.querySelectorAll("#codes tbody th a")].map((a) => a.textContent).join() === w, want.join());
    await listed(["FLT-ACTIVE", "FLT-OFF", "FLT-PAST", "FLT-SOON", "FLT-USED"]);
    const row = (name) => page.locator("#codes tbody tr", { has: page.getByRole("link", { name, exact: true }) });
    assert.equal(await row("FLT-SOON").locator(".status").textContent(), "Scheduled");
    assert.equal(await row("FLT-PAST").locator(".status").textContent(), "Expired");
    assert.equal(await row("FLT-OFF").locator(".status").textContent(), "Off");
    assert.equal(await row("FLT-OFF").locator(".switch .state").textContent(), "Off", "the switch's state in words");
    assert.equal(await row("FLT-USED").locator(".switch .state").textContent(), "On");

    for (const [status, expected] of [["active", ["FLT-ACTIVE", "FLT-USED"]], ["scheduled", ["FLT-SOON"]], ["expired", ["FLT-PAST"]], ["off", ["FLT-OFF"]]]) {
      await page.getByLabel("Status").selectOption(status);
      await listed(expected);
    }
    await page.getByLabel("Status").selectOption("all");
    await page.getByLabel("Sort by").selectOption("newest");
    await listed(["FLT-USED", "FLT-OFF", "FLT-PAST", "FLT-SOON", "FLT-ACTIVE"]);
    await page.getByLabel("Sort by").selectOption("used");
    await page.waitForFunction(() => document.querySelector("#codes tbody th a")?.textContent === "FLT-USED"
      && document.querySelectorAll("#codes tbody th a")[1]?.textContent === "FLT-ACTIVE");
    assert.deepEqual((await names()).slice(0, 2), ["FLT-USED", "FLT-ACTIVE"]);

    // At either width a row's name, status and switch are in view without scrolling sideways.
    for (const part of [row("FLT-OFF").getByRole("link", { name: "FLT-OFF", exact: true }), row("FLT-OFF").locator(".status"), row("FLT-OFF").getByRole("switch")]) {
      const box = await part.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= size.width, `in view at ${size.width} px: ${JSON.stringify(box)}`);
    }
    const switchBox = await row("FLT-OFF").locator(".switch").boundingBox();
    if (size.width < 560) assert.ok(switchBox.height >= 44, `the switch is a 44 px target at phone width: ${switchBox.height}`);
    await axe(page, "catalog, sorted");
    await shoot(page, "catalog-sorted");

    // Duplicate: the form opens filled with the code's definition, its name left to give.
    await countActions(page);
    await row("FLT-ACTIVE").getByRole("button", { name: "Duplicate FLT-ACTIVE" }).click();
    await page.getByRole("heading", { name: "New code, a copy of FLT-ACTIVE" }).waitFor();
    assert.equal(await page.getByRole("textbox", { name: "Code", exact: true }).inputValue(), "");
    assert.equal(await page.getByRole("textbox", { name: "Percent", exact: true }).inputValue(), "10");
    assert.equal(await page.getByLabel("Minimum basket").inputValue(), "20.00");
    assert.equal(await invalid(page).count(), 0, "nothing refused before it is named");
    await axe(page, "duplicate");
    await shoot(page, "duplicate");
    const copy = `DUP-FLT${size.width}`;
    await page.getByRole("textbox", { name: "Code", exact: true }).fill(copy);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("heading", { name: copy }).waitFor();
    console.log(`# duplicate a code at ${size.width} px: ${await page.evaluate(() => window.__actions)} clicks and one name typed`);
    const saved = await lookup(copy);
    assert.equal(saved.json.discount.percent, "10");
    assert.deepEqual(saved.json.minimum, eur("20.00"));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("a hot code's shards, and a campaign's: kept when edited, set in the form, never back to 1", async () => {
  const code = "HOTFORM";
  assert.equal((await put({ code, discount: { kind: "percent", percent: "10" }, limits: { total: 100 }, shards: 4 })).status, 201);
  const page = await open(SIZES[0]);
  await signIn(page, `#/edit/${code}`);
  await page.getByRole("heading", { name: `Edit ${code}` }).waitFor();
  const shards = page.getByRole("textbox", { name: "Shards", exact: true });
  await page.waitForFunction(() => document.getElementById("f-shards").value === "4");
  // An edit of another field keeps the code's shards: the PUT is the whole definition.
  await page.getByRole("textbox", { name: "Percent", exact: true }).fill("15");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: code, exact: true }).waitFor();
  let saved = (await lookup(code)).json;
  assert.equal(saved.discount.percent, "15");
  assert.equal(saved.shards, 4);
  await page.waitForFunction(() => /on 4 shards/.test(document.querySelector("#code-summary").textContent));

  // Spread wider from the form, then refused back to 1 with the server's sentence, and nothing changed.
  await page.goto(`${worker.base}/admin/#/edit/${code}`);
  await page.getByRole("heading", { name: `Edit ${code}` }).waitFor();
  await page.waitForFunction(() => document.getElementById("f-shards").value === "4");
  await shards.fill("8");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: code, exact: true }).waitFor();
  assert.equal((await lookup(code)).json.shards, 8);
  await page.goto(`${worker.base}/admin/#/edit/${code}`);
  await page.getByRole("heading", { name: `Edit ${code}` }).waitFor();
  await page.waitForFunction(() => document.getElementById("f-shards").value === "8");
  await shards.fill("1");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText(/may move to 2 shards or more, not back to 1/).first().waitFor();
  saved = (await lookup(code)).json;
  assert.equal(saved.shards, 8);
  assert.equal(saved.discount.percent, "15");

  // A campaign's form: its Shards field spreads its codes' uses; kept by an edit, changed from the form.
  await page.goto(`${worker.base}/admin/#/newcampaign`);
  await page.getByRole("heading", { name: "New campaign" }).waitFor();
  await page.getByText(/spreads its codes' holds and captures/).waitFor();
  await page.getByLabel("Campaign id").fill("HOTCAMP");
  await page.getByLabel("Percent", { exact: true }).fill("10");
  await shards.fill("4");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "HOTCAMP", exact: true }).waitFor();
  const camp = await call(worker.base, "GET", "/v1/campaigns/HOTCAMP", { headers: admin });
  assert.equal(camp.json.shards, 4, camp.text);
  await page.goto(`${worker.base}/admin/#/editcampaign/HOTCAMP`);
  await page.getByRole("heading", { name: "Edit campaign HOTCAMP" }).waitFor();
  await page.waitForFunction(() => document.getElementById("f-shards").value === "4");
  await page.getByLabel("Percent", { exact: true }).fill("12");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Campaign HOTCAMP is saved.").waitFor();
  const edited = (await call(worker.base, "GET", "/v1/campaigns/HOTCAMP", { headers: admin })).json;
  assert.equal(edited.shards, 4);
  assert.equal(edited.discount.percent, "12");
  // Spread wider from the form, then refused back to 1 with the server's sentence.
  await page.goto(`${worker.base}/admin/#/editcampaign/HOTCAMP`);
  await page.getByRole("heading", { name: "Edit campaign HOTCAMP" }).waitFor();
  await page.waitForFunction(() => document.getElementById("f-shards").value === "4");
  assert.equal(await shards.isEditable(), true);
  await shards.fill("8");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Campaign HOTCAMP is saved.").waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/campaigns/HOTCAMP", { headers: admin })).json.shards, 8);
  await page.goto(`${worker.base}/admin/#/editcampaign/HOTCAMP`);
  await page.getByRole("heading", { name: "Edit campaign HOTCAMP" }).waitFor();
  await page.waitForFunction(() => document.getElementById("f-shards").value === "8");
  await shards.fill("1");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText(/may move to 2 shards or more, not back to 1/).first().waitFor();
  assert.equal((await call(worker.base, "GET", "/v1/campaigns/HOTCAMP", { headers: admin })).json.shards, 8);
  // A new code's form after it: the field editable again.
  await page.goto(`${worker.base}/admin/#/new`);
  await page.getByRole("heading", { name: "New code" }).waitFor();
  assert.equal(await shards.isEditable(), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
