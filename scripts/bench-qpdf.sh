#!/usr/bin/env bash
# Times `doctrust inspect` next to `qpdf --check` on the corpus PDFs and prints
# a markdown report on stdout (progress and install logs go to stderr):
#
#   make bench-peers            # or: bash scripts/bench-qpdf.sh | tee /tmp/peers.md
#
# Installs qpdf (and GNU time) with apt-get when missing, builds bin/doctrust,
# then runs scripts/benchpeers, which does the timing. Environment:
#   CORPUS  corpus root (default ../shared/corpus beside the repository)
#   RUNS    timed runs per command and file, median taken (default 5)
#   SLOWEST how many slowest files to list (default 5)
set -euo pipefail

cd "$(dirname "$0")/.."
CORPUS=${CORPUS:-../shared/corpus}
RUNS=${RUNS:-5}
SLOWEST=${SLOWEST:-5}

if [ ! -d "$CORPUS" ]; then
	echo "bench-qpdf: corpus not found at $CORPUS" >&2
	exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
	SUDO=(sudo)
fi
apt_updated=0
apt_install() {
	if [ "$apt_updated" -eq 0 ]; then
		"${SUDO[@]}" apt-get update >&2
		apt_updated=1
	fi
	DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y "$@" >&2
}
if ! command -v qpdf >/dev/null 2>&1; then
	apt_install qpdf
fi
if [ ! -x /usr/bin/time ]; then
	apt_install time
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o bin/doctrust ./cmd/doctrust >&2
go build -o "$work/benchpeers" ./scripts/benchpeers >&2

# doctrust writes nothing into the repository: its data directory is a
# throw-away temp dir and the receipt secret a fixed dummy.
export DATA_DIR="$work/data"
export RECEIPT_SECRET="bench-dummy-receipt-secret-not-for-production"
mkdir -p "$DATA_DIR"

"$work/benchpeers" \
	-corpus "$CORPUS" \
	-doctrust bin/doctrust \
	-qpdf "$(command -v qpdf)" \
	-time /usr/bin/time \
	-n "$RUNS" \
	-slowest "$SLOWEST"
