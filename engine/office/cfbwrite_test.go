package office

import (
	"encoding/binary"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/doctrust/doctrust/engine/internal/cfb"
)

// buildCFB writes a version 3 compound file (512-byte sectors) holding the
// given streams, keyed by path ("Macros/VBA/dir"); storages are created
// from the paths. Streams under 4096 bytes go to the mini stream, as the
// format requires. Siblings are chained through the right pointer only (a
// degenerate but valid tree).
func buildCFB(t testing.TB, streams map[string][]byte) []byte {
	t.Helper()
	type node struct {
		name     string
		typ      byte
		data     []byte
		children []int
		start    uint32
		size     int
	}
	nodes := []*node{{name: "Root Entry", typ: 5}}
	index := map[string]int{"": 0}
	paths := make([]string, 0, len(streams))
	for p := range streams {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		parts := strings.Split(p, "/")
		parent := 0
		for i := range parts {
			key := strings.Join(parts[:i+1], "/")
			id, ok := index[key]
			if !ok {
				typ := byte(1)
				if i == len(parts)-1 {
					typ = 2
				}
				nodes = append(nodes, &node{name: parts[i], typ: typ})
				id = len(nodes) - 1
				index[key] = id
				nodes[parent].children = append(nodes[parent].children, id)
			}
			parent = id
		}
		nodes[parent].data = streams[p]
	}
	// Mini stream: small streams in 64-byte sectors.
	var mini []byte
	var miniFAT []uint32
	var big [][]byte
	for _, n := range nodes[1:] {
		if n.typ != 2 {
			continue
		}
		n.size = len(n.data)
		if len(n.data) >= 4096 {
			big = append(big, n.data)
			continue
		}
		if len(n.data) == 0 {
			n.start = 0xFFFFFFFE
			continue
		}
		n.start = uint32(len(mini) / 64)
		k := (len(n.data) + 63) / 64
		for i := 0; i < k; i++ {
			if i == k-1 {
				miniFAT = append(miniFAT, 0xFFFFFFFE)
			} else {
				miniFAT = append(miniFAT, uint32(len(miniFAT)+1))
			}
		}
		buf := make([]byte, k*64)
		copy(buf, n.data)
		mini = append(mini, buf...)
	}
	// Regular sectors: FAT (one sector, up to 128 entries), directory,
	// mini FAT, mini stream, then the big streams.
	var sectors [][]byte
	var fat []uint32
	alloc := func(data []byte) uint32 {
		if len(data) == 0 {
			return 0xFFFFFFFE
		}
		start := uint32(len(sectors))
		k := (len(data) + 511) / 512
		for i := 0; i < k; i++ {
			s := make([]byte, 512)
			copy(s, data[i*512:])
			sectors = append(sectors, s)
			if i == k-1 {
				fat = append(fat, 0xFFFFFFFE)
			} else {
				fat = append(fat, uint32(len(fat)+1))
			}
		}
		return start
	}
	sectors = append(sectors, nil) // FAT placeholder
	fat = append(fat, 0xFFFFFFFD)
	dir := make([]byte, ((len(nodes)+3)/4)*512)
	dirStart := alloc(dir)
	mf := make([]byte, 4*len(miniFAT))
	for i, v := range miniFAT {
		binary.LittleEndian.PutUint32(mf[4*i:], v)
	}
	miniFATStart := alloc(mf)
	nodes[0].start = alloc(mini)
	nodes[0].size = len(mini)
	bi := 0
	for _, n := range nodes[1:] {
		if n.typ == 2 && len(n.data) >= 4096 {
			n.start = alloc(big[bi])
			bi++
		}
	}
	if len(fat) > 128 {
		t.Fatal("buildCFB: more than 128 sectors")
	}
	for i, n := range nodes {
		e := dir[i*128 : i*128+128]
		u := utf16.Encode([]rune(n.name))
		for j, c := range u {
			binary.LittleEndian.PutUint16(e[2*j:], c)
		}
		binary.LittleEndian.PutUint16(e[64:], uint16(2*len(u)+2))
		e[66] = n.typ
		binary.LittleEndian.PutUint32(e[116:], n.start)
		binary.LittleEndian.PutUint32(e[120:], uint32(n.size))
		for _, off := range []int{68, 72, 76} {
			binary.LittleEndian.PutUint32(e[off:], 0xFFFFFFFF)
		}
	}
	for i, n := range nodes {
		e := dir[i*128 : i*128+128]
		if len(n.children) > 0 {
			binary.LittleEndian.PutUint32(e[76:], uint32(n.children[0]))
			for k := 0; k+1 < len(n.children); k++ {
				c := dir[n.children[k]*128:]
				binary.LittleEndian.PutUint32(c[72:], uint32(n.children[k+1]))
			}
		}
	}
	// Rewrite the directory sectors now the entries are filled.
	for i := 0; i < len(dir)/512; i++ {
		copy(sectors[int(dirStart)+i], dir[i*512:])
	}
	fs := make([]byte, 512)
	for i := range 128 {
		v := uint32(0xFFFFFFFF)
		if i < len(fat) {
			v = fat[i]
		}
		binary.LittleEndian.PutUint32(fs[4*i:], v)
	}
	sectors[0] = fs
	h := make([]byte, 512)
	copy(h, cfbMagic)
	binary.LittleEndian.PutUint16(h[0x18:], 0x3E)
	binary.LittleEndian.PutUint16(h[0x1A:], 3)
	binary.LittleEndian.PutUint16(h[0x1C:], 0xFFFE)
	binary.LittleEndian.PutUint16(h[0x1E:], 9)
	binary.LittleEndian.PutUint16(h[0x20:], 6)
	binary.LittleEndian.PutUint32(h[0x2C:], 1)
	binary.LittleEndian.PutUint32(h[0x30:], dirStart)
	binary.LittleEndian.PutUint32(h[0x38:], 4096)
	binary.LittleEndian.PutUint32(h[0x3C:], miniFATStart)
	binary.LittleEndian.PutUint32(h[0x40:], uint32((len(mf)+511)/512))
	binary.LittleEndian.PutUint32(h[0x44:], 0xFFFFFFFE)
	for i := 0; i < 109; i++ {
		binary.LittleEndian.PutUint32(h[0x4C+4*i:], 0xFFFFFFFF)
	}
	binary.LittleEndian.PutUint32(h[0x4C:], 0)
	out := h
	for _, s := range sectors {
		out = append(out, s...)
	}
	return out
}

// vbaCompressLiteral writes an MS-OVBA compressed container using literal
// tokens only: valid, if not small.
func vbaCompressLiteral(src []byte) []byte {
	out := []byte{1}
	for len(src) > 0 {
		chunk := src[:min(4096, len(src))]
		src = src[len(chunk):]
		if len(chunk) == 4096 {
			// A full chunk stored raw: literal tokens would not fit
			// the 12-bit chunk size.
			out = binary.LittleEndian.AppendUint16(out, 4095|0x3000)
			out = append(out, chunk...)
			continue
		}
		var body []byte
		for i := 0; i < len(chunk); i += 8 {
			body = append(body, 0)
			body = append(body, chunk[i:min(i+8, len(chunk))]...)
		}
		h := uint16(len(body)+2-3) | 0x3000 | 0x8000
		out = binary.LittleEndian.AppendUint16(out, h)
		out = append(out, body...)
	}
	return out
}

// vbaDirStream builds a dir stream naming the modules, each at offset 0 of
// its stream.
func vbaDirStream(modules ...string) []byte {
	rec := func(b []byte, id uint16, v []byte) []byte {
		b = binary.LittleEndian.AppendUint16(b, id)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
		return append(b, v...)
	}
	var d []byte
	d = rec(d, 0x0001, []byte{1, 0, 0, 0})
	d = rec(d, 0x0003, []byte{0xE4, 0x04})
	d = binary.LittleEndian.AppendUint16(d, 0x0009)
	d = binary.LittleEndian.AppendUint32(d, 4)
	d = append(d, 0x5E, 0, 0, 0, 3, 0)
	d = rec(d, 0x000F, []byte{byte(len(modules)), 0})
	for _, m := range modules {
		d = rec(d, 0x0019, []byte(m))
		d = rec(d, 0x001A, []byte(m))
		d = rec(d, 0x0031, []byte{0, 0, 0, 0})
		d = rec(d, 0x0021, nil)
		d = rec(d, 0x002B, nil)
	}
	d = rec(d, 0x0010, nil)
	return vbaCompressLiteral(d)
}

// vbaStreams returns the streams of a VBA project under prefix ("Macros"
// for Word, "_VBA_PROJECT_CUR" for Excel, "" for a vbaProject.bin).
func vbaStreams(prefix string, modules map[string]string) map[string][]byte {
	p := prefix
	if p != "" {
		p += "/"
	}
	names := make([]string, 0, len(modules))
	for n := range modules {
		names = append(names, n)
	}
	sort.Strings(names)
	s := map[string][]byte{
		p + "PROJECT":          []byte("ID=\"{00000000-0000-0000-0000-000000000000}\"\r\n"),
		p + "VBA/_VBA_PROJECT": {0xCC, 0x61, 0xFF, 0xFF, 0},
		p + "VBA/dir":          vbaDirStream(names...),
	}
	for n, src := range modules {
		s[p+"VBA/"+n] = vbaCompressLiteral([]byte(src))
	}
	return s
}

func cfbOpen(b []byte) *cfb.File { return cfb.Open(b, 1<<30) }
