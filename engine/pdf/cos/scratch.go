package cos

// Scratch is the working storage of parsing: the entries of the arrays
// and dictionaries being read gather on its stacks and are copied out at
// their exact size once complete, where appending to each container would
// grow it step by step; and short names are interned, since a file repeats
// a few dozen of them thousands of times. Parsers may share one in turn or
// nested (each container uses the stacks above where it found them), never
// concurrently.
type Scratch struct {
	elems []Object
	keys  []Name
	vals  []Object
	names map[string]Name
}

// Interning limits: a hostile file cannot grow the table without bound.
const (
	maxInternLen = 32
	maxInterned  = 4096
)

func (p *Parser) scratch() *Scratch {
	if p.Scratch == nil {
		p.Scratch = &Scratch{}
	}
	return p.Scratch
}

// set stores a dictionary entry above base, replacing an earlier value of
// the same key (as Dict.set); it reports a duplicate.
func (s *Scratch) set(base int, key Name, v Object) (dup bool) {
	for i := base; i < len(s.keys); i++ {
		if s.keys[i] == key {
			s.vals[i] = v
			return true
		}
	}
	s.keys = append(s.keys, key)
	s.vals = append(s.vals, v)
	return false
}

// intern returns b as a Name, the same string for the same short name.
func (s *Scratch) intern(b []byte) Name {
	if len(b) > maxInternLen {
		return Name(b)
	}
	if n, ok := s.names[string(b)]; ok {
		return n
	}
	n := Name(b)
	if s.names == nil {
		s.names = map[string]Name{}
	}
	if len(s.names) < maxInterned {
		s.names[string(n)] = n
	}
	return n
}
