// The runtime half of a workers-rs Worker's entry module, bundled by scripts/build-worker.sh into the
// Worker (the other half, the list of exports, is written by that script for each build).
//
// wasm-bindgen's `--target module` output exports the Rust `#[event(fetch)]` handler as a function
// taking (request, env, ctx), and each `#[durable_object]` as a class. The Workers runtime wants a
// default export that extends WorkerEntrypoint and the Durable Object classes by name. Between the
// two sits the workers-rs recovery contract (worker crate, src/init.rs): a Rust panic aborts the wasm
// instance and sets `criticalError` on the shared init state; the next call then resets the instance
// (`__wbg_reset_state`, from wasm-bindgen's `--experimental-reset-state-function`) and bumps
// `instanceId`, and each Durable Object built on the old instance is built again with the arguments
// the runtime gave it, before the call reaches it. A `WebAssembly.RuntimeError` thrown out of a call,
// or reported to the global `error` event, marks the state critical the same way.
// It imports nothing (the entry passes `WorkerEntrypoint` in), so tests/scripts/ runs it under Node.

/**
 * The Worker's exports around the wasm glue, given the runtime's `WorkerEntrypoint` and the glue's
 * `__worker_init_state` and `__wbg_reset_state` (each export is passed by name, never the glue's namespace, so that the bundle keeps no object of
 * every export): `entrypoint(events, others)` is the default export, with one method per exported
 * function: `events` are the handlers the runtime calls with one argument (fetch, queue, scheduled,
 * email, connect), which the Rust side takes with (argument, env, ctx); `others` are called as they
 * are. `durableObject(Class)` an exported class the runtime may construct (a Durable
 * Object).
 */
export function workerExports(WorkerEntrypoint, initState, resetState) {
  Error.stackTraceLimit = 100;
  const state = initState(); // { criticalError, instanceId }

  const noteCritical = (error) => {
    if (error instanceof WebAssembly.RuntimeError) {
      console.error("Critical", error);
      state.criticalError = true;
    }
  };
  addEventListener("error", (event) => noteCritical(event.error));

  // Before every construction and call: a fresh instance if the last one died.
  const recover = () => {
    if (!state.criticalError) return;
    console.log("Reinitializing Wasm application");
    resetState();
    state.criticalError = false;
    state.instanceId++;
  };
  // Calls `fn` on what `self()` answers after recovering (so a Durable Object is built again on the
  // new instance first), noting a wasm trap on the way out. wasm-bindgen's functions are plain ones
  // (an async Rust function answers a Promise): a rejection goes to the caller as is.
  const call = (fn, self, args) => {
    recover();
    try {
      return fn.apply(self(), args);
    } catch (error) {
      noteCritical(error);
      throw error;
    }
  };
  const construct = (build) => {
    try {
      recover();
      return build();
    } catch (error) {
      state.criticalError = true;
      throw error;
    }
  };

  function entrypoint(events, others) {
    class Entrypoint extends WorkerEntrypoint {
      constructor(ctx, env) {
        construct(() => null);
        super(ctx, env);
      }
    }
    for (const [name, fn] of Object.entries(events)) {
      Entrypoint.prototype[name] = function (argument) {
        return call(fn, () => this, [argument, this.env, this.ctx]);
      };
    }
    for (const [name, fn] of Object.entries(others)) {
      Entrypoint.prototype[name] = function (...args) {
        return call(fn, () => this, args);
      };
    }
    return Entrypoint;
  }

  // A class whose instances each hold an instance of `Class` built on the live wasm instance: each
  // method of `Class.prototype` is forwarded to it, after building it again if the wasm instance was
  // reset since (a #[durable_object] class has methods only, no accessors).
  function durableObject(Class) {
    const held = new WeakMap(); // wrapper -> { object, args, instanceId }
    class Wrapper {
      constructor(...args) {
        construct(() => held.set(this, { object: new Class(...args), args, instanceId: state.instanceId }));
      }
    }
    const live = (self) => {
      const it = held.get(self);
      if (it.instanceId !== state.instanceId) {
        it.object = new Class(...it.args);
        it.instanceId = state.instanceId;
      }
      return it.object;
    };
    for (const key of Reflect.ownKeys(Class.prototype)) {
      const { value } = Object.getOwnPropertyDescriptor(Class.prototype, key);
      if (key !== "constructor" && typeof value === "function") {
        Wrapper.prototype[key] = function (...args) {
          return call(value, () => live(this), args);
        };
      }
    }
    return Wrapper;
  }

  return { entrypoint, durableObject };
}
