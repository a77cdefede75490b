#!/usr/bin/env bash
# The one test command (README, `npm test`, .ci/run): every test of the product, in this order:
#   1. type check;  2. lint (`npm run lint`: ESLint with the architecture rules, Prettier's check, knip);
#   3. committed schema.graphql and generated web types are up to date;
#   4. server suite on the embedded default (SQLite file, in-process pub/sub);
#   5. server suite again on the scale-out path (PostgreSQL + Redis): the servers named by FULCRUM_TEST_PG_URL /
#      FULCRUM_TEST_REDIS_URL (which must answer), else those on 127.0.0.1:5432 / 6379, else private throwaway
#      ones started for this step and removed after it (scripts/withTestServices.sh);
#   6. web build, then browser tests in headless Chromium.
# Chromium and nginx (for the reverse-proxy test) are installed from Debian first when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "0/6 system packages the tests need"
bash scripts/ensureSystemPackages.sh

step "1/6 type check"
npx tsc --noEmit -p tsconfig.json

step "2/6 lint: ESLint (architecture rules included), Prettier, knip"
npm run lint

step "3/6 schema.graphql and generated web types are current"
npx tsx scripts/checkGenerated.ts

step "4/6 server tests on SQLite"
npx vitest run

step "5/6 server tests on PostgreSQL + Redis"
FULCRUM_TEST_DATABASE=postgres FULCRUM_TEST_REDIS=1 bash scripts/withTestServices.sh npx vitest run

step "6/6 browser tests"
npm run build --workspace web
npx vitest run --config e2e/vitest.config.ts
