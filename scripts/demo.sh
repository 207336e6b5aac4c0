#!/usr/bin/env bash
# `npm run demo`: installs what is missing, builds, then shows the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
npm run build --silent
if [ -f examples/demo/playwright.config.ts ]; then
  npx playwright test -c examples/demo/playwright.config.ts "$@"
else
  for f in examples/*.yaml examples/presets/*.yaml; do
    [ -f "$f" ] || continue
    node bin/multiauth.js validate -c "$f"
  done
  node bin/multiauth.js validate --explain -c examples/procedures.yaml
fi
