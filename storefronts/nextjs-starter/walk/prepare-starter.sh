#!/usr/bin/env bash
# Sets up Medusa's official storefront (medusajs/dtc-starter, apps/storefront) with the AltaPay kit
# applied, pointed at a running store, and builds it: what storefronts/nextjs-starter/walk/walk.js
# walks. Only the starter's own install (npm registry) and `git apply` of ../altapay.patch.
#
#   prepare-starter.sh <new folder> [dtc-starter repository, default https://github.com/medusajs/dtc-starter.git]
#
# Environment: MEDUSA_URL (http://localhost:9000), STOREFRONT_URL (http://localhost:8000),
#   PUBLISHABLE_KEY (else read from SEED_FILE, default <this repository>/demo/.data/seed.json),
#   REGION (dk: the starter's default country).
set -euo pipefail

kit="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$kit/../.." && pwd)"
target="${1:?usage: prepare-starter.sh <new folder> [dtc-starter repository]}"
source="${2:-https://github.com/medusajs/dtc-starter.git}"
medusa_url="${MEDUSA_URL:-http://localhost:9000}"
storefront_url="${STOREFRONT_URL:-http://localhost:8000}"
key="${PUBLISHABLE_KEY:-$(node -p "require('${SEED_FILE:-$repo/demo/.data/seed.json}').publishableKey")}"

timed() {
  local name="$1" started=$SECONDS
  shift
  echo "[prepare] $name…"
  "$@"
  echo "[prepare] $name: $((SECONDS - started)) s"
}

timed "clone $source" git clone --quiet --depth 1 "$source" "$target"
cd "$target/apps/storefront"
echo "[prepare] starter commit $(git rev-parse --short HEAD)"
timed "git apply altapay.patch" git apply "$kit/altapay.patch"
timed "npm install (the starter's package.json)" npm install --no-audit --no-fund --loglevel=error
cat > .env.local <<ENV
NEXT_PUBLIC_MEDUSA_BACKEND_URL=$medusa_url
NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY=$key
NEXT_PUBLIC_DEFAULT_REGION=${REGION:-dk}
NEXT_PUBLIC_BASE_URL=$storefront_url
ENV
timed "next build" env NEXT_TELEMETRY_DISABLED=1 npx next build
echo "[prepare] ready: cd $target/apps/storefront && npx next start -p ${storefront_url##*:}"
