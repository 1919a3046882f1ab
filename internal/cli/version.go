package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/doctrust/doctrust/engine/report"
)

// Version is `doctrust version`: the program's module version (a tagged
// build) or its source revision (a build from a checkout), the engine's
// contract level (report.engineVersion) and the Go release.
func Version(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprint(stderr, Usage)
		return exitUsage
	}
	fmt.Fprintf(stdout, "doctrust %s engine %s %s\n", buildVersion(debug.ReadBuildInfo()), report.EngineVersion, runtime.Version())
	return 0
}

func buildVersion(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return "(unknown)"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "(devel)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "+modified"
	}
	return "(devel) " + rev
}
