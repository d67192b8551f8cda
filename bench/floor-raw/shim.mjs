// The raw-bindings floor's module (bench/floor-raw): wasm-bindgen's `--target web` glue, initialised
// with the wasm module workerd hands over as an import, then the Durable Object class and the front
// Worker as one-line JavaScript calls into Rust (`Floor`, `front`; no workers-rs). Bench-only.
import { DurableObject } from "cloudflare:workers";
import { initSync, Floor as RawFloor, front } from "./floor_raw.js";
import module from "./floor_raw_bg.wasm";

initSync({ module });

export class Floor extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.raw = new RawFloor(ctx.storage);
  }

  fetch(request) {
    return this.raw.fetch(request);
  }
}

export default {
  fetch(request, env) {
    return front(request, env.FLOOR);
  },
};
