package pdf

import "github.com/doctrust/doctrust/engine/pdf/cos"

// Optional content (PDF 32000 8.11) as a viewer first shows the document:
// the default configuration /OCProperties /D sets each group on or off
// (/BaseState, then /ON and /OFF), and its /AS entries for the View event
// apply the groups' /Usage /View /ViewState. Text in a group that is off
// extracts like any other but is never shown: the place print-only
// watermarks live, and hidden instructions too.

// maxOCGroups bounds the groups and membership entries read.
const maxOCGroups = 4096

// ocConfig is the default configuration: which groups are off.
type ocConfig struct {
	d       *Document
	baseOff bool
	off     map[int]bool // groups by object number: true off, false on
	memo    map[int]bool // OCMDs and groups evaluated
}

// optionalContent reads the default configuration; nil when the document
// declares no optional content.
func (d *Document) optionalContent() *ocConfig {
	props := d.dict(d.catalog.Get("OCProperties"))
	if props == nil {
		return nil
	}
	c := &ocConfig{d: d, off: map[int]bool{}, memo: map[int]bool{}}
	def := d.dict(props.Get("D"))
	if def == nil {
		return c
	}
	c.baseOff = def.Name("BaseState") == "OFF"
	setAll := func(key string, off bool) {
		arr, _ := d.resolve(def.Get(cos.Name(key))).(cos.Array)
		for i, o := range arr {
			if i >= maxOCGroups {
				break
			}
			if ref, ok := o.(cos.Ref); ok {
				c.off[ref.Num] = off
			}
		}
	}
	setAll("ON", false)
	setAll("OFF", true)
	c.autoState(def)
	return c
}

// autoState applies the /AS entries of the View event: a group whose usage
// says /View << /ViewState /OFF >> is off when viewed.
func (c *ocConfig) autoState(def *cos.Dict) {
	d := c.d
	as, _ := d.resolve(def.Get("AS")).(cos.Array)
	for i, o := range as {
		if i >= maxOCGroups {
			break
		}
		e := d.dict(o)
		if e == nil || e.Name("Event") != "View" || !nameIn(d.resolve(e.Get("Category")), "View") {
			continue
		}
		groups, _ := d.resolve(e.Get("OCGs")).(cos.Array)
		for j, g := range groups {
			if j >= maxOCGroups {
				break
			}
			ref, ok := g.(cos.Ref)
			if !ok {
				continue
			}
			view := d.dict(d.dict(d.dict(g).Get("Usage")).Get("View"))
			switch view.Name("ViewState") {
			case "OFF":
				c.off[ref.Num] = true
			case "ON":
				c.off[ref.Num] = false
			}
		}
	}
}

// nameIn reports a name, or an array of names holding it.
func nameIn(o cos.Object, want cos.Name) bool {
	switch v := o.(type) {
	case cos.Name:
		return v == want
	case cos.Array:
		for _, x := range v {
			if n, ok := x.(cos.Name); ok && n == want {
				return true
			}
		}
	}
	return false
}

// Off reports that the optional-content entry o (an OCG or OCMD, usually
// a reference) is off in the default configuration.
func (c *ocConfig) Off(o cos.Object) bool {
	if c == nil || o == nil {
		return false
	}
	ref, isRef := o.(cos.Ref)
	if isRef {
		if v, ok := c.memo[ref.Num]; ok {
			return v
		}
	}
	v := c.eval(o)
	if isRef && len(c.memo) < maxOCGroups {
		c.memo[ref.Num] = v
	}
	return v
}

// eval decides one entry: a group by the configuration, a membership
// dictionary by its policy over its groups (/VE expressions are not
// evaluated: such content counts as shown).
func (c *ocConfig) eval(o cos.Object) bool {
	dict := c.d.dict(o)
	if dict == nil {
		return false
	}
	if dict.Name("Type") == "OCMD" {
		var groups []cos.Object
		switch g := c.d.resolve(dict.Get("OCGs")).(type) {
		case cos.Array:
			groups = g
		case *cos.Dict:
			groups = []cos.Object{dict.Get("OCGs")}
		}
		if len(groups) == 0 {
			return false
		}
		on, offs := 0, 0
		for i, g := range groups {
			if i >= maxOCGroups {
				break
			}
			if c.groupOff(g) {
				offs++
			} else {
				on++
			}
		}
		switch dict.Name("P") {
		case "AllOn":
			return offs > 0
		case "AnyOff":
			return offs == 0
		case "AllOff":
			return on > 0
		default: // AnyOn
			return on == 0
		}
	}
	return c.groupOff(o)
}

// groupOff decides one group. A reference to something that is not a
// group (a freed object, a font) hides nothing: viewers show its content.
func (c *ocConfig) groupOff(o cos.Object) bool {
	g := c.d.dict(o)
	if g == nil || (g.Has("Type") && g.Name("Type") != "OCG") {
		return false
	}
	if ref, ok := o.(cos.Ref); ok {
		if v, ok := c.off[ref.Num]; ok {
			return v
		}
	}
	return c.baseOff
}
