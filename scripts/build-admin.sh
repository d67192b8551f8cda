#!/usr/bin/env bash
# Bundles the operator console's third-party libraries, uPlot (npm `uplot`, MIT) and papaparse (npm, MIT), into
# public/admin/vendor/ (build output, ignored by git), where the Worker's static assets serve it
# beside public/admin/: its ES module minified with esbuild (from npm) and its stylesheet.
# Prints what the browser downloads for it, raw and gzip, as its last line.
set -euo pipefail
cd "$(dirname "$0")/.."

out=public/admin/vendor
mkdir -p "$out"
node_modules/.bin/esbuild node_modules/uplot/dist/uPlot.esm.js --minify --format=esm --log-level=warning \
  --outfile="$out/uplot.min.js"
cp node_modules/uplot/dist/uPlot.min.css "$out/uplot.min.css"
# papaparse (npm, MIT): the CSV reader of a campaign's import, loaded when a file is imported; its UMD
# build bundled as an ES module.
echo 'export { default } from "papaparse";' | node_modules/.bin/esbuild --bundle --minify --format=esm \
  --log-level=warning --outfile="$out/papaparse.min.js"
raw=$(cat "$out/uplot.min.js" "$out/uplot.min.css" | wc -c)
gz=$(( $(gzip -9c "$out/uplot.min.js" | wc -c) + $(gzip -9c "$out/uplot.min.css" | wc -c) ))
printf '[build-admin] %s: uPlot %s, %d bytes raw, %d bytes gzip -9 (script and stylesheet)\n' "$out" \
  "$(node -p 'require("./node_modules/uplot/package.json").version')" "$raw" "$gz"
