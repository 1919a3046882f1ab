package httpapi

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestOpenAPIForGenerators keeps out of the description the shapes that
// client generators were seen to get wrong (issue 36; make api-clients runs
// two of them against a server): an upload typed as a string without
// `format: binary` (openapi-python-client then sent the file's bytes as
// text and a forged PDF came back as unreadable), an enum of booleans
// (openapi-generator's Python models rejected every report), and a signed
// timestamp typed as date-time (both clients parse and re-print it, which
// breaks the receipt's signature over its text).
func TestOpenAPIForGenerators(t *testing.T) {
	var doc any
	if err := json.Unmarshal(OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["contentMediaType"]; ok && v["type"] == "string" && v["contentMediaType"] != "application/json" {
				t.Errorf("%s: an upload is `type: string, format: binary`, not contentMediaType", at)
			}
			if enum, ok := v["enum"].([]any); ok {
				for _, e := range enum {
					if _, isBool := e.(bool); isBool {
						t.Errorf("%s: enum of booleans (a plain boolean with a description instead)", at)
					}
				}
			}
			for k, c := range v {
				walk(c, at+"/"+k)
			}
		case []any:
			for i, c := range v {
				walk(c, fmt.Sprintf("%s/%d", at, i))
			}
		}
	}
	walk(doc, "#")

	root := doc.(map[string]any)
	receipt := root["components"].(map[string]any)["schemas"].(map[string]any)["Receipt"].(map[string]any)
	issued := receipt["properties"].(map[string]any)["issuedAt"].(map[string]any)
	if issued["format"] != nil {
		t.Errorf("Receipt.issuedAt has format %v: generated clients re-print it and the signature fails", issued["format"])
	}

	// Every document upload (multipart part or raw body) is binary.
	uploads := 0
	for path, item := range root["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			body, ok := op.(map[string]any)["requestBody"].(map[string]any)
			if !ok {
				continue
			}
			for media, c := range body["content"].(map[string]any) {
				schema := c.(map[string]any)["schema"].(map[string]any)
				if media == "multipart/form-data" {
					for name, p := range schema["properties"].(map[string]any) {
						p := p.(map[string]any)
						if name == "file" || name == "original" || name == "candidate" || name == "files" {
							if p["type"] == "array" {
								p = p["items"].(map[string]any)
							}
							uploads++
							if p["format"] != "binary" {
								t.Errorf("%s %s multipart %s: format %v, want binary", method, path, name, p["format"])
							}
						}
					}
					continue
				}
				if media == "application/json" {
					continue
				}
				uploads++
				if schema["format"] != "binary" {
					t.Errorf("%s %s %s: format %v, want binary", method, path, media, schema["format"])
				}
			}
		}
	}
	if uploads < 20 {
		t.Fatalf("found %d uploads: the walk no longer sees the request bodies", uploads)
	}
}
