#!/usr/bin/env bash
# The load and fault run of issue 27 (docs/reliability.md, "Under pressure"):
# builds bin/doctrust, then scripts/loadfault starts
# `bin/doctrust serve` itself and prints a markdown table on stdout.
#
#   make loadfault                                   # the goal's figures
#   UPLOADS=10 UPLOAD_MB=2 PHASE=3 OVERLOAD=5 TRICKLES=1 make loadfault   # a quick check
#   STORE_FAULT=1 make loadfault                     # adds the DynamoDB outage (make tools)
#
# Environment: WORKERS (2), QUEUE (16), UPLOADS (100), UPLOAD_MB (10),
# PHASE (20 s per goodput phase), OVERLOAD (25), DISCONNECTS (20),
# TRICKLES (4; each ends at the server's minimum upload rate, after 3 s),
# STORE_FAULT (unset), BACKOFF (unset; set: a third goodput phase whose
# overload clients wait each 503's Retry-After before sending again),
# ONLY (unset; a comma list of memory, goodput, clients, hostile: those
# phases alone, e.g. to repeat the goodput figure before and after a change). Run it on a quiet machine: the figures are the
# server's only when nothing else competes for its cores.
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o bin/doctrust ./cmd/doctrust >&2
go run ./scripts/loadfault bin/doctrust
