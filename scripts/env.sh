# The build and run environment every script shares; sourced from the repository root.
# Tools come from the cargo install root (pinned cargo installs: $CARGO_INSTALL_ROOT/bin, else
# ~/.cargo/bin) and node_modules/.bin (npm), and nothing may try a download of its own (see
# scripts/setup.sh and ../shared/TOOLCHAIN.md).
export PATH="${CARGO_INSTALL_ROOT:-$HOME/.cargo}/bin:$PWD/node_modules/.bin:$PATH"
# wrangler: no metrics, no fetch of Cloudflare's request metadata, no banner.
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true
