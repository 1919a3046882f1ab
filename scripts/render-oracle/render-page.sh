#!/usr/bin/env bash
# Renders one page of a PDF to a greyscale PGM, for the hidden-text render
# oracle (engine/pdf/render_oracle_test.go). Test-only: the service never
# renders anything.
#
#   render-page.sh FILE PAGE DPI OUT.pgm
#
# Poppler's pdftoppm is preferred, MuPDF's mutool draw stands in for it;
# both render the CropBox (what a viewer shows) with the page's /Rotate
# applied. .ci/run
# installs both from Debian (poppler-utils, mupdf-tools).
set -euo pipefail
file=$1 page=$2 dpi=$3 out=$4
if command -v pdftoppm >/dev/null; then
  pdftoppm -q -cropbox -f "$page" -l "$page" -r "$dpi" -gray -singlefile "$file" "${out%.pgm}"
  exit 0
fi
if command -v mutool >/dev/null; then
  mutool draw -q -r "$dpi" -c gray -o "$out" "$file" "$page" 2>/dev/null
  exit 0
fi
echo "render-page.sh: neither pdftoppm nor mutool is installed" >&2
exit 3
