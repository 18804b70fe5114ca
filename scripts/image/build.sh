#!/usr/bin/env bash
# `make image`: builds Herald's image (Containerfile) with buildah as IMAGE (default localhost/herald:latest).
# BASE_IMAGE unset: the official Node 20 slim image, or, where its registry cannot be reached, a stand-in built
# here from Debian's packages and the npm registry (scripts/image/base.sh; kept for the next build).
set -euo pipefail
cd "$(dirname "$0")/../.."
official=docker.io/library/node:20-bookworm-slim
standin=localhost/herald-base-node20
image="${IMAGE:-localhost/herald:latest}"
base="${BASE_IMAGE:-}"
if [ -z "$base" ]; then
  if buildah pull --quiet "$official" >/dev/null 2>&1; then
    base="$official"
  else
    echo "$official cannot be pulled here: building on $standin instead."
    buildah inspect --type image "$standin" >/dev/null 2>&1 || scripts/image/base.sh "$standin"
    base="$standin"
  fi
fi
# chroot isolation: builds where containers cannot be started; docker format: keeps the HEALTHCHECK.
buildah build --isolation chroot --format docker --layers --build-arg "BASE_IMAGE=$base" -f Containerfile \
  -t "$image" .
buildah images --format '{{.Name}}:{{.Tag}} {{.Size}}' "$image"
