package report

import (
	"fmt"
	"sort"
)

// Severity orders how much a signal raises the risk score.
type Severity string

const (
	Info   Severity = "info"
	Low    Severity = "low"
	Medium Severity = "medium"
	High   Severity = "high"
)

// Rank orders severities: info 0 < low 1 < medium 2 < high 3.
func (s Severity) Rank() int {
	switch s {
	case Low:
		return 1
	case Medium:
		return 2
	case High:
		return 3
	}
	return 0
}

// Max returns the more severe of s and o.
func (s Severity) Max(o Severity) Severity {
	if o.Rank() > s.Rank() {
		return o
	}
	return s
}

// Signal is one risk signal; at most one per family in a report.
type Signal struct {
	ID       string         `json:"id"`
	Severity Severity       `json:"severity"`
	Title    string         `json:"title"`
	Detail   string         `json:"detail"`
	Message  Message        `json:"message"`
	Notes    []Message      `json:"notes,omitempty"`
	Evidence map[string]any `json:"evidence"`
}

// Message is a stable translation key plus the values it interpolates.
type Message struct {
	Code   string         `json:"code"`
	Params map[string]any `json:"params"`
}

// Kind is a parameter value drawn from a fixed list the engine owns (a field
// kind, an object kind, a filter name from the catalogue). Plain strings are
// refused as message parameters so that attacker-authored text cannot reach
// title, detail or params by accident: converting to Kind is a visible,
// reviewable decision.
type Kind string

// P builds message parameters from alternating keys and values. Values must
// be integers, floats, booleans or Kinds; anything else panics, which the
// engine's recovery turns into a structure warning and the tests catch.
func P(kv ...any) map[string]any {
	if len(kv)%2 != 0 {
		panic("report.P: odd argument count")
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			panic("report.P: key is not a string")
		}
		switch v := kv[i+1].(type) {
		case int, int64, float64, bool:
			m[k] = v
		case Kind:
			m[k] = string(v)
		default:
			panic(fmt.Sprintf("report.P: parameter %q has type %T; only numbers, booleans and report.Kind are allowed", k, v))
		}
	}
	return m
}

// Msg is shorthand for a Message with parameters built by P.
func Msg(code string, kv ...any) Message {
	return Message{Code: code, Params: P(kv...)}
}

// Finding is what a family analyser produces: the variant message, optional
// notes, severity and evidence. Build turns it into a Signal, rendering the
// English title and detail from the message catalogue.
type Finding struct {
	Family   FamilyID
	Severity Severity
	Message  Message
	Notes    []Message
	Evidence map[string]any
}

// Variant is one fired check of a family; a family that fires several is
// reported as one finding (Compose).
type Variant struct {
	Severity Severity
	Message  Message
}

// Compose merges a family's variants into one finding: the most severe is
// the message (the first fired wins a tie), the others become notes in
// firing order, and the finding takes the highest severity. Nil when no
// variant fired.
func Compose(family FamilyID, vs []Variant, ev map[string]any) *Finding {
	if len(vs) == 0 {
		return nil
	}
	top := 0
	for i, v := range vs {
		if v.Severity.Rank() > vs[top].Severity.Rank() {
			top = i
		}
	}
	f := &Finding{Family: family, Severity: vs[top].Severity, Message: vs[top].Message, Evidence: ev}
	for i, v := range vs {
		if i != top {
			f.Notes = append(f.Notes, v.Message)
		}
	}
	return f
}

// Signal renders a finding into a report signal.
func (f Finding) Signal() Signal {
	ev := f.Evidence
	if ev == nil {
		ev = map[string]any{}
	}
	return Signal{
		ID:       string(f.Family),
		Severity: f.Severity,
		Title:    Title(f.Message),
		Detail:   Detail(f.Message, f.Notes),
		Message:  f.Message,
		Notes:    f.Notes,
		Evidence: ev,
	}
}

// sortSignals orders most severe first, then alphabetically by id.
func sortSignals(s []Signal) {
	sort.SliceStable(s, func(i, j int) bool {
		ri, rj := s[i].Severity.Rank(), s[j].Severity.Rank()
		if ri != rj {
			return ri > rj
		}
		return s[i].ID < s[j].ID
	})
}
