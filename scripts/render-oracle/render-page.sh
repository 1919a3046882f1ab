#!/usr/bin/env bash
# Renders one page of a PDF to a greyscale PGM, for the hidden-text render
# oracle (engine/pdf/render_oracle_test.go). Test-only: the service never
# renders anything.
#
#   render-page.sh RENDERER FILE PAGE DPI OUT.pgm
#
# RENDERER is mutool (MuPDF's mutool draw) or pdftoppm (poppler). Both
# render the CropBox (what a viewer shows) with the page's /Rotate
# applied. .ci/run installs both from Debian (mupdf-tools, poppler-utils).
set -euo pipefail
renderer=$1 file=$2 page=$3 dpi=$4 out=$5
case $renderer in
mutool)
  mutool draw -q -r "$dpi" -c gray -o "$out" "$file" "$page" 2>/dev/null
  ;;
pdftoppm)
  pdftoppm -q -cropbox -f "$page" -l "$page" -r "$dpi" -gray -singlefile "$file" "${out%.pgm}"
  ;;
*)
  echo "render-page.sh: unknown renderer $renderer" >&2
  exit 2
  ;;
esac
[ -s "$out" ]
