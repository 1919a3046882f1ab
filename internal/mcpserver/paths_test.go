//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPathRules: the tools read regular files inside the allowed folders
// only, links resolved, sizes checked before reading, and say why not.
func TestPathRules(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	doc := filepath.Join(root, "invoice.pdf")
	os.WriteFile(doc, []byte("%PDF-1.7\n%%EOF\n"), 0o600)
	secret := filepath.Join(outside, "shadow")
	os.WriteFile(secret, []byte("root:$6$secret"), 0o600)
	os.Symlink(secret, filepath.Join(root, "looks-like.pdf"))
	os.Symlink(doc, filepath.Join(root, "alias.pdf"))
	big := filepath.Join(root, "big.pdf")
	os.WriteFile(big, make([]byte, 2048), 0o600)
	c := &Client{Roots: []string{root}, MaxUpload: 1024}

	for _, ok := range []string{doc, filepath.Join(root, "alias.pdf")} {
		if p, err := c.readFile("path", ok); err != nil || string(p.data) != "%PDF-1.7\n%%EOF\n" {
			t.Errorf("%s: %v", ok, err)
		}
	}
	refused := map[string]string{
		secret:                                "outside the folders",
		filepath.Join(root, "looks-like.pdf"): "symbolic link to " + secret,
		big:                                   "over the 1024-byte upload cap",
		root:                                  "directory",
		"relative.pdf":                        "absolute path",
		filepath.Join(root, "missing.pdf"):    "no such file",
	}
	if runtime.GOOS == "linux" {
		fifo := filepath.Join(root, "pipe.pdf")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		refused[fifo] = "not a regular file"
		// Even with every folder allowed, /proc is never read: its files
		// say size 0 and hold the process's memory map or environment.
		all := &Client{Roots: []string{"/"}}
		for _, p := range []string{"/proc/self/pagemap", "/proc/self/environ", "/dev/zero"} {
			if _, err := all.readFile("path", p); err == nil || !strings.Contains(err.Error(), "system folder") {
				t.Errorf("%s: %v", p, err)
			}
		}
	}
	for p, want := range refused {
		done := make(chan error, 1)
		go func() { _, err := c.readFile("path", p); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", p, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the read blocked", p)
		}
	}
	// Without DOCTRUST_MCP_ROOTS the working folder is the one allowed.
	t.Chdir(root)
	if _, err := (&Client{}).readFile("path", doc); err != nil {
		t.Errorf("working folder: %v", err)
	}
	if _, err := (&Client{}).readFile("path", secret); err == nil {
		t.Error("a file outside the working folder was read")
	}
	if got := RootsFromEnv(" /a" + string(filepath.ListSeparator) + string(filepath.ListSeparator) + "/b "); len(got) != 2 || got[0] != "/a" || got[1] != "/b" {
		t.Errorf("RootsFromEnv = %q", got)
	}
}
