// Command familygen derives what the rest of the engine needs to know of the
// PDF signal families from their declarations in engine/pdf (one
// `var xFamily = declaration{...}` in each family file): the FamilyID
// constants, the catalogue rows and the English texts in package report,
// and the run list in package pdf. A family is then written in one place;
// engine/report keeps no import of engine/pdf.
//
// It runs from engine/pdf (go generate ./engine/pdf) and writes
// runlist_gen.go there and ../report/families_pdf_gen.go.
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
)

// The generated files, relative to engine/pdf.
const (
	runListFile = "runlist_gen.go"
	reportFile  = "../report/families_pdf_gen.go"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("familygen: ")
	decls, err := readDeclarations(".")
	if err != nil {
		log.Fatal(err)
	}
	out, err := generate(decls)
	if err != nil {
		log.Fatal(err)
	}
	for name, src := range out {
		if err := os.WriteFile(filepath.FromSlash(name), src, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("familygen: %d PDF families\n", len(decls))
}
