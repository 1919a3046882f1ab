#!/usr/bin/env bash
# template.yaml through AWS's own SAM CLI, offline: `sam validate --lint`
# (SAM's transform and cfn-lint) and `sam build` of every function for
# provided.al2023/arm64 without a container, into a temporary folder.
# A dummy region and no credentials: nothing here calls AWS; telemetry off.
#
# Needs: aws-sam-cli (make sam-check installs it, pinned, into .tools/sam).
set -euo pipefail
cd "$(dirname "$0")/.."

SAM_DIR=${SAM_DIR:-.tools/sam}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export PYTHONPATH=$SAM_DIR
export AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
export SAM_CLI_TELEMETRY=0
# A user's credentials (if any) are never needed nor read.
unset AWS_PROFILE AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN
export AWS_CONFIG_FILE=$work/aws-config AWS_SHARED_CREDENTIALS_FILE=$work/aws-credentials
# sam keeps its own settings under the home folder; a temporary one keeps
# CI's home clean and the first-run prompts away.
export HOME=$work/home GOCACHE=${GOCACHE:-$(go env GOCACHE)} GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)} GOPATH=${GOPATH:-$(go env GOPATH)}
mkdir -p "$HOME"

sam() { python3 "$SAM_DIR/bin/sam" "$@"; }

start=$(date +%s)
sam validate --lint --template-file template.yaml
sam build --template-file template.yaml --build-dir "$work/build" --cache-dir "$work/cache" \
  --no-cached --parallel --config-file "$PWD/samconfig.toml"
for fn in "$work"/build/*/; do
  [ -f "$fn/bootstrap" ] || continue
  # ELF e_machine 183 is AArch64.
  python3 -c 'import sys;h=open(sys.argv[1],"rb").read(20);sys.exit(h[:4]!=b"\x7fELF" or int.from_bytes(h[18:20],"little")!=183)' "$fn/bootstrap" ||
    { echo "$fn/bootstrap is not a linux/arm64 binary" >&2; exit 1; }
done
echo "sam-check: validate and build in $(( $(date +%s) - start )) s"
