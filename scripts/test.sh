#!/usr/bin/env bash
# The one test command (README, `npm test`, .ci/run): every test of the product, in this order:
#   1. type check;  2. lint (`npm run lint`: ESLint with the architecture rules, Prettier's check, knip);
#   3. committed schema.graphql and generated web types are up to date;
#   4. the artefacts `npm start` runs: the web build and the gateway bundle (what the browser tests, the bundle,
#      nginx, scale-out and durability tests start);
#   5. server suite on the embedded default (SQLite file, in-process pub/sub);
#   6. server suite again on the scale-out path (PostgreSQL + Redis): the servers named by FULCRUM_TEST_PG_URL /
#      FULCRUM_TEST_REDIS_URL (which must answer), else those on 127.0.0.1:5432 / 6379, else private throwaway
#      ones started for this step and removed after it (scripts/withTestServices.sh);
#   7. browser tests in headless Chromium, against the bundle serving the built web app.
# Chromium, nginx (for the reverse-proxy test) and Postfix (for the mail interop test) are installed from Debian first when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's wall time, printed as it ends and all together at the end (where the suite's time goes).
timings=()
current=''
started=$SECONDS
finish_step() {
  if [ -n "$current" ]; then
    local took=$((SECONDS - started))
    timings+=("$(printf '%4d s  %s' "$took" "$current")")
    printf '\033[2m== %s: %d s\033[0m\n' "$current" "$took"
  fi
}
step() {
  finish_step
  current="$*"
  started=$SECONDS
  printf '\n\033[1m== %s\033[0m\n' "$*"
}

step "0/7 system packages the tests need"
bash scripts/ensureSystemPackages.sh

step "1/7 type check"
npx tsc --noEmit -p tsconfig.json

step "2/7 lint: ESLint (architecture rules included), Prettier, knip"
npm run lint

step "3/7 schema.graphql and generated web types are current"
npx tsx scripts/checkGenerated.ts

step "4/7 the artefacts npm start runs: the web build and the gateway bundle"
NODE_ENV=production npm run build --workspace web
node gateway/bundle.mjs

step "5/7 server tests on SQLite"
npx vitest run

step "6/7 server tests on PostgreSQL + Redis"
FULCRUM_TEST_DATABASE=postgres FULCRUM_TEST_REDIS=1 bash scripts/withTestServices.sh npx vitest run

step "7/7 browser tests"
npx vitest run --config e2e/vitest.config.ts

finish_step
printf '\n\033[1m== time per step (%d s in all)\033[0m\n' "$SECONDS"
printf '%s\n' "${timings[@]}"
