package office

import (
	"encoding/binary"
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/doctrust/doctrust/engine/internal/cfb"
)

// A VBA project ([MS-OVBA]) is a storage holding a "dir" stream that lists
// the modules and a stream per module whose tail is the module source,
// compressed. The source is decompressed, bounded, only to read it for
// entry points and keywords; nothing is run.

// Limits of the VBA reader.
const (
	maxVBASource    = 2 << 20 // decompressed bytes of one module
	maxVBATotal     = 8 << 20 // decompressed bytes of one project
	maxVBAModules   = 512
	maxVBADirStream = 1 << 20
)

// vbaProject is what the reader learned from one project.
type vbaProject struct {
	modules    []string // module names (attacker-authored)
	autoExec   []string // entry points run on open or close, from vbaAutoExec
	keywords   []string // suspicious keywords, from vbaSuspicious
	damaged    bool     // the dir stream or a module could not be decompressed
	sourceRead bool     // at least one module's source was decompressed
}

// vbaDecompress expands an MS-OVBA compressed container (2.4.1). It stops
// at limit output bytes; ok is false when the container is malformed (the
// output so far is still returned).
func vbaDecompress(in []byte, limit int) (out []byte, ok bool) {
	if len(in) == 0 || in[0] != 1 {
		return nil, false
	}
	pos := 1
	for pos+2 <= len(in) {
		h := binary.LittleEndian.Uint16(in[pos:])
		size := int(h&0x0FFF) + 3
		compressed := h&0x8000 != 0
		if (h>>12)&7 != 3 {
			return out, false
		}
		end := min(pos+size, len(in))
		pos += 2
		chunkStart := len(out)
		if !compressed {
			n := min(4096, end-pos)
			if len(out)+n > limit {
				return out, true
			}
			out = append(out, in[pos:pos+n]...)
			pos = end
			continue
		}
		for pos < end {
			flags := in[pos]
			pos++
			for bit := 0; bit < 8 && pos < end; bit++ {
				if len(out) >= limit {
					return out, true
				}
				if flags&(1<<bit) == 0 {
					out = append(out, in[pos])
					pos++
					continue
				}
				if pos+2 > end {
					return out, false
				}
				tok := binary.LittleEndian.Uint16(in[pos:])
				pos += 2
				d := len(out) - chunkStart
				bits := 4
				for (1 << bits) < d {
					bits++
				}
				bits = min(bits, 12)
				lengthMask := uint16(0xFFFF) >> bits
				length := int(tok&lengthMask) + 3
				offset := int(tok>>(16-bits)) + 1
				src := len(out) - offset
				if offset > d || src < 0 {
					return out, false
				}
				for i := 0; i < length && len(out) < limit; i++ {
					out = append(out, out[src+i])
				}
			}
		}
		pos = end
	}
	return out, true
}

// vbaModuleRef is one module as the dir stream lists it.
type vbaModuleRef struct {
	name, stream string
	offset       uint32
}

// parseVBADir reads the decompressed dir stream's records (2.3.4.2).
// PROJECTVERSION is the one record whose size field does not count its
// payload.
func parseVBADir(d []byte) (mods []vbaModuleRef, ok bool) {
	var cur *vbaModuleRef
	for pos := 0; pos+6 <= len(d); {
		id := binary.LittleEndian.Uint16(d[pos:])
		size := int(binary.LittleEndian.Uint32(d[pos+2:]))
		pos += 6
		if id == 0x0009 {
			size = 6
		}
		if size < 0 || pos+size > len(d) {
			return mods, false
		}
		v := d[pos : pos+size]
		pos += size
		switch id {
		case 0x0019: // MODULENAME
			if len(mods) >= maxVBAModules {
				return mods, true
			}
			mods = append(mods, vbaModuleRef{name: latin1(v)})
			cur = &mods[len(mods)-1]
		case 0x0047: // MODULENAMEUNICODE
			if cur != nil {
				cur.name = utf16le(v)
			}
		case 0x001A: // MODULESTREAMNAME
			if cur != nil {
				cur.stream = latin1(v)
			}
		case 0x0032: // its Unicode form
			if cur != nil && len(v) > 0 {
				cur.stream = utf16le(v)
			}
		case 0x0031: // MODULEOFFSET
			if cur != nil && len(v) >= 4 {
				cur.offset = binary.LittleEndian.Uint32(v)
			}
		case 0x0010: // dir terminator
			return mods, true
		}
	}
	return mods, true
}

func latin1(b []byte) string {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

func utf16le(b []byte) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return strings.TrimRight(string(utf16.Decode(u)), "\x00")
}

// readVBAProjects finds every VBA project in a compound file (a storage
// named VBA holding a dir stream) and reads it.
func readVBAProjects(f *cfb.File) []vbaProject {
	if f == nil {
		return nil
	}
	var out []vbaProject
	for i := range f.Entries {
		e := &f.Entries[i]
		if e.Type != cfb.TypeStorage || !strings.EqualFold(e.Name, "VBA") {
			continue
		}
		var dir *cfb.Entry
		for _, c := range f.Children(i) {
			if c.Type == cfb.TypeStream && strings.EqualFold(c.Name, "dir") {
				dir = c
			}
		}
		if dir == nil {
			continue
		}
		out = append(out, readVBAProject(f, i, dir))
	}
	return out
}

func readVBAProject(f *cfb.File, storage int, dir *cfb.Entry) vbaProject {
	var p vbaProject
	streams := map[string]*cfb.Entry{}
	for _, c := range f.Children(storage) {
		if c.Type == cfb.TypeStream {
			streams[strings.ToLower(c.Name)] = c
		}
	}
	d, ok := vbaDecompress(f.Read(dir, maxVBADirStream), maxVBADirStream)
	mods, dirOK := parseVBADir(d)
	p.damaged = !ok || !dirOK
	if len(mods) == 0 {
		// No readable dir: the stream names are the best list there is.
		for name, s := range streams {
			if !vbaSystemStream(s.Name) {
				mods = append(mods, vbaModuleRef{name: name, stream: s.Name})
			}
		}
		sort.Slice(mods, func(i, j int) bool { return mods[i].name < mods[j].name })
	}
	auto, kw := map[string]bool{}, map[string]bool{}
	total := 0
	for _, m := range mods {
		p.modules = append(p.modules, m.name)
		s := streams[strings.ToLower(m.stream)]
		if s == nil || m.offset == 0 && m.stream == "" || total >= maxVBATotal {
			continue
		}
		raw := f.Read(s, 64<<20)
		if int64(m.offset) >= int64(len(raw)) {
			p.damaged = true
			continue
		}
		src, ok := vbaDecompress(raw[m.offset:], min(maxVBASource, maxVBATotal-total))
		total += len(src)
		if !ok {
			p.damaged = true
		}
		if len(src) > 0 {
			p.sourceRead = true
			scanVBASource(src, auto, kw)
		}
	}
	p.autoExec, p.keywords = sortedKeys(auto), sortedKeys(kw)
	return p
}

// vbaAutoExec are the procedure names Office runs without the user asking:
// on open, close or a new document (the part of olevba's AutoExec list that
// runs on its own; event handlers that need a user action are left out).
// Matching is by whole identifier, case-insensitively.
var vbaAutoExec = []string{
	"AutoExec", "AutoOpen", "DocumentOpen", "AutoExit", "AutoClose", "Document_Close",
	"DocumentBeforeClose", "DocumentChange", "AutoNew", "Document_New", "NewDocument",
	"Document_Open", "Document_BeforeClose", "Auto_Open", "Workbook_Open", "Workbook_Activate",
	"Auto_Close", "Workbook_Close", "Workbook_BeforeClose", "Workbook_Deactivate",
	"Presentation_Open", "App_WorkbookOpen", "InkPicture1_Painted",
}

// vbaSuspicious are the keywords of behaviour malware needs (running a
// program, writing or fetching a file, calling the Windows API, reaching
// into the VBA project, obfuscating strings), as olevba classifies them.
// Words too common in ordinary macros to mean anything alone (Open, Write,
// Chr, Call) are left out.
var vbaSuspicious = []string{
	"Shell", "WScript.Shell", "ShellExecute", "ShellExecuteA", "Shell.Application", "MacScript",
	"CreateObject", "GetObject", "CallByName", "Environ", "ExecuteExcel4Macro", "Application.Run",
	"SendKeys", "PowerShell", "cmd.exe", "CreateTextFile", "ADODB.Stream", "SaveToFile",
	"WriteText", "FileCopy", "CopyFile", "Kill", "URLDownloadToFile", "URLDownloadToFileA",
	"Microsoft.XMLHTTP", "MSXML2.XMLHTTP", "MSXML2.ServerXMLHTTP", "WinHttp.WinHttpRequest",
	"Net.WebClient", "DownloadFile", "DownloadString", "VirtualAlloc", "VirtualAllocEx",
	"RtlMoveMemory", "CreateThread", "CreateRemoteThread", "WriteProcessMemory", "EnumSystemCodePages",
	"Lib", "VBProject", "VBComponents", "CodeModule", "AddFromString", "StrReverse",
	"Base64", "Xor", "Scripting.FileSystemObject",
}

var (
	autoExecIndex   = keywordIndex(vbaAutoExec)
	suspiciousIndex = keywordIndex(vbaSuspicious)
)

func keywordIndex(list []string) map[string]string {
	m := make(map[string]string, len(list))
	for _, k := range list {
		m[strings.ToLower(k)] = k
	}
	return m
}

// scanVBASource collects the entry points declared (Sub/Function names)
// and the suspicious keywords used. Tokens are identifiers with dots, so
// "WScript.Shell" and "Shell" are both seen in CreateObject("WScript.Shell").
// Comments are skipped: a keyword in a comment runs nothing.
func scanVBASource(src []byte, auto, kw map[string]bool) {
	for _, line := range strings.Split(latin1(src), "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if strings.HasPrefix(line, "'") || strings.HasPrefix(strings.ToLower(line), "rem ") || strings.HasPrefix(line, "Attribute ") {
			continue
		}
		inString := false
		start := -1
		flush := func(end int) {
			if start < 0 {
				return
			}
			tok := strings.Trim(line[start:end], ".")
			start = -1
			if tok == "" {
				return
			}
			low := strings.ToLower(tok)
			if k, ok := suspiciousIndex[low]; ok {
				kw[k] = true
			}
			if k, ok := autoExecIndex[low]; ok && !inString {
				auto[k] = true
			}
			for _, part := range strings.Split(low, ".") {
				if k, ok := suspiciousIndex[part]; ok {
					kw[k] = true
				}
				if k, ok := autoExecIndex[part]; ok && !inString {
					auto[k] = true
				}
			}
		}
		for i := 0; i < len(line); i++ {
			c := line[i]
			ident := c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			switch {
			case ident:
				if start < 0 {
					start = i
				}
			default:
				flush(i)
				if c == '"' {
					inString = !inString
				}
				if c == '\'' && !inString {
					i = len(line)
				}
			}
		}
		flush(len(line))
	}
}

// mergeVBA folds several projects into one evidence view.
func mergeVBA(ps []vbaProject) (modules, auto, kw []string, damaged bool) {
	a, k := map[string]bool{}, map[string]bool{}
	for _, p := range ps {
		modules = append(modules, p.modules...)
		for _, x := range p.autoExec {
			a[x] = true
		}
		for _, x := range p.keywords {
			k[x] = true
		}
		damaged = damaged || p.damaged
	}
	return modules, sortedKeys(a), sortedKeys(k), damaged
}
