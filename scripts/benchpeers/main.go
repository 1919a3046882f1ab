// Command benchpeers times `doctrust inspect` next to `qpdf --check` on the
// same PDFs, whole process each, and prints a markdown report: per-file
// median wall times, their ratio, peak RSS of doctrust (via /usr/bin/time
// -f %M) against the memory goal, the slowest files and the machine.
//
// It is run by scripts/bench-qpdf.sh (make bench-peers), which installs qpdf
// and builds bin/doctrust first. Every command's output goes to /dev/null;
// the environment (DATA_DIR, RECEIPT_SECRET) is passed through unchanged.
package main

import (
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

	"github.com/doctrust/doctrust/scripts/internal/bench"
)

// Goals of the performance issue.
const (
	goalRatio   = 0.2      // median doctrust time <= 1/5 of qpdf --check
	goalMemBase = 64 << 20 // peak RSS < 64 MiB + 4x the file size
	goalMemMult = 4
)

type result struct {
	rel       string
	size      int64
	qpdf      time.Duration // median
	doctrust  time.Duration // median
	qpdfExit  int           // exit code of the last qpdf run
	dtExit    int           // exit code of the last doctrust run
	peakRSS   int64         // bytes, from /usr/bin/time -f %M
	rusageRSS int64         // bytes, max ru_maxrss over the timed runs (cross-check)
}

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus root")
	cats := flag.String("categories", "pdf-general,pdf-incremental,pdf-signed,pdf-redaction", "comma-separated corpus categories")
	doctrust := flag.String("doctrust", "bin/doctrust", "doctrust binary")
	qpdf := flag.String("qpdf", "qpdf", "qpdf binary")
	timeBin := flag.String("time", "/usr/bin/time", "GNU time binary")
	n := flag.Int("n", 5, "timed runs per command and file (median taken)")
	warmup := flag.Int("warmup", 1, "untimed runs per command and file before timing")
	slowest := flag.Int("slowest", 5, "how many slowest files to list")
	flag.Parse()
	if *n < 1 {
		fatal(errors.New("-n must be at least 1"))
	}
	qpdfPath, err := exec.LookPath(*qpdf)
	if err != nil {
		fatal(err)
	}
	dtPath, err := filepath.Abs(*doctrust)
	if err != nil {
		fatal(err)
	}
	files, err := bench.ListFiles(*corpus, strings.Split(*cats, ","), bench.IsPDF)
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
	rssFile, err := os.CreateTemp("", "benchpeers-rss-*")
	if err != nil {
		fatal(err)
	}
	rssFile.Close()
	defer os.Remove(rssFile.Name())

	load0 := bench.Loadavg()
	start := time.Now()
	// The process floor: start-up and exit with no document, the part of
	// every per-file figure that is not analysis.
	var fq, fd []time.Duration
	for i := range max(*n, 20) + *warmup {
		dq, _, _, err := bench.Run([]string{qpdfPath, "--version"}, devnull)
		if err != nil {
			fatal(err)
		}
		dd, _, _, err := bench.Run([]string{dtPath, "help"}, devnull)
		if err != nil {
			fatal(err)
		}
		if i >= *warmup {
			fq, fd = append(fq, dq), append(fd, dd)
		}
	}
	floor := [2]time.Duration{bench.Median(fq), bench.Median(fd)}
	results := make([]result, 0, len(files))
	for i, f := range files {
		full := filepath.Join(*corpus, f.Rel)
		qArgs := []string{qpdfPath, "--check", full}
		dArgs := []string{dtPath, "inspect", full}
		for range *warmup {
			bench.Run(qArgs, devnull)
			bench.Run(dArgs, devnull)
		}
		var qt, dt []time.Duration
		r := result{rel: f.Rel, size: f.Size}
		// Interleaved, so drift in machine load hits both tools alike.
		for range *n {
			d, code, _, err := bench.Run(qArgs, devnull)
			if err != nil {
				fatal(err)
			}
			qt, r.qpdfExit = append(qt, d), code
			d, code, maxrss, err := bench.Run(dArgs, devnull)
			if err != nil {
				fatal(err)
			}
			dt, r.dtExit = append(dt, d), code
			r.rusageRSS = max(r.rusageRSS, maxrss)
		}
		r.qpdf, r.doctrust = bench.Median(qt), bench.Median(dt)
		r.peakRSS, err = peakRSS(*timeBin, rssFile.Name(), dArgs, devnull)
		if err != nil {
			fatal(fmt.Errorf("%s: %w", f.Rel, err))
		}
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "\r[%d/%d] %s", i+1, len(files), bench.Trunc(f.Rel, 70))
	}
	fmt.Fprintf(os.Stderr, "\rtimed %d files in %s%s\n", len(files), time.Since(start).Round(time.Second), strings.Repeat(" ", 60))
	report(results, floor, *cats, *n, *warmup, *slowest, qpdfPath, load0, bench.Loadavg())
}

// peakRSS runs args under GNU time and reads its %M (KiB) from out.
func peakRSS(timeBin, out string, args []string, devnull *os.File) (int64, error) {
	targs := append([]string{timeBin, "-f", "%M", "-o", out}, args...)
	if _, _, _, err := bench.Run(targs, devnull); err != nil {
		return 0, err
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return 0, err
	}
	// GNU time writes "Command exited with non-zero status N" first when
	// the command fails; the figure is the last line.
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	kib, err := strconv.ParseInt(strings.TrimSpace(lines[len(lines)-1]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("reading %s output %q: %w", timeBin, b, err)
	}
	return kib << 10, nil
}

func report(rs []result, floor [2]time.Duration, cats string, n, warmup, slowest int, qpdfPath, load0, load1 string) {
	var q, d []time.Duration
	var ratios []float64
	var qNonZero, dNonZero int
	var totalBytes int64
	worstMem, maxRSS := rs[0], rs[0]
	for _, r := range rs {
		q, d = append(q, r.qpdf), append(d, r.doctrust)
		ratios = append(ratios, float64(r.doctrust)/float64(r.qpdf))
		if r.qpdfExit != 0 {
			qNonZero++
		}
		if r.dtExit != 0 {
			dNonZero++
		}
		totalBytes += r.size
		if memExcess(r) > memExcess(worstMem) {
			worstMem = r
		}
		if r.peakRSS > maxRSS.peakRSS {
			maxRSS = r
		}
	}
	sort.Float64s(ratios)
	medQ, medD := bench.Median(q), bench.Median(d)
	ratio := float64(medD) / float64(medQ)
	p90Q, p90D := bench.Pct(q, 90), bench.Pct(d, 90)
	var sumQ, sumD time.Duration
	for i := range q {
		sumQ += q[i]
		sumD += d[i]
	}

	fmt.Println("## doctrust inspect vs qpdf --check")
	fmt.Println()
	fmt.Printf("Whole process per file (fork, exec, read, analyse, exit), output to /dev/null; "+
		"%d timed runs per command and file after %d warm-up bench.Run(s), interleaved; the per-file figure is the median of the runs. "+
		"Peak RSS from one further run of doctrust under `/usr/bin/time -f %%M`. Categories: %s.\n\n", n, warmup, cats)
	fmt.Println("| measure | qpdf --check | doctrust inspect | doctrust/qpdf |")
	fmt.Println("|---|---:|---:|---:|")
	fmt.Printf("| files | %d (%.1f MiB) | %d | |\n", len(rs), float64(totalBytes)/(1<<20), len(rs))
	fmt.Printf("| median per-file time | %s | %s | **%.3f** |\n", bench.Ms(medQ), bench.Ms(medD), ratio)
	fmt.Printf("| p90 per-file time | %s | %s | %.3f |\n", bench.Ms(p90Q), bench.Ms(p90D), float64(p90D)/float64(p90Q))
	fmt.Printf("| max per-file time | %s | %s | |\n", bench.Ms(bench.Pct(q, 100)), bench.Ms(bench.Pct(d, 100)))
	fmt.Printf("| sum of per-file medians | %s | %s | %.3f |\n", bench.Ms(sumQ), bench.Ms(sumD), float64(sumD)/float64(sumQ))
	fmt.Printf("| median of per-file ratios | | | %.3f |\n", medianF(ratios))
	fmt.Printf("| process floor (no document: `qpdf --version`, `doctrust help`) | %s | %s | %.3f |\n",
		bench.Ms(floor[0]), bench.Ms(floor[1]), float64(floor[1])/float64(floor[0]))
	fmt.Printf("| median per-file time minus floor | %s | %s | %.3f |\n",
		bench.Ms(medQ-floor[0]), bench.Ms(medD-floor[1]), float64(medD-floor[1])/float64(medQ-floor[0]))
	fmt.Printf("| non-zero exits | %d | %d | |\n", qNonZero, dNonZero)
	fmt.Printf("| max peak RSS (doctrust) | | %s (%s, %s) | |\n", mib(maxRSS.peakRSS), maxRSS.rel, mib(maxRSS.size))
	fmt.Printf("| worst peak RSS - 4x size | | %s (%s: RSS %s, file %s) | |\n",
		mibSigned(memExcess(worstMem)), worstMem.rel, mib(worstMem.peakRSS), mib(worstMem.size))
	fmt.Println()

	fmt.Println("### Goals")
	fmt.Println()
	if ratio <= goalRatio {
		fmt.Printf("- Time: median doctrust inspect <= 1/5 of qpdf --check: **met** (ratio %.3f <= %.2f).\n", ratio, goalRatio)
	} else {
		fmt.Printf("- Time: median doctrust inspect <= 1/5 of qpdf --check: **not met**: ratio %.3f against %.2f "+
			"(median %s vs %s; meeting it needs a median of %s, %.1fx faster).\n",
			ratio, goalRatio, bench.Ms(medD), bench.Ms(medQ), bench.Ms(time.Duration(float64(medQ)*goalRatio)), ratio/goalRatio)
	}
	if memExcess(worstMem) < goalMemBase {
		fmt.Printf("- Memory: peak RSS < 64 MiB + 4x file size on every file: **met** (worst RSS - 4x size = %s, headroom %s).\n",
			mibSigned(memExcess(worstMem)), mib(goalMemBase-memExcess(worstMem)))
	} else {
		over := 0
		for _, r := range rs {
			if memExcess(r) >= goalMemBase {
				over++
			}
		}
		fmt.Printf("- Memory: peak RSS < 64 MiB + 4x file size on every file: **not met** on %d file(s); worst %s over the limit (%s).\n",
			over, mib(memExcess(worstMem)-goalMemBase), worstMem.rel)
	}
	fmt.Println()

	bySlow := append([]result(nil), rs...)
	sort.Slice(bySlow, func(i, j int) bool { return bySlow[i].doctrust > bySlow[j].doctrust })
	fmt.Printf("### Slowest %d files (doctrust median)\n\n", min(slowest, len(bySlow)))
	fmt.Println("| file | size | doctrust | qpdf --check | ratio | peak RSS | exit (doctrust/qpdf) |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---|")
	for _, r := range bySlow[:min(slowest, len(bySlow))] {
		fmt.Printf("| %s | %s | %s | %s | %.3f | %s | %d/%d |\n", r.rel, kib(r.size), bench.Ms(r.doctrust), bench.Ms(r.qpdf),
			float64(r.doctrust)/float64(r.qpdf), mib(r.peakRSS), r.dtExit, r.qpdfExit)
	}
	fmt.Println()

	byMem := append([]result(nil), rs...)
	sort.Slice(byMem, func(i, j int) bool { return memExcess(byMem[i]) > memExcess(byMem[j]) })
	fmt.Printf("### Largest peak RSS - 4x size (doctrust)\n\n")
	fmt.Println("| file | size | peak RSS | RSS - 4x size | ru_maxrss (timed runs) |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, r := range byMem[:min(slowest, len(byMem))] {
		fmt.Printf("| %s | %s | %s | %s | %s |\n", r.rel, kib(r.size), mib(r.peakRSS), mibSigned(memExcess(r)), mib(r.rusageRSS))
	}
	fmt.Println()

	fmt.Println("### Machine")
	fmt.Println()
	fmt.Printf("- nproc: %s\n", bench.CmdLine("nproc"))
	fmt.Printf("- CPU: %s\n", bench.CPUModel())
	fmt.Printf("- OS/arch: %s/%s, kernel %s\n", runtime.GOOS, runtime.GOARCH, bench.CmdLine("uname", "-r"))
	fmt.Printf("- Go: %s\n", bench.CmdLine("go", "version"))
	fmt.Printf("- qpdf: %s (%s)\n", bench.CmdLine(qpdfPath, "--version"), qpdfPath)
	fmt.Printf("- load average (1, 5, 15 min) at start: %s; at end: %s\n", load0, load1)
	fmt.Printf("- date: %s\n", time.Now().UTC().Format("2006-01-02"))
}

func memExcess(r result) int64 { return r.peakRSS - goalMemMult*r.size }

func medianF(s []float64) float64 {
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
func kib(b int64) string { return fmt.Sprintf("%.0f KiB", float64(b)/(1<<10)) }

func mibSigned(b int64) string { return fmt.Sprintf("%+.1f MiB", float64(b)/(1<<20)) }

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "benchpeers:", err)
	os.Exit(1)
}
