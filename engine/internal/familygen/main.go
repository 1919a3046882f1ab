// Command familygen derives what the rest of the engine needs to know of the
// signal families from their declarations (report.Declaration): one
// `var xFamily = declaration{...}` beside each analyser in engine/pdf,
// engine/office and engine/image. It writes the FamilyID constants, the
// catalogue rows, the English texts and the declared severities and evidence
// keys into package report, and the run list of each package whose
// declarations name their analysers. A family is then written in one place,
// and engine/report keeps no import of the packages that analyse.
//
// It runs from engine/report (go generate ./engine/report).
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
)

// medium is one package of declarations: where it is, the report media
// constant of its families and the name of its rows in package report.
type medium struct {
	dir, media, rows string
}

// media are the declaring packages, relative to engine/report, in
// catalogue order.
var media = []medium{
	{"../pdf", "MediaPDF", "pdfFamilies"},
	{"../office", "MediaOffice", "officeFamilies"},
	{"../image", "MediaImage", "imageFamilies"},
}

// reportFile is the generated file of package report.
const reportFile = "families_gen.go"

func main() {
	log.SetFlags(0)
	log.SetPrefix("familygen: ")
	out, n, err := run(".")
	if err != nil {
		log.Fatal(err)
	}
	for name, src := range out {
		if err := os.WriteFile(name, src, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("familygen: %d families\n", n)
}

// run reads every declaring package, with reportDir the path of
// engine/report, and returns the generated files by path and the number of
// families.
func run(reportDir string) (map[string][]byte, int, error) {
	var all [][]family
	n := 0
	for _, m := range media {
		decls, err := readDeclarations(filepath.Join(reportDir, filepath.FromSlash(m.dir)))
		if err != nil {
			return nil, 0, err
		}
		all = append(all, decls)
		n += len(decls)
	}
	gen, err := generate(all)
	if err != nil {
		return nil, 0, err
	}
	out := map[string][]byte{}
	for name, src := range gen {
		out[filepath.Join(reportDir, filepath.FromSlash(name))] = src
	}
	return out, n, nil
}
