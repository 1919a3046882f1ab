package office

import (
	"encoding/binary"
	"testing"
	"unicode/utf16"
)

// cfbFixture builds a minimal compound file (512-byte sectors): sector 0 is
// the FAT, sectors 1 and 2 the directory chain, holding a root, a VBA
// storage, the project's bookkeeping streams and the named streams.
func cfbFixture(t testing.TB, streams ...string) []byte {
	t.Helper()
	type ent struct {
		name string
		typ  byte
	}
	ents := []ent{{"Root Entry", 5}, {"VBA", 1}, {"_VBA_PROJECT", 2}, {"dir", 2}}
	for _, s := range streams {
		ents = append(ents, ent{s, 2})
	}
	if len(ents) > 8 {
		t.Fatal("fixture holds at most 8 entries")
	}
	b := make([]byte, 512*4)
	copy(b, cfbMagic)
	binary.LittleEndian.PutUint16(b[0x1E:], 9)
	binary.LittleEndian.PutUint32(b[0x2C:], 1)          // FAT sectors
	binary.LittleEndian.PutUint32(b[0x30:], 1)          // first directory sector
	binary.LittleEndian.PutUint32(b[0x44:], 0xFFFFFFFE) // no DIFAT chain
	for i := 0; i < 109; i++ {
		binary.LittleEndian.PutUint32(b[0x4C+4*i:], 0xFFFFFFFF)
	}
	binary.LittleEndian.PutUint32(b[0x4C:], 0) // FAT in sector 0
	fat := b[512:1024]
	for i := 0; i < 128; i++ {
		binary.LittleEndian.PutUint32(fat[4*i:], 0xFFFFFFFF)
	}
	binary.LittleEndian.PutUint32(fat[0:], 0xFFFFFFFD)
	binary.LittleEndian.PutUint32(fat[4:], 2)
	binary.LittleEndian.PutUint32(fat[8:], 0xFFFFFFFE)
	for i, e := range ents {
		off := 1024 + i*128
		u := utf16.Encode([]rune(e.name))
		for j, c := range u {
			binary.LittleEndian.PutUint16(b[off+2*j:], c)
		}
		binary.LittleEndian.PutUint16(b[off+64:], uint16(2*len(u)+2))
		b[off+66] = e.typ
	}
	return b
}

func TestCFBDirectory(t *testing.T) {
	names := vbaModuleNames(cfbFixture(t, "Module1", "__SRP_0", "Sheet1"))
	if len(names) != 2 || names[0] != "Module1" || names[1] != "Sheet1" {
		t.Fatalf("modules %v", names)
	}
	if IsEncryptedPackage(cfbFixture(t, "Module1")) || !IsEncryptedPackage(cfbFixture(t, "EncryptedPackage")) {
		t.Fatal("IsEncryptedPackage")
	}
	// A FAT loop ends the walk.
	b := cfbFixture(t, "A")
	binary.LittleEndian.PutUint32(b[512+8:], 1)
	if n := len(cfbDirectory(b)); n == 0 || n > maxCFBEntries {
		t.Fatalf("entries %d", n)
	}
	for _, bad := range [][]byte{nil, cfbMagic, append(append([]byte{}, cfbMagic...), make([]byte, 600)...)} {
		_ = cfbDirectory(bad)
	}
}
