#!/usr/bin/env bash
# Builds the browser module (wasm-pack, release, wasm-opt from npm binaryen) and copies it next to the
# checkout page, into public/pkg/ (build output, ignored by git), where the Worker's static assets serve it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

wasm-pack build --target web --release --mode no-install --out-dir pkg --out-name promocodes -- --features wasm

mkdir -p public/pkg
cp pkg/promocodes.js pkg/promocodes_bg.wasm public/pkg/
printf '[build-web] public/pkg/promocodes_bg.wasm: %s bytes, %s bytes gzip\n' \
  "$(wc -c < public/pkg/promocodes_bg.wasm)" "$(gzip -9c public/pkg/promocodes_bg.wasm | wc -c)"
