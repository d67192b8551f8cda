#!/usr/bin/env bash
# Builds the bench's raw-bindings floor (bench/floor-raw: the capture floor with wasm-bindgen's own
# declarations of the Durable Object API, no workers-rs) into OUT_DIR (default bench/floor-raw/build),
# with the Rust floor's settings (scripts/build-worker.sh: the `worker` profile, LLVM's inlining
# threshold 0, wasm-opt -Oz --strip-debug), so that the two differ in their glue alone:
#   cargo build, wasm-bindgen --target web, wasm-opt, and bench/floor-raw/shim.mjs beside them.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
out=${1:-bench/floor-raw/build}
RUSTFLAGS="-C llvm-args=-inline-threshold=0" cargo build --profile worker --lib --target wasm32-unknown-unknown -p promocodes-floor-raw
target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).target_directory)')
mkdir -p "$out"
wasm-bindgen "$target_dir/wasm32-unknown-unknown/worker/promocodes_floor_raw.wasm" --out-dir "$out" --out-name floor_raw \
  --target web --no-typescript
wasm-opt "$out/floor_raw_bg.wasm" -o "$out/floor_raw_bg.wasm" -Oz --strip-debug \
  --enable-mutable-globals --enable-sign-ext --enable-nontrapping-float-to-int --enable-bulk-memory \
  --enable-multivalue --enable-reference-types --enable-exception-handling
cp bench/floor-raw/shim.mjs "$out/shim.mjs"
printf '[build-floor-raw] %s: %s bytes wasm\n' "$out" "$(wc -c <"$out/floor_raw_bg.wasm")"
