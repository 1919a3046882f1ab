package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"time"

	"github.com/doctrust/doctrust/scripts/internal/bench"
)

// Goals of issue 17, as ratios doctrust/peer of whole-process times and
// as the memory bound.
const (
	goalMutool   = 1.0      // inspect below mutool info
	goalQpdf     = 0.2      // inspect at most 1/5 of qpdf --check
	goalExiftool = 0.05     // metadata at most 1/20 of exiftool -j
	goalMemBase  = 64 << 20 // peak RSS at most 64 MiB + 4x the file
	goalMemMult  = 4
)

// Command names given to hyperfine with -n by bench-peers.sh.
const (
	cDoctrust = "doctrust"
	cMutool   = "mutool"
	cQpdf     = "qpdf"
	cExiftool = "exiftool"
)

type reportOpts struct {
	dir, corpus, load0, rev string
	runs, warmup, inN       int
}

func report(args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	var o reportOpts
	fs.StringVar(&o.dir, "dir", "", "the run's directory (jobs.tsv, rss.tsv, hyperfine JSON)")
	fs.StringVar(&o.corpus, "corpus", "../shared/corpus", "corpus root")
	fs.StringVar(&o.load0, "load0", "unknown", "load average when the run started")
	fs.StringVar(&o.rev, "rev", "unknown", "doctrust revision timed")
	fs.IntVar(&o.runs, "runs", 0, "hyperfine --runs (for the text)")
	fs.IntVar(&o.warmup, "warmup", 0, "hyperfine --warmup (for the text)")
	fs.IntVar(&o.inN, "in-process", 20, "timed in-process listings per file (median taken)")
	fs.Parse(args)
	jobs, err := readJobs(o.dir)
	if err != nil {
		return err
	}
	rs, err := readRSS(o.dir)
	if err != nil {
		return err
	}
	et, err := readExiftool(filepath.Join(o.dir, "exiftool-G1.json"))
	if err != nil {
		return err
	}
	byKind := map[string][]job{}
	for _, j := range jobs {
		byKind[j.kind] = append(byKind[j.kind], j)
	}
	if len(byKind["floor"]) != 1 {
		return fmt.Errorf("want one floor job, have %d", len(byKind["floor"]))
	}
	floor := byKind["floor"][0].timings
	var goals []goalRow

	fmt.Printf("## doctrust next to its peers (scripts/bench-peers.sh, %s)\n\n", time.Now().UTC().Format("2006-01-02"))
	fmt.Printf("Whole process per file (fork, exec, read, work, exit; output to /dev/null), timed by hyperfine "+
		"(`-N`, no shell; %d warm-up and %d timed runs per command; the figure is hyperfine's median). "+
		"Ratios are doctrust/peer: below 1, doctrust is faster. doctrust %s.\n\n", o.warmup, o.runs, o.rev)
	goals = append(goals, inspectTable(byKind["inspect"], floor)...)
	goals = append(goals, metadataTable(o, byKind["meta"], floor, et)...)
	batchTable(byKind["batch"])
	goals = append(goals, memoryTable(rs))

	fmt.Println("### Goals (issue 17)")
	fmt.Println()
	fmt.Println("| goal | measured | verdict |")
	fmt.Println("|---|---|---|")
	for _, g := range goals {
		v := "**not met**"
		if g.met {
			v = "**met**"
		}
		fmt.Printf("| %s | %s | %s |\n", g.goal, g.measured, v)
	}
	fmt.Println()
	machine(o)
	return nil
}

type goalRow struct {
	goal, measured string
	met            bool
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

// inspectTable prints doctrust inspect against mutool info and qpdf
// --check: the median-size PDF, the large one, the sample, the floor.
func inspectTable(jobs []job, floor map[string]bench.Timing) []goalRow {
	fmt.Println("### `doctrust inspect F` vs `mutool info F` vs `qpdf --check F`")
	fmt.Println()
	fmt.Println("| file | size | doctrust inspect | mutool info | qpdf --check | doctrust/mutool | doctrust/qpdf |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	row := func(name, size string, d, m, q time.Duration) {
		fmt.Printf("| %s | %s | %s | %s | %s | %.3f | %.3f |\n", name, size, bench.Ms(d), bench.Ms(m), bench.Ms(q), ratio(d, m), ratio(d, q))
	}
	var goals []goalRow
	var ds, ms, qs []time.Duration
	var dRatioM, dRatioQ []float64
	nonZero := map[string]int{}
	for _, j := range jobs {
		d, m, q := j.timings[cDoctrust].Median, j.timings[cMutool].Median, j.timings[cQpdf].Median
		switch j.role {
		case "median", "large":
			label := "median-size PDF"
			if j.role == "large" {
				label = "large PDF"
			}
			row(fmt.Sprintf("%s `%s`", label, j.rel), kib(j.bytes), d, m, q)
			if j.role == "median" {
				goals = append(goals,
					goalRow{"`doctrust inspect` below `mutool info` on the median PDF", fmt.Sprintf("%.3f (%s vs %s)", ratio(d, m), bench.Ms(d), bench.Ms(m)), ratio(d, m) < goalMutool},
					goalRow{"`doctrust inspect` ≤ 1/5 of `qpdf --check` on the median PDF", fmt.Sprintf("%.3f (%s vs %s)", ratio(d, q), bench.Ms(d), bench.Ms(q)), ratio(d, q) <= goalQpdf})
			}
		case "pdf":
			ds, ms, qs = append(ds, d), append(ms, m), append(qs, q)
			dRatioM, dRatioQ = append(dRatioM, ratio(d, m)), append(dRatioQ, ratio(d, q))
			for name, t := range j.timings {
				if t.NonZero > 0 {
					nonZero[name]++
				}
			}
		}
	}
	if len(ds) > 0 {
		d, m, q := bench.Median(ds), bench.Median(ms), bench.Median(qs)
		row(fmt.Sprintf("sample of %d PDFs, median of per-file medians", len(ds)), "", d, m, q)
		fmt.Printf("| sample, median of per-file ratios | | | | | %.3f | %.3f |\n", medianF(dRatioM), medianF(dRatioQ))
		goals = append(goals,
			goalRow{fmt.Sprintf("`doctrust inspect` below `mutool info`, sample of %d PDFs", len(ds)), fmt.Sprintf("%.3f (%s vs %s)", ratio(d, m), bench.Ms(d), bench.Ms(m)), ratio(d, m) < goalMutool},
			goalRow{fmt.Sprintf("`doctrust inspect` ≤ 1/5 of `qpdf --check`, sample of %d PDFs", len(ds)), fmt.Sprintf("%.3f (%s vs %s)", ratio(d, q), bench.Ms(d), bench.Ms(q)), ratio(d, q) <= goalQpdf})
	}
	row("process floor: `doctrust help`, `mutool -v`, `qpdf --version`", "", floor[cDoctrust].Median, floor[cMutool].Median, floor[cQpdf].Median)
	fmt.Println()
	fmt.Printf("Files of the sample where a tool exited non-zero (timed all the same): doctrust %d, mutool %d, qpdf %d.\n\n",
		nonZero[cDoctrust], nonZero[cMutool], nonZero[cQpdf])
	return goals
}

// metadataTable prints doctrust metadata against exiftool -j per file,
// with the listing in process beside them, and the agreement of values.
func metadataTable(o reportOpts, jobs []job, floor map[string]bench.Timing, et map[string]map[string]any) []goalRow {
	fmt.Println("### `doctrust metadata F` vs `exiftool -j F`")
	fmt.Println()
	fmt.Printf("Per file, hyperfine's medians; the table gives the median over files. \"In process\" is the median of %d "+
		"listings by `engine.Metadata` in one warm process (what `POST /api/v1/metadata` runs per request), timed by "+
		"the report program after the hyperfine runs.\n\n", o.inN)
	fmt.Println("| files | count | doctrust metadata | exiftool -j | doctrust/exiftool | in process | in process/exiftool |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	type per struct{ d, e, in time.Duration }
	groups := map[string][]per{}
	var agree agreement
	unreadable := 0
	for _, j := range jobs {
		path := filepath.Join(o.corpus, j.rel)
		rep, in, err := listInProcess(path, o.inN)
		if err != nil {
			fmt.Printf("| %s | in-process listing failed: %v | | | | | |\n", j.rel, err)
			continue
		}
		if rep == nil {
			unreadable++
		} else if doc, ok := et[filepath.Clean(path)]; ok {
			agree.add(compare(doc, rep))
		}
		p := per{j.timings[cDoctrust].Median, j.timings[cExiftool].Median, in}
		groups[j.role] = append(groups[j.role], p)
		groups["all"] = append(groups["all"], p)
	}
	var goals []goalRow
	for _, g := range []string{"pdf", "image", "all"} {
		ps := groups[g]
		if len(ps) == 0 {
			continue
		}
		var d, e, in []time.Duration
		for _, p := range ps {
			d, e, in = append(d, p.d), append(e, p.e), append(in, p.in)
		}
		md, me, mi := bench.Median(d), bench.Median(e), bench.Median(in)
		fmt.Printf("| %s | %d | %s | %s | %.3f | %s | %.5f |\n", g, len(ps), bench.Ms(md), bench.Ms(me), ratio(md, me), bench.Us(mi), ratio(mi, me))
		if g == "all" {
			goals = append(goals,
				goalRow{"`doctrust metadata` ≤ 1/20 of `exiftool -j` per file, whole process", fmt.Sprintf("%.3f (%s vs %s)", ratio(md, me), bench.Ms(md), bench.Ms(me)), ratio(md, me) <= goalExiftool},
				goalRow{"the same, listing in process against exiftool's whole process", fmt.Sprintf("%.5f (%s vs %s)", ratio(mi, me), bench.Us(mi), bench.Ms(me)), ratio(mi, me) <= goalExiftool})
		}
	}
	fmt.Printf("| process floor: `doctrust help`, `exiftool -ver` | | %s | %s | %.3f | | |\n\n",
		bench.Ms(floor[cDoctrust].Median), bench.Ms(floor[cExiftool].Median), ratio(floor[cDoctrust].Median, floor[cExiftool].Median))
	total := agree.same + agree.differ + agree.missing
	fmt.Printf("Agreement with `exiftool -j -a -G1` on the same files: of exiftool's values in the IFD0, ExifIFD, GPS, "+
		"InteropIFD and IFD1 groups (binary blocks left out), the listing gives %d the same, %d differently and %d not at all "+
		"(%.1f%% the same); %d file(s) were not a readable format (both tools still timed).\n\n",
		agree.same, agree.differ, agree.missing, 100*float64(agree.same)/float64(max(total, 1)), unreadable)
	return goals
}

// batchTable prints throughput over the whole sample: exiftool in one
// process against doctrust metadata started once per file.
func batchTable(jobs []job) {
	fmt.Println("### Batch throughput over the sample")
	fmt.Println()
	fmt.Println("`exiftool -j -q -@ LIST` lists every file of the sample in one process; doctrust has no batch mode, so its " +
		"figure is `xargs -n1 doctrust metadata` over the same list: one process per file, one after the other.")
	fmt.Println()
	fmt.Println("| files | count | size | exiftool (one process) | files/s | doctrust metadata (process per file) | files/s | doctrust/exiftool |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, j := range jobs {
		e, d := j.timings[cExiftool].Median, j.timings[cDoctrust].Median
		fmt.Printf("| %s | %d | %s | %s | %.1f | %s | %.1f | %.3f |\n", j.role, j.files, mib(j.bytes), bench.Ms(e),
			float64(j.files)/e.Seconds(), bench.Ms(d), float64(j.files)/d.Seconds(), ratio(d, e))
	}
	fmt.Println()
}

// memoryTable prints doctrust inspect's peak RSS against 64 MiB + 4x file.
func memoryTable(rs []rss) goalRow {
	fmt.Println("### Peak memory of `doctrust inspect F` (`/usr/bin/time -f %M`)")
	fmt.Println()
	if len(rs) == 0 {
		fmt.Print("No measurement.\n\n")
		return goalRow{"peak memory ≤ 64 MiB + 4x the file", "not measured", false}
	}
	excess := func(r rss) int64 { return r.peak - goalMemMult*r.size }
	s := append([]rss(nil), rs...)
	sort.Slice(s, func(i, j int) bool { return excess(s[i]) > excess(s[j]) })
	var maxPeak rss
	over := 0
	for _, r := range s {
		if r.peak > maxPeak.peak {
			maxPeak = r
		}
		if excess(r) > goalMemBase {
			over++
		}
	}
	fmt.Printf("%d files (the sample, the median-size and the large PDF); largest peak %s (`%s`, %s). "+
		"Files with the most peak RSS − 4x size:\n\n", len(rs), mib(maxPeak.peak), maxPeak.rel, kib(maxPeak.size))
	fmt.Println("| file | size | peak RSS | RSS − 4x size | exit |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, r := range s[:min(5, len(s))] {
		fmt.Printf("| `%s` | %s | %s | %+.1f MiB | %d |\n", r.rel, kib(r.size), mib(r.peak), float64(excess(r))/(1<<20), r.exit)
	}
	fmt.Println()
	return goalRow{"peak memory ≤ 64 MiB + 4x the file, every file measured",
		fmt.Sprintf("worst RSS − 4x size %+.1f MiB; %d of %d files over", float64(excess(s[0]))/(1<<20), over, len(rs)), over == 0}
}

func machine(o reportOpts) {
	fmt.Println("### Machine and tools")
	fmt.Println()
	fmt.Printf("- date: %s; nproc: %d; CPU: %s; %s/%s, kernel %s\n", time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(),
		bench.CPUModel(), runtime.GOOS, runtime.GOARCH, bench.CmdLine("uname", "-r"))
	fmt.Printf("- load average (1, 5, 15 min) at start: %s; at end: %s\n", o.load0, bench.Loadavg())
	fmt.Printf("- %s; %s; %s; exiftool %s; %s; %s\n", bench.CmdLine("hyperfine", "--version"), bench.CmdLine("mutool", "-v"),
		bench.CmdLine("qpdf", "--version"), bench.CmdLine("exiftool", "-ver"), bench.CmdLine("go", "version"), "doctrust "+o.rev)
}

func medianF(s []float64) float64 {
	s = append([]float64(nil), s...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
func kib(b int64) string { return fmt.Sprintf("%.0f KiB", float64(b)/(1<<10)) }
