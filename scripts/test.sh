#!/usr/bin/env bash
# `npm test`: installs what is missing, checks the layers (scripts/check-layers.sh), builds the package (the CLI and fixture tests run the built
# output, as users do), type-checks sources and tests (tests/types checks the public types through
# the package's own exports), then runs every test with Playwright Test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/check-layers.sh
npm run build --silent
npx tsc -p tsconfig.json --noEmit
# The run ends naming its ten slowest files and any over 90 s (tests/support/file-times-reporter.ts).
# MULTIAUTH_FILE_BUDGET_S=90 makes a file over it fail the run; not the default until the slow
# files are cut (issue 36): three files beside the known ones pass 90 s on this machine today.
npx playwright test "$@"
