#!/usr/bin/env bash
# Times doctrust next to its peers on the same corpus files, in one run, and
# prints a markdown report on stdout (progress and install logs go to stderr):
#
#   make bench-peers                    # or: bash scripts/bench-peers.sh | tee /tmp/peers.md
#   QUICK=1 make bench-peers            # SAMPLE=5 RUNS=3: checks the script, figures are noise
#
# Installs what is missing with apt-get (hyperfine, qpdf, mupdf-tools,
# libimage-exiftool-perl, time), builds bin/doctrust, then times with
# hyperfine (-N, no shell; --export-json):
#   - `doctrust inspect F` vs `mutool info F` vs `qpdf --check F` on the
#     median-size PDF, the PDF nearest LARGE bytes and a sample of SAMPLE PDFs;
#   - `doctrust metadata F` vs `exiftool -j F` on the PDF sample and IMAGES
#     images, and over each whole sample `exiftool -j -q -@ LIST` (one
#     process) vs `xargs -n1 doctrust metadata` (one process per file);
#   - the process floor: `doctrust help`, `mutool -v`, `qpdf --version`,
#     `exiftool -ver`;
# and peak RSS of `doctrust inspect F` with `/usr/bin/time -f %M`.
# scripts/benchpeers chooses the files (sorted by size then path, spread
# evenly over the sizes: the same files on every machine) and writes the
# report with the goals of issue 17 marked met or not met.
#
# Environment:
#   CORPUS  corpus root (default ../shared/corpus beside the repository)
#   RUNS    hyperfine --runs per command (default 10; QUICK: 3)
#   WARMUP  hyperfine --warmup per command (default 2)
#   SAMPLE  PDFs in the sample (default 40; QUICK: 5)
#   IMAGES  images in the sample (default SAMPLE)
#   LARGE   size in bytes of the large PDF timed on its own (default 3500000)
#   KEEP    a folder to copy the raw hyperfine JSON and lists into (optional)
set -euo pipefail

cd "$(dirname "$0")/.."
if [ -n "${QUICK:-}" ]; then
	SAMPLE=${SAMPLE:-5}
	RUNS=${RUNS:-3}
fi
CORPUS=${CORPUS:-../shared/corpus}
RUNS=${RUNS:-10}
WARMUP=${WARMUP:-2}
SAMPLE=${SAMPLE:-40}
IMAGES=${IMAGES:-$SAMPLE}
LARGE=${LARGE:-3500000}

if [ ! -d "$CORPUS" ]; then
	echo "bench-peers: corpus not found at $CORPUS" >&2
	exit 1
fi

missing=()
for pair in hyperfine:hyperfine qpdf:qpdf mutool:mupdf-tools exiftool:libimage-exiftool-perl; do
	command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
	SUDO=()
	[ "$(id -u)" -eq 0 ] || SUDO=(sudo)
	"${SUDO[@]}" apt-get update >&2
	DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y "${missing[@]}" >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load0=$(awk '{print $1 ", " $2 ", " $3}' /proc/loadavg)

go build -o bin/doctrust ./cmd/doctrust >&2
go build -o "$work/benchpeers" ./scripts/benchpeers >&2

# doctrust writes nothing into the repository: its data directory is a
# throw-away temp dir, and with a receipt secret set `inspect` opens no store.
export DATA_DIR="$work/data"
export RECEIPT_SECRET="bench-dummy-receipt-secret-not-for-production"
mkdir -p "$DATA_DIR"

"$work/benchpeers" select -corpus "$CORPUS" -sample "$SAMPLE" -images "$IMAGES" -large "$LARGE" >"$work/files.tsv"

# hf JSON ARGS...: one hyperfine run, JSON in $work/JSON, one line in jobs.tsv
# is written by the caller. -N splits each command like a POSIX shell, so
# paths are quoted with q.
hf() {
	local json=$1
	shift
	hyperfine -N -i --style none --warmup "$WARMUP" --runs "$RUNS" --export-json "$work/$json" "$@" </dev/null >/dev/null
}
q() { printf '%q' "$1"; }
dt=$(q "$PWD/bin/doctrust")

echo "bench-peers: process floor" >&2
hf floor.json -n doctrust "$dt help" -n mutool "mutool -v" -n qpdf "qpdf --version" -n exiftool "exiftool -ver"
printf 'floor\t\t0\t0\t\tfloor.json\n' >"$work/jobs.tsv"
: >"$work/rss.tsv"

declare -A measured
total=$(wc -l <"$work/files.tsv")
i=0
while IFS=$'\t' read -r -u 3 role size rel; do
	i=$((i + 1))
	echo "bench-peers: [$i/$total] $role $rel" >&2
	path="$CORPUS/$rel"
	f=$(q "$path")
	if [ "$role" != image ]; then
		hf "inspect-$i.json" -n doctrust "$dt inspect $f" -n mutool "mutool info $f" -n qpdf "qpdf --check $f"
		printf 'inspect\t%s\t1\t%s\t%s\tinspect-%d.json\n' "$role" "$size" "$rel" "$i" >>"$work/jobs.tsv"
		if [ -z "${measured[$rel]:-}" ]; then
			measured[$rel]=1
			code=0
			/usr/bin/time -f %M -o "$work/time.out" bin/doctrust inspect "$path" </dev/null >/dev/null 2>&1 || code=$?
			printf '%s\t%s\t%s\t%s\n' "$rel" "$size" "$(tail -n 1 "$work/time.out")" "$code" >>"$work/rss.tsv"
		fi
	fi
	if [ "$role" = pdf ] || [ "$role" = image ]; then
		hf "meta-$i.json" -n doctrust "$dt metadata $f" -n exiftool "exiftool -j $f"
		printf 'meta\t%s\t1\t%s\t%s\tmeta-%d.json\n' "$role" "$size" "$rel" "$i" >>"$work/jobs.tsv"
		printf '%s\n' "$path" >>"$work/list-$role"
		bytes_var="bytes_$role"
		printf -v "$bytes_var" '%d' $((${!bytes_var:-0} + size))
	fi
done 3<"$work/files.tsv"

for role in pdf image; do
	[ -s "$work/list-$role" ] || continue
	echo "bench-peers: batch of $role files" >&2
	list=$(q "$work/list-$role")
	hf "batch-$role.json" -n exiftool "exiftool -j -q -@ $list" -n doctrust "xargs -d '\n' -n1 -a $list $dt metadata"
	bytes_var="bytes_$role"
	printf 'batch\t%s\t%d\t%s\t\tbatch-%s.json\n' "$role" "$(wc -l <"$work/list-$role")" "${!bytes_var}" "$role" >>"$work/jobs.tsv"
done

# exiftool's values, to count how many the listing gives the same.
cat "$work"/list-* >"$work/list-all"
exiftool -j -a -G1 -q -@ "$work/list-all" >"$work/exiftool-G1.json" 2>/dev/null || true

if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp "$work"/*.json "$work"/*.tsv "$work"/list-* "$KEEP"/
fi

echo "bench-peers: report" >&2
"$work/benchpeers" report -dir "$work" -corpus "$CORPUS" -load0 "$load0" -runs "$RUNS" -warmup "$WARMUP" \
	-rev "$(git describe --always --dirty 2>/dev/null || echo unknown)"
