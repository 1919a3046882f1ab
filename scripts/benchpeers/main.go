// Command benchpeers is the Go half of scripts/bench-peers.sh (make
// bench-peers) and scripts/loadtest.sh (make loadtest). The scripts install
// the peers and run hyperfine, GNU time and wrk; this program chooses the
// corpus files and turns hyperfine's JSON into the markdown report:
//
//	benchpeers select   files for the peer benchmark, one "role\tsize\tpath" a line
//	benchpeers mix      a mixed sample of every format, for the load test
//	benchpeers report   the markdown report from the run's directory
//
// The choice is deterministic: files sorted by size then path, spread
// evenly over the sizes, so every machine with the same corpus times the
// same files.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/doctrust/doctrust/scripts/internal/bench"
)

const pdfCategories = "pdf-general,pdf-incremental,pdf-signed,pdf-redaction"

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "select":
		err = selectFiles(os.Args[2:])
	case "mix":
		err = mix(os.Args[2:])
	case "report":
		err = report(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchpeers:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: benchpeers select|mix|report [flags]")
	os.Exit(2)
}

func printFiles(role string, files ...bench.File) {
	for _, f := range files {
		fmt.Printf("%s\t%d\t%s\n", role, f.Size, f.Rel)
	}
}

func anyFile(string, string) bool { return true }

// selectFiles prints the median-size PDF, the PDF nearest -large bytes,
// -sample PDFs and -images images spread over their sizes.
func selectFiles(args []string) error {
	fs := flag.NewFlagSet("select", flag.ExitOnError)
	corpus := fs.String("corpus", "../shared/corpus", "corpus root")
	cats := fs.String("categories", pdfCategories, "comma-separated PDF categories")
	imageCats := fs.String("image-categories", "image", "comma-separated image categories")
	sample := fs.Int("sample", 40, "PDFs in the sample")
	images := fs.Int("images", 40, "images in the sample")
	large := fs.Int64("large", 3_500_000, "size of the large PDF timed on its own, in bytes")
	fs.Parse(args)
	pdfs, err := bench.ListFiles(*corpus, strings.Split(*cats, ","), bench.IsPDF)
	if err != nil {
		return err
	}
	if len(pdfs) == 0 {
		return fmt.Errorf("no PDFs under %s (%s)", *corpus, *cats)
	}
	imgs, err := bench.ListFiles(*corpus, strings.Split(*imageCats, ","), anyFile)
	if err != nil {
		return err
	}
	printFiles("median", bench.MedianSize(pdfs))
	printFiles("large", bench.Nearest(pdfs, *large))
	printFiles("pdf", bench.Spread(pdfs, *sample)...)
	printFiles("image", bench.Spread(imgs, *images)...)
	return nil
}

// mix prints -sample files of the listed categories, spread over the
// sizes, each at most -max-size bytes.
func mix(args []string) error {
	fs := flag.NewFlagSet("mix", flag.ExitOnError)
	corpus := fs.String("corpus", "../shared/corpus", "corpus root")
	cats := fs.String("categories", pdfCategories+",image,office", "comma-separated categories")
	sample := fs.Int("sample", 60, "files in the sample")
	maxSize := fs.Int64("max-size", 1<<20, "largest file taken, in bytes")
	fs.Parse(args)
	files, err := bench.ListFiles(*corpus, strings.Split(*cats, ","), anyFile)
	if err != nil {
		return err
	}
	var small []bench.File
	for _, f := range files {
		if f.Size > 0 && f.Size <= *maxSize {
			small = append(small, f)
		}
	}
	if len(small) == 0 {
		return fmt.Errorf("no files up to %d bytes under %s (%s)", *maxSize, *corpus, *cats)
	}
	printFiles("mix", bench.Spread(small, *sample)...)
	return nil
}
