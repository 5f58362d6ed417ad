#!/usr/bin/env bash
# Installs everything the tests need on a fresh Debian machine, lints, builds, and runs every test.
# Debian packages: chromium (browser tests), fonts-wqy-microhei (Chinese text in the screenshots; without a CJK font
# it renders as boxes) and postgresql (scale-out suite). Needs root for apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's time in the log: the whole run is meant to stay under 20 min on two cores (README.md, "Tests").
step_start=$SECONDS
took() {
  echo "--- $1: $((SECONDS - step_start)) s"
  step_start=$SECONDS
}
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need+=(fonts-wqy-microhei)
[ -x /usr/lib/postgresql/15/bin/initdb ] || need+=(postgresql)
if ((${#need[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}"
fi
took "Debian packages"
npm ci
took "npm ci"
# The linter, the formatting check and the build side by side (each mostly one core), before the long test run:
# any of them failing fails CI there.
npm run lint &
lint=$!
npm run format:check &
format=$!
npm run build &
build=$!
status=0
for job in "$lint" "$format" "$build"; do wait "$job" || status=1; done
if ((status)); then
  echo "lint, format check or build failed (above)"
  exit 1
fi
took "lint, format check and build"
# npm test without its build, done above.
status=0
node scripts/run-tests.mjs || status=$?
took "tests"
echo "--- the whole run: $SECONDS s"
exit "$status"
