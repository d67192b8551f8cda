#!/usr/bin/env bash
# The README's test command as a fresh machine runs it, timed: scripts/test.sh in a fresh clone of
# HEAD, with none of the tools scripts/setup.sh installs and nothing cached, so it installs and
# builds everything itself. Prints test.sh's table of stages and the total, and keeps the whole log.
#
#   scripts/fresh-machine.sh                 cold: also an empty Cargo registry and npm cache
#   scripts/fresh-machine.sh --warm-caches   the Cargo registry (~/.cargo/registry) and npm cache
#                                            (~/.npm) as they are: no crate or package downloads
#
# What is fresh:
# - the checkout: a clone of HEAD (committed files only, no target/, no node_modules/);
# - the cargo-installed tools: CARGO_INSTALL_ROOT is an empty folder first on PATH, and
#   ~/.cargo/bin is taken off PATH; only rustup's proxies (cargo, rustc, rustup, rustdoc, rustfmt,
#   cargo-fmt, cargo-clippy, clippy-driver) stay, linked from a folder of their own;
# - unless --warm-caches: CARGO_HOME (its registry) and npm's cache are empty folders.
# What is not: the Rust toolchain with its wasm32 target, Node, and the Debian packages (chromium,
# chromium-driver, postgresql), which the README's quick start takes as given or setup.sh checks.
# Everything lives in one scratch folder, removed at the end (KEEP=1 keeps it). Run it on an idle
# machine: it measures the machine's time, not this script's.
set -euo pipefail
cd "$(dirname "$0")/.."

warm=
case "${1:-}" in
  "") ;;
  --warm-caches) warm=1 ;;
  *) echo "usage: scripts/fresh-machine.sh [--warm-caches]" >&2; exit 2 ;;
esac
log() { printf '[fresh-machine] %s\n' "$*" >&2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/promocodes-fresh.XXXXXX")
cleanup() {
  if [ -n "${KEEP:-}" ]; then log "kept $scratch"; else rm -rf "$scratch"; fi
}
trap cleanup EXIT

git clone --quiet --no-checkout "$PWD" "$scratch/repo"
git -C "$scratch/repo" fetch --quiet "$PWD" HEAD
git -C "$scratch/repo" -c advice.detachedHead=false checkout --quiet --detach FETCH_HEAD
if [ -n "$(git status --porcelain --untracked-files=normal)" ]; then
  log "note: uncommitted changes are not in the clone; it tests HEAD ($(git rev-parse --short HEAD))"
fi

# rustup's proxies only: the toolchain a fresh machine has, without the tools cargo installed.
mkdir -p "$scratch/rust-bin" "$scratch/install-root/bin"
for tool in cargo rustc rustup rustdoc rustfmt cargo-fmt cargo-clippy clippy-driver; do
  ln -s "$HOME/.cargo/bin/$tool" "$scratch/rust-bin/$tool"
done
path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF -e "$HOME/.cargo/bin" -e "$HOME/.cargo/bin/" | paste -sd:)
env_fresh=(
  PATH="$scratch/install-root/bin:$scratch/rust-bin:$path"
  CARGO_INSTALL_ROOT="$scratch/install-root"
)
if [ -z "$warm" ]; then
  mkdir -p "$scratch/cargo-home" "$scratch/npm-cache"
  env_fresh+=(CARGO_HOME="$scratch/cargo-home" npm_config_cache="$scratch/npm-cache")
fi
for tool in wasm-bindgen wasm-pack; do
  if env "${env_fresh[@]}" bash -c "command -v $tool" >/dev/null; then
    log "$tool is still on PATH in the fresh environment: $(env "${env_fresh[@]}" bash -c "command -v $tool")"
    exit 1
  fi
done

log "scripts/test.sh in a fresh clone of $(git -C "$scratch/repo" rev-parse --short HEAD) ($scratch/repo), caches: ${warm:+warm}${warm:-cold}"
start=$SECONDS
status=0
# No inherited CARGO_TARGET_DIR: the clone builds into its own target/.
(cd "$scratch/repo" && env -u CARGO_TARGET_DIR "${env_fresh[@]}" scripts/test.sh) >"$scratch/test.log" 2>&1 || status=$?
total=$(( SECONDS - start ))
log_copy="${TMPDIR:-/tmp}/promocodes-fresh-machine.log"
cp "$scratch/test.log" "$log_copy"

# test.sh's own table (its last lines), then the figure.
awk '/^stage +seconds$/ { on = 1 } on' "$scratch/test.log"
printf '\nfresh machine: scripts/test.sh %s in %d min %02d s (%d s; caches %s); log: %s\n' \
  "$([ "$status" -eq 0 ] && echo passed || echo "FAILED (exit $status)")" $(( total / 60 )) $(( total % 60 )) \
  "$total" "${warm:+warm}${warm:-cold}" "$log_copy"
exit "$status"
