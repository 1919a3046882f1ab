package xmp

import "bytes"

// ParseAll flattens the packets one file carries, in file order. JPEG
// extended-XMP chunks (a packet too large for one APP1 segment, split
// behind a GUID header) are joined in the order met and read as one more
// packet after the others.
func ParseAll(packets [][]byte) []*Packet {
	var out []*Packet
	var ext [][]byte
	for _, p := range packets {
		if extended(p) {
			ext = append(ext, p[40:])
			continue
		}
		out = append(out, Parse(p))
	}
	if len(ext) > 0 {
		out = append(out, Parse(bytes.Join(ext, nil)))
	}
	return out
}

// extended recognises a JPEG extended-XMP chunk: a 32-digit hex GUID, the
// full length and the chunk offset, then part of a packet.
func extended(p []byte) bool {
	if len(p) < 40 {
		return false
	}
	for _, c := range p[:32] {
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Values returns every value of a property across packets, in order, at
// most limit of them.
func Values(packets []*Packet, ns, name string, limit int) []string {
	var out []string
	for _, x := range packets {
		for _, p := range x.Props {
			if len(out) >= limit {
				return out
			}
			if p.NS == ns && p.Name == name && p.Value != "" {
				out = append(out, p.Value)
			}
		}
	}
	return out
}
