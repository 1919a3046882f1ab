package engine_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/report"
)

// The integrity verdicts of signature-coverage (issue 38) held to two
// peers: poppler's pdfsig and pyHanko's validator
// (scripts/fixtures/sigs/peers.py). Neither runs in the service; this test
// runs them over every signed fixture and every signed file of
// ../shared/corpus and fails where our verdict disagrees with every peer
// that gave one. CI installs both (.ci/run, make pyhanko); elsewhere the
// test skips, saying which is missing.

// peerVerdict is one signature as a peer judged it.
type peerVerdict struct {
	field     string // last component of the field name
	byteRange string
	verdict   string // verified | digest-mismatch | signature-invalid | none
}

func (p peerVerdict) key() string { return p.byteRange + "|" + p.field }

// pyhankoPython finds a Python that imports pyhanko: PYHANKO_PYTHON, then
// python3 over make pyhanko's .tools/pyhanko.
func pyhankoPython() (python string, env []string) {
	candidates := []struct {
		python string
		env    []string
	}{}
	if p := os.Getenv("PYHANKO_PYTHON"); p != "" {
		candidates = append(candidates, struct {
			python string
			env    []string
		}{p, nil})
	}
	if dir, err := filepath.Abs("../.tools/pyhanko"); err == nil {
		candidates = append(candidates, struct {
			python string
			env    []string
		}{"python3", []string{"PYTHONPATH=" + dir}})
	}
	for _, c := range candidates {
		cmd := exec.Command(c.python, "-c", "import pyhanko.sign")
		cmd.Env = append(os.Environ(), c.env...)
		if cmd.Run() == nil {
			return c.python, c.env
		}
	}
	return "", nil
}

func TestIntegrityPeers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two external validators over every signed file")
	}
	pdfsig, _ := exec.LookPath("pdfsig")
	python, pyEnv := pyhankoPython()
	if pdfsig == "" || python == "" {
		msg := fmt.Sprintf("peer validators missing (pdfsig: %t, pyHanko: %t): apt-get install poppler-utils; make pyhanko (or PYHANKO_PYTHON=a python with pyhanko)", pdfsig != "", python != "")
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	files, _ := filepath.Glob(filepath.Join(detectionDir, "signed", "*.pdf"))
	pyhanko, _ := filepath.Glob(filepath.Join(detectionDir, "signed-pyhanko", "*.pdf"))
	files = append(files, pyhanko...)
	if dir, err := filepath.Abs("../../shared/corpus"); err == nil {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".pdf") {
				if data, err := os.ReadFile(path); err == nil && bytes.Contains(data, []byte("/ByteRange")) {
					files = append(files, path)
				}
			}
			return nil
		})
	}
	hanko := runPyHanko(t, python, pyEnv, files)
	checked, agreed := 0, 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		peers := map[string][]peerVerdict{}
		for _, p := range append(runPdfsig(t, pdfsig, path), hanko[path]...) {
			peers[p.key()] = append(peers[p.key()], p)
		}
		rep, err := engine.Inspect(context.Background(), data, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ourSignatures(rep) {
			var opinions []string
			for _, p := range peers[s.key()] {
				if p.verdict != "none" {
					opinions = append(opinions, p.verdict)
				}
			}
			if len(opinions) == 0 {
				continue
			}
			checked++
			ours := class(s.verdict)
			agree := false
			for _, o := range opinions {
				agree = agree || class(o) == ours
			}
			name := filepath.Base(path)
			switch {
			case agree:
				agreed++
			case ours == "unchecked":
				t.Logf("%s %s: we could not check it (%s), peers say %v", name, s.field, s.verdict, opinions)
			default:
				t.Errorf("%s %s %s: ours %s, peers %v", name, s.field, s.byteRange, s.verdict, opinions)
			}
		}
	}
	t.Logf("%d signatures the peers judged, %d agreed with", checked, agreed)
	if checked < 40 {
		t.Errorf("only %d signatures judged by a peer: the peers' output was not read", checked)
	}
}

// class folds verdicts to what the peers can be compared on.
func class(v string) string {
	switch v {
	case "verified":
		return v
	case "digest-mismatch", "signature-invalid":
		return "broken"
	}
	return "unchecked"
}

// ourSignatures reads signature-coverage's signatures[] the way the peers
// are keyed.
func ourSignatures(rep *report.Report) []peerVerdict {
	var out []peerVerdict
	for _, sg := range rep.Signals {
		if sg.ID != "signature-coverage" {
			continue
		}
		list, _ := sg.Evidence["signatures"].([]map[string]any)
		for _, e := range list {
			br, _ := e["byteRange"].([]int64)
			field, _ := e["field"].(string)
			v, _ := e["integrity"].(string)
			out = append(out, peerVerdict{field: lastPart(field), byteRange: rangeKey(br), verdict: v})
		}
	}
	return out
}

func lastPart(field string) string { return field[strings.LastIndexByte(field, '.')+1:] }

func rangeKey(br []int64) string {
	parts := make([]string, len(br))
	for i, n := range br {
		parts[i] = strconv.FormatInt(n, 10)
	}
	return strings.Join(parts, " ")
}

var (
	pdfsigSignature = regexp.MustCompile(`^Signature #\d+:`)
	pdfsigField     = regexp.MustCompile(`Signature Field Name: (.*)$`)
	pdfsigRanges    = regexp.MustCompile(`Signed Ranges: \[(\d+) - (\d+)\], \[(\d+) - (\d+)\]`)
	pdfsigVerdict   = regexp.MustCompile(`Signature Validation: (.*)$`)
)

// runPdfsig reads pdfsig's report of path: its field names, ranges and
// validation lines.
func runPdfsig(t *testing.T, pdfsig, path string) []peerVerdict {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, _ := exec.CommandContext(ctx, pdfsig, "-nocert", path).Output()
	var res []peerVerdict
	var cur *peerVerdict
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case pdfsigSignature.MatchString(line):
			res = append(res, peerVerdict{verdict: "none"})
			cur = &res[len(res)-1]
		case cur == nil:
		case pdfsigField.MatchString(line):
			cur.field = lastPart(pdfsigField.FindStringSubmatch(line)[1])
		case pdfsigRanges.MatchString(line):
			m := pdfsigRanges.FindStringSubmatch(line)
			n := make([]int64, 4)
			for i := range n {
				n[i], _ = strconv.ParseInt(m[i+1], 10, 64)
			}
			cur.byteRange = rangeKey([]int64{n[0], n[1] - n[0], n[2], n[3] - n[2]})
		case pdfsigVerdict.MatchString(line):
			switch pdfsigVerdict.FindStringSubmatch(line)[1] {
			case "Signature is Valid.":
				cur.verdict = "verified"
			case "Digest Mismatch.":
				cur.verdict = "digest-mismatch"
			case "Signature is Invalid.":
				cur.verdict = "signature-invalid"
			}
		}
	}
	return res
}

// runPyHanko runs scripts/fixtures/sigs/peers.py over files at once.
func runPyHanko(t *testing.T, python string, env, files []string) map[string][]peerVerdict {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, append([]string{"../scripts/fixtures/sigs/peers.py"}, files...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("peers.py: %v", err)
	}
	res := map[string][]peerVerdict{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			File       string
			Signatures []struct {
				Field     string
				ByteRange []int64
				Verdict   string
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("peers.py output: %v", err)
		}
		for _, s := range line.Signatures {
			res[line.File] = append(res[line.File], peerVerdict{field: lastPart(s.Field), byteRange: rangeKey(s.ByteRange), verdict: s.Verdict})
		}
	}
	return res
}
