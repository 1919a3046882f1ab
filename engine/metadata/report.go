package metadata

import (
	"strings"
	"unicode/utf8"

	"github.com/doctrust/doctrust/engine/report"
)

// Report is the MetadataReport of SPEC.md: every key the file carries,
// grouped by container, a copy of the entries that identify a person, a
// device or a place, the decoded GPS pair, and notes on what could not be
// read. No signal, score or verdict. Field order is the JSON key order.
type Report struct {
	EngineVersion string           `json:"engineVersion"`
	MediaType     report.MediaType `json:"mediaType"`
	Format        string           `json:"format"`
	SizeBytes     int64            `json:"sizeBytes"`
	Containers    []Container      `json:"containers"`
	// NotEnumerated names containers present in the file whose keys are
	// not listed (IPTC, ICC, MakerNote, C2PA ...).
	NotEnumerated     []Named    `json:"notEnumerated"`
	Personal          []Personal `json:"personal"`
	PersonalTotal     int        `json:"personalTotal,omitempty"`
	PersonalTruncated bool       `json:"personalTruncated,omitempty"`
	GPS               *GPS       `json:"gps"`
	Notes             []Note     `json:"notes"`
	// ContainersTruncated: the listing stopped at its caps (containers,
	// embedded images, entries or bytes in all).
	ContainersTruncated bool `json:"containersTruncated,omitempty"`
}

// Container is one metadata container: an EXIF directory, an XMP packet,
// the PDF Info dictionary, an Office property part ... Part names the
// package part it came from (images embedded in an Office document).
type Container struct {
	Name             string  `json:"name"`
	Part             string  `json:"part,omitempty"`
	Entries          []Entry `json:"entries"`
	EntriesTotal     int     `json:"entriesTotal,omitempty"`
	EntriesTruncated bool    `json:"entriesTruncated,omitempty"`
}

// Entry is one key. Value is display-ready English; Raw is the stored form,
// present only when decoding changed it; Code is the translation key of a
// decoded enumeration. An entry without Code is data, not to be
// translated. Key, Value and Raw are attacker-authored text, sanitised and
// cut.
type Entry struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Raw   string `json:"raw,omitempty"`
	Code  string `json:"code,omitempty"`
}

// Personal is a copy of an entry that identifies a person, a device or a
// place, with the container (and part) it is listed under.
type Personal struct {
	Container string `json:"container"`
	Part      string `json:"part,omitempty"`
	Entry
}

// Named names a container present but not enumerated.
type Named struct {
	Name string `json:"name"`
	Part string `json:"part,omitempty"`
}

// GPS is the first coordinate pair decoded, in decimal degrees (south and
// west negative), with the container it came from.
type GPS struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	Container string  `json:"container"`
	Part      string  `json:"part,omitempty"`
}

// Note says what could not be read: a structure message of the inspection
// catalogue (the same code and parameters an inspection's structure
// signal carries) and its English text.
type Note struct {
	Code   string         `json:"code"`
	Params map[string]any `json:"params"`
	Text   string         `json:"text"`
	Part   string         `json:"part,omitempty"`
}

// Caps. A hostile file cannot make the listing larger than these, which
// keep the worst response far below an API Gateway payload.
const (
	maxEntriesPerContainer = 1000
	maxEntries             = 10000
	maxValueRunes          = 1000
	maxKeyRunes            = 200
	maxListedBytes         = 1 << 20 // bytes of keys, values and raw forms in all
	maxPersonalBytes       = 1 << 18
	maxContainers          = 512
	maxPersonal            = 500
)

// builder assembles a Report within the caps.
type builder struct {
	r       *Report
	part    string // the package part being listed, "" for the file itself
	entries int
	bytes   int
}

func newBuilder(media report.MediaType, format string, size int64) *builder {
	return &builder{r: &Report{
		EngineVersion: report.EngineVersion, MediaType: media, Format: format, SizeBytes: size,
		Containers: []Container{}, NotEnumerated: []Named{}, Personal: []Personal{}, Notes: []Note{},
	}}
}

// container starts a container. Past maxContainers it returns a container
// that drops what is added to it.
func (b *builder) container(name string) *cont {
	if len(b.r.Containers) >= maxContainers {
		b.r.ContainersTruncated = true
		return &cont{b: b, i: -1}
	}
	b.r.Containers = append(b.r.Containers, Container{Name: name, Part: b.part, Entries: []Entry{}})
	return &cont{b: b, i: len(b.r.Containers) - 1}
}

// cont adds entries to one container of the report.
type cont struct {
	b *builder
	i int
}

// add appends an entry after sanitising it: control characters become
// spaces or go, values are cut to maxValueRunes (an ellipsis marks the
// cut). Entries past the caps are counted, not kept.
func (c *cont) add(key, value, raw, code string) {
	if c.i < 0 {
		return
	}
	ct := &c.b.r.Containers[c.i]
	if len(ct.Entries) >= maxEntriesPerContainer || c.b.entries >= maxEntries || c.b.bytes >= maxListedBytes {
		if ct.EntriesTotal == 0 {
			ct.EntriesTotal = len(ct.Entries)
		}
		ct.EntriesTotal++
		ct.EntriesTruncated = true
		c.b.r.ContainersTruncated = c.b.r.ContainersTruncated || c.b.entries >= maxEntries || c.b.bytes >= maxListedBytes
		return
	}
	e := Entry{Key: clean(key, maxKeyRunes), Value: clean(value, maxValueRunes), Raw: clean(raw, maxValueRunes), Code: code}
	if e.Raw == e.Value {
		e.Raw = ""
	}
	c.b.entries++
	c.b.bytes += len(e.Key) + len(e.Value) + len(e.Raw)
	ct.Entries = append(ct.Entries, e)
}

// truncated records that the walker below kept fewer entries than the
// file holds (total), as a cap of its own does.
func (c *cont) truncated(total int) {
	if c.i < 0 {
		return
	}
	ct := &c.b.r.Containers[c.i]
	if total > len(ct.Entries) && total > ct.EntriesTotal {
		ct.EntriesTotal, ct.EntriesTruncated = total, true
	}
}

// notEnumerated names a container once per part.
func (b *builder) notEnumerated(name string) {
	for _, n := range b.r.NotEnumerated {
		if n.Name == name && n.Part == b.part {
			return
		}
	}
	b.r.NotEnumerated = append(b.r.NotEnumerated, Named{Name: name, Part: b.part})
}

// structure turns an inspection structure finding into notes.
func (b *builder) structure(f *report.Finding, skip ...string) {
	if f == nil {
		return
	}
	for _, m := range append([]report.Message{f.Message}, f.Notes...) {
		if m.Code == "" || contains(skip, m.Code) {
			continue
		}
		b.note(m)
	}
}

func (b *builder) note(m report.Message) {
	b.r.Notes = append(b.r.Notes, Note{Code: m.Code, Params: m.Params, Text: report.Render(m), Part: b.part})
}

// setGPS keeps the first pair decoded.
func (b *builder) setGPS(lat, lon float64, container string) {
	if b.r.GPS != nil || lat < -90 || lat > 90 || lon < -180 || lon > 180 {
		return
	}
	b.r.GPS = &GPS{Latitude: lat, Longitude: lon, Container: container, Part: b.part}
}

// finish copies the personal entries, in listing order, within their own
// caps (a count and a size, so the copy cannot double the listing).
func (b *builder) finish() *Report {
	size := 0
	for _, c := range b.r.Containers {
		for _, e := range c.Entries {
			if !personal(c.Name, e.Key) {
				continue
			}
			b.r.PersonalTotal++
			size += len(e.Key) + len(e.Value) + len(e.Raw)
			if len(b.r.Personal) < maxPersonal && size <= maxPersonalBytes {
				b.r.Personal = append(b.r.Personal, Personal{Container: c.Name, Part: c.Part, Entry: e})
			}
		}
	}
	if b.r.PersonalTotal > len(b.r.Personal) {
		b.r.PersonalTruncated = true
	} else {
		b.r.PersonalTotal = 0 // only a capped list carries its total
	}
	return b.r
}

// clean sanitises one attacker-authored string for display: line breaks
// and tabs become spaces, other control and bidi characters go, and the
// result is cut to n runes with an ellipsis marking the cut.
func clean(s string, n int) string {
	if s == "" {
		return ""
	}
	// A rune is at most 4 bytes and few are dropped: a prefix of 8n bytes
	// holds the n runes kept, so a huge value costs no more than a long one.
	cut := false
	if len(s) > 8*n {
		i := 8 * n
		for i > 0 && !utf8.RuneStart(s[i]) {
			i-- // not inside a rune
		}
		s, cut = s[:i], true
	}
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s))
	out := report.UntrustedN(s, n)
	if cut || utf8.RuneCountInString(out) == n && utf8.RuneCountInString(s) > n {
		out += "…"
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
