package office

import (
	"bytes"
	"encoding/binary"
	"sort"
	"unicode/utf16"
)

// The Compound File Binary format ([MS-CFB]) holds a VBA project and an
// encrypted package. Only its directory is read here: names of storages and
// streams. No stream content is decoded and nothing is run.

var cfbMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// Limits of the directory walk, independent of what the header declares.
const (
	maxCFBSectors = 1 << 20 // FAT entries considered
	maxCFBEntries = 4096    // directory entries read
)

// cfbEntry is one directory entry. Name is attacker-authored.
type cfbEntry struct {
	Name string
	Type byte // 1 storage, 2 stream, 5 root
}

// IsCFB reports the compound-file signature.
func IsCFB(b []byte) bool { return bytes.HasPrefix(b, cfbMagic) }

// cfbDirectory returns the directory entries of a compound file, or nil
// when the header or the chains are unusable. Chains are followed with a
// step bound, so a FAT loop ends the walk instead of hanging it.
func cfbDirectory(b []byte) []cfbEntry {
	if len(b) < 512 || !IsCFB(b) {
		return nil
	}
	shift := binary.LittleEndian.Uint16(b[0x1E:])
	if shift != 9 && shift != 12 {
		return nil
	}
	size := 1 << shift
	nSectors := (len(b) - size) / size
	if nSectors <= 0 {
		return nil
	}
	sector := func(id uint32) []byte {
		if int64(id) >= int64(nSectors) {
			return nil
		}
		off := (int(id) + 1) * size
		return b[off : off+size]
	}
	// FAT sector ids: the 109 in the header, then the DIFAT chain.
	var fatIDs []uint32
	for i := 0; i < 109; i++ {
		id := binary.LittleEndian.Uint32(b[0x4C+4*i:])
		if id < 0xFFFFFFFA {
			fatIDs = append(fatIDs, id)
		}
	}
	difat := binary.LittleEndian.Uint32(b[0x44:])
	for steps := 0; difat < 0xFFFFFFFA && steps < nSectors; steps++ {
		s := sector(difat)
		if s == nil {
			break
		}
		for i := 0; i+4 < size; i += 4 {
			if id := binary.LittleEndian.Uint32(s[i:]); id < 0xFFFFFFFA {
				fatIDs = append(fatIDs, id)
			}
		}
		difat = binary.LittleEndian.Uint32(s[size-4:])
	}
	var fat []uint32
	for _, id := range fatIDs {
		s := sector(id)
		if s == nil || len(fat) >= maxCFBSectors {
			break
		}
		for i := 0; i < size; i += 4 {
			fat = append(fat, binary.LittleEndian.Uint32(s[i:]))
		}
	}
	var out []cfbEntry
	id := binary.LittleEndian.Uint32(b[0x30:])
	for steps := 0; id < 0xFFFFFFFA && steps < nSectors && len(out) < maxCFBEntries; steps++ {
		s := sector(id)
		if s == nil {
			break
		}
		for i := 0; i+128 <= size; i += 128 {
			e := s[i : i+128]
			typ := e[66]
			if typ == 0 {
				continue
			}
			n := int(binary.LittleEndian.Uint16(e[64:]))
			if n < 2 || n > 64 {
				continue
			}
			u := make([]uint16, 0, n/2-1)
			for j := 0; j+1 < n-2; j += 2 {
				u = append(u, binary.LittleEndian.Uint16(e[j:]))
			}
			out = append(out, cfbEntry{Name: string(utf16.Decode(u)), Type: typ})
		}
		if int(id) >= len(fat) {
			break
		}
		id = fat[id]
	}
	return out
}

// vbaModuleNames lists the stream names of a VBA project that are not the
// project's own bookkeeping: in practice the code modules. Sorted for
// determinism; the names are attacker-authored.
func vbaModuleNames(b []byte) []string {
	seen := map[string]bool{}
	for _, e := range cfbDirectory(b) {
		if e.Type != 2 || vbaSystemStream(e.Name) {
			continue
		}
		seen[e.Name] = true
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func vbaSystemStream(n string) bool {
	switch n {
	case "_VBA_PROJECT", "dir", "PROJECT", "PROJECTwm", "PROJECTlk", "\x01CompObj", "\x05SummaryInformation", "\x05DocumentSummaryInformation":
		return true
	}
	return len(n) > 6 && n[:6] == "__SRP_"
}

// IsEncryptedPackage reports a compound file holding an EncryptedPackage
// stream: how Office stores a password-protected docx, xlsx or pptx.
func IsEncryptedPackage(b []byte) bool {
	for _, e := range cfbDirectory(b) {
		if e.Type == 2 && e.Name == "EncryptedPackage" {
			return true
		}
	}
	return false
}
