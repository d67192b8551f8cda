// What the checkout's end-to-end test files share: the real Worker under `wrangler dev` (workerd,
// local SQLite state in a temporary folder) and Debian's Chromium through playwright-core, one of
// each per test file; a browser context per page (its own cache, locale, time zone and viewport);
// the API calls, the page's helpers, axe-core and the screenshots.
//
// The Worker is started by the Worker tests' harness (tests/worker/harness.mjs: free ports, retries,
// temp state, every answer a request here receives checked against docs/openapi.json), with the demo
// routes on and on snapshots of the built Worker and of public/: a rebuild in the working tree while
// the tests run (another test script, an editor) cannot reload the Worker under them.
//
// A test file calls `checkoutWorker(name, setup)` once at its top level (it registers the file's
// before and after hooks), then uses the helpers below.
import { before } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, WORKER_BUILD, admin, call, capturer, workerForFile } from '../worker/harness.mjs';

export const OUTPUT = path.join(ROOT, 'test-output');
const STARTUP_TIMEOUT_MS = 3 * 60 * 1000; // workerd start-up on 2 busy cores
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
// The basket on the page: 2 mugs (12.50), 1 coffee (8.50), 1 grinder (46.50), shipping 4.90.
export const ITEMS = '€80.00';
export const TOTAL = '€84.90';
// Longer than the page's delay before it announces a settled outcome (500 ms).
export const ANNOUNCED_AFTER_MS = 1200;
// The two widths the checkout is judged at (issue 35): a laptop and a phone.
export const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

let browser;
let worker;

/**
 * Starts the Worker (demo routes on; the public rate limit raised, as the harness does: every page
 * of every test looks codes up from the same address; wrangler's output to
 * test-output/<name>-wrangler.log) and Chromium for this file, then runs `setup` (e.g. defines codes).
 */
export function checkoutWorker(name, setup = async () => {}) {
  before(() => {
    for (const [file, hint] of [
      ['public/pkg/promocodes.js', 'scripts/build-web.sh'],
      ['public/pkg/promocodes_bg.wasm', 'scripts/build-web.sh'],
      [path.join(WORKER_BUILD, 'worker/shim.mjs'), 'scripts/build-worker.sh'],
    ]) {
      assert.ok(existsSync(path.resolve(ROOT, file)), `${file} is missing: run ${hint} first (scripts/test-e2e.sh does)`);
    }
    mkdirSync(OUTPUT, { recursive: true });
  });
  worker = workerForFile(
    {
      demo: true,
      snapshot: true,
      logLevel: 'log',
      logTo: () => createWriteStream(path.join(OUTPUT, `${name}-wrangler.log`)),
      startupTimeoutMs: STARTUP_TIMEOUT_MS,
    },
    async () => {
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
      await setup();
    },
    async () => {
      await browser?.close().catch(() => {});
    },
  );
  return worker;
}

// ---- the Worker ----

/**
 * A request to the Worker (the harness's `call`: wrangler's proxy 503 retried, the answer checked
 * against docs/openapi.json): { status, body (parsed JSON, or null), text, headers }.
 */
export async function api(method, route, { body, headers = {} } = {}) {
  const res = await call(worker.base, method, route, { body, headers: { accept: 'application/json', ...headers } });
  return { status: res.status, body: res.json ?? null, text: res.text, headers: res.headers };
}

export async function defineCode(definition) {
  const res = await api('PUT', `/v1/codes/${definition.code}`, { body: definition, headers: admin });
  assert.ok([200, 201].includes(res.status), `PUT ${definition.code}: ${res.status} ${res.text}`);
}

/** A usage's use counts, without the discounts it counts (`discounted`). */
export const counts = ({ total, held }) => ({ total, held });

/** The code's usage as the Worker reports it: { total, held, discounted? }. */
export async function usageOf(code) {
  const res = await api('GET', `/v1/codes/${code}`, { headers: admin });
  assert.equal(res.status, 200, res.text);
  return res.body.usage;
}

/** Waits until the code's usage is `expected` (a release the page sends in the background lands a moment later). */
export async function usageBecomes(code, expected) {
  let last;
  for (let i = 0; i < 100; i++) {
    last = await usageOf(code);
    if (last.total === expected.total && last.held === expected.held) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(counts(last), expected, `the usage of ${code}`);
}

/** Another buyer's capture of `code` (a total of EUR 30.00). */
export async function captureFor(code, customer) {
  const res = await api('POST', '/v1/captures', {
    body: { code, total: { amount: '30.00', currency: 'EUR' }, customer },
    headers: { ...capturer, 'idempotency-key': `other-${randomUUID()}` },
  });
  assert.equal(res.status, 201, res.text);
}

/** The page's basket as the core's basket: what the page sends (2 mugs, 1 coffee, 1 grinder, shipping). */
export const PAGE_BASKET = {
  lines: [
    { sku: 'MUG', quantity: 2, unit_price: { amount: '12.50', currency: 'EUR' }, categories: ['mugs'] },
    { sku: 'BEANS', quantity: 1, unit_price: { amount: '8.50', currency: 'EUR' }, categories: ['coffee'] },
    { sku: 'GRINDER', quantity: 1, unit_price: { amount: '46.50', currency: 'EUR' }, categories: ['grinders'] },
  ],
  shipping: { amount: '4.90', currency: 'EUR' },
};

/** Money as the page shows it in en-GB. */
export const euros = (money) => `€${money.amount}`;

// ---- the page ----

/**
 * A fresh page on the checkout in a context of its own (en-GB, UTC unless told), with every request
 * it makes recorded: { page, requests }. `page.done()` closes it and checks it had no script error.
 */
export async function openCheckout({ query = '', locale = 'en-GB', timezoneId = 'UTC', viewport = { width: 900, height: 1100 } } = {}) {
  const context = await browser.newContext({ locale, timezoneId, viewport });
  const page = await context.newPage();
  const requests = [];
  // The beacon of codes tried (tries.js, POST /v1/codes/{code}/tries) is no pricing request: not recorded here.
  page.on('request', (req) => {
    if (!new URL(req.url()).pathname.endsWith('/tries')) requests.push({ method: req.method(), url: new URL(req.url()).pathname, body: req.postData() });
  });
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  // Chromium logs every 4xx answer ("Failed to load resource"); 404, 409 and 422 are answers here.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) errors.push(msg.text());
  });
  await page.goto(`${worker.base}/${query}`);
  await page.waitForSelector('html[data-ready="true"]');
  page.done = async () => {
    await context.close();
    assert.deepEqual(errors, [], 'no script errors on the page');
  };
  return { page, requests };
}

export const text = (page, selector) => page.locator(selector).innerText();
/** The JSON bodies the page POSTed to `route`. */
export const sent = (requests, route) => requests.filter((r) => r.url === route).map((r) => JSON.parse(r.body));

export async function waitForText(page, selector, expected) {
  const locator = page.locator(selector);
  await locator.filter({ hasText: expected }).waitFor();
  return locator.innerText();
}

export async function typeCode(page, code, delay = 0) {
  await page.locator('#code').pressSequentially(code, { delay });
}

export const focusedIn = (page, selector) =>
  page.evaluate((sel) => document.querySelector(sel).contains(document.activeElement), selector);

/** The whole page, with the sticky Pay bar in its own place (a full-page capture would leave it mid-page). */
export async function screenshot(page, name) {
  await page.screenshot({ path: path.join(OUTPUT, `checkout-${name}.png`), fullPage: true, style: '.paybar { position: static !important; }' });
}

/** Pay (the hold) and wait for the confirm step. */
export async function payAndHold(page) {
  await page.locator('#pay').click();
  await page.locator('#outcome[data-kind="held"]').waitFor();
}

export async function confirmAndWaitForReceipt(page) {
  await page.locator('#confirm').click();
  await page.locator('#outcome[data-kind="receipt"]').waitFor();
}

/** Clicks "Add another code" and types `code` into the new field (which has focus). */
export async function addCode(page, code) {
  await page.getByRole('button', { name: 'Add another code' }).click();
  await page.keyboard.type(code);
}

/** The field named `label`'s sentence (its part of the discount, or why it cannot be used). */
export async function statusOf(page, label) {
  const field = page.getByLabel(label, { exact: true });
  const id = (await field.getAttribute('aria-describedby')).split(' ')[0];
  return page.locator(`#${id}`);
}

const AXE = readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it stands: no violations. */
export async function axe(page, view) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const violations = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`);
  assert.deepEqual(violations, [], `axe on ${view}`);
}

/** A product code, an order code and a free-shipping code that combine with each other, under `prefix`. */
export async function defineStack(prefix, limits = null) {
  const capped = limits ? { limits } : {};
  await defineCode({
    code: `${prefix}MUGS`,
    discount: { kind: 'percent', percent: '20' },
    applies_to: { categories: ['mugs'] },
    combines_with: ['order', 'shipping'],
    ...capped,
  });
  await defineCode({ code: `${prefix}SAVE`, discount: { kind: 'percent', percent: '10' }, combines_with: ['product', 'shipping'], ...capped });
  await defineCode({ code: `${prefix}SHIP`, discount: { kind: 'free_shipping' }, combines_with: ['product', 'order'], ...capped });
}
