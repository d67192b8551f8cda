#!/usr/bin/env bash
# Builds everything the Worker serves: the browser module into public/pkg/ (scripts/build-web.sh), the
# console's chart library into public/admin/vendor/ (scripts/build-admin.sh) and the Worker into
# worker/build/ (scripts/build-worker.sh). wrangler.toml's [build] command, so `wrangler deploy`
# ships the page together with the module it imports; scripts/run.sh calls it once per start.
# Needs what scripts/setup.sh installs; tool paths come from scripts/env.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

scripts/build-web.sh
scripts/build-admin.sh
scripts/build-worker.sh
