#!/usr/bin/env bash
# Installs what the tests and the demo need on a fresh machine with only Node and npm:
# Debian packages (chromium and its headless shell, lighttpd, apache2, redis-server, python3-django, jupyter-notebook) when missing, then the npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/lib/chromium/chromium ] || need+=(chromium)
# The old headless shell: what the tests' pages and the package's headless sign-ins run (half the CPU).
[ -x /usr/lib/chromium/chromium-headless-shell ] || need+=(chromium-headless-shell)
command -v lighttpd >/dev/null 2>&1 || [ -x /usr/sbin/lighttpd ] || need+=(lighttpd)
[ -x /usr/sbin/apache2 ] || need+=(apache2 apache2-utils)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || need+=(redis-server)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v curl >/dev/null 2>&1 || need+=(curl)
# Django's admin: the real application whose refused logins the tests read (tests/support/servers/django.ts).
[ -x /usr/bin/django-admin ] || need+=(python3-django)
# Jupyter Notebook: a real application whose recorded sign-in the drafter is tried on (tests/support/servers/jupyter.ts).
[ -x /usr/bin/jupyter-notebook ] || need+=(jupyter-notebook)
if [ ${#need[@]} -gt 0 ] && [ "${MULTIAUTH_SKIP_APT:-}" != 1 ]; then
  echo "Installing Debian packages: ${need[*]}"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
