#!/usr/bin/env bash
# System packages the tests drive, from Debian (nothing else can be downloaded here). Installs whichever is missing.
#   ensureSystemPackages.sh           Chromium for the browser tests (playwright-core cannot fetch a browser of its
#                                     own), nginx for the reverse-proxy test of deploy/nginx.conf, and Postfix for
#                                     the mail interop test (which runs a private instance of its own).
#   ensureSystemPackages.sh servers   PostgreSQL and Redis, for scripts/withTestServices.sh when it starts private
#                                     ones (only when the scale-out tests find none).
set -euo pipefail
missing=()
if [ "${1:-}" = servers ]; then
  compgen -G '/usr/lib/postgresql/*/bin/initdb' > /dev/null || missing+=(postgresql)
  command -v redis-server > /dev/null || missing+=(redis-server)
else
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
  [ -x /usr/sbin/postfix ] || missing+=(postfix)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing Debian packages the tests need: ${missing[*]} (about a minute)..."
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
if [[ " ${missing[*]} " == *" postfix "* ]]; then
  # Postfix asks how to configure itself; "Local only" writes a main.cf that relays nothing.
  printf '%s\n' 'postfix postfix/main_mailer_type select Local only' 'postfix postfix/mailname string localhost' |
    $SUDO debconf-set-selections
fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
# The packages start system services where they can; the tests run their own, so stop those where they started:
# nginx on port 80; Debian's PostgreSQL cluster "main" (5432, password auth: left running it would answer on the
# default address in the next run and fail it), which is new and empty, so it is dropped; Redis on 6379; the
# system Postfix on port 25 (stopped and disabled: the interop test runs a private instance on a port of its own).
if [[ " ${missing[*]} " == *" nginx-light "* ]]; then $SUDO nginx -s stop 2>/dev/null || true; fi
if [[ " ${missing[*]} " == *" postfix "* ]]; then
  $SUDO postfix stop > /dev/null 2>&1 || true
  $SUDO systemctl disable postfix > /dev/null 2>&1 || $SUDO update-rc.d postfix disable > /dev/null 2>&1 || true
fi
if [[ " ${missing[*]} " == *" postgresql "* ]]; then
  for version in $(ls /usr/lib/postgresql); do $SUDO pg_dropcluster --stop "$version" main 2>/dev/null || true; done
fi
if [[ " ${missing[*]} " == *" redis-server "* ]]; then
  $SUDO service redis-server stop > /dev/null 2>&1 || redis-cli -p 6379 shutdown nosave > /dev/null 2>&1 || true
fi
