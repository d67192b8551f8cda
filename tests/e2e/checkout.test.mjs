// End-to-end tests of the checkout page: the real Worker under `wrangler dev` (workerd, local SQLite
// state in a temporary folder), driven by Debian's Chromium through playwright-core.
//
// Run with scripts/test-e2e.sh (it builds public/pkg and the Worker first), or `node --test tests/e2e/`
// after scripts/build-web.sh and `worker-build --release worker`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUTPUT = path.join(ROOT, 'test-output');
const ADMIN_TOKEN = `e2e-admin-${randomUUID()}`;
const CAPTURE_TOKEN = `e2e-capture-${randomUUID()}`;
const STARTUP_TIMEOUT_MS = 3 * 60 * 1000; // workerd start-up on 2 busy cores
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

let base; // http://127.0.0.1:PORT
let server; // the wrangler dev child, leader of its own process group
let serverExited = null;
let tmp;
let context;

// ---- the Worker ----

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function killServer(signal) {
  if (!server || serverExited) return;
  try {
    process.kill(-server.pid, signal); // the whole group: wrangler, workerd, the build
  } catch {
    // already gone
  }
}

// Last resort if the runner dies without reaching `after`.
process.on('exit', () => killServer('SIGKILL'));

async function api(method, route, { body, headers = {} } = {}) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: json, text, headers: res.headers };
}

async function defineCode(definition) {
  const res = await api('PUT', `/v1/codes/${definition.code}`, {
    body: definition,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  assert.ok([200, 201].includes(res.status), `PUT ${definition.code}: ${res.status} ${res.text}`);
}

async function usageOf(code) {
  const res = await api('GET', `/v1/codes/${code}`);
  assert.equal(res.status, 200, res.text);
  return res.body.usage.total;
}

async function waitForWorker() {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (serverExited) throw new Error(`wrangler dev exited (${serverExited}); see test-output/e2e-wrangler.log`);
    try {
      // 404 from the Worker itself (problem+json) means it is built, loaded and routing.
      const res = await api('GET', '/v1/codes/E2E-READY-PROBE');
      if (res.status === 404 && res.body?.status === 404) return;
      last = `${res.status} ${res.text.slice(0, 200)}`;
    } catch (err) {
      last = err.message;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the Worker did not answer in time: ${last}`);
}

// The repository's wrangler.toml without its [build] section (scripts/test-e2e.sh built the Worker
// once; wrangler would build it twice more and watch the sources), pointing at snapshots of the built
// Worker and of public/ in a temp folder: a rebuild in the working tree while the tests run (another
// test script, an editor) cannot reload the Worker under them. The config sits in that folder too, so
// the developer's .dev.vars (read from the config's folder) plays no part.
async function workerConfig(dir) {
  await cp(path.join(ROOT, 'worker/build'), path.join(dir, 'worker-build'), { recursive: true });
  await cp(path.join(ROOT, 'public'), path.join(dir, 'public'), { recursive: true });
  const toml = (await readFile(path.join(ROOT, 'wrangler.toml'), 'utf8'))
    .replace(/^\[build\]\n(?:(?!\[).*\n)*/m, '')
    .replace(/^main = .*$/m, `main = ${JSON.stringify(path.join(dir, 'worker-build/worker/shim.mjs'))}`)
    .replace(/^directory = .*$/m, `directory = ${JSON.stringify(path.join(dir, 'public'))}`);
  assert.doesNotMatch(toml, /^\[build\]/m);
  const file = path.join(dir, 'wrangler.toml');
  await writeFile(file, toml);
  return file;
}

before(async () => {
  for (const [file, hint] of [
    ['public/pkg/promocodes.js', 'scripts/build-web.sh'],
    ['public/pkg/promocodes_bg.wasm', 'scripts/build-web.sh'],
    ['worker/build/worker/shim.mjs', 'worker-build --release worker'],
  ]) {
    assert.ok(existsSync(path.join(ROOT, file)), `${file} is missing: run ${hint} first (scripts/test-e2e.sh does)`);
  }
  await mkdir(OUTPUT, { recursive: true });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'promocodes-e2e-'));
  const config = await workerConfig(tmp);
  const port = await freePort();
  const inspectorPort = await freePort();
  base = `http://127.0.0.1:${port}`;
  const log = createWriteStream(path.join(OUTPUT, 'e2e-wrangler.log'));
  server = spawn(
    path.join(ROOT, 'node_modules/.bin/wrangler'),
    [
      'dev',
      '--config', config,
      '--local',
      '--ip', '127.0.0.1',
      '--port', String(port),
      '--inspector-port', String(inspectorPort),
      '--persist-to', path.join(tmp, 'state'),
      '--show-interactive-dev-session=false',
      '--var', `ADMIN_TOKEN:${ADMIN_TOKEN}`,
      '--var', `CAPTURE_TOKEN:${CAPTURE_TOKEN}`,
      '--var', 'DEMO:1',
    ],
    {
      cwd: tmp,
      detached: true, // its own process group, killed as a whole in `after`
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        NO_COLOR: '1',
      },
    },
  );
  server.stdout.pipe(log);
  server.stderr.pipe(log);
  server.on('exit', (code, signal) => {
    serverExited = `code ${code}, signal ${signal}`;
  });
  await waitForWorker();

  // A persistent context is how playwright takes a user-data dir: a fresh one in the temp folder.
  context = await chromium.launchPersistentContext(path.join(tmp, 'chromium'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 900, height: 1100 },
  });

  await defineCode({
    code: 'SAVE10',
    discount: { kind: 'percent', percent: '10' },
    minimum: { amount: '50.00', currency: 'EUR' },
  });
});

after(async () => {
  await context?.close().catch(() => {});
  if (server && !serverExited) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    killServer('SIGTERM');
    const timer = setTimeout(() => killServer('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  killServer('SIGKILL'); // any straggler left in the group
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

// ---- the page ----

// A fresh page on the checkout, with every request it makes recorded.
async function openCheckout() {
  const page = await context.newPage();
  const requests = [];
  page.on('request', (req) => requests.push({ method: req.method(), url: new URL(req.url()).pathname, body: req.postData() }));
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  // Chromium logs every 4xx answer ("Failed to load resource"); 404, 409 and 422 are answers here.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) errors.push(msg.text());
  });
  await page.goto(`${base}/`);
  await page.waitForSelector('html[data-ready="true"]');
  page.done = async () => {
    await page.close();
    assert.deepEqual(errors, [], 'no script errors on the page');
  };
  return { page, requests };
}

const text = (page, selector) => page.locator(selector).innerText();

async function waitForText(page, selector, expected) {
  const locator = page.locator(selector);
  await locator.filter({ hasText: expected }).waitFor();
  return locator.innerText();
}

async function typeCode(page, code) {
  await page.locator('#code').pressSequentially(code);
}

test('typing a valid code shows its discount; a quantity change re-quotes with no request to the Worker', async () => {
  const { page, requests } = await openCheckout();
  assert.equal(await text(page, '#total'), 'EUR 80.00');
  await typeCode(page, 'save10');
  await waitForText(page, '#payable', 'EUR 72.00');
  assert.equal(await text(page, '#discount'), '− EUR 8.00');
  assert.match(await text(page, '#quote-message'), /SAVE10 applied: 10% off/);
  assert.equal(await page.locator('#pay').isEnabled(), true);
  // Debounced: normally only SAVE10 is looked up; a slow machine may also look up a prefix it paused on.
  const lookups = requests.filter((r) => r.url.startsWith('/v1/codes/')).map((r) => r.url);
  assert.equal(lookups.filter((url) => url === '/v1/codes/SAVE10').length, 1, 'the definition is fetched once');
  assert.equal(new Set(lookups).size, lookups.length, 'no code is looked up twice');

  const before = requests.length;
  await page.locator('#qty-mug').fill('4'); // 4 × 12.50 + 8.50 + 46.50 = 105.00
  await waitForText(page, '#payable', 'EUR 94.50');
  assert.equal(await text(page, '#total'), 'EUR 105.00');
  assert.equal(await text(page, '#discount'), '− EUR 10.50');
  await page.locator('#qty-beans').fill('3'); // 122.00
  await waitForText(page, '#payable', 'EUR 109.80');
  // Retyping the same code is served from the cache.
  await page.locator('#code').fill('');
  await waitForText(page, '#quote-message', 'Enter a promo code');
  await typeCode(page, 'Save10');
  await waitForText(page, '#payable', 'EUR 109.80');
  await page.waitForTimeout(600); // longer than the lookup debounce: a lookup would have been sent by now
  assert.deepEqual(requests.slice(before), [], 'no request after the definition is known');
  await page.done();
});

test('a basket under the minimum shows the minimum message', async () => {
  const { page } = await openCheckout();
  await typeCode(page, 'SAVE10');
  await waitForText(page, '#payable', 'EUR 72.00');
  await page.locator('#qty-grinder').fill('0'); // 33.50
  const message = await waitForText(page, '#quote-message', 'at least');
  assert.equal(message, 'This code needs a basket of at least EUR 50.00');
  assert.equal(await text(page, '#payable'), 'EUR 33.50');
  assert.equal(await text(page, '#discount'), '–');
  assert.equal(await page.locator('#pay').isEnabled(), false);
  await page.done();
});

test('an expired code shows the expiry message, an unknown code says so', async () => {
  await defineCode({ code: 'OLD5', discount: { kind: 'percent', percent: '5' }, ends_at: '2026-01-01T00:00:00Z' });
  const { page } = await openCheckout();
  await typeCode(page, 'old5');
  const message = await waitForText(page, '#quote-message', 'expired');
  assert.match(message, /^This code expired at 2026-01-01/);
  assert.equal(await text(page, '#payable'), 'EUR 80.00');
  assert.equal(await page.locator('#pay').isEnabled(), false);

  await page.locator('#code').fill('');
  await typeCode(page, 'NOPE-404');
  assert.equal(await waitForText(page, '#quote-message', 'no code'), 'There is no code NOPE-404.');
  await page.done();
});

test('Pay gives a receipt, and the usage goes up by one', async () => {
  await defineCode({ code: 'PAY10', discount: { kind: 'percent', percent: '10' }, limits: { total: 100 } });
  assert.equal(await usageOf('PAY10'), 0);
  const { page, requests } = await openCheckout();
  await typeCode(page, 'pay10');
  await waitForText(page, '#quote-message', '100 uses left');
  await page.locator('#pay').click();
  await page.locator('#outcome[data-kind="receipt"]').waitFor();
  assert.equal(await text(page, '#receipt-paid'), 'EUR 72.00');
  assert.match(await text(page, '#outcome'), /Payment confirmed/);
  assert.equal(await usageOf('PAY10'), 1);
  assert.match(await text(page, '#quote-message'), /99 uses left/, 'the receipt updates the known usage');
  const pays = requests.filter((r) => r.url === '/demo/pay');
  assert.equal(pays.length, 1);
  const sent = JSON.parse(pays[0].body);
  assert.equal(sent.code, 'PAY10');
  assert.deepEqual(sent.total, { amount: '80.00', currency: 'EUR' });
  assert.equal(await page.locator('#pay').isEnabled(), false, 'a paid order cannot be paid again by accident');
  await page.screenshot({ path: path.join(OUTPUT, 'checkout-receipt.png'), fullPage: true });
  await page.done();
});

test('clicking Pay twice quickly gives one redemption (the attempt id holds)', async () => {
  await defineCode({ code: 'TWICE', discount: { kind: 'fixed', amount: { amount: '5.00', currency: 'EUR' } } });
  const { page, requests } = await openCheckout();
  await typeCode(page, 'twice');
  await waitForText(page, '#payable', 'EUR 75.00');
  await page.locator('#pay').dblclick();
  await page.locator('#outcome[data-kind="receipt"]').waitFor();
  assert.equal(await usageOf('TWICE'), 1);

  // The provider redelivers the confirmation of the same attempt: a replay, no second redemption.
  const pays = requests.filter((r) => r.url === '/demo/pay');
  assert.ok(pays.length >= 1);
  const attempts = new Set(pays.map((r) => JSON.parse(r.body).attempt));
  assert.equal(attempts.size, 1, 'one checkout attempt, one id');
  const again = await api('POST', '/demo/pay', { body: JSON.parse(pays[0].body) });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.replayed, true);
  assert.equal(await usageOf('TWICE'), 1);

  // A new order is a new attempt.
  await page.locator('#new-order').click();
  await page.locator('#pay').click();
  await page.locator('#outcome[data-kind="receipt"]').waitFor();
  assert.equal(await usageOf('TWICE'), 2);
  const all = requests.filter((r) => r.url === '/demo/pay').map((r) => JSON.parse(r.body).attempt);
  assert.equal(new Set(all).size, 2);
  await page.done();
});

test('a last use taken by another capture between quote and pay shows the stale quote, and the usage does not move', async () => {
  await defineCode({ code: 'LASTONE', discount: { kind: 'percent', percent: '10' }, limits: { total: 1 } });
  const { page } = await openCheckout();
  await typeCode(page, 'lastone');
  await waitForText(page, '#quote-message', '1 use left');
  assert.equal(await text(page, '#payable'), 'EUR 72.00');

  // Another buyer's payment confirmation takes the last use.
  const other = await api('POST', '/v1/captures', {
    body: { code: 'LASTONE', total: { amount: '30.00', currency: 'EUR' }, customer: 'someone-else' },
    headers: { authorization: `Bearer ${CAPTURE_TOKEN}`, 'idempotency-key': `other-${randomUUID()}` },
  });
  assert.equal(other.status, 201, other.text);
  assert.equal(await usageOf('LASTONE'), 1);

  await page.locator('#pay').click();
  await page.locator('#outcome[data-kind="stale"]').waitFor();
  assert.equal(
    await text(page, '#stale-message'),
    'The code ran out while you were paying: you were quoted EUR 72.00, the total is now EUR 80.00.',
  );
  assert.equal(await usageOf('LASTONE'), 1);
  await page.screenshot({ path: path.join(OUTPUT, 'checkout-stale-quote.png'), fullPage: true });
  // The page fetched the definition again, so the live quote now says why.
  await waitForText(page, '#quote-message', 'used up');
  assert.equal(await page.locator('#pay').isEnabled(), false);
  await page.done();
});

test('a conflict shows "busy, try again", and the retry keeps the attempt id', async () => {
  // 409 needs many captures racing on one object, which cannot be made to happen on demand, so the
  // Worker's answer is stubbed for the first click only; the retry goes to the real Worker.
  await defineCode({ code: 'BUSY', discount: { kind: 'percent', percent: '10' } });
  const { page, requests } = await openCheckout();
  await typeCode(page, 'busy');
  await waitForText(page, '#payable', 'EUR 72.00');
  await page.route('**/demo/pay', (route) =>
    route.fulfill({
      status: 409,
      headers: { 'content-type': 'application/problem+json', 'retry-after': '1' },
      body: JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, detail: 'busy' }),
    }),
  );
  await page.locator('#pay').click();
  await page.locator('#outcome[data-kind="conflict"]').waitFor();
  assert.match(await text(page, '#outcome'), /Busy, try again/);
  assert.equal(await usageOf('BUSY'), 0);
  await page.unroute('**/demo/pay');
  await page.locator('#pay').click();
  await page.locator('#outcome[data-kind="receipt"]').waitFor();
  assert.equal(await usageOf('BUSY'), 1);
  const attempts = requests.filter((r) => r.url === '/demo/pay').map((r) => JSON.parse(r.body).attempt);
  assert.equal(attempts.length, 2);
  assert.equal(attempts[0], attempts[1]);
  await page.done();
});

test('a code for named customers is quoted by the Worker with the customer', async () => {
  await defineCode({ code: 'VIP20', discount: { kind: 'percent', percent: '20' }, audience: ['alice'] });
  const { page, requests } = await openCheckout();
  await typeCode(page, 'vip20');
  await waitForText(page, '#quote-message', 'named customers');
  assert.equal(requests.filter((r) => r.url === '/demo/quote').length, 0);
  await page.locator('#customer').fill('alice');
  await waitForText(page, '#payable', 'EUR 64.00');
  assert.equal(await text(page, '#discount'), '− EUR 16.00');
  const quotes = requests.filter((r) => r.url === '/demo/quote');
  assert.ok(quotes.length >= 1);
  assert.deepEqual(JSON.parse(quotes.at(-1).body), {
    code: 'VIP20',
    total: { amount: '80.00', currency: 'EUR' },
    customer: 'alice',
  });
  await page.locator('#customer').fill('bob');
  await waitForText(page, '#quote-message', 'not available');
  assert.equal(await page.locator('#pay').isEnabled(), false);
  await page.done();
});

test('a per-customer code needs the customer, and a receipt counts against that customer', async () => {
  await defineCode({ code: 'ONCE', discount: { kind: 'percent', percent: '10' }, limits: { per_customer: 1 } });
  const { page, requests } = await openCheckout();
  await typeCode(page, 'once');
  assert.equal(await waitForText(page, '#quote-message', 'signed in'), 'This code needs you to be signed in: enter your customer id');
  assert.equal(await page.locator('#pay').isEnabled(), false);
  await page.locator('#customer').fill('carol');
  await waitForText(page, '#payable', 'EUR 72.00');
  await page.locator('#pay').click();
  await page.locator('#outcome[data-kind="receipt"]').waitFor();
  assert.equal(JSON.parse(requests.find((r) => r.url === '/demo/pay').body).customer, 'carol');
  // The receipt said carol has used it once: the next order is refused in the browser.
  const before = requests.length;
  await page.locator('#new-order').click();
  await waitForText(page, '#quote-message', 'already used');
  assert.equal(await page.locator('#pay').isEnabled(), false);
  await page.locator('#customer').fill('dave');
  await waitForText(page, '#payable', 'EUR 72.00');
  assert.deepEqual(requests.slice(before), []);
  await page.done();
});

test('a malformed code is explained in the page, with no request', async () => {
  const { page, requests } = await openCheckout();
  const before = requests.length;
  await page.locator('#code').fill('SAVE 10');
  assert.match(await waitForText(page, '#quote-message', 'position'), /' ' at position 4/);
  assert.equal(await page.locator('#pay').isEnabled(), false);
  await page.locator('#code').fill('SAVE10');
  await waitForText(page, '#payable', 'EUR 72.00');
  assert.deepEqual(
    requests.slice(before).map((r) => r.url),
    ['/v1/codes/SAVE10'],
    'only the well-formed code is looked up',
  );
  await page.done();
});

test('the quote region is announced, and every control has a label', async () => {
  const { page } = await openCheckout();
  assert.equal(await page.locator('#quote').getAttribute('aria-live'), 'polite');
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll('input, select, textarea')]
      .filter((control) => control.labels.length === 0 || [...control.labels].every((l) => !l.textContent.trim()))
      .map((control) => control.id),
  );
  assert.deepEqual(unlabelled, []);
  for (const name of ['Promo code', 'Customer id', 'Quantity of Enamel mug']) {
    assert.equal(await page.getByLabel(name, { exact: true }).count(), 1, name);
  }
  await page.done();
});
