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
	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store/dynamodb"
	"github.com/doctrust/doctrust/internal/store/sqlite"
	"github.com/doctrust/doctrust/internal/web"
	"gopkg.in/yaml.v3"
)

type function struct {
	name, codeURI string
	routes        [][2]string // method, path
}

// doc reads the template with yaml.Node, so CloudFormation tags (!Ref,
// !Sub) need no special decoding.
func doc(t *testing.T) *yaml.Node {
	t.Helper()
	b, err := os.ReadFile("../../template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var d yaml.Node
	if err := yaml.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d.Content[0]
}

// resources is the template's Resources.
func resources(t *testing.T) *yaml.Node { return get(doc(t), "Resources") }

// get is a mapping's value for key, or nil.
func get(n *yaml.Node, key string) *yaml.Node {
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

func value(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	return n.Value
}

func functions(t *testing.T) []function {
	t.Helper()
	resources := resources(t)
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

// TestEveryFunctionBuilds builds every function for provided.al2023/arm64
// in one go build: the packages they share compile once and the links run
// in parallel, where one build per function paid the command's start and
// package loading six times.
func TestEveryFunctionBuilds(t *testing.T) {
	var pkgs []string
	for _, fn := range functions(t) {
		dir := filepath.Join("../..", fn.codeURI)
		if _, err := os.Stat(filepath.Join(dir, "main.go")); err != nil {
			t.Errorf("%s: CodeUri %s has no main.go", fn.name, fn.codeURI)
			continue
		}
		pkgs = append(pkgs, "./"+strings.TrimSuffix(fn.codeURI, "/"))
	}
	cmd := exec.Command("go", append([]string{"build", "-o", t.TempDir() + string(filepath.Separator)}, pkgs...)...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("functions do not build for provided.al2023/arm64: %v\n%s", err, out)
	}
}

func TestEveryRouteIsServed(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), sqlite.FileName), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := httpapi.New(httpapi.Config{Pipeline: &analysis.Pipeline{Secret: []byte("x")},
		Meter: &metering.Meter{Store: st, Plans: plans.New(0)}, Limiter: &ratelimit.Limiter{Store: st}})
	for _, fn := range functions(t) {
		for _, rt := range fn.routes {
			// A greedy path parameter stands for one real asset.
			path := strings.Replace(rt[1], "{proxy+}", "app.css", 1)
			req := httptest.NewRequest(rt[0], path, strings.NewReader(""))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			// 405: the path is served, but not under this method.
			if rec.Code == http.StatusNotFound || rec.Code == http.StatusMethodNotAllowed {
				t.Errorf("%s routes %s %s, which the handler does not serve (%d)", fn.name, rt[0], rt[1], rec.Code)
			}
		}
	}
}

// TestEveryTableIsDeclared: each table of the DynamoDB store's schema is a
// resource named with the table prefix, with the same key schema, indexes
// and TTL attribute, and the function holding the store may use it.
func TestEveryTableIsDeclared(t *testing.T) {
	res := resources(t)
	declared := map[string]*yaml.Node{} // name suffix -> resource
	logical := map[string]string{}      // name suffix -> logical id
	for i := 0; i+1 < len(res.Content); i += 2 {
		r := res.Content[i+1]
		if value(get(r, "Type")) != "AWS::DynamoDB::Table" {
			continue
		}
		name := get(get(r, "Properties"), "TableName")
		if name == nil || name.Tag != "!Sub" || !strings.HasPrefix(name.Value, "${TablePrefix}") {
			t.Errorf("%s: TableName must be !Sub \"${TablePrefix}<name>\"", res.Content[i].Value)
			continue
		}
		suffix := strings.TrimPrefix(name.Value, "${TablePrefix}")
		declared[suffix], logical[suffix] = r, res.Content[i].Value
	}
	// StoreAccessPolicy names each table's ARN, and every function uses it.
	granted := map[string]bool{}
	pol := get(res, "StoreAccessPolicy")
	for _, st := range get(get(get(pol, "Properties"), "PolicyDocument"), "Statement").Content {
		for _, r := range get(st, "Resource").Content {
			if r.Tag == "!GetAtt" {
				granted[strings.TrimSuffix(r.Value, ".Arn")] = true
			}
		}
	}
	for i := 0; i+1 < len(res.Content); i += 2 {
		if value(get(res.Content[i+1], "Type")) != "AWS::Serverless::Function" {
			continue
		}
		var uses bool
		for _, p := range get(get(res.Content[i+1], "Properties"), "Policies").Content {
			uses = uses || (p.Tag == "!Ref" && p.Value == "StoreAccessPolicy")
		}
		if !uses {
			t.Errorf("%s does not use StoreAccessPolicy", res.Content[i].Value)
		}
	}
	for _, want := range dynamodb.Tables() {
		r, ok := declared[want.Name]
		if !ok {
			t.Errorf("table %q is used by the store but not declared in template.yaml", want.Name)
			continue
		}
		props := get(r, "Properties")
		if value(get(props, "BillingMode")) != "PAY_PER_REQUEST" {
			t.Errorf("%s: BillingMode must be PAY_PER_REQUEST", want.Name)
		}
		if got := keySchema(get(props, "KeySchema")); got != [2]string{want.HashKey, want.RangeKey} {
			t.Errorf("%s: key schema %v, want %v", want.Name, got, [2]string{want.HashKey, want.RangeKey})
		}
		defs := map[string]bool{}
		for _, d := range get(props, "AttributeDefinitions").Content {
			if value(get(d, "AttributeType")) != "S" {
				t.Errorf("%s: attribute %s must be S", want.Name, value(get(d, "AttributeName")))
			}
			defs[value(get(d, "AttributeName"))] = true
		}
		needed := []string{want.HashKey, want.RangeKey}
		for _, ix := range want.Indexes {
			needed = append(needed, ix.HashKey, ix.RangeKey)
			var found bool
			if g := get(props, "GlobalSecondaryIndexes"); g != nil {
				for _, n := range g.Content {
					if value(get(n, "IndexName")) == ix.Name {
						found = true
						if got := keySchema(get(n, "KeySchema")); got != [2]string{ix.HashKey, ix.RangeKey} {
							t.Errorf("%s.%s: key schema %v", want.Name, ix.Name, got)
						}
						if value(get(get(n, "Projection"), "ProjectionType")) != "ALL" {
							t.Errorf("%s.%s: projection must be ALL", want.Name, ix.Name)
						}
					}
				}
			}
			if !found {
				t.Errorf("%s: index %s not declared", want.Name, ix.Name)
			}
		}
		for _, a := range needed {
			if a != "" && !defs[a] {
				t.Errorf("%s: attribute %s not defined", want.Name, a)
			}
		}
		if len(defs) != len(uniqueNonEmpty(needed)) {
			t.Errorf("%s: AttributeDefinitions %v define attributes no key uses", want.Name, defs)
		}
		ttl := get(props, "TimeToLiveSpecification")
		switch {
		case want.TTL == "" && ttl != nil:
			t.Errorf("%s: TTL declared but the store sets none", want.Name)
		case want.TTL != "" && (value(get(ttl, "AttributeName")) != want.TTL || value(get(ttl, "Enabled")) != "true"):
			t.Errorf("%s: TTL must be enabled on %s", want.Name, want.TTL)
		}
		if !granted[logical[want.Name]] {
			t.Errorf("StoreAccessPolicy does not grant %s", logical[want.Name])
		}
	}
}

func keySchema(n *yaml.Node) [2]string {
	var out [2]string
	if n == nil {
		return out
	}
	for _, k := range n.Content {
		switch value(get(k, "KeyType")) {
		case "HASH":
			out[0] = value(get(k, "AttributeName"))
		case "RANGE":
			out[1] = value(get(k, "AttributeName"))
		}
	}
	return out
}

func uniqueNonEmpty(xs []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		if x != "" {
			m[x] = true
		}
	}
	return m
}

// TestBillingEnvironment: the function serving checkout and the webhook
// gets every variable the plan table reads (prices and pack sizes) and the
// two Stripe secrets, each from a parameter, the secrets without echo.
func TestBillingEnvironment(t *testing.T) {
	res := resources(t)
	var fn *yaml.Node
	for _, f := range functions(t) {
		for _, rt := range f.routes {
			if rt == [2]string{"POST", "/api/v1/billing/webhook"} {
				fn = get(res, f.name)
			}
		}
	}
	if fn == nil {
		t.Fatal("no function serves POST /api/v1/billing/webhook")
	}
	vars := get(get(get(fn, "Properties"), "Environment"), "Variables")
	params := get(doc(t), "Parameters")
	secrets := map[string]bool{"STRIPE_SECRET_KEY": true, "STRIPE_WEBHOOK_SECRET": true}
	for _, name := range append(plans.New(0).Env(), "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET") {
		v := get(vars, name)
		if v == nil || v.Tag != "!Ref" || get(params, v.Value) == nil {
			t.Errorf("billing function: %s is not set from a parameter", name)
			continue
		}
		if secrets[name] && value(get(get(params, v.Value), "NoEcho")) != "true" {
			t.Errorf("parameter %s holds a secret but echoes", v.Value)
		}
	}
}

// TestDashboardRoutesGoToAccounts: the accounts function, which holds the
// session, serves every dashboard page and asset.
func TestDashboardRoutesGoToAccounts(t *testing.T) {
	owner := map[[2]string]string{}
	for _, fn := range functions(t) {
		for _, rt := range fn.routes {
			owner[rt] = fn.codeURI
		}
	}
	for _, rt := range web.Routes {
		if owner[rt] != "functions/accounts/" {
			t.Errorf("%s %s goes to %q, want functions/accounts/", rt[0], rt[1], owner[rt])
		}
	}
}

// TestAnalysisRoutesHaveTheirFunctions: each analysis route of SPEC.md is
// sent to the function named after its group, and no route goes to two
// functions.
func TestAnalysisRoutesHaveTheirFunctions(t *testing.T) {
	want := map[[2]string]string{
		{"POST", "/api/v1/inspect"}:        "functions/inspect/",
		{"POST", "/api/v1/receipt/verify"}: "functions/inspect/",
		{"GET", "/api/v1/health"}:          "functions/inspect/",
		{"GET", "/api/v1/openapi.json"}:    "functions/inspect/",
		{"POST", "/api/v1/metadata"}:       "functions/metadata/",
		{"POST", "/api/v1/compare"}:        "functions/compare/",
	}
	owner := map[[2]string]string{}
	for _, fn := range functions(t) {
		for _, rt := range fn.routes {
			if prev, dup := owner[rt]; dup {
				t.Errorf("%s %s is routed to both %s and %s", rt[0], rt[1], prev, fn.codeURI)
			}
			owner[rt] = fn.codeURI
		}
	}
	for rt, uri := range want {
		if owner[rt] != uri {
			t.Errorf("%s %s goes to %q, want %q", rt[0], rt[1], owner[rt], uri)
		}
	}
}
