package file

import (
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/filters"
)

// objStm is a decoded object stream: its objects in declaration order.
type objStm struct {
	nums []int
	objs []cos.Object
}

// Resolve dereferences o in the newest view; non-references pass through.
func (f *File) Resolve(o cos.Object) cos.Object { return f.ResolveIn(o, 0) }

// ResolveIn dereferences o as revision rev saw the file (0: newest).
func (f *File) ResolveIn(o cos.Object, rev int) cos.Object {
	for depth := 0; depth < maxResolveDepth; depth++ {
		ref, ok := o.(cos.Ref)
		if !ok {
			return o
		}
		o = f.Object(ref.Num, rev)
	}
	return nil
}

// Object returns object num as revision rev saw it (0: newest), or nil.
func (f *File) Object(num int, rev int) cos.Object {
	e, ok := f.Lookup(num, rev)
	if !ok {
		return nil
	}
	return f.Load(e, rev)
}

// Load reads the object an entry points to. rev selects the view used to
// find the object stream of a compressed entry.
func (f *File) Load(e Entry, rev int) cos.Object {
	switch e.Kind {
	case InUse:
		return f.loadAt(int(e.Off), int(e.Num), rev)
	case Compressed:
		return f.loadCompressed(e, rev)
	}
	return nil
}

func (f *File) loadAt(off, num, rev int) cos.Object {
	if o, ok := f.objects[off]; ok {
		return o
	}
	if f.badOffset[off] {
		return f.fromScan(num, rev)
	}
	if f.Deadline() != nil {
		return nil
	}
	ind, err := f.parseAt(off)
	if err == cos.ErrNotObject && f.Header > 0 {
		ind, err = f.parseAt(off + f.Header)
	}
	if err == cos.ErrNotObject || (err == nil && ind.Num != num) {
		// The entry points to the wrong place: find the object by scanning.
		f.badOffset[off] = true
		f.Warn.EntriesRepaired++
		return f.fromScan(num, rev)
	}
	if err != nil {
		f.Warn.ObjectErrors++
	}
	f.objects[off] = f.decrypted(ind)
	return f.objects[off]
}

// decrypted deciphers an object read at its own offset in an opened file.
func (f *File) decrypted(ind cos.Indirect) cos.Object {
	if f.crypt == nil {
		return ind.Value
	}
	return f.crypt.object(ind.Value, ind.Num, ind.Gen)
}

// parser returns a parser over data at off that shares the file's scratch
// storage.
func (f *File) parser(data []byte, off int) *cos.Parser {
	p := cos.NewParser(data, off)
	p.Scratch = &f.scratch
	return p
}

func (f *File) parseAt(off int) (cos.Indirect, error) {
	p := f.parser(f.Data, off)
	p.EndstreamAt = f.endstreamAt
	p.Length = f.streamLength
	ind, err := p.IndirectAt(off)
	f.Warn.Anomalies += p.Anomalies
	return ind, err
}

// streamLength resolves an indirect /Length. It only follows direct
// integers, never another stream, so it cannot recurse.
func (f *File) streamLength(r cos.Ref) (int64, bool) {
	e, ok := f.Lookup(r.Num, 0)
	if !ok || e.Kind != InUse {
		return 0, false
	}
	p := f.parser(f.Data, int(e.Off))
	num, ok1 := p.ReadInt()
	_, ok2 := p.ReadInt()
	if !ok1 || !ok2 || int(num) != r.Num || string(p.Keyword()) != "obj" {
		return 0, false
	}
	return p.ReadInt()
}

// fromScan finds num's newest definition inside revision rev's bytes.
func (f *File) fromScan(num, rev int) cos.Object {
	idx := f.scan()
	limit := len(f.Data)
	if rev > 0 && rev <= len(f.Revisions) {
		limit = f.Revisions[rev-1].End
	}
	off := idx.latest(num, limit)
	if off < 0 {
		return nil
	}
	if o, ok := f.objects[off]; ok {
		return o
	}
	ind, err := f.parseAt(off)
	if err != nil && ind.Value == nil {
		f.Warn.ObjectErrors++
		return nil
	}
	f.objects[off] = f.decrypted(ind)
	return f.objects[off]
}

func (f *File) loadCompressed(e Entry, rev int) cos.Object {
	if f.Encrypted && f.crypt == nil {
		// Object streams of an encrypted file are encrypted: not readable
		// unless the empty password opened it.
		return nil
	}
	host, ok := f.Lookup(int(e.Off), rev)
	if !ok || host.Kind != InUse {
		return nil
	}
	os := f.objStm(host, rev)
	if os == nil || int(e.Index) >= len(os.objs) || e.Index < 0 {
		return nil
	}
	if os.nums[e.Index] != int(e.Num) {
		// The index is wrong; find the number in the stream instead.
		for i, n := range os.nums {
			if n == int(e.Num) {
				f.Warn.EntriesRepaired++
				return os.objs[i]
			}
		}
		return nil
	}
	return os.objs[e.Index]
}

// objStm decodes and parses the object stream an entry points to.
func (f *File) objStm(host Entry, rev int) *objStm {
	key := host.Off
	if os, ok := f.objstms[key]; ok {
		return os
	}
	if f.loading[key] {
		return nil // an object stream that needs itself
	}
	f.loading[key] = true
	defer delete(f.loading, key)
	st, ok := f.loadAt(int(host.Off), int(host.Num), rev).(*cos.Stream)
	if !ok || st.Dict.Name("Type") != "ObjStm" {
		f.objstms[key] = nil
		return nil
	}
	os := f.parseObjStm(st, rev)
	f.objstms[key] = os
	return os
}

func (f *File) parseObjStm(st *cos.Stream, rev int) *objStm {
	resolve := func(o cos.Object) cos.Object { return f.ResolveIn(o, rev) }
	data, err := filters.Decode(st.Raw(f.Data), st.Dict, resolve, f.Budget)
	if err != nil && len(data) == 0 {
		if err != filters.ErrBudget {
			f.Warn.StreamErrors++
		}
		return nil
	}
	n, _ := cos.AsInt(resolve(st.Dict.Get("N")))
	first, _ := cos.AsInt(resolve(st.Dict.Get("First")))
	if n <= 0 || n > maxObjStmObjects || first < 0 || first > int64(len(data)) {
		f.Warn.StreamErrors++
		return nil
	}
	p := f.parser(data, 0)
	os := &objStm{}
	offs := make([]int, 0, n)
	for i := int64(0); i < n; i++ {
		num, ok1 := p.ReadInt()
		off, ok2 := p.ReadInt()
		if !ok1 || !ok2 || num > 1<<31 {
			f.Warn.StreamErrors++
			break
		}
		os.nums = append(os.nums, int(num))
		offs = append(offs, int(first+off))
	}
	for _, off := range offs {
		if off > len(data) {
			os.objs = append(os.objs, nil)
			continue
		}
		q := f.parser(data, off)
		o, err := q.Object()
		f.Warn.Anomalies += q.Anomalies
		if err != nil && err != cos.ErrSyntax {
			f.Warn.ObjectErrors++
		}
		if _, isStream := o.(*cos.Stream); isStream {
			o = nil // streams are forbidden inside object streams
		}
		os.objs = append(os.objs, o)
	}
	return os
}
