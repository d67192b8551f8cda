# The build and run environment every script shares; sourced from the repository root.
# Tools come from the cargo install root (pinned cargo installs: $CARGO_INSTALL_ROOT/bin, else
# ~/.cargo/bin) and node_modules/.bin (npm), and nothing may try a download of its own (see
# scripts/setup.sh and ../shared/TOOLCHAIN.md).
export PATH="${CARGO_INSTALL_ROOT:-$HOME/.cargo}/bin:$PWD/node_modules/.bin:$PATH"
# wrangler: no metrics, no fetch of Cloudflare's request metadata, no banner.
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true

# The browser module's build into pkg/ (scripts/build-web.sh, scripts/test-browser.sh): every crate,
# the core too, at opt-level "z" and LLVM's inlining threshold at 0, for the module's gzip budget
# (docs/performance.md#build-settings). RUSTFLAGS replaces .cargo/config.toml's threshold for this
# build only; the Worker and the native builds keep Cargo.toml's profile (the core at 3). In a Cargo
# target folder of its own (target/web): a crate with a cdylib, as `promocodes` is, has one output
# file per target folder whatever its features, so the Worker's build of it (without the feature
# wasm) and this one would each undo the other and compile it again (scripts/build-worker.sh).
build_web_pkg() {
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/web" RUSTFLAGS="-C llvm-args=-inline-threshold=0" \
    wasm-pack build --target web --release --mode no-install --out-dir pkg --out-name promocodes \
    -- --features wasm --config 'profile.release.package.promocodes.opt-level="z"' --config 'profile.release.opt-level="z"'
}
