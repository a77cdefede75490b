#!/usr/bin/env bash
# System packages the tests drive, from Debian (nothing else can be downloaded here): Chromium for the browser
# tests (playwright-core cannot fetch a browser of its own) and nginx for the reverse-proxy test of
# deploy/nginx.conf. Installs whichever is missing.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing Debian packages the tests need: ${missing[*]} (about a minute)..."
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
# The package starts a system nginx on port 80; the test runs its own, so stop that one where it started.
if [[ " ${missing[*]} " == *" nginx-light "* ]]; then $SUDO nginx -s stop 2>/dev/null || true; fi
