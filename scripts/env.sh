# The build and run environment every script shares; sourced from the repository root.
# Tools come from ~/.cargo/bin (pinned cargo installs) and node_modules/.bin (npm), and nothing
# may try a download of its own (see scripts/setup.sh and ../shared/TOOLCHAIN.md).
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
# worker-build takes these before it tries to fetch its own copies.
export WASM_BINDGEN_BIN="$HOME/.cargo/bin/wasm-bindgen" WASM_OPT_BIN="$PWD/node_modules/.bin/wasm-opt" \
       ESBUILD_BIN="$PWD/node_modules/.bin/esbuild"
# wrangler: no metrics, no fetch of Cloudflare's request metadata, no banner.
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true
