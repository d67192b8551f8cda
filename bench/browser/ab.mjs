// The browser rows of scripts/bench.sh for several builds of the module at once: an A/B of the
// module's speed without the Worker, for a machine shared with other work. Every build is loaded
// into one page of one headless Chromium; each row is timed in many short batches (`--batch` calls,
// a few milliseconds), the builds in turn batch after batch, so that another process's turn on the
// CPU falls on one batch of one build, not on a build. It prints, for each build and row, the
// fastest batch's mean (what a call costs when nothing else runs) and the median batch's.
//
// usage: node bench/browser/ab.mjs [--rounds N] [--batch CALLS] NAME=PKG_DIR ...
//   PKG_DIR: a wasm-pack output folder (promocodes.js, promocodes_bg.wasm, snippets/), e.g. pkg.
// Only 127.0.0.1 is used; the server and the browser are stopped on exit.
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [, value] = args.splice(i, 2);
  return Number(value);
};
const rounds = option("--rounds", 40);
const batch = option("--batch", 1000);
const usage = "usage: node bench/browser/ab.mjs [--rounds N] [--batch CALLS] NAME=PKG_DIR ...";
const builds = args.map((a) => {
  const [name, dir] = a.split("=");
  if (!name || !dir || !/^[\w-]+$/.test(name)) throw new Error(usage);
  return { name, dir: path.resolve(dir) };
});
if (builds.length === 0) throw new Error(usage);

// The bench's own fixtures (bench/run.mjs, bench/browser/bench.mjs): a code, a basket of one total,
// 3 lines and shipping, and issue 21's three codes that combine; the second basket of each pair
// differs in one amount, so that neither the basket nor the answer repeats the one before.
const fixtures = {
  definition: {
    code: "HOT",
    discount: { kind: "percent", percent: "10", max: { amount: "20.00", currency: "EUR" } },
    limits: { total: 1_000_000_000 },
    minimum: { amount: "50.00", currency: "EUR" },
  },
  basket: { total: { amount: "80.00", currency: "EUR" } },
  other: { total: { amount: "80.01", currency: "EUR" } },
  lines: {
    lines: [
      { sku: "MUG-ENAMEL", quantity: 2, unit_price: { amount: "12.50", currency: "EUR" }, categories: ["mugs"] },
      { sku: "BEANS-1KG", quantity: 1, unit_price: { amount: "28.50", currency: "EUR" }, categories: ["coffee"] },
      { sku: "GRINDER", quantity: 1, unit_price: { amount: "46.50", currency: "EUR" } },
    ],
    shipping: { amount: "4.90", currency: "EUR" },
  },
  options: { now: "2026-12-02T10:00:00Z" },
  stack: [
    { code: "MUGS20", discount: { kind: "percent", percent: "20" }, applies_to: { categories: ["mugs"] }, combines_with: ["order", "shipping"], limits: { total: 1_000_000_000 } },
    { code: "SAVE10", discount: { kind: "percent", percent: "10" }, combines_with: ["product", "shipping"], limits: { total: 1_000_000_000 } },
    { code: "SHIPFREE", discount: { kind: "free_shipping" }, combines_with: ["product", "order"], limits: { total: 1_000_000_000 } },
  ],
};
const ROWS = ["promo.quote", "two baskets", "3 lines", "stack", "stack, two baskets", "stack with usage"];

// The page: every build's module, and runRound(), which times each row of each build once.
const page = `
const names = ${JSON.stringify(builds.map((b) => b.name))};
const f = ${JSON.stringify(fixtures)};
const otherLines = { ...f.lines, shipping: { ...f.lines.shipping, amount: "4.95" } };
// As public/checkout/stack.js asks: each code's usage listed.
const counts = { total: 3, per_customer: 0 };
const withUsage = { ...f.options, usage: [counts, counts, counts] };
const calls = [];
for (const name of names) {
  const m = await import("./" + name + "/promocodes.js");
  await m.default();
  const promo = m.PromoCode.parse(f.definition);
  const stack = m.PromoStack.parse(f.stack);
  // The same answers from every build, before anything is timed.
  const answers = JSON.stringify([promo.quote(f.basket, f.options), promo.quote(f.lines, f.options), stack.quote(f.lines, f.options)]);
  if (calls.length > 0 && answers !== calls[0].answers) throw new Error(name + " answers otherwise than " + names[0]);
  let flip = false, turn = false;
  calls.push({
    answers,
    rows: [
      () => promo.quote(f.basket, f.options),
      () => promo.quote((flip = !flip) ? f.other : f.basket, f.options),
      () => promo.quote(f.lines, f.options),
      () => stack.quote(f.lines, f.options),
      () => stack.quote((turn = !turn) ? otherLines : f.lines, f.options),
      () => stack.quote(f.lines, withUsage),
    ],
  });
}
for (const c of calls) for (const row of c.rows) for (let i = 0; i < 20000; i++) row();
window.runRound = (batch) =>
  calls.map((c) =>
    c.rows.map((row) => {
      const start = performance.now();
      for (let i = 0; i < batch; i++) row();
      return (performance.now() - start) / batch;
    }),
  );
document.title = "ready";
`;

const scratch = mkdtempSync(path.join(tmpdir(), "promocodes-ab-"));
writeFileSync(path.join(scratch, "page.mjs"), page);
writeFileSync(path.join(scratch, "index.html"), `<!doctype html><script type="module" src="./page.mjs"></script>`);
for (const b of builds) {
  mkdirSync(path.join(scratch, b.name));
  for (const f of ["promocodes.js", "promocodes_bg.wasm", "snippets"]) {
    cpSync(path.join(b.dir, f), path.join(scratch, b.name, f), { recursive: true });
  }
  // As scripts/test-browser.sh counts the budget: gzip -9 (Node's zlib writes a few hundred bytes more).
  b.gzip = execFileSync("gzip", ["-9c", path.join(b.dir, "promocodes_bg.wasm")], { maxBuffer: 1 << 24 }).length;
}

const types = { ".html": "text/html", ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm" };
const server = createServer((req, res) => {
  const file = path.join(scratch, path.normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)));
  if (!file.startsWith(scratch) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, {
    "content-type": types[path.extname(file)] ?? "application/octet-stream",
    // As bench/browser/_headers: a cross-origin isolated page has the finer timer.
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
  });
  res.end(readFileSync(file));
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
});
try {
  const loads = [loadavg()[0]];
  const tab = await browser.newPage();
  tab.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  await tab.goto(`http://127.0.0.1:${server.address().port}/index.html`);
  await tab.waitForFunction(() => document.title === "ready", null, { timeout: 120000 });
  // samples[build][row] = each round's mean, in ms.
  const samples = builds.map(() => ROWS.map(() => []));
  for (let r = 0; r < rounds; r++) {
    const round = await tab.evaluate((n) => window.runRound(n), batch);
    round.forEach((rows, b) => rows.forEach((ms, i) => samples[b][i].push(ms)));
    loads.push(loadavg()[0]);
  }
  const us = (ms) => (ms * 1000).toFixed(2);
  const sorted = (xs) => xs.slice().sort((a, b) => a - b);
  console.log(`${rounds} rounds of ${batch} calls a row and build; µs a call: fastest batch (median batch)`);
  console.log(["build".padEnd(10), "gzip -9".padStart(9), ...ROWS.map((r) => r.padStart(20))].join(" "));
  builds.forEach((b, i) => {
    const cells = samples[i].map((xs) => {
      const s = sorted(xs);
      return `${us(s[0])} (${us(s[Math.floor(s.length / 2)])})`.padStart(20);
    });
    console.log([b.name.padEnd(10), `${b.gzip} B`.padStart(9), ...cells].join(" "));
  });
  console.log(`load average (1 min) during the run: ${Math.min(...loads).toFixed(2)} to ${Math.max(...loads).toFixed(2)}`);
} finally {
  await browser.close();
  server.close();
  rmSync(scratch, { recursive: true, force: true });
}
