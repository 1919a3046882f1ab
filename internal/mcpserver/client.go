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
}

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

// readFile applies the tools' path rules: absolute, an existing regular
// file, within the upload cap. The bytes stay in memory.
func (c *Client) readFile(field, path string) (part, error) {
	if !filepath.IsAbs(path) {
		return part{}, &FileError{fmt.Sprintf("%s must be an absolute path; got a relative one", field)}
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return part{}, &FileError{fmt.Sprintf("%s: no such file", field)}
	case err != nil:
		return part{}, &FileError{fmt.Sprintf("%s: cannot be read", field)}
	case fi.IsDir():
		return part{}, &FileError{fmt.Sprintf("%s is a directory, not a file", field)}
	case !fi.Mode().IsRegular():
		return part{}, &FileError{fmt.Sprintf("%s is not a regular file", field)}
	case c.MaxUpload > 0 && fi.Size() > c.MaxUpload:
		return part{}, &FileError{fmt.Sprintf("%s is %d bytes, over the %d-byte upload cap", field, fi.Size(), c.MaxUpload)}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return part{}, &FileError{fmt.Sprintf("%s: cannot be read", field)}
	}
	return part{field: field, path: path, data: b}, nil
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
