// The browser rows of scripts/bench.sh for several builds of the module in turn: an A/B of the
// module's speed without the Worker. Each round opens bench/browser's page once per build (the
// builds interleaved, so that the machine's drift falls on all of them alike) in one headless
// Chromium and runs its runBench without round trips; it prints each round's means and the median
// of each build's.
//
// usage: node bench/browser/ab.mjs [--rounds N] [--ms M] NAME=PKG_DIR ...
//   PKG_DIR: a wasm-pack output folder (promocodes.js, promocodes_bg.wasm, snippets/), e.g. pkg.
// Only 127.0.0.1 is used; the server and the browser are stopped on exit.
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";

const here = import.meta.dirname;
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [value] = args.splice(i, 2).slice(1);
  return Number(value);
};
const rounds = option("--rounds", 5);
const millis = option("--ms", 3000);
const builds = args.map((a) => {
  const [name, dir] = a.split("=");
  if (!name || !dir) throw new Error("usage: node bench/browser/ab.mjs [--rounds N] [--ms M] NAME=PKG_DIR ...");
  return { name, dir: path.resolve(dir) };
});
if (builds.length === 0) throw new Error("usage: node bench/browser/ab.mjs [--rounds N] [--ms M] NAME=PKG_DIR ...");

// The bench's own fixtures (bench/run.mjs): a code, a basket of one total, 3 lines and shipping,
// and issue 21's three codes that combine.
const cfg = {
  definition: {
    code: "HOT",
    discount: { kind: "percent", percent: "10", max: { amount: "20.00", currency: "EUR" } },
    limits: { total: 1_000_000_000 },
    minimum: { amount: "50.00", currency: "EUR" },
  },
  basket: { total: { amount: "80.00", currency: "EUR" } },
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
  quoteCalls: 1_000_000,
  oneShotCalls: 2000,
  roundTrips: 0,
  maxMillis: millis,
};

// One folder a build: the bench page and the build's module.
const scratch = mkdtempSync(path.join(tmpdir(), "promocodes-ab-"));
for (const b of builds) {
  const dir = path.join(scratch, b.name);
  mkdirSync(path.join(dir, "pkg"), { recursive: true });
  for (const f of ["index.html", "bench.mjs"]) cpSync(path.join(here, f), path.join(dir, f));
  for (const f of ["promocodes.js", "promocodes_bg.wasm", "snippets"]) {
    cpSync(path.join(b.dir, f), path.join(dir, "pkg", f), { recursive: true });
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
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
});
const us = (ms) => (ms * 1000).toFixed(2);
const rows = Object.fromEntries(builds.map((b) => [b.name, []]));
try {
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  for (let r = 0; r < rounds; r++) {
    for (const b of builds) {
      const page = await browser.newPage();
      page.on("pageerror", (e) => console.error(`[${b.name}] page error: ${e.message}`));
      await page.goto(`${origin}/${b.name}/index.html`);
      await page.waitForFunction(() => typeof window.runBench === "function", null, { timeout: 30000 });
      const out = await page.evaluate((c) => window.runBench(c), cfg);
      await page.close();
      const row = {
        one: out.handleBatch.meanMs,
        two: out.handleAlternateBatch.meanMs,
        lines: out.handleLinesBatch.meanMs,
        stack: out.stackLinesBatch.meanMs,
        stack2: out.stackAlternateBatch?.meanMs ?? NaN,
      };
      rows[b.name].push(row);
      console.log(
        `round ${r + 1} ${b.name.padEnd(12)} promo.quote ${us(row.one)} µs, two baskets ${us(row.two)} µs, ` +
          `3 lines ${us(row.lines)} µs, stack ${us(row.stack)} µs, stack two baskets ${us(row.stack2)} µs (load ${loadavg()[0].toFixed(2)})`,
      );
    }
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log("\nbuild         gzip -9    promo.quote  two baskets  3 lines  stack  stack, two baskets (median µs)");
  for (const b of builds) {
    const m = (k) => us(median(rows[b.name].map((row) => row[k]))).padStart(9);
    console.log(`${b.name.padEnd(12)} ${String(b.gzip).padStart(8)} B ${m("one")}   ${m("two")}  ${m("lines")} ${m("stack")} ${m("stack2")}`);
  }
  console.log(`load average at end: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
} finally {
  await browser.close();
  server.close();
  rmSync(scratch, { recursive: true, force: true });
}
