#!/usr/bin/env bash
# `npm test`: installs what is missing, type-checks, builds the package (the CLI tests run the
# built bin, as users do), then runs every test with Playwright Test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
npx tsc -p tsconfig.json --noEmit
npm run build --silent
npx playwright test "$@"
