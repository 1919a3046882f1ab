package cli

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// analyse is one file's analysis in a batch: the JSON body (one line) and,
// for inspect, the report's band.
type analyse func(ctx context.Context, data []byte) (body []byte, band string, err error)

// batch is one run of `inspect PATH...` or `metadata PATH...`: every file
// named, found under a named folder, or listed on standard input, analysed
// by jobs workers, printed as JSON Lines in the order the files were found.
type batch struct {
	paths   []string
	stdin   io.Reader
	jobs    int
	analyse analyse
	bands   bool // inspect: count bands in the summary
	stdout  io.Writer
	stderr  io.Writer
	// progress draws a line on stderr; set when stderr is a terminal.
	progress bool
	// text, when set, prints each file as text (--format text) instead
	// of a JSON Lines record.
	text func(path string, body []byte) ([]byte, error)
	// gc tunes the collector for the run (batchGC).
	gc  bool
	now func() time.Time
	// every is how often progress is redrawn (200 ms when zero).
	every time.Duration
}

type batchJob struct {
	seq  int
	path string
	size int64 // bytes on disk, when known
	err  error // the path could not be listed
}

type batchResult struct {
	seq  int
	line []byte
	band string
	code string // error code of a refused or unread file
}

// window bounds how many files per worker may be found and not yet
// printed: waiting to start, being analysed, or finished behind an
// earlier file still running. It is wide so that while one worker spends
// a hundred times the median on a large file the others keep going, and
// so that the queue has large files to start first; it holds paths and
// finished records, never file contents.
const window = 64

func (b *batch) run() int {
	start := b.now()
	if b.gc {
		defer batchGC(b.jobs)()
	}
	queue := newJobQueue()
	results := make(chan batchResult)
	slots := make(chan struct{}, b.jobs*window)
	var found atomic.Int64 // files found so far; walked once all are
	var walked atomic.Bool
	go func() {
		defer queue.close()
		defer walked.Store(true)
		seq := 0
		b.each(func(path string, size int64, err error) {
			slots <- struct{}{}
			queue.push(batchJob{seq: seq, path: path, size: size, err: err})
			seq++
			found.Store(int64(seq))
		})
	}()
	var wg sync.WaitGroup
	for range b.jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j, ok := queue.pop(); ok; j, ok = queue.pop() {
				results <- b.one(j)
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	var (
		pending = map[int]batchResult{}
		next    int
		sum     = summary{bands: map[string]int{}, codes: map[string]int{}}
		tick    <-chan time.Time
		out     = bufio.NewWriterSize(b.stdout, 64<<10)
		drawn   bool // a progress line stands on stderr
	)
	if b.progress {
		t := time.NewTicker(cmp.Or(b.every, 200*time.Millisecond))
		defer t.Stop()
		tick = t.C
	}
	for open := true; open; {
		select {
		case r, ok := <-results:
			if !ok {
				open = false
				break
			}
			pending[r.seq] = r
			for {
				r, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				if drawn {
					// Records on the same terminal start on a clean line.
					fmt.Fprint(b.stderr, "\r\033[K")
					drawn = false
				}
				out.Write(r.line)
				if b.text == nil {
					out.WriteByte('\n')
				}
				sum.add(r)
				<-slots
			}
			if len(pending) == 0 {
				// A reader of the stream sees each record as soon as every
				// earlier one is out.
				out.Flush()
			}
		case <-tick:
			fmt.Fprint(b.stderr, "\r\033[K"+progressLine(sum.files, int(found.Load()), !walked.Load(), b.now().Sub(start)))
			drawn = true
		}
	}
	out.Flush()
	if b.progress {
		fmt.Fprint(b.stderr, "\r\033[K")
	}
	fmt.Fprintf(b.stderr, "doctrust: %s\n", sum.line(b.bands, b.now().Sub(start)))
	return sum.exit()
}

// each calls fn with every file of the batch in order: named files as
// given, folders walked in lexical order (hidden files and folders inside
// them skipped), "-" read as one path per line.
func (b *batch) each(fn func(path string, size int64, err error)) {
	for _, p := range b.paths {
		if p == "-" {
			sc := bufio.NewScanner(b.stdin)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			for sc.Scan() {
				if line := strings.TrimRight(sc.Text(), "\r"); line != "" {
					b.walk(line, fn)
				}
			}
			if err := sc.Err(); err != nil {
				fn("-", 0, err)
			}
			continue
		}
		b.walk(p, fn)
	}
}

func (b *batch) walk(root string, fn func(string, int64, error)) {
	fi, err := os.Stat(root)
	if err != nil {
		fn(root, 0, err)
		return
	}
	if !fi.IsDir() {
		fn(root, fi.Size(), nil)
		return
	}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fn(p, 0, err)
			return nil
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case d.Type().IsRegular():
			var size int64
			if fi, err := d.Info(); err == nil {
				size = fi.Size()
			}
			fn(p, size, nil)
		case d.Type()&fs.ModeSymlink != 0:
			// A link to a file counts as the file; a link to a folder is
			// not followed (no cycles).
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				fn(p, fi.Size(), nil)
			}
		}
		return nil
	})
}

func (b *batch) one(j batchJob) batchResult {
	r := batchResult{seq: j.seq}
	data, err := j.data()
	var body []byte
	if err == nil {
		body, r.band, err = b.analyse(context.Background(), data)
	}
	if err != nil {
		r.code, body = errorBody(err)
	}
	if b.text != nil {
		if r.code != "" {
			r.line = errorText(j.path, body)
			return r
		}
		if r.line, err = b.text(j.path, body); err != nil {
			r.line = []byte(j.path + ": " + err.Error() + "\n")
		}
		return r
	}
	path, _ := json.Marshal(j.path)
	key := `,"report":`
	if r.code != "" {
		key = `,"error":`
	}
	r.line = make([]byte, 0, len(path)+len(key)+len(body)+10)
	r.line = append(append(append(append(append(r.line, `{"path":`...), path...), key...), body...), '}')
	return r
}

func (j batchJob) data() ([]byte, error) {
	if j.err != nil {
		return nil, &readError{j.err}
	}
	b, err := os.ReadFile(j.path)
	if err != nil {
		return nil, &readError{err}
	}
	return b, nil
}

// readError is a path that could not be listed or read: the run's fault
// or the file system's, not the document's.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

type summary struct {
	files, unread int
	bands         map[string]int
	codes         map[string]int
}

func (s *summary) add(r batchResult) {
	s.files++
	switch {
	case r.code == codeReadError:
		s.unread++
	case r.code != "":
		s.codes[r.code]++
	case r.band != "":
		s.bands[r.band]++
	}
}

// line is the summary in English: files, bands (inspect), refusals by
// code, unreadable paths, time.
func (s *summary) line(bands bool, took time.Duration) string {
	var parts []string
	refused := 0
	for _, n := range s.codes {
		refused += n
	}
	reported := s.files - refused - s.unread
	head := fmt.Sprintf("%s in %.1f s", plural(s.files, "file"), took.Seconds())
	if bands {
		var bs []string
		for _, b := range []string{"low", "elevated", "high"} {
			if n := s.bands[b]; n > 0 {
				bs = append(bs, fmt.Sprintf("%d %s", n, b))
			}
		}
		if len(bs) > 0 {
			parts = append(parts, fmt.Sprintf("%s reported (%s)", count(reported), strings.Join(bs, ", ")))
		} else {
			parts = append(parts, fmt.Sprintf("%s reported", count(reported)))
		}
	} else {
		parts = append(parts, fmt.Sprintf("%s listed", count(reported)))
	}
	if refused > 0 {
		codes := make([]string, 0, len(s.codes))
		for c := range s.codes {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		var cs []string
		for _, c := range codes {
			cs = append(cs, fmt.Sprintf("%d %s", s.codes[c], c))
		}
		parts = append(parts, fmt.Sprintf("%s refused (%s)", count(refused), strings.Join(cs, ", ")))
	}
	if s.unread > 0 {
		parts = append(parts, fmt.Sprintf("%s not readable", count(s.unread)))
	}
	return head + ": " + strings.Join(parts, ", ")
}

// exit: 0 every file reported, 3 some file refused (not a readable
// format, timeout), 1 some path could not be read; 1 wins over 3.
func (s *summary) exit() int {
	switch {
	case s.unread > 0:
		return exitError
	case len(s.codes) > 0:
		return exitUnreadable
	}
	return 0
}

func count(n int) string { return fmt.Sprintf("%d", n) }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func defaultJobs() int { return runtime.GOMAXPROCS(0) }
