package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Client is a thin client of the doctrust HTTP API: it reads local files
// into memory, uploads them with ?redact=payload and decodes the JSON
// answer. It holds no engine of its own (SPEC.md item 13).
type Client struct {
	BaseURL string // e.g. http://127.0.0.1:8080
	APIKey  string // optional; without it the anonymous allowance applies
	// MaxUpload is the largest file sent; larger ones are refused before
	// any upload. The service enforces its own cap as well.
	MaxUpload int64
	HTTP      *http.Client
	// Roots are the folders whose files the tools may read, symbolic
	// links resolved (DOCTRUST_MCP_ROOTS); empty means the working folder.
	Roots []string
}

// DefaultMaxUpload bounds a read when MaxUpload is not set: nothing is
// ever read without a bound.
const DefaultMaxUpload = 10 << 20

// RootsFromEnv splits DOCTRUST_MCP_ROOTS (folders separated by the
// system's list separator, ":" or ";"); unset or empty gives nil, which
// readFile takes as the working folder.
func RootsFromEnv(v string) []string {
	var out []string
	for _, r := range filepath.SplitList(v) {
		if r = strings.TrimSpace(r); r != "" {
			out = append(out, r)
		}
	}
	return out
}

// systemTrees hold files that are not documents and may be endless
// (/proc/self/pagemap), secret (/proc/self/environ) or devices.
var systemTrees = []string{"/proc", "/sys", "/dev"}

// APIError is a non-200 answer of the API, with its error code.
type APIError struct {
	Status     int
	Code       string
	RetryAfter int // seconds, from retryAfterSeconds or Retry-After
	Body       map[string]any
}

func (e *APIError) Error() string {
	return fmt.Sprintf("doctrust API answered %d %s", e.Status, e.Code)
}

// FileError is a path the tools refuse before uploading.
type FileError struct{ Reason string }

func (e *FileError) Error() string { return e.Reason }

// part is one file field of a multipart upload.
type part struct {
	field, path string
	data        []byte
}

// readFile applies the tools' path rules: an absolute path whose real
// location (symbolic links resolved) lies inside one of the allowed
// folders and outside /proc, /sys and /dev; a regular file (no FIFO,
// device or folder) within the upload cap, checked before a byte is read
// and again while reading, so a file that is longer than it says is cut
// off, not read to the end. The bytes stay in memory. Every refusal says
// why, in words an agent can act on.
func (c *Client) readFile(field, path string) (part, error) {
	if !filepath.IsAbs(path) {
		return part{}, &FileError{fmt.Sprintf("%s must be an absolute path; got a relative one", field)}
	}
	real, err := filepath.EvalSymlinks(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return part{}, &FileError{fmt.Sprintf("%s: no such file", field)}
	case err != nil:
		return part{}, &FileError{fmt.Sprintf("%s: cannot be read", field)}
	}
	for _, tree := range systemTrees {
		if within(tree, real) {
			return part{}, &FileError{fmt.Sprintf("%s is under %s, a system folder holding no documents; it is never read", field, tree)}
		}
	}
	roots, err := c.roots()
	if err != nil {
		return part{}, &FileError{fmt.Sprintf("%s: the allowed folders cannot be resolved (%v)", field, err)}
	}
	allowed := false
	for _, r := range roots {
		allowed = allowed || within(r, real)
	}
	if !allowed {
		return part{}, &FileError{fmt.Sprintf("%s is outside the folders this server may read (%s; set DOCTRUST_MCP_ROOTS to allow others)%s",
			field, strings.Join(roots, string(filepath.ListSeparator)), linkNote(path, real))}
	}
	// Lstat on the resolved path: a FIFO would block the open itself.
	fi, err := os.Lstat(real)
	if err != nil {
		return part{}, &FileError{fmt.Sprintf("%s: cannot be read", field)}
	}
	limit := c.MaxUpload
	if limit <= 0 {
		limit = DefaultMaxUpload
	}
	if err := regularWithin(field, fi, limit); err != nil {
		return part{}, err
	}
	f, err := os.Open(real)
	if err != nil {
		return part{}, &FileError{fmt.Sprintf("%s: cannot be read", field)}
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return part{}, &FileError{fmt.Sprintf("%s: cannot be read", field)}
	}
	if err := regularWithin(field, fi, limit); err != nil {
		return part{}, err // swapped between the checks
	}
	b, err := io.ReadAll(io.LimitReader(f, fi.Size()+1))
	if err != nil {
		return part{}, &FileError{fmt.Sprintf("%s: cannot be read", field)}
	}
	if int64(len(b)) != fi.Size() {
		return part{}, &FileError{fmt.Sprintf("%s changed size while it was read; try again once it is written", field)}
	}
	return part{field: field, path: path, data: b}, nil
}

func regularWithin(field string, fi os.FileInfo, limit int64) error {
	switch {
	case fi.IsDir():
		return &FileError{fmt.Sprintf("%s is a directory, not a file", field)}
	case !fi.Mode().IsRegular():
		return &FileError{fmt.Sprintf("%s is not a regular file (a pipe, device or socket); only documents on disk are read", field)}
	case fi.Size() > limit:
		return &FileError{fmt.Sprintf("%s is %d bytes, over the %d-byte upload cap", field, fi.Size(), limit)}
	}
	return nil
}

// roots resolves the allowed folders (the working folder by default).
func (c *Client) roots() ([]string, error) {
	list := c.Roots
	if len(list) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		list = []string{wd}
	}
	out := make([]string, 0, len(list))
	for _, r := range list {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, err
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		out = append(out, abs)
	}
	return out, nil
}

// within reports whether path is root or inside it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func linkNote(path, real string) string {
	if filepath.Clean(path) == real {
		return ""
	}
	return "; it is a symbolic link to " + real
}

// post uploads the parts (text fields first, as SPEC.md requires) to the
// route with ?redact=payload and extra query values, and decodes the
// JSON object it answers.
func (c *Client) post(ctx context.Context, route string, query url.Values, fields [][2]string, files []part) (map[string]any, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range fields {
		if err := mw.WriteField(f[0], f[1]); err != nil {
			return nil, err
		}
	}
	for _, f := range files {
		w, err := mw.CreateFormFile(f.field, filepath.Base(f.path))
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	if query == nil {
		query = url.Values{}
	}
	query.Set("redact", "payload")
	u := strings.TrimRight(c.BaseURL, "/") + route + "?" + query.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, &body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("doctrust API answered %d with a body that is not JSON", resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK {
		e := &APIError{Status: resp.StatusCode, Body: out}
		e.Code, _ = out["error"].(string)
		if v, ok := out["retryAfterSeconds"].(float64); ok {
			e.RetryAfter = int(v)
		} else if v, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			e.RetryAfter = v
		}
		return nil, e
	}
	return out, nil
}

// Inspect uploads one document to /api/v1/inspect.
func (c *Client) Inspect(ctx context.Context, path, issuer string, triage bool) (map[string]any, error) {
	f, err := c.readFile("path", path)
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	if triage {
		q.Set("mode", "triage")
	}
	var fields [][2]string
	if issuer != "" {
		fields = append(fields, [2]string{"issuer", issuer})
	}
	f.field = "file"
	return c.post(ctx, "/api/v1/inspect", q, fields, []part{f})
}

// Compare uploads two PDFs to /api/v1/compare.
func (c *Client) Compare(ctx context.Context, original, candidate string) (map[string]any, error) {
	o, err := c.readFile("original", original)
	if err != nil {
		return nil, err
	}
	k, err := c.readFile("candidate", candidate)
	if err != nil {
		return nil, err
	}
	return c.post(ctx, "/api/v1/compare", nil, nil, []part{o, k})
}
