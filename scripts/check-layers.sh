#!/usr/bin/env bash
# The layer rule of docs/architecture.md, checked by dependency-cruiser (.dependency-cruiser.cjs):
# an upward import, a cycle, a deep import into another layer or @playwright/test outside the
# fixtures fails `npm test` here, before any test runs. Run from the project root.
set -euo pipefail
cd "$(dirname "$0")/.."
npx --no-install depcruise src --config .dependency-cruiser.cjs --output-type err
