#!/usr/bin/env bash
# Installs everything the tests need on a fresh Debian machine, lints, builds, and runs every test.
# Debian packages: chromium (browser tests), fonts-wqy-microhei (Chinese text in the screenshots; without a CJK font
# it renders as boxes) and postgresql (scale-out suite). Needs root for apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need+=(fonts-wqy-microhei)
[ -x /usr/lib/postgresql/15/bin/initdb ] || need+=(postgresql)
if ((${#need[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}"
fi
# Packages without their install scripts, then the two allowed ones (package.json "allowScripts"): esbuild's is a
# quick check; better-sqlite3 compiles its native module from source (no prebuilt binary can be downloaded here),
# about 105 s of one core that nothing before the tests needs, so it runs beside the linter, the formatting check
# and the build (each mostly one core) instead of before them. Any of them failing fails CI there.
npm ci --ignore-scripts --no-audit --no-fund
npm rebuild esbuild
npm rebuild better-sqlite3 &
sqlite=$!
npm run lint &
lint=$!
npm run format:check &
format=$!
npm run build &
build=$!
status=0
for job in "$sqlite" "$lint" "$format" "$build"; do wait "$job" || status=1; done
if ((status)); then
  echo "installing better-sqlite3, lint, format check or build failed (above)"
  exit 1
fi
# npm test without its build, done above.
node scripts/run-tests.mjs
