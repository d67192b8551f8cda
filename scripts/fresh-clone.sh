#!/usr/bin/env bash
# A fresh clone of this checkout's HEAD, for the tests of what a new checkout does
# (scripts/test-deploy.sh, scripts/test-run.sh).
#
#   scripts/fresh-clone.sh new DIR      clone HEAD into DIR (which must not exist)
#   scripts/fresh-clone.sh remove DIR   remove DIR (see below)
#
# The clone holds the committed files only: no build output, nothing git ignores, no uncommitted
# change. It shares this checkout's node_modules (a symlink), and its builds share this checkout's
# Cargo target folder (CARGO_TARGET_DIR), so they compile only the workspace's own two crates.
#
# Cargo names a workspace crate's build by its path inside the workspace, not by the workspace's
# folder, and decides freshness by file times: after the clone's build, a file changed here before
# that build would look older than it, and this checkout's next build would reuse the clone's
# (committed) version. `remove` touches this checkout's uncommitted files to prevent that. One build
# is not the same in both places: the browser module's .wasm names the clone's package.json by its
# absolute path (wasm-bindgen reads it for npm dependencies), so `remove` also cleans that build
# (target/web, see scripts/build-web.sh), and this checkout's next one compiles `promocodes` again.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '[fresh-clone] %s\n' "$*" >&2; }

new() {
  local dir="$1"
  [ ! -e "$dir" ] || { log "$dir already exists"; exit 2; }
  [ -f node_modules/.package-lock.json ] || { log "no node_modules here: run scripts/setup.sh first"; exit 1; }
  # The clone shares node_modules, so it must want the same packages.
  if ! git diff --quiet HEAD -- package-lock.json; then
    log "package-lock.json has uncommitted changes: commit them (and run scripts/setup.sh) first"
    exit 1
  fi
  if [ -n "$(git status --porcelain --untracked-files=normal)" ]; then
    log "note: uncommitted changes are not in the clone; it tests HEAD ($(git rev-parse --short HEAD))"
  fi

  git clone --quiet --no-checkout "$PWD" "$dir"
  git -C "$dir" fetch --quiet "$PWD" HEAD
  git -C "$dir" -c advice.detachedHead=false checkout --quiet --detach FETCH_HEAD

  ln -s "$(cd node_modules && pwd -P)" "$dir/node_modules"
  # scripts/setup.sh runs `npm ci` when package-lock.json is newer than the installed tree; the
  # clone's is newer only because git just wrote it, and an npm ci there would replace the shared
  # node_modules. The lock is the one installed here: give it the installed tree's time.
  touch -r node_modules/.package-lock.json "$dir/package-lock.json"
  # The same for the shop servers' client's packages, when they are installed here.
  if [ -f clients/typescript/node_modules/.package-lock.json ]; then
    ln -s "$(cd clients/typescript/node_modules && pwd -P)" "$dir/clients/typescript/node_modules"
    touch -r clients/typescript/node_modules/.package-lock.json "$dir/clients/typescript/package-lock.json"
  fi
}

remove() {
  local dir="$1"
  rm -rf "$dir"
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/web" \
    cargo clean --quiet --release --target wasm32-unknown-unknown -p promocodes 2>/dev/null || true
  # Modified and untracked files (deleted ones make cargo rebuild anyway).
  git ls-files -z --modified --others --exclude-standard | while IFS= read -r -d '' f; do
    [ ! -f "$f" ] || touch -c "$f"
  done
}

case "${1:-}:${2:-}" in
  new:?*) new "$2" ;;
  remove:?*) remove "$2" ;;
  *) echo "usage: scripts/fresh-clone.sh new|remove DIR" >&2; exit 2 ;;
esac
