#!/bin/bash
# Install the OpenAPI 3 validators the REST tests use, npm's
# @apidevtools/swagger-parser and @redocly/cli (pinned versions), into a
# cache directory if they are not there yet; prints the directory (its
# node_modules holds them).
#
#   scripts/install-openapi-validator.sh [DIR]
#
# DIR defaults to $SLUICE_TOOLS_DIR/openapi, or ~/.cache/sluice-tools/openapi.
# Needs node and npm: Debian's nodejs and npm are installed when npm is
# missing (as root, or with sudo).  Shared by tests/run and
# tests/integration/test_rest_openapi.py.
set -euo pipefail

PKGS=("@apidevtools/swagger-parser@13.1.0" "@redocly/cli@2.77.0")
dir=${1:-${SLUICE_TOOLS_DIR:-${HOME:-/root}/.cache/sluice-tools}/openapi}

have() { # name@version: installed in dir at that version?
	local name=${1%@*} ver=${1##*@}
	local pj=$dir/node_modules/$name/package.json
	[ -f "$pj" ] && grep -q "\"version\": *\"$ver\"" "$pj"
}

missing=()
for p in "${PKGS[@]}"; do
	have "$p" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "$dir"
	exit 0
fi
if ! command -v npm >/dev/null; then
	echo "install-openapi-validator: installing Debian's nodejs and npm" >&2
	SUDO=
	[ "$(id -u)" -ne 0 ] && SUDO=sudo
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq >&2
	$SUDO apt-get install -y -qq --no-install-recommends nodejs npm >&2
fi
mkdir -p "$dir"
echo "install-openapi-validator: npm install ${PKGS[*]} in $dir" >&2
# Both at once (a second npm install --prefix would remove the first).
(cd "$dir" && npm install --no-audit --no-fund --loglevel=error \
	--prefix "$dir" "${PKGS[@]}" >&2)
for p in "${PKGS[@]}"; do
	have "$p" || { echo "install-openapi-validator: $p did not install" >&2; exit 1; }
done
echo "$dir"
