// What every console suite in tests/admin/ shares: the real Worker under `wrangler dev` (through
// tests/worker/harness.mjs's workerForFile) with Debian's Chromium launched beside it, a fresh page
// signed in, axe-core on a view, and a screenshot that first checks the page does not scroll sideways.
// Each suite still writes its own steps; only this harness is here.
import { before } from "node:test";
import assert from "node:assert/strict";
import { createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { ROOT, ADMIN_TOKEN, WORKER_BUILD, workerForFile } from "../worker/harness.mjs";

/** Where screenshots and wrangler's logs go. */
export const OUTPUT = path.join(ROOT, "test-output");
/** Issue 35's two screens: a laptop and a phone. */
export const SCREENS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync"];
const AXE = readFileSync(path.join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
const BUILT = [
  ["public/pkg/promocodes.js", "scripts/build-web.sh"],
  ["public/admin/vendor/uplot.min.js", "scripts/build-admin.sh"],
  ["public/admin/vendor/papaparse.min.js", "scripts/build-admin.sh"],
  [path.join(WORKER_BUILD, "worker/shim.mjs"), "scripts/build-worker.sh"],
];

/**
 * A suite's Worker and browser: `log` names wrangler's log in test-output/ (`<log>-wrangler.log`).
 * Returns `{ worker, open, signIn, browser }`: `open(screen, { timeout })` a page in a fresh context
 * (en-GB, Europe/Berlin, downloads accepted) that collects page errors in `page.errors`;
 * `signIn(page, hash)`; `browser()` the launched Chromium, for a context of one's own.
 */
export function consoleSuite(log) {
  let browser;
  before(() => {
    for (const [file, hint] of BUILT) {
      assert.ok(existsSync(path.resolve(ROOT, file)), `${file} is missing: run ${hint} first (scripts/test-admin.sh does)`);
    }
    mkdirSync(OUTPUT, { recursive: true });
  });
  const worker = workerForFile(
    {
      snapshot: true,
      logLevel: "log",
      logTo: () => { mkdirSync(OUTPUT, { recursive: true }); return createWriteStream(path.join(OUTPUT, `${log}-wrangler.log`)); },
      startupTimeoutMs: 3 * 60 * 1000,
    },
    async () => {
      browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
    },
    async () => { await browser?.close().catch(() => {}); },
  );
  async function open(screen = SCREENS[0], { timeout = 15_000 } = {}) {
    const context = await browser.newContext({ viewport: screen, locale: "en-GB", timezoneId: "Europe/Berlin", acceptDownloads: true });
    const page = await context.newPage();
    page.errors = [];
    page.on("pageerror", (err) => page.errors.push(String(err)));
    page.on("console", (msg) => { if (msg.type() === "error" && !/favicon|Failed to load resource/.test(msg.text())) page.errors.push(msg.text()); });
    page.setDefaultTimeout(timeout);
    return page;
  }
  async function signIn(page, hash = "") {
    await page.goto(`${worker.base}/admin/${hash}`);
    await page.getByLabel("Admin token").fill(ADMIN_TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
  }
  return { worker, open, signIn, browser: () => browser };
}

/** axe-core on the page as it is: no violation. */
export async function axe(page, view) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  const violations = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join("; ")})`);
  assert.deepEqual(violations, [], `axe on ${view} at ${page.viewportSize().width} px`);
}

/** A full-page screenshot `<prefix><name>-<width>.png` once painted, after checking nothing scrolls sideways. */
export async function shoot(page, prefix, name) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${name} at ${page.viewportSize().width} px: the page scrolls sideways by ${overflow} px`);
  await page.screenshot({ path: path.join(OUTPUT, `${prefix}${name}-${page.viewportSize().width}.png`), fullPage: true });
}
