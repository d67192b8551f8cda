#!/usr/bin/env bash
# Builds the browser module (wasm-pack, release, wasm-opt from npm binaryen) and copies it next to the
# checkout page, into public/pkg/ (build output, ignored by git), where the Worker's static assets serve it.
# Prints the module's size, raw and gzip, as its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

# pkg/, with the module's size settings (scripts/env.sh's build_web_pkg).
build_web_pkg

mkdir -p public/pkg
cp pkg/promocodes.js pkg/promocodes_bg.wasm public/pkg/
# promocodes.js imports its JavaScript helpers (src/wasm.js) from ./snippets/.
rm -rf public/pkg/snippets
cp -r pkg/snippets public/pkg/
# The size the README points at: raw, and what a browser downloads (gzip -9, as the budget in
# scripts/test-browser.sh counts it).
raw=$(wc -c < public/pkg/promocodes_bg.wasm)
gz=$(gzip -9c public/pkg/promocodes_bg.wasm | wc -c)
awk -v raw="$raw" -v gz="$gz" 'BEGIN {
  printf "[build-web] public/pkg/promocodes_bg.wasm: %d bytes (%.1f KiB) raw, %d bytes (%.1f KiB) gzip -9\n",
    raw, raw / 1024, gz, gz / 1024 }'
