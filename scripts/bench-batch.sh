#!/usr/bin/env bash
# Batch throughput over every PDF of the corpus, in one run, side by side:
#
#   doctrust inspect - < LIST      one process, files in parallel on all cores
#   qpdf --check F                 a loop, one process per file
#   pdfcpu validate F1 F2 ...      one process given every file
#
# and which files each one reads: a file doctrust refuses (an error record)
# that qpdf (exit 0 or 3) or pdfcpu ("validation ok") reads fails the run.
# Prints a markdown report on stdout (docs/performance.md quotes it);
# install logs and progress go to stderr.
#
#   scripts/bench-batch.sh              # ROUNDS=3: each tool timed 3 times, interleaved
#   ROUNDS=1 scripts/bench-batch.sh     # a quick check
#   BASE=main scripts/bench-batch.sh    # also time doctrust built from git revision BASE
#
# Installs qpdf with apt-get when missing and builds pdfcpu's CLI into
# .tools/bin from the pdfcpu version go.mod requires.
#
# Environment: CORPUS (default ../shared/corpus), ROUNDS (default 3),
# TRIAGE=1 to time doctrust in triage mode as well, BASE=REV to time the
# full report of revision REV too (built from `git archive`, so a speed
# change is measured before and after in the same interleaved rounds).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${CORPUS:-../shared/corpus}
ROUNDS=${ROUNDS:-3}
[ -d "$CORPUS" ] || { echo "no corpus at $CORPUS (../shared/corpus beside the repository)" >&2; exit 1; }

if ! command -v qpdf >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 && apt-get install -y -qq qpdf >&2
fi
PDFCPU_VERSION=$(go list -m -f '{{.Version}}' github.com/pdfcpu/pdfcpu)
PDFCPU=.tools/bin/pdfcpu-$PDFCPU_VERSION
if [ ! -x "$PDFCPU" ]; then
	mkdir -p .tools/bin
	GOBIN="$PWD/.tools/bin" go install "github.com/pdfcpu/pdfcpu/cmd/pdfcpu@$PDFCPU_VERSION" >&2
	mv .tools/bin/pdfcpu "$PDFCPU"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/doctrust" ./cmd/doctrust >&2
if [ -n "${BASE:-}" ]; then
	mkdir "$work/base"
	git archive "$BASE" | tar -x -C "$work/base"
	(cd "$work/base" && go build -o "$work/doctrust-base" ./cmd/doctrust) >&2
fi
# pdfcpu keeps a config folder under the home directory; give it a scratch one.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home" RECEIPT_SECRET=bench-batch DATA_DIR="$work/data"
mkdir -p "$HOME"

find "$CORPUS" -type f -name '*.pdf' | LC_ALL=C sort >"$work/list"
n=$(wc -l <"$work/list")
bytes=$(tr '\n' '\0' <"$work/list" | du -cb --files0-from=- | tail -1 | cut -f1)
mapfile -t files <"$work/list"

declare -A best all cpu
timed() { # name command...: wall and CPU (user + system, children included) in ms
	local name=$1 TIMEFORMAT='%R %U %S' t ms cms
	shift
	t=$( { time "$@" >/dev/null 2>&1 || true; } 2>&1 | tail -1)
	ms=$(awk '{printf "%d", $1 * 1000}' <<<"$t")
	cms=$(awk '{printf "%d", ($2 + $3) * 1000}' <<<"$t")
	if [ -z "${best[$name]:-}" ] || [ "$ms" -lt "${best[$name]}" ]; then best[$name]=$ms; fi
	all[$name]="${all[$name]:-} $ms"
	cpu[$name]="${cpu[$name]:-} $cms"
	echo "$name: $ms ms wall, $cms ms CPU (load $(cut -d' ' -f1 /proc/loadavg))" >&2
}
# median ARRAY NAME: the median of a tool's rounds in ms, wall (all) or
# CPU (cpu); the lower middle one for an even count.
median() {
	local -n arr=$1
	tr ' ' '\n' <<<"${arr[$2]}" | sed '/^$/d' | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
run_doctrust() { "$work/doctrust" inspect - <"$work/list" >"$work/doctrust.jsonl" 2>"$work/doctrust.err"; }
run_doctrust_base() { "$work/doctrust-base" inspect - <"$work/list" >/dev/null 2>&1; }
run_doctrust_triage() { "$work/doctrust" inspect --triage - <"$work/list" >/dev/null 2>&1; }
run_qpdf() {
	: >"$work/qpdf.status"
	for f in "${files[@]}"; do
		rc=0
		qpdf --check "$f" >/dev/null 2>&1 || rc=$?
		printf '%s\t%s\n' "$rc" "$f" >>"$work/qpdf.status"
	done
}
run_pdfcpu() { "$PDFCPU" validate "${files[@]}" >"$work/pdfcpu.out" 2>&1; }

for round in $(seq "$ROUNDS"); do
	echo "round $round of $ROUNDS" >&2
	timed doctrust run_doctrust
	[ -n "${BASE:-}" ] && timed doctrust_base run_doctrust_base
	[ -n "${TRIAGE:-}" ] && timed doctrust_triage run_doctrust_triage
	timed qpdf run_qpdf
	timed pdfcpu run_pdfcpu
done

# Which files each tool reads.
grep -o '^{"path":"[^"]*","error"' "$work/doctrust.jsonl" | sed 's/^{"path":"//; s/","error"$//' | LC_ALL=C sort >"$work/doctrust.refused" || true
awk -F'\t' '$1 == 0 || $1 == 3 {print $2}' "$work/qpdf.status" | LC_ALL=C sort >"$work/qpdf.read"
awk '/^validating\(/ {if (f != "" && ok) print f; f = $2; ok = 0; next}
	/^validation ok/ {ok = 1}
	END {if (f != "" && ok) print f}' "$work/pdfcpu.out" | LC_ALL=C sort >"$work/pdfcpu.read"
refused_read=$(LC_ALL=C sort -u "$work/qpdf.read" "$work/pdfcpu.read" | LC_ALL=C comm -12 "$work/doctrust.refused" - | wc -l)

rate() { awk -v n="$n" -v ms="$1" 'BEGIN {printf "%.0f", n / (ms / 1000)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a / b}'; }
d=${best[doctrust]} q=${best[qpdf]} p=${best[pdfcpu]}
dm=$(median all doctrust) qm=$(median all qpdf) pm=$(median all pdfcpu)
cat <<REPORT
### Batch over the corpus PDFs ($(date -u +%Y-%m-%d), $(nproc) cores)

$n PDFs, $((bytes / 1024 / 1024)) MiB, from \`$CORPUS\`; $ROUNDS interleaved rounds, best and median wall time;
load average (1, 5, 15 min) $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end.
doctrust engine $(sed -n 's/.*"engineVersion":"\([^"]*\)".*/\1/p' "$work/doctrust.jsonl" | head -1), qpdf $(qpdf --version | head -1 | awk '{print $3}'), pdfcpu $PDFCPU_VERSION.

| Command | Processes | Wall time, best | median | rounds (ms) | CPU, median | Files/s (best) | doctrust speed-up, best / median |
|---|---|---:|---:|---|---:|---:|---:|
| \`doctrust inspect - < LIST\` (full report) | 1 | $d ms | $dm ms |${all[doctrust]} | $(median cpu doctrust) ms | $(rate "$d") | |
| \`qpdf --check F\` in a loop | $n | $q ms | $qm ms |${all[qpdf]} | $(median cpu qpdf) ms | $(rate "$q") | $(ratio "$q" "$d")x / $(ratio "$qm" "$dm")x |
| \`pdfcpu validate F...\` | 1 | $p ms | $pm ms |${all[pdfcpu]} | $(median cpu pdfcpu) ms | $(rate "$p") | $(ratio "$p" "$d")x / $(ratio "$pm" "$dm")x |
REPORT
if [ -n "${BASE:-}" ]; then
	b=${best[doctrust_base]} bm=$(median all doctrust_base)
	echo "| \`doctrust inspect - < LIST\` built from $BASE ($(git rev-parse --short "$BASE")) | 1 | $b ms | $bm ms |${all[doctrust_base]} | $(median cpu doctrust_base) ms | $(rate "$b") | $(ratio "$q" "$b")x / $(ratio "$qm" "$bm")x the qpdf loop, $(ratio "$p" "$b")x / $(ratio "$pm" "$bm")x pdfcpu |"
fi
if [ -n "${TRIAGE:-}" ]; then
	tr=${best[doctrust_triage]} trm=$(median all doctrust_triage)
	echo "| \`doctrust inspect --triage - < LIST\` | 1 | $tr ms | $trm ms |${all[doctrust_triage]} | $(median cpu doctrust_triage) ms | $(rate "$tr") | $(ratio "$q" "$tr")x / $(ratio "$qm" "$trm")x the qpdf loop, $(ratio "$p" "$tr")x / $(ratio "$pm" "$trm")x pdfcpu |"
fi
cat <<REPORT

Files read: doctrust $((n - $(wc -l <"$work/doctrust.refused"))) of $n (summary: $(sed 's/^doctrust: //' "$work/doctrust.err" | tail -1)),
qpdf $(wc -l <"$work/qpdf.read") (exit 0 or 3), pdfcpu $(wc -l <"$work/pdfcpu.read") ("validation ok").
Files doctrust refuses that a peer reads: $refused_read.
REPORT
if [ "$refused_read" -gt 0 ]; then
	echo "doctrust refused files a peer reads:" >&2
	LC_ALL=C sort -u "$work/qpdf.read" "$work/pdfcpu.read" | LC_ALL=C comm -12 "$work/doctrust.refused" - >&2
	exit 1
fi
