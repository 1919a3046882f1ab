package baselines

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/baseline"
	"github.com/doctrust/doctrust/engine/report"

	"github.com/doctrust/doctrust/internal/corpustest"
)

const corpus = "../../../shared/corpus"

func TestBuiltInProfilesLoad(t *testing.T) {
	got := BuiltIn()
	if len(got) != len(Specimens) {
		t.Fatalf("%d built-in profiles load, %d specimens listed", len(got), len(Specimens))
	}
	for _, p := range got {
		if !p.MatchingActive() || p.Check() != nil {
			t.Errorf("%s: %d samples, check %v", p.Issuer, p.SampleCount, p.Check())
		}
	}
}

// The shipped files are exactly what scripts/buildbaselines makes from the
// corpus.
func TestBuiltInProfilesRebuild(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		corpustest.Skip(t, "../shared/corpus")
	}
	for _, sp := range Specimens {
		p, err := sp.Build(context.Background(), corpus)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Encode(p)
		have, err := builtinFS.ReadFile("builtin/" + sp.Issuer + ".json")
		if err != nil || !bytes.Equal(have, want) {
			t.Errorf("%s: shipped profile differs from a rebuild; run go run ./scripts/buildbaselines", sp.Issuer)
		}
	}
}

// A specimen set matches its own members and flags a document of another
// writer from the same corpus.
func TestBuiltInProfileMatches(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		corpustest.Skip(t, "../shared/corpus")
	}
	var dss *baseline.Profile
	for _, p := range BuiltIn() {
		if p.Issuer == "public-esig-dss-libreoffice" {
			dss = p
		}
	}
	s := &Service{BuiltIn: []*baseline.Profile{dss}}
	p, source, err := s.Resolve(context.Background(), "", "public-esig-dss-libreoffice")
	if err != nil || p != dss || source != baseline.SourcePublicSpecimen {
		t.Fatalf("resolve: %v %q %v", p, source, err)
	}
	inspect := func(file string) *report.Report {
		data, err := os.ReadFile(filepath.Join(corpus, file))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := engine.Inspect(context.Background(), data, engine.Options{Issuer: &engine.Issuer{Slug: dss.Issuer, Profile: p, Source: source}})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if rep := inspect(Specimens[0].Files[2]); rep.Has("issuer-mismatch") || *rep.IssuerBaseline.Divergence != 0 {
		t.Errorf("own specimen: %+v", rep.IssuerBaseline)
	}
	rep := inspect(Specimens[1].Files[0])
	if !rep.Has("issuer-mismatch") || rep.IssuerBaseline.Source != "public-specimen" {
		t.Errorf("other writer: %+v", rep.IssuerBaseline)
	}
	t.Logf("x-ray file against the DSS profile: divergence %v, %v", *rep.IssuerBaseline.Divergence, rep.IssuerBaseline.MismatchedDimensions)
}
