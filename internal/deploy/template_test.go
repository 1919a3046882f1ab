// Package deploy holds the checks that tie template.yaml to the code: every
// function it declares builds, and every route it sends to a function is
// one the shared handler serves.
package deploy

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/httpapi"
	"gopkg.in/yaml.v3"
)

type function struct {
	name, codeURI string
	routes        [][2]string // method, path
}

// functions reads the template with yaml.Node so CloudFormation tags (!Ref,
// !Sub) need no special decoding.
func functions(t *testing.T) []function {
	t.Helper()
	b, err := os.ReadFile("../../template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	get := func(n *yaml.Node, key string) *yaml.Node {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1]
			}
		}
		return nil
	}
	resources := get(doc.Content[0], "Resources")
	var out []function
	for i := 0; i+1 < len(resources.Content); i += 2 {
		name, res := resources.Content[i].Value, resources.Content[i+1]
		if get(res, "Type").Value != "AWS::Serverless::Function" {
			continue
		}
		props := get(res, "Properties")
		fn := function{name: name, codeURI: get(props, "CodeUri").Value}
		if ev := get(props, "Events"); ev != nil {
			for j := 1; j < len(ev.Content); j += 2 {
				p := get(ev.Content[j], "Properties")
				if get(ev.Content[j], "Type").Value == "HttpApi" {
					fn.routes = append(fn.routes, [2]string{get(p, "Method").Value, get(p, "Path").Value})
				}
			}
		}
		out = append(out, fn)
	}
	if len(out) == 0 {
		t.Fatal("template declares no functions")
	}
	return out
}

func TestEveryFunctionBuilds(t *testing.T) {
	for _, fn := range functions(t) {
		dir := filepath.Join("../..", fn.codeURI)
		if _, err := os.Stat(filepath.Join(dir, "main.go")); err != nil {
			t.Errorf("%s: CodeUri %s has no main.go", fn.name, fn.codeURI)
			continue
		}
		cmd := exec.Command("go", "build", "-o", os.DevNull, "./"+strings.TrimSuffix(fn.codeURI, "/"))
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s does not build for provided.al2023/arm64: %v\n%s", fn.name, err, out)
		}
	}
}

func TestEveryRouteIsServed(t *testing.T) {
	h := httpapi.New(httpapi.Config{Pipeline: &analysis.Pipeline{Secret: []byte("x")}})
	for _, fn := range functions(t) {
		for _, rt := range fn.routes {
			req := httptest.NewRequest(rt[0], rt[1], strings.NewReader(""))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code == http.StatusNotFound {
				t.Errorf("%s routes %s %s, which the handler does not serve", fn.name, rt[0], rt[1])
			}
		}
	}
}
