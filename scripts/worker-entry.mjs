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
import { WorkerEntrypoint } from "cloudflare:workers";

// Handlers the runtime calls with one argument, which the Rust side takes with (argument, env, ctx).
const EVENTS = new Set(["fetch", "queue", "scheduled", "email", "connect"]);
// Exports of the wasm glue that are plumbing, not handlers.
const PLUMBING = new Set(["__wbg_reset_state", "__worker_init_state"]);

/**
 * The Worker's exports around the wasm glue module `wasm`: `entrypoint(names)` is the default export
 * with one method per exported function named in `names`, `durableObject(Class)` an exported class
 * the runtime may construct (a Durable Object).
 */
export function workerExports(wasm) {
  Error.stackTraceLimit = 100;
  const state = wasm.__worker_init_state(); // { criticalError, instanceId }

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
    wasm.__wbg_reset_state();
    state.criticalError = false;
    state.instanceId++;
  };
  // Calls `fn` on `self` after recovering, noting a wasm trap on the way out (also from an async
  // function's promise; wasm-bindgen's own functions answer promises without being async).
  const call = (fn, self, args) => {
    recover();
    let out;
    try {
      out = fn.apply(self, args);
    } catch (error) {
      noteCritical(error);
      throw error;
    }
    if (fn.constructor.name === "AsyncFunction") {
      return out.catch((error) => {
        noteCritical(error);
        throw error;
      });
    }
    return out;
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

  function entrypoint(names) {
    class Entrypoint extends WorkerEntrypoint {
      constructor(ctx, env) {
        construct(() => null);
        super(ctx, env);
      }
    }
    for (const name of names) {
      if (PLUMBING.has(name)) continue;
      const fn = wasm[name];
      const method = EVENTS.has(name)
        ? function (argument) {
            return call(fn, this, [argument, this.env, this.ctx]);
          }
        : function (...args) {
            return call(fn, this, args);
          };
      Object.defineProperty(method, "name", { value: name });
      Object.defineProperty(Entrypoint.prototype, name, { value: method, writable: true, configurable: true });
    }
    return Entrypoint;
  }

  // A class whose instances hold an instance of `Class` built on the live wasm instance: each method
  // of `Class.prototype` is forwarded, after a rebuild if the wasm instance was reset since.
  function durableObject(Class) {
    const inner = Symbol(Class.name);
    const Wrapper = {
      [Class.name]: class {
        constructor(...args) {
          construct(() => {
            this[inner] = { object: new Class(...args), args, instanceId: state.instanceId };
          });
        }
      },
    }[Class.name];
    const current = (self) => {
      const held = self[inner];
      if (held.instanceId !== state.instanceId) {
        held.object = new Class(...held.args);
        held.instanceId = state.instanceId;
      }
      return held.object;
    };
    for (const key of Reflect.ownKeys(Class.prototype)) {
      if (key === "constructor") continue;
      const { value, get, set } = Object.getOwnPropertyDescriptor(Class.prototype, key);
      if (typeof value === "function") {
        Object.defineProperty(Wrapper.prototype, key, {
          value: function (...args) {
            return call(value, current(this), args);
          },
          writable: true,
          configurable: true,
        });
      } else if (get || set) {
        Object.defineProperty(Wrapper.prototype, key, {
          get: get && function () {
            return call(get, current(this), []);
          },
          set: set && function (v) {
            call(set, current(this), [v]);
          },
          configurable: true,
        });
      }
    }
    return Wrapper;
  }

  return { entrypoint, durableObject };
}
