package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/scripts/internal/bench"
)

// job is one hyperfine run of bench-peers.sh, a line of jobs.tsv:
// kind, role, file count, bytes, corpus path (blank for a batch or the
// floor) and the JSON file hyperfine exported, relative to the run's dir.
type job struct {
	kind, role string
	files      int
	bytes      int64
	rel        string
	timings    map[string]bench.Timing
}

func readJobs(dir string) ([]job, error) {
	fh, err := os.Open(filepath.Join(dir, "jobs.tsv"))
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var jobs []job
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 6 {
			return nil, fmt.Errorf("jobs.tsv: %d fields in %q", len(f), sc.Text())
		}
		j := job{kind: f[0], role: f[1], rel: f[4]}
		if j.files, err = strconv.Atoi(f[2]); err != nil {
			return nil, fmt.Errorf("jobs.tsv: %w", err)
		}
		if j.bytes, err = strconv.ParseInt(f[3], 10, 64); err != nil {
			return nil, fmt.Errorf("jobs.tsv: %w", err)
		}
		if j.timings, err = bench.ReadHyperfine(filepath.Join(dir, f[5])); err != nil {
			return nil, err
		}
		jobs = append(jobs, j)
	}
	return jobs, sc.Err()
}

// rss is one line of rss.tsv: GNU time's %M for doctrust inspect.
type rss struct {
	rel        string
	size, peak int64 // bytes
	exit       int
}

func readRSS(dir string) ([]rss, error) {
	fh, err := os.Open(filepath.Join(dir, "rss.tsv"))
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var out []rss
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("rss.tsv: %d fields in %q", len(f), sc.Text())
		}
		size, err1 := strconv.ParseInt(f[1], 10, 64)
		kib, err2 := strconv.ParseInt(f[2], 10, 64)
		exit, err3 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("rss.tsv: bad line %q", sc.Text())
		}
		out = append(out, rss{rel: f[0], size: size, peak: kib << 10, exit: exit})
	}
	return out, sc.Err()
}
