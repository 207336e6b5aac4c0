#!/usr/bin/env bash
# `npm run test:real-apps`: the applications from npm whose install takes minutes (Ghost), apart from
# `npm test`. Installs what is missing (the test's own, then Ghost once per machine), builds the
# package, and runs tests/real-apps with Playwright Test.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/ensure-deps.sh
bash scripts/real-apps/install-ghost.sh >/dev/null
npm run build --silent
MULTIAUTH_LANE=real-apps npx playwright test "$@"
