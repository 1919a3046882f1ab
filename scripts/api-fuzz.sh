#!/usr/bin/env bash
# Fuzzes the HTTP API from its own OpenAPI description with schemathesis
# against a real `doctrust serve` on a free loopback port, with a fresh
# DATA_DIR and mail outbox that are removed afterwards. Fails on any 5xx and
# on any response (status, headers, body) the description does not allow.
#
# Bounded so CI stays fast: MAX_EXAMPLES cases per operation and an overall
# TIME_LIMIT (seconds). The run is deterministic (fixed seed) so a failure
# seen in CI replays here.
#
# Needs: schemathesis (make api-fuzz installs it, pinned, into .tools/st).
set -euo pipefail
cd "$(dirname "$0")/.."

ST_DIR=$(cd "${ST_DIR:-.tools/st}" && pwd)
root=$PWD
MAX_EXAMPLES=${MAX_EXAMPLES:-10}
TIME_LIMIT=${TIME_LIMIT:-90}
SEED=${SEED:-28}
EXCLUDE_CHECKS=${EXCLUDE_CHECKS-missing_required_header,positive_data_acceptance,negative_data_rejection}

work=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/doctrust" ./cmd/doctrust

# A free port: bind :0, read it, release it. The tiny window before serve
# binds it is acceptable on a CI machine.
port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1]);s.close()')

export PORT=$port DATA_DIR=$work/data MAIL_OUTBOX=$work/outbox
export RECEIPT_SECRET=$(python3 -c 'import secrets;print(secrets.token_hex(32))')
export INGEST_SECRET=fuzz-ingest-secret
# Generous anonymous allowance: the fuzzer sends hundreds of analyses and a
# 429 after ten would hide the handlers behind the limiter.
export ANON_LIMIT_PER_HOUR=100000
mkdir -p "$DATA_DIR" "$MAIL_OUTBOX"

"$work/doctrust" serve >"$work/serve.log" 2>&1 &
pid=$!
base=http://127.0.0.1:$port
for _ in $(seq 1 100); do
  curl -fsS "$base/api/v1/health" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
  sleep 0.1
done
curl -fsS "$base/api/v1/health" >/dev/null

# An account with an API key and a dashboard session, so the authenticated
# operations (bearer or session cookie) reach their handlers instead of
# stopping at 401. POST /api/v1/keys/rotate and /api/v1/auth/logout are left
# out of the run: their first success would revoke this key or session and
# turn every later case into a 401 (the handler tests cover both).
key=$(curl -fsS -c "$work/cookies" -H 'content-type: application/json' \
  -d '{"email":"fuzz@example.com","password":"fuzz-password-28-long"}' \
  "$base/api/v1/auth/signup" | python3 -c 'import json,sys;print(json.load(sys.stdin)["apiKey"]["plaintext"])')
session=$(awk '$6 == "svc_session" {print $7}' "$work/cookies")
[ -n "$session" ] || { echo "signup set no session cookie" >&2; exit 1; }
"$work/doctrust" admin plan fuzz@example.com business >/dev/null

# Run from the temporary folder: schemathesis and hypothesis keep their
# caches in the working directory, which must not be the repository.
status=0
cd "$work"
PYTHONPATH=$ST_DIR timeout --kill-after=10 $((TIME_LIMIT + 30)) \
  python3 "$ST_DIR/bin/schemathesis" --config-file "$root/scripts/api-fuzz.toml" run "$base/api/v1/openapi.json" \
  --url "$base" \
  --checks all \
  ${EXCLUDE_CHECKS:+--exclude-checks "$EXCLUDE_CHECKS"} \
  --exclude-path /api/v1/keys/rotate --exclude-path /api/v1/auth/logout \
  --header "Cookie: svc_session=$session" \
  --max-examples "$MAX_EXAMPLES" \
  --max-time "$TIME_LIMIT" \
  --seed "$SEED" \
  --header "Authorization: Bearer $key" \
  --header "x-service-ingest-secret: $INGEST_SECRET" \
  --no-color || status=$?

if [ "$status" -ne 0 ]; then
  echo "--- server log (last 40 lines)" >&2
  tail -n 40 "$work/serve.log" >&2
fi
exit "$status"
