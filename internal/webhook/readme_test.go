package webhook

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestREADMESnippetVerifies runs README's Python verification snippet on
// a delivery signed here, and on the same delivery with one byte changed:
// the snippet customers copy must accept the one and refuse the other.
func TestREADMESnippetVerifies(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "### Receiving ledger alerts")
	_, code, ok2 := strings.Cut(after, "```python\n")
	code, _, ok3 := strings.Cut(code, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README has no Python snippet under \"Receiving ledger alerts\"")
	}
	secret, body := NewSecret(), `{"id":"evt_1","type":"ledger.alert"}`
	header := Sign(secret, time.Now(), []byte(body))
	script := code + `
import os, sys
ok = verify(os.environb[b"BODY"], os.environ["HEADER"], os.environ["SECRET"])
tampered = verify(os.environb[b"BODY"] + b" ", os.environ["HEADER"], os.environ["SECRET"])
sys.stdout.write(f"{ok} {tampered}")
`
	cmd := exec.Command(python, "-c", script)
	cmd.Env = append(os.Environ(), "BODY="+body, "HEADER="+header, "SECRET="+secret)
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "True False" {
		t.Fatalf("README snippet: %v: %s", err, out)
	}
}
