// src/schema.ts and the browser module's shapes (src/wasm/shapes.d.ts at the top) are generated
// from docs/openapi.json (`npm run generate`) and committed: this fails when a committed file is not
// what the generator writes now (regenerate and commit it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const PACKAGE = path.resolve(import.meta.dirname, "..");

test("src/schema.ts and src/wasm/shapes.d.ts are what `npm run generate` writes from docs/openapi.json", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "promocodes-client-"));
  try {
    const fresh = path.join(dir, "schema.ts");
    const freshShapes = path.join(dir, "shapes.d.ts");
    execFileSync(process.execPath, [path.join(PACKAGE, "scripts/generate.mjs"), fresh, freshShapes], { cwd: PACKAGE, stdio: "pipe" });
    for (const [committed, generated] of [
      ["src/schema.ts", fresh],
      ["../../src/wasm/shapes.d.ts", freshShapes],
    ]) {
      assert.ok(readFileSync(path.join(PACKAGE, committed), "utf8") === readFileSync(generated, "utf8"),
        `${committed} (from clients/typescript) is stale: run \`npm run generate\` in clients/typescript and commit it`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("no request body's type collapsed to unknown", () => {
  const schema = readFileSync(path.join(PACKAGE, "src/schema.ts"), "utf8");
  assert.doesNotMatch(schema, /\| unknown\b|\bunknown \|/);
});
