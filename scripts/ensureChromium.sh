#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (playwright-core cannot download browsers here). Installs it when missing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "Chromium is missing: installing Debian's chromium package (about a minute)..."
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium > /dev/null
/usr/bin/chromium --version
