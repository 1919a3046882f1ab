#!/usr/bin/env bash
# Times `doctrust metadata` and the listing in process next to
# `exiftool -j -a -G1 FILE` on the corpus images and PDFs, and prints a
# markdown report on stdout (progress and install logs go to stderr):
#
#   make bench-meta            # or: bash scripts/bench-exiftool.sh | tee /tmp/meta.md
#
# Installs Debian's exiftool (libimage-exiftool-perl) with apt-get when
# missing, builds bin/doctrust, then runs scripts/benchmeta, which does the
# timing. exiftool is only measured here; no test depends on it.
# Environment:
#   CORPUS  corpus root (default ../shared/corpus beside the repository)
#   RUNS    timed whole-process runs per command and file, median taken (default 3)
#   WARMUP  untimed runs per command and file before timing (default 1)
#   SLOWEST how many slowest files to list (default 5)
set -euo pipefail

cd "$(dirname "$0")/.."
CORPUS=${CORPUS:-../shared/corpus}
RUNS=${RUNS:-3}
WARMUP=${WARMUP:-1}
SLOWEST=${SLOWEST:-5}

if [ ! -d "$CORPUS" ]; then
	echo "bench-exiftool: corpus not found at $CORPUS" >&2
	exit 1
fi

if ! command -v exiftool >/dev/null 2>&1; then
	SUDO=()
	if [ "$(id -u)" -ne 0 ]; then
		SUDO=(sudo)
	fi
	"${SUDO[@]}" apt-get update >&2
	DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y libimage-exiftool-perl >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o bin/doctrust ./cmd/doctrust >&2
go build -o "$work/benchmeta" ./scripts/benchmeta >&2

# `doctrust metadata` opens no store; DATA_DIR points at a throw-away
# folder anyway so nothing is written into the repository.
export DATA_DIR="$work/data"
mkdir -p "$DATA_DIR"

"$work/benchmeta" \
	-corpus "$CORPUS" \
	-doctrust bin/doctrust \
	-exiftool "$(command -v exiftool)" \
	-n "$RUNS" \
	-warmup "$WARMUP" \
	-slowest "$SLOWEST"
