// The client's types as a shop's TypeScript sees them (the built package, imported by its name):
// test/types/usage.ts must type-check, and test/types/wrong.ts must fail on each line marked
// `// error` and on no other (a wrong field name, a missing required field, a missing key...).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const PACKAGE = path.resolve(import.meta.dirname, "..");
const TSC = path.join(PACKAGE, "node_modules/.bin/tsc");

/** Runs tsc; its exit status and output. */
function tsc(args) {
  try {
    return { status: 0, output: execFileSync(TSC, args, { cwd: PACKAGE, encoding: "utf8" }) };
  } catch (err) {
    return { status: err.status, output: `${err.stdout}${err.stderr}` };
  }
}

test("a right use of the client type-checks", () => {
  const { status, output } = tsc(["-p", "test/types/tsconfig.json"]);
  assert.equal(status, 0, output);
});

test("every misuse in wrong.ts is a type error, on its own line", () => {
  // tsc refuses a file list together with -p: the same options on the command line.
  const { status, output } = tsc(["--strict", "--noEmit", "--target", "ES2022", "--module", "NodeNext",
    "--moduleResolution", "NodeNext", "--lib", "ES2022,DOM", "--noUncheckedIndexedAccess", "test/types/wrong.ts"]);
  assert.notEqual(status, 0, "tsc accepted test/types/wrong.ts");
  const got = [...new Set([...output.matchAll(/^test\/types\/wrong\.ts\((\d+),\d+\): error/gm)].map((m) => Number(m[1])))];
  const want = readFileSync(path.join(PACKAGE, "test/types/wrong.ts"), "utf8").split("\n")
    .flatMap((line, i) => (line.endsWith("// error") ? [i + 1] : []));
  assert.ok(want.length >= 15, `only ${want.length} marked lines`);
  assert.deepEqual(got, want, output);
});
