// scripts/worker-entry.mjs, the runtime half of the Worker's entry module, under Node: the recovery
// contract with workers-rs (a wasm trap marks the shared state critical; the next call resets the
// wasm instance and builds each Durable Object again before reaching it) and the handlers' calling
// convention. A panic cannot be provoked in the real Worker (no route panics), so the wasm glue here
// is a stand-in with the glue's shape: the init state object, a reset function, a fetch function
// and a class. Run: node --test tests/scripts/ (scripts/test.sh's worker stage does).
import { beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { workerExports } from "../../scripts/worker-entry.mjs";

class WorkerEntrypoint {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }
}

let listeners, glue;
beforeEach(() => {
  listeners = [];
  globalThis.addEventListener = (type, listener) => listeners.push([type, listener]);
  const state = { criticalError: false, instanceId: 1 };
  const log = [];
  glue = {
    state,
    log,
    resets: 0,
    initState: () => state,
    resetState: () => {
      glue.resets++;
      state.instanceId++; // the glue's start function bumps it as the instance starts again
    },
    fetch(request, env, ctx) {
      log.push(["fetch", this, request, env, ctx]);
      if (request === "trap") throw new WebAssembly.RuntimeError("unreachable");
      if (request === "error") throw new Error("an ordinary error");
      return `answer to ${request}`;
    },
    Ledger: class Ledger {
      constructor(state, env) {
        if (state === "broken") throw new Error("constructor failed");
        this.built = [state, env, glue.state.instanceId];
        log.push(["new Ledger", state, env]);
      }
      fetch(request) {
        log.push(["Ledger.fetch", this.built, request]);
        if (request === "trap") throw new WebAssembly.RuntimeError("unreachable");
        return Promise.resolve(`ledger answer to ${request}`);
      }
      alarm() {
        return "alarm ran";
      }
    },
  };
  globalThis.console.error = () => {};
  globalThis.console.log = () => {};
});

const exportsOf = () => workerExports(WorkerEntrypoint, glue.initState, glue.resetState);

test("fetch reaches the Rust handler with (request, env, ctx), on an entrypoint", () => {
  const { entrypoint } = exportsOf();
  const Default = entrypoint({ fetch: glue.fetch }, {});
  const worker = new Default("ctx", "env");
  assert.ok(worker instanceof WorkerEntrypoint);
  assert.equal(worker.fetch("req"), "answer to req");
  assert.deepEqual(glue.log.at(-1), ["fetch", worker, "req", "env", "ctx"]);
});

test("a Durable Object's methods reach an instance built with the runtime's arguments", async () => {
  const { durableObject } = exportsOf();
  const Ledger = durableObject(glue.Ledger);
  const object = new Ledger("state", "env");
  assert.equal(await object.fetch("r1"), "ledger answer to r1");
  assert.equal(object.alarm(), "alarm ran");
  assert.deepEqual(glue.log, [["new Ledger", "state", "env"], ["Ledger.fetch", ["state", "env", 1], "r1"]]);
});

test("a wasm trap resets the instance before the next call, and the object is built again on it", async () => {
  const { entrypoint, durableObject } = exportsOf();
  const Ledger = durableObject(glue.Ledger);
  const object = new Ledger("state", "env");
  assert.throws(() => object.fetch("trap"), WebAssembly.RuntimeError);
  assert.equal(glue.state.criticalError, true);
  assert.equal(glue.resets, 0, "nothing resets until the next call");

  assert.equal(await object.fetch("r2"), "ledger answer to r2");
  assert.equal(glue.resets, 1);
  assert.equal(glue.state.criticalError, false);
  assert.equal(glue.state.instanceId, 3, "the glue's start and the shim each count the new instance");
  assert.deepEqual(glue.log.slice(-2), [["new Ledger", "state", "env"], ["Ledger.fetch", ["state", "env", 3], "r2"]]);

  // The entrypoint sees the same state: no second reset.
  const worker = new (entrypoint({ fetch: glue.fetch }, {}))("ctx", "env");
  assert.equal(worker.fetch("r3"), "answer to r3");
  assert.equal(glue.resets, 1);
});

test("an ordinary error passes through without a reset", () => {
  const { entrypoint } = exportsOf();
  const worker = new (entrypoint({ fetch: glue.fetch }, {}))("ctx", "env");
  assert.throws(() => worker.fetch("error"), /an ordinary error/);
  assert.equal(glue.state.criticalError, false);
  assert.equal(worker.fetch("again"), "answer to again");
  assert.equal(glue.resets, 0);
});

test("a trap reported to the global error event, or a failed construction, resets on the next one", () => {
  const { entrypoint, durableObject } = exportsOf();
  const errorListeners = listeners.filter(([type]) => type === "error");
  assert.equal(errorListeners.length, 1);
  errorListeners[0][1]({ error: new WebAssembly.RuntimeError("unreachable") });
  assert.equal(glue.state.criticalError, true);
  const Default = entrypoint({ fetch: glue.fetch }, {});
  new Default("ctx", "env");
  assert.equal(glue.resets, 1);

  const Ledger = durableObject(glue.Ledger);
  assert.throws(() => new Ledger("broken", "env"), /constructor failed/);
  assert.equal(glue.state.criticalError, true);
  new Ledger("state", "env");
  assert.equal(glue.resets, 2);
});
