// Command benchmeta times the metadata listing next to exiftool on the same
// files, in one run, and prints a markdown report: per-file medians of
// `exiftool -j -a -G1 FILE` and `doctrust metadata FILE` (whole process
// each), and of the listing in process (engine.Metadata, what the service
// does per request, with no process start); their ratios against the
// goal of 20x; how far the listed EXIF values agree with exiftool's; and
// the machine.
//
// It is run by scripts/bench-exiftool.sh (make bench-meta), which installs
// exiftool and builds bin/doctrust first. exiftool is only measured, never
// a test dependency.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/metadata"
	"github.com/doctrust/doctrust/scripts/internal/bench"
)

// goal: the listing at least this many times faster than exiftool.
const goal = 20.0

// exifGroups are the exiftool family-1 groups the listing names the same way.
var exifGroups = map[string]bool{"IFD0": true, "ExifIFD": true, "GPS": true, "InteropIFD": true, "IFD1": true}

type result struct {
	rel, group string
	size       int64
	exiftool   time.Duration // medians
	process    time.Duration
	inProcess  time.Duration
	unreadable bool
	agree      agreement
}

type agreement struct{ same, differ, missing int }

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus root")
	cats := flag.String("categories", "image,pdf-general,pdf-incremental,pdf-signed,pdf-redaction", "comma-separated corpus categories")
	doctrust := flag.String("doctrust", "bin/doctrust", "doctrust binary")
	exiftool := flag.String("exiftool", "exiftool", "exiftool binary")
	n := flag.Int("n", 3, "timed runs per command and file (median taken)")
	inN := flag.Int("in-process", 20, "timed in-process listings per file (median taken)")
	warmup := flag.Int("warmup", 1, "untimed runs per command and file before timing")
	slowest := flag.Int("slowest", 5, "how many slowest files to list")
	flag.Parse()
	if *n < 1 || *inN < 1 {
		fatal(errors.New("-n and -in-process must be at least 1"))
	}
	etPath, err := exec.LookPath(*exiftool)
	if err != nil {
		fatal(err)
	}
	dtPath, err := filepath.Abs(*doctrust)
	if err != nil {
		fatal(err)
	}
	files, err := bench.ListFiles(*corpus, strings.Split(*cats, ","), func(cat, p string) bool {
		return groupOf(cat) == "image" || bench.IsPDF(cat, p)
	})
	if err != nil {
		fatal(err)
	}
	if len(files) == 0 {
		fatal(fmt.Errorf("no files under %s (%s)", *corpus, *cats))
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		fatal(err)
	}
	defer devnull.Close()
	tmp, err := os.MkdirTemp("", "benchmeta-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(tmp)
	etJSON := filepath.Join(tmp, "exiftool.json")

	load0 := bench.Loadavg()
	start := time.Now()
	// The process floor: start-up and exit with no document.
	var fe, fd []time.Duration
	for i := range 10 + *warmup {
		de, _, _, err := bench.Run([]string{etPath, "-ver"}, devnull)
		if err != nil {
			fatal(err)
		}
		dd, _, _, err := bench.Run([]string{dtPath, "help"}, devnull)
		if err != nil {
			fatal(err)
		}
		if i >= *warmup {
			fe, fd = append(fe, de), append(fd, dd)
		}
	}
	floor := [2]time.Duration{bench.Median(fe), bench.Median(fd)}

	var results []result
	for i, f := range files {
		full := filepath.Join(*corpus, f.Rel)
		r := result{rel: f.Rel, group: groupOf(f.Category), size: f.Size}
		data, err := os.ReadFile(full)
		if err != nil {
			fatal(err)
		}
		rep, d, err := listInProcess(data, *inN, *warmup)
		if errors.Is(err, engine.ErrUnreadable) {
			r.unreadable = true
		} else if err != nil {
			fatal(fmt.Errorf("%s: %w", f.Rel, err))
		}
		r.inProcess = d
		eArgs := []string{etPath, "-j", "-a", "-G1", full}
		dArgs := []string{dtPath, "metadata", full}
		for range *warmup {
			bench.Run(eArgs, devnull)
			bench.Run(dArgs, devnull)
		}
		var et, dt []time.Duration
		// Interleaved, so drift in machine load hits both tools alike. The
		// first timed exiftool run writes its JSON for the comparison.
		for i := range *n {
			out := devnull
			if i == 0 {
				if out, err = os.Create(etJSON); err != nil {
					fatal(err)
				}
			}
			d, _, _, err := bench.Run(eArgs, out)
			if out != devnull {
				out.Close()
			}
			if err != nil {
				fatal(err)
			}
			et = append(et, d)
			d, _, _, err = bench.Run(dArgs, devnull)
			if err != nil {
				fatal(err)
			}
			dt = append(dt, d)
		}
		r.exiftool, r.process = bench.Median(et), bench.Median(dt)
		if rep != nil {
			r.agree = compare(etJSON, rep)
		}
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "\r[%d/%d] %s", i+1, len(files), bench.Trunc(f.Rel, 70))
	}
	fmt.Fprintf(os.Stderr, "\rtimed %d files in %s%s\n", len(files), time.Since(start).Round(time.Second), strings.Repeat(" ", 60))
	report(results, floor, *cats, *n, *inN, *warmup, *slowest, etPath, load0, bench.Loadavg())
}

// listInProcess times the listing as the service runs it, per request.
func listInProcess(data []byte, n, warmup int) (*metadata.Report, time.Duration, error) {
	var rep *metadata.Report
	var err error
	for range warmup {
		rep, err = engine.Metadata(context.Background(), data, engine.Options{})
	}
	ds := make([]time.Duration, 0, n)
	for range n {
		t0 := time.Now()
		rep, err = engine.Metadata(context.Background(), data, engine.Options{})
		ds = append(ds, time.Since(t0))
	}
	return rep, bench.Median(ds), err
}

// compare counts how many of exiftool's values in the EXIF groups (its
// JSON output in etJSON) the listing gives equal (as text, or as the same
// number), differently, or not at all. Binary blocks are left out.
func compare(etJSON string, rep *metadata.Report) agreement {
	out, err := os.ReadFile(etJSON)
	if err != nil {
		return agreement{}
	}
	var docs []map[string]any
	if json.Unmarshal(out, &docs) != nil || len(docs) == 0 {
		return agreement{}
	}
	ours := map[string]string{}
	for _, c := range rep.Containers {
		if c.Part != "" {
			continue
		}
		for _, e := range c.Entries {
			if _, dup := ours[c.Name+":"+e.Key]; !dup {
				ours[c.Name+":"+e.Key] = e.Value
			}
		}
	}
	var a agreement
	for k, v := range docs[0] {
		group, _, ok := strings.Cut(k, ":")
		if !ok || !exifGroups[group] {
			continue
		}
		want := fmt.Sprint(v)
		if strings.HasPrefix(want, "(Binary data") {
			continue
		}
		got, ok := ours[k]
		switch {
		case !ok:
			a.missing++
		case got == want || sameNumber(got, want):
			a.same++
		default:
			a.differ++
		}
	}
	return a
}

func sameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}

// groupOf groups the image category as image and the pdf-* ones as pdf.
func groupOf(category string) string {
	if strings.HasPrefix(category, "pdf") {
		return "pdf"
	}
	return "image"
}

func report(rs []result, floor [2]time.Duration, cats string, n, inN, warmup, slowest int, etPath, load0, load1 string) {
	fmt.Println("## doctrust metadata vs exiftool -j -a -G1")
	fmt.Println()
	fmt.Printf("Per file, the median of %d whole-process runs of each command (fork, exec, read, list, exit; output to "+
		"/dev/null), interleaved, after %d warm-up run(s); and the median of %d in-process listings "+
		"(`engine.Metadata`, what the service runs per request). The table gives the median over files of those "+
		"per-file medians. Categories: %s.\n\n", n, warmup, inN, cats)
	fmt.Println("| files | count | exiftool | doctrust metadata (process) | listing in process | exiftool / in process | exiftool / process |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	var all []result
	for _, g := range []string{"image", "pdf"} {
		var sub []result
		for _, r := range rs {
			if r.group == g {
				sub = append(sub, r)
			}
		}
		all = append(all, sub...)
		row(g, sub)
	}
	e, p, in := row("all", all)
	fmt.Println()
	fmt.Printf("Process floor (no document): `exiftool -ver` %s, `doctrust help` %s.\n\n", bench.Ms(floor[0]), bench.Ms(floor[1]))

	fmt.Println("### Goal")
	fmt.Println()
	ratio := float64(e) / float64(in)
	verdict := "met"
	if ratio < goal {
		verdict = "not met"
	}
	fmt.Printf("- At least %.0fx faster than exiftool per file, listing in process against exiftool's whole process: "+
		"**%s** (%.0fx: %s vs %s).\n", goal, verdict, ratio, bench.Us(in), bench.Ms(e))
	pr := float64(e) / float64(p)
	fmt.Printf("- Whole process against whole process: %.1fx (%s vs %s); the start-up floors are %s and %s.\n\n",
		pr, bench.Ms(p), bench.Ms(e), bench.Ms(floor[1]), bench.Ms(floor[0]))

	var a agreement
	unreadable := 0
	for _, r := range rs {
		a.same += r.agree.same
		a.differ += r.agree.differ
		a.missing += r.agree.missing
		if r.unreadable {
			unreadable++
		}
	}
	total := a.same + a.differ + a.missing
	fmt.Println("### Agreement with exiftool")
	fmt.Println()
	fmt.Printf("Values of exiftool's IFD0, ExifIFD, GPS, InteropIFD and IFD1 groups (binary blocks left out) against the "+
		"entries of the containers of the same names: %d same, %d different, %d not listed, of %d (%.1f%% the same). "+
		"%d file(s) were not a readable format (both tools still timed).\n\n",
		a.same, a.differ, a.missing, total, 100*float64(a.same)/float64(max(total, 1)), unreadable)

	bySlow := append([]result(nil), rs...)
	sort.Slice(bySlow, func(i, j int) bool { return bySlow[i].inProcess > bySlow[j].inProcess })
	fmt.Printf("### Slowest %d files in process\n\n", min(slowest, len(bySlow)))
	fmt.Println("| file | size | in process | doctrust (process) | exiftool |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, r := range bySlow[:min(slowest, len(bySlow))] {
		fmt.Printf("| %s | %.0f KiB | %s | %s | %s |\n", r.rel, float64(r.size)/1024, bench.Us(r.inProcess), bench.Ms(r.process), bench.Ms(r.exiftool))
	}
	fmt.Println()

	fmt.Println("### Machine")
	fmt.Println()
	fmt.Printf("- nproc: %s\n", bench.CmdLine("nproc"))
	fmt.Printf("- CPU: %s\n", bench.CPUModel())
	fmt.Printf("- OS/arch: %s/%s, kernel %s\n", runtime.GOOS, runtime.GOARCH, bench.CmdLine("uname", "-r"))
	fmt.Printf("- Go: %s\n", bench.CmdLine("go", "version"))
	fmt.Printf("- exiftool: %s (%s)\n", bench.CmdLine(etPath, "-ver"), etPath)
	fmt.Printf("- load average (1, 5, 15 min) at start: %s; at end: %s\n", load0, load1)
	fmt.Printf("- date: %s\n", time.Now().UTC().Format("2006-01-02"))
}

// row prints one group's medians and returns them.
func row(name string, rs []result) (e, p, in time.Duration) {
	if len(rs) == 0 {
		return 0, 0, 0
	}
	var es, ps, ins []time.Duration
	for _, r := range rs {
		es, ps, ins = append(es, r.exiftool), append(ps, r.process), append(ins, r.inProcess)
	}
	e, p, in = bench.Median(es), bench.Median(ps), bench.Median(ins)
	fmt.Printf("| %s | %d | %s | %s | %s | **%.0fx** | %.1fx |\n", name, len(rs), bench.Ms(e), bench.Ms(p), bench.Us(in),
		float64(e)/float64(in), float64(e)/float64(p))
	return e, p, in
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "benchmeta:", err)
	os.Exit(1)
}
