package image

import "github.com/doctrust/doctrust/engine/report"

// declaration is this package's form of report.Declaration: each family is
// declared once, beside its analyser, and go generate ./engine/report
// derives its catalogue row and English texts from it.
type declaration = report.Declaration[*analysis]
