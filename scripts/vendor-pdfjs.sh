#!/bin/sh
# Fetches pdf.js's browser distribution from npm at the pinned version into
# internal/web/static (pdf.min.mjs, pdf.worker.min.mjs, pdfjs-LICENSE) and
# checks each file against internal/web/pdfjs.sha256, the record committed
# with them (internal/web's TestPdfjsMatchesRecord checks it too).
#   scripts/vendor-pdfjs.sh           fetch and check against the record
#   scripts/vendor-pdfjs.sh --record  fetch and write the record (a new pin)
# npm checks the tarball against the registry's integrity hash; the
# record pins the files themselves.
set -eu
VERSION=6.5.438
root=$(cd "$(dirname "$0")/.." && pwd)
static="$root/internal/web/static"
record="$root/internal/web/pdfjs.sha256"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "pdfjs-dist@$VERSION" >/dev/null && tar xzf "pdfjs-dist-$VERSION.tgz")
got=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$tmp/package/package.json" | head -1)
[ "$got" = "$VERSION" ] || { echo "npm gave pdfjs-dist $got, not $VERSION" >&2; exit 1; }
cp "$tmp/package/build/pdf.min.mjs" "$tmp/package/build/pdf.worker.min.mjs" "$static/"
cp "$tmp/package/LICENSE" "$static/pdfjs-LICENSE"
sums() { (cd "$static" && sha256sum pdf.min.mjs pdf.worker.min.mjs pdfjs-LICENSE); }
if [ "${1:-}" = "--record" ]; then
	{ echo "# pdfjs-dist $VERSION from npm (scripts/vendor-pdfjs.sh)"; sums; } >"$record"
	echo "recorded pdfjs-dist $VERSION in $record"
	exit 0
fi
head -1 "$record" | grep -q "pdfjs-dist $VERSION " || { echo "$record is not for pdfjs-dist $VERSION (run with --record for a new pin)" >&2; exit 1; }
(cd "$static" && grep -v '^#' "$record" | sha256sum -c --quiet -) || { echo "the files differ from $record" >&2; exit 1; }
echo "pdfjs-dist $VERSION matches $record"
