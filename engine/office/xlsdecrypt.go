package office

import (
	"bytes"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha1"
	"encoding/binary"
)

// A .xls encrypted with RC4 ([MS-OFFCRYPTO] 2.3.6, and RC4 CryptoAPI 2.3.5)
// declares it in a FILEPASS record; the records after it are encrypted by
// stream position in 1024-byte blocks, each block with its own key. Only
// Excel's default password is tried.

// xlsKeyer derives the RC4 key of one 1024-byte block.
type xlsKeyer func(block uint32) []byte

// xlsRC4Keyer checks the default password against the FILEPASS record and
// returns the block keyer, or nil.
func xlsRC4Keyer(filepass []byte) xlsKeyer {
	if len(filepass) < 6 || binary.LittleEndian.Uint16(filepass) != 1 {
		return nil // XOR obfuscation is not tried
	}
	major := binary.LittleEndian.Uint16(filepass[2:])
	minor := binary.LittleEndian.Uint16(filepass[4:])
	pw := utf16Password(DefaultPassword)
	switch {
	case major == 1 && minor == 1:
		d := filepass[6:]
		if len(d) < 48 {
			return nil
		}
		salt, encVerifier, encHash := d[:16], d[16:32], d[32:48]
		h0 := md5.Sum(pw)
		var buf []byte
		for i := 0; i < 16; i++ {
			buf = append(buf, h0[:5]...)
			buf = append(buf, salt...)
		}
		h1 := md5.Sum(buf)
		keyer := func(block uint32) []byte {
			k := md5.Sum(binary.LittleEndian.AppendUint32(append([]byte{}, h1[:5]...), block))
			return k[:]
		}
		if !rc4Verify(keyer(0), encVerifier, encHash, func(v []byte) []byte { s := md5.Sum(v); return s[:] }) {
			return nil
		}
		return keyer
	case (major == 2 || major == 3 || major == 4) && minor == 2:
		d := filepass[6:]
		if len(d) < 8 {
			return nil
		}
		hdrSize := int(binary.LittleEndian.Uint32(d[4:]))
		if hdrSize < 32 || 8+hdrSize > len(d) {
			return nil
		}
		hdr := d[8 : 8+hdrSize]
		keyBits := int(binary.LittleEndian.Uint32(hdr[16:]))
		if keyBits == 0 {
			keyBits = 40
		}
		if keyBits < 40 || keyBits > 128 || keyBits%8 != 0 {
			return nil
		}
		v := d[8+hdrSize:]
		if len(v) < 4+16+16+4+20 || binary.LittleEndian.Uint32(v) != 16 {
			return nil
		}
		salt, encVerifier, encHash := v[4:20], v[20:36], v[40:60]
		h0 := sha1.Sum(append(append([]byte{}, salt...), pw...))
		keyer := func(block uint32) []byte {
			k := sha1.Sum(binary.LittleEndian.AppendUint32(append([]byte{}, h0[:]...), block))
			key := append([]byte{}, k[:keyBits/8]...)
			if keyBits == 40 {
				// 40-bit keys are padded to 128 bits with zeros.
				key = append(key, make([]byte, 11)...)
			}
			return key
		}
		if !rc4Verify(keyer(0), encVerifier, encHash, func(v []byte) []byte { s := sha1.Sum(v); return s[:] }) {
			return nil
		}
		return keyer
	}
	return nil
}

// rc4Verify decrypts the verifier and its hash with one RC4 stream and
// compares.
func rc4Verify(key, encVerifier, encHash []byte, sum func([]byte) []byte) bool {
	c, err := rc4.NewCipher(key)
	if err != nil {
		return false
	}
	v := make([]byte, len(encVerifier))
	c.XORKeyStream(v, encVerifier)
	h := make([]byte, len(encHash))
	c.XORKeyStream(h, encHash)
	want := sum(v)
	return bytes.Equal(want, h[:min(len(h), len(want))])
}

// xlsUnencrypted are the records whose data stays in the clear.
var xlsUnencrypted = map[uint16]bool{
	0x0809: true, 0x002F: true, 0x0194: true, 0x0195: true, 0x00E1: true, 0x0196: true, 0x0138: true,
}

// decryptXLS returns a copy of the workbook stream with the records after
// FILEPASS decrypted when the default password opens it; nil otherwise.
func decryptXLS(b []byte) []byte {
	var keyer xlsKeyer
	out := append([]byte(nil), b...)
	var block uint32 = 1<<32 - 1
	var stream [1024]byte
	key := func(pos int) byte {
		if blk := uint32(pos / 1024); blk != block {
			block = blk
			c, err := rc4.NewCipher(keyer(blk))
			if err != nil {
				return 0
			}
			for i := range stream {
				stream[i] = 0
			}
			c.XORKeyStream(stream[:], stream[:])
		}
		return stream[pos%1024]
	}
	for pos, n := 0, 0; pos+4 <= len(b) && n < maxBIFFRecords; n++ {
		typ := binary.LittleEndian.Uint16(b[pos:])
		size := int(binary.LittleEndian.Uint16(b[pos+2:]))
		start := pos + 4
		end := min(start+size, len(b))
		pos = start + size
		if keyer == nil {
			if typ == 0x002F {
				if keyer = xlsRC4Keyer(b[start:end]); keyer == nil {
					return nil
				}
			}
			continue
		}
		if xlsUnencrypted[typ] {
			continue
		}
		from := start
		if typ == 0x0085 {
			from += 4 // BOUNDSHEET's stream offset stays in the clear
		}
		for i := from; i < end; i++ {
			out[i] ^= key(i)
		}
	}
	if keyer == nil {
		return nil
	}
	return out
}
