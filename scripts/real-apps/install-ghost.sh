#!/usr/bin/env bash
# Installs Ghost 5.130.6 (the last 5.x that runs on Node 20) as ghost-cli does, once per machine, for
# the real-application lane (`npm run test:real-apps`): `npm pack ghost@5.130.6`, its own yarn.lock
# with yarn 1 pointed at the npm registry, devDependencies dropped, sqlite3 built from source
# against Node's headers (its prebuilt binaries come from GitHub, which this machine cannot reach).
# 15 to 35 minutes the first time; later runs find the stamp and return at once.
# Prints the installation's folder. MULTIAUTH_GHOST_DIR overrides where it goes.
set -euo pipefail
VERSION=5.130.6
DIR="${MULTIAUTH_GHOST_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/playwright-multiauth/ghost-$VERSION}"
STAMP="$DIR/.installed"
if [ -f "$STAMP" ]; then echo "$DIR"; exit 0; fi

command -v make >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 || {
  echo "Installing Debian packages: build-essential (sqlite3 is built from source)" >&2
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq build-essential python3 >/dev/null
}
NODE_HEADERS="$(dirname "$(dirname "$(command -v node)")")"
[ -f "$NODE_HEADERS/include/node/node.h" ] || { echo "install-ghost: Node's headers are not in $NODE_HEADERS/include/node (sqlite3 is built against them): install Node with its headers (nodesource's nodejs package has them)" >&2; exit 2; }

echo "Installing Ghost $VERSION into $DIR (once; 15 to 35 minutes)" >&2
rm -rf "$DIR.partial" && mkdir -p "$DIR.partial/app"
cd "$DIR.partial"
npm pack "ghost@$VERSION" --silent >/dev/null
tar xzf "ghost-$VERSION.tgz" -C app --strip-components=1 && rm "ghost-$VERSION.tgz"
cd app
node -e "const fs=require('fs');const p=JSON.parse(fs.readFileSync('package.json'));delete p.devDependencies;fs.writeFileSync('package.json',JSON.stringify(p,null,2))"
sed -i 's#https://registry.yarnpkg.com/#https://registry.npmjs.org/#g' yarn.lock
export npm_config_build_from_source=true npm_config_nodedir="$NODE_HEADERS" npm_config_registry=https://registry.npmjs.org/
export YARN_REGISTRY=https://registry.npmjs.org/ NODE_ENV=production
# sharp (optional, images) fails to build here and is left out; Ghost runs without it.
npx -y yarn@1.22.22 install --production --non-interactive --no-emoji --no-progress --ignore-engines \
  --registry https://registry.npmjs.org/ --network-timeout 600000 >&2
[ -f node_modules/sqlite3/build/Release/node_sqlite3.node ] || { echo "install-ghost: sqlite3 was not built (see the output above)" >&2; exit 1; }
cd .. && touch "$DIR.partial/.installed"
rm -rf "$DIR" && mv "$DIR.partial" "$DIR"
echo "$DIR"
