// Package bench holds what the peer benchmarks (scripts/benchpeers,
// scripts/benchmeta) share: timing a whole process, medians and
// percentiles, and the facts about the machine a report states.
package bench

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"sort"
	"strings"
	"time"
)

// Run executes args once with stdout and stderr to out and returns the
// wall time from start to reaped exit, the exit code, and ru_maxrss in
// bytes. A non-zero exit is not an error (peers exit non-zero on damaged
// files, doctrust 3 on unreadable ones); failing to start is.
func Run(args []string, out *os.File) (time.Duration, int, int64, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, out, out
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return d, -1, 0, err
	}
	return d, cmd.ProcessState.ExitCode(), MaxRSS(cmd.ProcessState), nil
}

// MaxRSS is ru_maxrss in bytes (Linux reports KiB), or 0 where the
// platform's rusage has no such field. Reflection keeps this file building
// on every GOOS.
func MaxRSS(ps *os.ProcessState) int64 {
	v := reflect.ValueOf(ps.SysUsage())
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return 0
	}
	f := v.Elem().FieldByName("Maxrss")
	if !f.IsValid() || !f.CanInt() {
		return 0
	}
	return f.Int() << 10
}

// Median of ds (not modified).
func Median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Pct is the nearest-rank percentile p (0..100) of ds.
func Pct(ds []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	k := int(float64(len(s))*p/100+0.999999) - 1
	k = min(max(k, 0), len(s)-1)
	return s[k]
}

// Ms formats a duration in milliseconds with two decimals.
func Ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

// Us formats a duration in microseconds with one decimal, for figures far
// under a millisecond.
func Us(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond)) }

// Trunc fits s into n columns for a progress line.
func Trunc(s string, n int) string {
	if len(s) <= n {
		return s + strings.Repeat(" ", n-len(s))
	}
	return "…" + s[len(s)-n+1:]
}

// CmdLine is the first line of a command's output, or "unknown".
func CmdLine(name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil && len(out) == 0 {
		return "unknown"
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(line)
}

// Loadavg is the first three fields of /proc/loadavg, or "unknown".
func Loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], ", ")
	}
	return "unknown"
}

// CPUModel is /proc/cpuinfo's model name, or "unknown".
func CPUModel() string {
	fh, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
