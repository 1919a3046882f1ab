package pdf

import "github.com/doctrust/doctrust/engine/report"

// declaration is a PDF family's declaration (report.Declaration): each
// family file declares its family once, beside its analyser, and go
// generate ./engine/report derives the catalogue and this package's run
// list (runlist_gen.go) from it.
type declaration = report.Declaration[*analysis]
