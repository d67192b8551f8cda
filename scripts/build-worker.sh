#!/usr/bin/env bash
# Builds a workers-rs Worker crate for Cloudflare, with the tools scripts/setup.sh installs and nothing
# else (no worker-build):
#
#   scripts/build-worker.sh [-p PACKAGE] [--features FEATURES] [OUT_DIR]
#
# PACKAGE defaults to promocodes-worker, OUT_DIR to worker/build (relative to the repository root).
#  1. cargo build --profile worker --lib --target wasm32-unknown-unknown (WASM_BINDGEN_USE_JS_SYS=1, as
#     workers-rs wants),
#  2. wasm-bindgen --target module, with the reset-state function and abort handler that workers-rs'
#     panic recovery calls,
#  3. wasm-opt (npm binaryen) with the crate's [package.metadata.wasm-pack.profile.release] wasm-opt
#     flags,
#  4. esbuild (npm) bundles the glue with an entry module written here, whose runtime half is
#     scripts/worker-entry.mjs: the default export (a WorkerEntrypoint calling the Rust handlers) and
#     one export per class (the Durable Objects).
# OUT_DIR then holds index.js (the bundle), index_bg.wasm, and worker/shim.mjs (the entry wrangler.toml
# names, re-exporting index.js); the three are replaced one by one at the end, other entries of
# OUT_DIR are left alone.
#
# Steps 2 to 4 are a function of the compiled .wasm, this script, worker-entry.mjs and the tools'
# versions: their result is kept in the Cargo target folder under that key (target/build-worker/,
# the newest 8), so a build whose .wasm did not change (another stage of scripts/test.sh, a fresh
# clone sharing the target folder) copies it instead of running wasm-opt again (about 40 s).
# Ends with one line: "[build-worker] OUT_DIR: N bytes, N bytes gzip -9 (built|reused)".
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

package=promocodes-worker features=() out=
while [ $# -gt 0 ]; do
  case "$1" in
    -p | --package) package="$2"; shift 2 ;;
    --features) features=(--features "$2"); shift 2 ;;
    -*) echo "usage: scripts/build-worker.sh [-p PACKAGE] [--features FEATURES] [OUT_DIR]" >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done
log() { printf '[build-worker] %s\n' "$*"; }

# The Worker serves docs/openapi.json from its static assets (public/, wrangler.toml's [assets]), not
# from its .wasm (worker/src/handlers/mod.rs, OPENAPI_ASSET): a copy made with each build, git-ignored.
if [ "$package" = promocodes-worker ]; then
  mkdir -p public/v1
  cp docs/openapi.json public/v1/openapi.json
fi

# The package's manifest facts: its lib name, its wasm-opt flags, and the target folder.
meta=$(cargo metadata --format-version 1 --no-deps | node -e '
  const m = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const p = m.packages.find((p) => p.name === process.argv[1]);
  if (!p) { console.error(`no package ${process.argv[1]} in the workspace`); process.exit(1); }
  const lib = p.targets.find((t) => t.kind.includes("cdylib"));
  if (!lib) { console.error(`${p.name} has no cdylib target`); process.exit(1); }
  const opt = p.metadata?.["wasm-pack"]?.profile?.release?.["wasm-opt"] ?? ["-O"];
  console.log(m.target_directory);
  console.log(lib.name.replace(/-/g, "_"));
  console.log(require("path").relative(m.workspace_root, p.manifest_path.replace(/\/Cargo\.toml$/, "")));
  console.log(opt === false ? "" : opt.join(" "));
' "$package")
{ read -r target_dir; read -r lib; read -r crate_dir; read -r wasm_opt_flags; } <<<"$meta"
out=${out:-$crate_dir/build}

# The profile `worker` (every crate at "z") and LLVM's inlining threshold at 0, as the browser module's
# build (RUSTFLAGS replaces .cargo/config.toml's 35): the upload's size (docs/performance.md#the-workers-size).
WASM_BINDGEN_USE_JS_SYS=1 RUSTFLAGS="-C llvm-args=-inline-threshold=0" cargo build --profile worker --lib --target wasm32-unknown-unknown -p "$package" "${features[@]}"
wasm="$target_dir/wasm32-unknown-unknown/worker/$lib.wasm"

tools="wasm-bindgen $(wasm-bindgen --version) | wasm-opt $(wasm-opt --version) | esbuild $(esbuild --version)"
key=$(cat "$wasm" scripts/build-worker.sh scripts/worker-entry.mjs <(echo "$tools $wasm_opt_flags") | sha256sum | cut -c1-32)
cache="$target_dir/build-worker"
mkdir -p "$cache" "$out"

if [ -d "$cache/$key" ]; then
  how=reused
else
  how=built
  stage=$(mktemp -d "$cache/.tmp.XXXXXX")
  trap 'rm -rf "$stage"' EXIT

  wasm-bindgen "$wasm" --out-dir "$stage/glue" --out-name index --target module --no-typescript \
    --experimental-reset-state-function --force-enable-abort-handler

  if [ -n "$wasm_opt_flags" ]; then
    # The features workerd's V8 has, as worker-build 0.8.7 enables them; not its --debuginfo, which keeps
    # the name section (a third of the upload's gzip: docs/performance.md#the-workers-size).
    # shellcheck disable=SC2086
    wasm-opt "$stage/glue/index_bg.wasm" -o "$stage/index_bg.wasm" $wasm_opt_flags \
      --enable-mutable-globals --enable-sign-ext --enable-nontrapping-float-to-int --enable-bulk-memory \
      --enable-multivalue --enable-reference-types --enable-exception-handling
  else
    cp "$stage/glue/index_bg.wasm" "$stage/index_bg.wasm"
  fi

  # The entry: the runtime half, then the exports wasm-bindgen wrote into the glue.
  node -e '
    const glue = require("fs").readFileSync(process.argv[1], "utf8");
    const functions = [], classes = [];
    for (const m of glue.matchAll(/(?:^|[\s;}])export\s+(?:async\s+)?function\s*\*?\s*([\w$]+)\s*\(/g)) functions.push(m[1]);
    for (const m of glue.matchAll(/(?:^|[\s;}])export\s+class\s+([\w$]+)/g)) classes.push(m[1]);
    for (const m of glue.matchAll(/(?:^|[\s;}])export\s*\{([^}]*)\}/g)) {
      for (const part of m[1].split(",")) {
        const name = part.split(/\s+as\s+/).pop().trim();
        if (name) functions.push(name);
      }
    }
    const plumbing = ["__worker_init_state", "__wbg_reset_state"];
    for (const name of plumbing) {
      if (!functions.includes(name)) {
        console.error(`the wasm glue exports no ${name}: is this a workers-rs crate?`);
        process.exit(1);
      }
    }
    const events = ["fetch", "queue", "scheduled", "email", "connect"];
    const handlers = (keep) => functions.filter((f) => !plumbing.includes(f) && keep(events.includes(f)))
      .map((f) => `${f}: wasm.${f}`).join(", ");
    const lines = [
      `import * as wasm from "./index.js";`,
      `import { WorkerEntrypoint } from "cloudflare:workers";`,
      `import { workerExports } from ${JSON.stringify(process.argv[2])};`,
      `const { entrypoint, durableObject } =`,
      `  workerExports(WorkerEntrypoint, wasm.__worker_init_state, wasm.__wbg_reset_state);`,
      `export default entrypoint({ ${handlers((e) => e)} }, { ${handlers((e) => !e)} });`,
      ...classes.map((c) => `export const ${c} = durableObject(wasm.${c});`),
    ];
    console.log(lines.join("\n"));
  ' "$stage/glue/index.js" "$PWD/scripts/worker-entry.mjs" >"$stage/glue/entry.mjs"

  # The glue imports its wasm as `import source`; esbuild keeps the import (external), and the
  # Workers runtime takes a plain import of a .wasm file as its WebAssembly.Module.
  esbuild "$stage/glue/entry.mjs" --bundle --format=esm --minify --log-level=warning \
    --external:./index_bg.wasm --external:'cloudflare:*' --outfile="$stage/bundle.js"
  sed 's/import source /import /g' "$stage/bundle.js" >"$stage/index.js"
  grep -q 'from"./index_bg.wasm"\|from "./index_bg.wasm"' "$stage/index.js" \
    || { log "the bundle does not import ./index_bg.wasm"; exit 1; }

  mkdir -p "$stage/result/worker"
  mv "$stage/index.js" "$stage/index_bg.wasm" "$stage/result/"
  printf '%s\n' '// The entry wrangler.toml names: the bundle next to it (scripts/build-worker.sh).' \
    "export * from '../index.js';" "export { default } from '../index.js';" >"$stage/result/worker/shim.mjs"
  # Another build of the same key may have finished first: then its result stays.
  mv -T "$stage/result" "$cache/$key" 2>/dev/null || true
  rm -rf "$stage"
  trap - EXIT
  # Keep the newest 8 results.
  ls -1dt "$cache"/*/ 2>/dev/null | tail -n +9 | xargs -r rm -rf
fi

# Into OUT_DIR, entry by entry (the module before the bundle that imports it, the entry last), each a
# rename within OUT_DIR.
mkdir -p "$out/worker"
for f in index_bg.wasm index.js worker/shim.mjs; do
  cp "$cache/$key/$f" "$out/$f.tmp.$$"
  mv -f "$out/$f.tmp.$$" "$out/$f"
done
touch "$cache/$key"

raw=$(wc -c <"$out/index_bg.wasm")
gz=$(gzip -9c "$out/index_bg.wasm" | wc -c)
log "$out: $raw bytes, $gz bytes gzip -9 ($how)"
