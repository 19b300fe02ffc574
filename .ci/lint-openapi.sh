#!/usr/bin/env bash
# Lint openapi/openapi.json with Redocly CLI and Spectral (ruleset .spectral.yaml:
# spectral:oas). Both must report no error; warnings are printed. The npm packages are
# pinned and installed once into a cache directory; a later run with the cache present
# needs no network.
#
#   .ci/lint-openapi.sh            (ROOMTAX_CI_NODE_TOOLS overrides the cache directory)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TOOLS="${ROOMTAX_CI_NODE_TOOLS:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/roomtax-ci/node-tools}"
PACKAGES=("@redocly/cli@2.77.0" "@stoplight/spectral-cli@6.16.3")

installed() {
  local pkg name want have
  for pkg in "${PACKAGES[@]}"; do
    name="${pkg%@*}" want="${pkg##*@}"
    have="$(node -p "require('$TOOLS/node_modules/$name/package.json').version" 2>/dev/null)" || return 1
    [[ "$have" == "$want" ]] || return 1
  done
}

command -v node >/dev/null || { echo "node is missing (apt-get install nodejs npm)"; exit 1; }
if ! installed; then
  echo "installing ${PACKAGES[*]} into $TOOLS"
  mkdir -p "$TOOLS"
  npm install --prefix "$TOOLS" --no-audit --no-fund --loglevel=error "${PACKAGES[@]}"
fi

echo "---- redocly lint (recommended rules)"
NO_UPDATE_NOTIFIER=1 REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
  "$TOOLS/node_modules/.bin/redocly" lint --format=stylish openapi/openapi.json
echo "---- spectral lint (.spectral.yaml)"
"$TOOLS/node_modules/.bin/spectral" lint --ruleset .spectral.yaml --fail-severity=error openapi/openapi.json
