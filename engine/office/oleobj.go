package office

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"io"
	"path"
	"strings"

	"github.com/doctrust/doctrust/engine/internal/cfb"
)

// Embedded and linked OLE objects of the binary formats: a Word
// ObjectPool storage, an Excel MBD storage, or a PowerPoint ExOleObjStg
// record (itself a compressed compound file). An object packaged by the
// Windows Packager carries a \x01Ole10Native stream naming the file it
// wraps. Nothing embedded is opened beyond these names.

// Limits of the object walk.
const (
	maxObjects       = 256
	maxOLEStorage    = 16 << 20 // decompressed bytes of one PowerPoint object
	maxPPTRecords    = 1 << 20
	maxPPTDepth      = 32
	maxNativeHeader  = 4096 // bytes of a \x01Ole10Native header read for names
	maxPPTStreamRead = 64 << 20
	maxPPTText       = 1 << 20 // text kept for Text
)

// oleObject is one embedded or linked object. File and Source are
// attacker-authored.
type oleObject struct {
	File       string // the packaged file's name (Ole10Native label)
	Source     string // its source path as packaged
	Ext        string // lower-case extension of File (or Source)
	Executable bool
	Linked     bool   // the \x01Ole stream says the object is a link
	Target     string // a linked object's source, as its moniker names it
	Equation   bool   // an Equation Editor 3.0 object
}

// equationCLSID is Equation Editor 3.0's class id as a directory entry
// stores it ({0002CE02-0000-0000-C000-000000000046}, little-endian
// fields): the component of the CVE-2017-11882 and CVE-2018-0802 exploits.
var equationCLSID = [16]byte{0x02, 0xCE, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}

// monikerTarget finds the source a link moniker names: the first run of
// printable characters, UTF-16 or 8-bit, that is a URL or a UNC or drive
// path. Monikers are nested structures; the names inside them are enough.
func monikerTarget(b []byte) string {
	for _, width := range []int{2, 1} {
		var run []rune
		flush := func() string {
			s := string(run)
			run = run[:0]
			if len(s) >= 6 && (strings.Contains(s, "://") || strings.HasPrefix(s, `\\`) || len(s) > 3 && s[1] == ':' && s[2] == '\\') {
				return s
			}
			return ""
		}
		for i := 0; i+width <= len(b); i += width {
			c := rune(b[i])
			if width == 2 {
				c = rune(binary.LittleEndian.Uint16(b[i:]))
			}
			if c >= 0x20 && c < 0x7F {
				run = append(run, c)
				continue
			}
			if s := flush(); s != "" {
				return s
			}
		}
		if s := flush(); s != "" {
			return s
		}
	}
	return ""
}

// executableExts are extensions Windows runs (or hands to a script host)
// on a double click: a packaged file with one is a program in disguise.
var executableExts = map[string]bool{
	"exe": true, "com": true, "scr": true, "pif": true, "bat": true, "cmd": true, "dll": true,
	"cpl": true, "msi": true, "msp": true, "vbs": true, "vbe": true, "js": true, "jse": true,
	"wsf": true, "wsh": true, "wsc": true, "hta": true, "ps1": true, "psm1": true, "jar": true,
	"lnk": true, "reg": true, "inf": true, "sct": true, "chm": true, "application": true,
	"gadget": true, "msc": true, "scf": true, "url": true, "iqy": true, "slk": true,
}

// parseOle10Native reads the packager header: total size, a flag word,
// then the label and source path as NUL-terminated strings, then a temp
// path after a small fixed header.
func parseOle10Native(b []byte) (file, source string) {
	if len(b) < 8 {
		return "", ""
	}
	b = b[4:min(len(b), maxNativeHeader)]
	b = b[2:]
	cstr := func() string {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			s := latin1(b)
			b = nil
			return s
		}
		s := cp1252(b[:i])
		b = b[i+1:]
		return s
	}
	file = cstr()
	source = cstr()
	return file, source
}

// objectFrom describes the object held by storage idx of f (the root for a
// PowerPoint object's own compound file).
func objectFrom(f *cfb.File, idx int) oleObject {
	var o oleObject
	for _, c := range f.Children(idx) {
		if c.Type != cfb.TypeStream {
			continue
		}
		switch c.Name {
		case "\x01Ole10Native":
			o.File, o.Source = parseOle10Native(f.Read(c, maxNativeHeader))
		case "\x01Ole":
			if b := f.Read(c, maxNativeHeader); len(b) >= 8 && binary.LittleEndian.Uint32(b[4:])&1 != 0 {
				o.Linked = true
				o.Target = monikerTarget(b[8:])
			}
		case "\x01CompObj":
			b := f.Read(c, maxNativeHeader)
			o.Equation = o.Equation || bytes.Contains(b, []byte("Equation.3")) || bytes.Contains(b, []byte("Microsoft Equation 3.0"))
		}
	}
	if idx >= 0 && idx < len(f.Entries) && f.Entries[idx].CLSID == equationCLSID {
		o.Equation = true
	}
	name := o.File
	if path.Ext(strings.ReplaceAll(name, `\`, "/")) == "" {
		name = o.Source
	}
	if e := path.Ext(strings.ReplaceAll(strings.TrimSpace(name), `\`, "/")); len(e) > 1 {
		o.Ext = strings.ToLower(e[1:])
	}
	o.Executable = executableExts[o.Ext]
	return o
}

// objectStorages lists the storages of a compound file that hold an OLE
// object: any storage with an \x01Ole, \x01Ole10Native, \x01CompObj or
// \x03ObjInfo stream, outside the VBA project and the encryption data.
func objectStorages(f *cfb.File) []int {
	skip := func(e *cfb.Entry) bool {
		for e != nil {
			switch strings.ToLower(e.Name) {
			case "macros", "_vba_project_cur", "vba", "\x06dataspaces", "msodatastore":
				return true
			}
			if e.Parent <= 0 {
				return false
			}
			e = &f.Entries[e.Parent]
		}
		return false
	}
	var out []int
	for i := range f.Entries {
		e := &f.Entries[i]
		if e.Type != cfb.TypeStorage || e.Path == "" || skip(e) {
			continue
		}
		for _, c := range f.Children(i) {
			switch c.Name {
			case "\x01Ole", "\x01Ole10Native", "\x01CompObj", "\x03ObjInfo":
				if len(out) < maxObjects {
					out = append(out, i)
				}
			default:
				continue
			}
			break
		}
	}
	return out
}

// pptScanResult is what the PowerPoint record walk found.
type pptScanResult struct {
	objects []oleObject
	vba     []vbaProject
	links   int // ExOleLinkAtom records
	hidden  int // slides whose SlideShowSlideInfoAtom sets fHidden
	// hiddenText is the drawing text of hidden slides, comments the
	// texts of slide comments, text all text atoms (for Text), each
	// attacker-authored and capped.
	hiddenText, comments []string
	text                 []byte
	damaged              bool // a record runs past its container
	limited              bool // an object was cut at a limit
	expanded             int64
}

// scanPPTRecords walks the "PowerPoint Document" stream's record tree
// ([MS-PPT] 2.3.1: an 8-byte header whose version 0xF marks a container)
// for embedded-object storages and OLE links. Each ExOleObjStg is a
// compound file, compressed when its instance is 1; a VBA project is one
// of them.
func scanPPTRecords(b []byte, budget int64) pptScanResult {
	var r pptScanResult
	records := 0
	type slideCtx struct {
		hidden bool
		text   []string
	}
	var slide *slideCtx
	inComment := 0
	var walk func(d []byte, depth int)
	walk = func(d []byte, depth int) {
		for pos := 0; pos+8 <= len(d); {
			if records >= maxPPTRecords {
				r.damaged = true
				return
			}
			records++
			verInst := binary.LittleEndian.Uint16(d[pos:])
			typ := binary.LittleEndian.Uint16(d[pos+2:])
			n := int(binary.LittleEndian.Uint32(d[pos+4:]))
			pos += 8
			if n < 0 || n > len(d)-pos {
				r.damaged = true
				n = len(d) - pos
			}
			body := d[pos : pos+n]
			pos += n
			switch {
			case verInst&0xF == 0xF && depth >= maxPPTDepth:
				r.damaged = true
			case verInst&0xF == 0xF && typ == 0x03EE: // SlideContainer
				outer := slide
				slide = &slideCtx{}
				walk(body, depth+1)
				if slide.hidden && len(r.hiddenText) < maxSnippets {
					r.hiddenText = append(r.hiddenText, slide.text...)
				}
				slide = outer
			case verInst&0xF == 0xF && typ == 0x2EE0: // Comment10Container
				inComment++
				walk(body, depth+1)
				inComment--
			case verInst&0xF == 0xF, typ == 0x138B:
				// BinaryTagDataBlob is an atom whose body is records: the
				// PowerPoint 2002 extension holding a slide's comments.
				walk(body, depth+1)
			case typ == 0x0FA0 || typ == 0x0FA8: // TextCharsAtom, TextBytesAtom
				t := latin1(body)
				if typ == 0x0FA0 {
					t = utf16le(body)
				}
				t = strings.TrimSpace(strings.ReplaceAll(t, "\r", "\n"))
				if t == "" {
					continue
				}
				if len(r.text) < maxPPTText {
					r.text = append(append(r.text, t...), '\n')
				}
				if slide != nil && len(slide.text) < maxSnippets {
					slide.text = append(slide.text, t)
				}
			case typ == 0x0FBA && inComment > 0 && verInst>>4 == 1: // CString: a comment's text
				if t := strings.TrimSpace(utf16le(body)); t != "" && len(r.comments) < maxSnippets {
					r.comments = append(r.comments, t)
				}
			case typ == 0x0FD1: // ExOleLinkAtom
				r.links++
			case typ == 0x03F9 && len(body) >= 12: // SlideShowSlideInfoAtom
				if binary.LittleEndian.Uint16(body[10:])&0x0004 != 0 {
					r.hidden++
					if slide != nil {
						slide.hidden = true
					}
				}
			case typ == 0x1011: // ExOleObjStg
				if len(r.objects)+len(r.vba) >= maxObjects {
					continue
				}
				stg := body
				if verInst>>4 == 1 {
					var cut bool
					stg, cut = inflateObject(body, min(budget-r.expanded, maxOLEStorage))
					r.limited = r.limited || cut
					r.expanded += int64(len(stg))
				}
				f := cfb.Open(stg, maxOLEStorage)
				if f == nil {
					r.damaged = r.damaged || len(stg) > 0
					continue
				}
				if ps := readVBAProjects(f); len(ps) > 0 {
					r.vba = append(r.vba, ps...)
					continue
				}
				// An empty storage (PowerPoint keeps some) holds no
				// object.
				if len(f.Streams()) > 0 {
					r.objects = append(r.objects, objectFrom(f, 0))
				}
			}
		}
	}
	walk(b, 0)
	return r
}

// inflateObject expands a compressed ExOleObjStg: the decompressed size,
// then a zlib stream. cut is true when the limit stopped it.
func inflateObject(b []byte, limit int64) (out []byte, cut bool) {
	if len(b) < 6 || limit <= 0 {
		return nil, limit <= 0
	}
	zr, err := zlib.NewReader(bytes.NewReader(b[4:]))
	if err != nil {
		return nil, false
	}
	defer zr.Close()
	out, _ = io.ReadAll(io.LimitReader(zr, limit+1))
	if int64(len(out)) > limit {
		return out[:limit], true
	}
	return out, false
}

// wordDDE counts field codes that start with DDE or DDEAUTO in a Word
// binary document's text, stored as 8-bit or UTF-16 characters in the
// WordDocument stream: a field begins with 0x13, then its code.
func wordDDE(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		if b[i] != 0x13 {
			continue
		}
		if fieldIsDDE(b[i+1:], 1) || i+1 < len(b) && b[i+1] == 0 && fieldIsDDE(b[i+2:], 2) {
			n++
		}
	}
	return n
}

// fieldIsDDE reads a field code's first word (characters width bytes
// wide, leading spaces skipped).
func fieldIsDDE(b []byte, width int) bool {
	var word []byte
	for i := 0; i+width <= len(b) && len(word) < 8; i += width {
		c := b[i]
		if width == 2 && b[i+1] != 0 {
			break
		}
		if c == ' ' && len(word) == 0 {
			continue
		}
		if c < 'A' || c > 'z' || c > 'Z' && c < 'a' {
			break
		}
		word = append(word, c|0x20)
	}
	w := string(word)
	return w == "dde" || w == "ddeauto"
}
