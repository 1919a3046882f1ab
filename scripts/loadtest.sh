#!/usr/bin/env bash
# Load on loopback against `doctrust serve` with wrk, and a markdown summary
# on stdout (progress and install logs go to stderr):
#
#   make loadtest                         # or: bash scripts/loadtest.sh | tee /tmp/load.md
#   DURATION=10s make loadtest            # a quick check
#   SOAK=600 make loadtest                # adds a 10-minute soak, RSS sampled every 10 s
#
# Installs wrk with apt-get when missing, builds bin/doctrust, starts
# `bin/doctrust serve` on a free loopback port with a temporary DATA_DIR,
# WORKERS=2, QUEUE=4 and the anonymous hourly limit lifted (so the pool, not
# the per-IP limit, is what is measured; each request still does the store
# work of an anonymous call). scripts/loadtest.lua POSTs a mixed sample of
# corpus files (PDF, image, Office; chosen by scripts/benchpeers mix, only
# those `doctrust inspect --triage` reads) as multipart/form-data, round robin.
# Phases:
#   sustained  CONNS connections for DURATION: throughput, p50/p99, codes
#   overload   OVERLOAD_CONNS connections for OVERLOAD_DURATION: 503 busy
#              with Retry-After expected, no other 5xx
#   soak       (SOAK seconds, optional) CONNS connections; RSS flat
# The server's RSS (VmRSS of /proc/PID/status) is sampled every RSS_EVERY
# seconds in every phase. Exits 1 when a rule is broken: a 5xx other than
# 503, a 503 without Retry-After, a request timing out, no 503 under
# overload, or the server gone.
# Environment: CORPUS (../shared/corpus), SAMPLE (60 files), MAX_SIZE
# (1048576 bytes), WORKERS (2), QUEUE (4), THREADS (2), CONNS (4),
# DURATION (60s), OVERLOAD_CONNS (64), OVERLOAD_DURATION (DURATION),
# SOAK (seconds, unset: no soak), RSS_EVERY (10), PORT (random free port).
set -euo pipefail

cd "$(dirname "$0")/.."
CORPUS=${CORPUS:-../shared/corpus}
SAMPLE=${SAMPLE:-60}
MAX_SIZE=${MAX_SIZE:-1048576}
export WORKERS=${WORKERS:-2} QUEUE=${QUEUE:-4}
THREADS=${THREADS:-2}
CONNS=${CONNS:-4}
DURATION=${DURATION:-60s}
OVERLOAD_CONNS=${OVERLOAD_CONNS:-64}
OVERLOAD_DURATION=${OVERLOAD_DURATION:-$DURATION}
SOAK=${SOAK:-}
RSS_EVERY=${RSS_EVERY:-10}

if [ ! -d "$CORPUS" ]; then
	echo "loadtest: corpus not found at $CORPUS" >&2
	exit 1
fi
if ! command -v wrk >/dev/null 2>&1; then
	SUDO=()
	[ "$(id -u)" -eq 0 ] || SUDO=(sudo)
	"${SUDO[@]}" apt-get update >&2
	DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y wrk >&2
fi

work=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill "$pid"
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

go build -o bin/doctrust ./cmd/doctrust >&2
go build -o "$work/benchpeers" ./scripts/benchpeers >&2

export DATA_DIR="$work/data" RECEIPT_SECRET="loadtest-dummy-receipt-secret-not-for-production"
export ANON_LIMIT_PER_HOUR=1000000000
mkdir -p "$DATA_DIR"

# The sample: files the engine refuses would only add 422s to the counts.
"$work/benchpeers" mix -corpus "$CORPUS" -sample "$SAMPLE" -max-size "$MAX_SIZE" >"$work/mix.tsv"
: >"$work/list"
declare -A kinds
while IFS=$'\t' read -r -u 3 _ _ rel; do
	if bin/doctrust inspect "$CORPUS/$rel" --triage </dev/null >/dev/null 2>&1; then
		realpath "$CORPUS/$rel" >>"$work/list"
		kind=${rel%%/*}
		kinds[$kind]=$((${kinds[$kind]:-0} + 1))
	fi
done 3<"$work/mix.tsv"
files=$(wc -l <"$work/list")
bytes=$(xargs -d '\n' -a "$work/list" stat -c %s | awk '{s += $1} END {print s}')
mix=$(for k in "${!kinds[@]}"; do printf '%s %s\n' "$k" "${kinds[$k]}"; done | sort | paste -s -d ',' | sed 's/,/, /g')
echo "loadtest: $files readable files of $(wc -l <"$work/mix.tsv") chosen" >&2

# Start the server on a free port: a random one, tried again when taken.
for _ in 1 2 3 4 5; do
	port=${PORT:-$((20000 + RANDOM % 40000))}
	PORT=$port bin/doctrust serve >"$work/serve.out" 2>"$work/serve.err" </dev/null &
	pid=$!
	for _ in $(seq 100); do
		grep -q "serving on" "$work/serve.out" 2>/dev/null && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	grep -q "serving on" "$work/serve.out" && break
	wait "$pid" 2>/dev/null || true
	pid=
	[ -z "${PORT:-}" ] || break
done
if [ -z "$pid" ]; then
	echo "loadtest: doctrust serve did not start:" >&2
	cat "$work/serve.err" >&2
	exit 1
fi
url="http://127.0.0.1:$port"
echo "loadtest: doctrust serve pid $pid on $url" >&2

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0; }

# phase NAME CONNS DURATION: one wrk run with RSS sampled beside it; its
# RESULT line goes to $work/NAME.result, the RSS samples to $work/NAME.rss.
phase() {
	local name=$1 conns=$2 dur=$3 sampler
	echo "loadtest: $name, $conns connections for $dur" >&2
	(
		while kill -0 "$pid" 2>/dev/null; do
			rss_kib
			sleep "$RSS_EVERY"
		done
	) >"$work/$name.rss" &
	sampler=$!
	wrk -t "$(( THREADS < conns ? THREADS : conns ))" -c "$conns" -d "$dur" --timeout 30s \
		-s scripts/loadtest.lua "$url" -- "$work/list" >"$work/$name.wrk" 2>&1 || true
	kill "$sampler" 2>/dev/null || true
	wait "$sampler" 2>/dev/null || true
	rss_kib >>"$work/$name.rss"
	if ! grep '^RESULT ' "$work/$name.wrk" >"$work/$name.result"; then
		echo "loadtest: wrk gave no result for $name:" >&2
		cat "$work/$name.wrk" >&2
		exit 1
	fi
}

phase sustained "$CONNS" "$DURATION"
phase overload "$OVERLOAD_CONNS" "$OVERLOAD_DURATION"
phases=(sustained overload)
if [ -n "$SOAK" ]; then
	phase soak "$CONNS" "${SOAK%s}s"
	phases+=(soak)
fi

# field NAME KEY: one key=value of a phase's RESULT line.
field() { tr ' ' '\n' <"$work/$1.result" | sed -n "s/^$2=//p"; }
# code NAME CODE: how many answers had that status.
code() { field "$1" codes | tr ',' '\n' | awk -F: -v c="$2" '$1 == c {print $2; f = 1} END {if (!f) print 0}'; }

fail=()
alive=yes
kill -0 "$pid" 2>/dev/null || { alive=no; fail+=("the server exited"); }
if grep -q -E '^(panic|fatal error):' "$work/serve.err"; then
	fail+=("the server logged a panic")
fi

cat <<HEAD
## Load test on loopback (scripts/loadtest.sh, $(date -u +%F))

\`bin/doctrust serve\` on 127.0.0.1, WORKERS=$WORKERS QUEUE=$QUEUE, anonymous limit lifted; wrk
($THREADS threads, 30 s timeout) POSTs multipart/form-data to /api/v1/inspect, round robin over
$files readable corpus files up to $MAX_SIZE bytes ($mix; $((bytes / 1024)) KiB in all).
Latencies are wrk's (from the request's first byte written to the response's last byte read).

| phase | connections | duration | requests | req/s | p50 ms | p99 ms | max ms | status codes | 503 without Retry-After | socket errors (connect/read/write/timeout) |
|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|
HEAD
for ph in "${phases[@]}"; do
	case $ph in
	overload) c=$OVERLOAD_CONNS ;;
	*) c=$CONNS ;;
	esac
	printf '| %s | %s | %s s | %s | %s | %s | %s | %s | %s | %s | %s/%s/%s/%s |\n' "$ph" "$c" "$(field "$ph" seconds)" \
		"$(field "$ph" requests)" "$(field "$ph" rps)" "$(field "$ph" p50ms)" "$(field "$ph" p99ms)" "$(field "$ph" maxms)" \
		"$(field "$ph" codes | sed 's/,/, /g')" "$(field "$ph" noretry)" \
		"$(field "$ph" connect)" "$(field "$ph" read)" "$(field "$ph" write)" "$(field "$ph" timeout)"
	other5xx=$(field "$ph" codes | tr ',' '\n' | awk -F: '$1 >= 500 && $1 != 503 {s += $2} END {print s + 0}')
	[ "$other5xx" -eq 0 ] || fail+=("$ph: $other5xx answers 5xx other than 503")
	[ "$(field "$ph" noretry)" -eq 0 ] || fail+=("$ph: 503 without Retry-After")
	[ "$(field "$ph" timeout)" -eq 0 ] || fail+=("$ph: $(field "$ph" timeout) requests timed out")
	[ "$(field "$ph" requests)" -gt 0 ] || fail+=("$ph: no request answered")
done
[ "$(code overload 503)" -gt 0 ] || fail+=("overload: no 503 busy")

cat <<RSS

Server RSS (VmRSS, sampled every $RSS_EVERY s and at the end of each phase):

| phase | samples | first | last | max |
|---|---:|---:|---:|---:|
RSS
for ph in "${phases[@]}"; do
	awk -v ph="$ph" 'NF && $1 > 0 {n++; if (n == 1) f = $1; l = $1; if ($1 > m) m = $1}
		END {printf "| %s | %d | %.1f MiB | %.1f MiB | %.1f MiB |\n", ph, n, f / 1024, l / 1024, m / 1024}' "$work/$ph.rss"
done

echo
if [ ${#fail[@]} -eq 0 ]; then
	echo "Result: **pass**: no 5xx but 503 busy, every 503 with Retry-After, 503 busy under overload, no timeout, server alive."
else
	echo "Result: **fail**: $(printf '%s; ' "${fail[@]}" | sed 's/; $//')."
fi
echo
printf -- '- date: %s; nproc: %s; CPU: %s; load average at end: %s\n' "$(date -u +%F)" "$(nproc)" \
	"$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)" "$(awk '{print $1 ", " $2 ", " $3}' /proc/loadavg)"
printf -- '- %s; %s; doctrust %s; server alive at the end: %s\n' "$(wrk -v 2>&1 | head -n 1 | sed 's/ \[.*//')" \
	"$(go version)" "$(git describe --always --dirty 2>/dev/null || echo unknown)" "$alive"
[ ${#fail[@]} -eq 0 ]
