package paint

import (
	"strconv"
	"strings"
	"sync"
)

// encoding maps a one-byte code of a simple font to Unicode (0: none).
type encoding [256]rune

// ascii fills the printable ASCII range, common to the standard encodings.
func ascii() encoding {
	var e encoding
	for c := 0x20; c < 0x7f; c++ {
		e[c] = rune(c)
	}
	return e
}

// The encodings and glyph tables are built on first use, not at every
// process start.
var (
	standardEncoding = sync.OnceValue(func() encoding {
		e := ascii()
		e['\''], e['`'] = '\u2019', '\u2018'
		for c, r := range map[byte]rune{
			0xA1: '¡', 0xA2: '¢', 0xA3: '£', 0xA4: '⁄', 0xA5: '¥', 0xA6: 'ƒ', 0xA7: '§', 0xA8: '¤',
			0xA9: '\'', 0xAA: '“', 0xAB: '«', 0xAC: '‹', 0xAD: '›', 0xAE: 'ﬁ', 0xAF: 'ﬂ', 0xB1: '–',
			0xB2: '†', 0xB3: '‡', 0xB4: '·', 0xB6: '¶', 0xB7: '•', 0xB8: '‚', 0xB9: '„', 0xBA: '”',
			0xBB: '»', 0xBC: '…', 0xBD: '‰', 0xBF: '¿', 0xC1: '`', 0xC2: '´', 0xC3: 'ˆ', 0xC4: '˜',
			0xC5: '¯', 0xC6: '˘', 0xC7: '˙', 0xC8: '¨', 0xCA: '˚', 0xCB: '¸', 0xCD: '˝', 0xCE: '˛',
			0xCF: 'ˇ', 0xD0: '—', 0xE1: 'Æ', 0xE3: 'ª', 0xE8: 'Ł', 0xE9: 'Ø', 0xEA: 'Œ', 0xEB: 'º',
			0xF1: 'æ', 0xF5: 'ı', 0xF8: 'ł', 0xF9: 'ø', 0xFA: 'œ', 0xFB: 'ß',
		} {
			e[c] = r
		}
		return e
	})
	winAnsiEncoding = sync.OnceValue(func() encoding {
		e := ascii()
		for c := 0xA0; c <= 0xFF; c++ {
			e[c] = rune(c)
		}
		for i, r := range []rune("€\x00‚ƒ„…†‡ˆ‰Š‹Œ\x00Ž\x00\x00‘’“”•–—˜™š›œ\x00žŸ") {
			e[0x80+i] = r
		}
		return e
	})
	macRomanEncoding = sync.OnceValue(func() encoding {
		e := ascii()
		hi := []rune("ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π∫ªºΩæø" +
			"¿¡¬√ƒ≈∆«»…\u00a0ÀÃÕŒœ–—“”‘’÷◊ÿŸ⁄€‹›ﬁﬂ‡·‚„‰ÂÊÁËÈÍÎÏÌÓÔ\uf8ffÒÚÛÙıˆ˜¯˘˙˚¸˝˛ˇ")
		for i, r := range hi {
			e[0x80+i] = r
		}
		return e
	})
)

// namedEncoding returns a predefined simple-font encoding by name.
func namedEncoding(name string) (encoding, bool) {
	switch name {
	case "StandardEncoding":
		return standardEncoding(), true
	case "WinAnsiEncoding":
		return winAnsiEncoding(), true
	case "MacRomanEncoding", "MacExpertEncoding":
		return macRomanEncoding(), true
	}
	return encoding{}, false
}

// glyphNames holds the Adobe glyph names of ASCII and Latin-1 that are not
// single letters; letters map to themselves.
var glyphNames = sync.OnceValue(func() map[string]rune {
	return map[string]rune{
		"space": ' ', "exclam": '!', "quotedbl": '"', "numbersign": '#', "dollar": '$', "percent": '%',
		"ampersand": '&', "quotesingle": '\'', "quoteright": '’', "parenleft": '(', "parenright": ')',
		"asterisk": '*', "plus": '+', "comma": ',', "hyphen": '-', "minus": '−', "period": '.', "slash": '/',
		"zero": '0', "one": '1', "two": '2', "three": '3', "four": '4', "five": '5', "six": '6', "seven": '7',
		"eight": '8', "nine": '9', "colon": ':', "semicolon": ';', "less": '<', "equal": '=', "greater": '>',
		"question": '?', "at": '@', "bracketleft": '[', "backslash": '\\', "bracketright": ']',
		"asciicircum": '^', "underscore": '_', "grave": '`', "quoteleft": '‘', "braceleft": '{', "bar": '|',
		"braceright": '}', "asciitilde": '~', "bullet": '•', "endash": '–', "emdash": '—', "quotedblleft": '“',
		"quotedblright": '”', "quotesinglbase": '‚', "quotedblbase": '„', "ellipsis": '…', "Euro": '€',
		"trademark": '™', "copyright": '©', "registered": '®', "degree": '°', "section": '§', "paragraph": '¶',
		"sterling": '£', "yen": '¥', "cent": '¢', "currency": '¤', "fi": 'ﬁ', "fl": 'ﬂ', "nbspace": '\u00a0',
		"sfthyphen": '\u00ad', "periodcentered": '·', "multiply": '×', "divide": '÷', "plusminus": '±',
		"onehalf": '½', "onequarter": '¼', "threequarters": '¾', "germandbls": 'ß', "dagger": '†',
		"daggerdbl": '‡', "guillemotleft": '«', "guillemotright": '»', "exclamdown": '¡', "questiondown": '¿',
		"dotlessi": 'ı', "florin": 'ƒ', "perthousand": '‰', "fraction": '⁄', "mu": 'µ', "ordfeminine": 'ª',
		"ordmasculine": 'º', "brokenbar": '¦', "dieresis": '¨', "macron": '¯', "acute": '´', "cedilla": '¸',
		"logicalnot": '¬', "onesuperior": '¹', "twosuperior": '²', "threesuperior": '³',
	}
})

// latin1Accents gives accented letters by name suffix, for names such as
// "eacute" or "Udieresis".
// Each entry pairs base letters with the accented letters, position by
// position.
func latin1Accents(suffix string) (pair [2]string, ok bool) {
	switch suffix {
	case "grave":
		return [2]string{"AEIOUaeiou", "ÀÈÌÒÙàèìòù"}, true
	case "acute":
		return [2]string{"AEIOUYaeiouy", "ÁÉÍÓÚÝáéíóúý"}, true
	case "circumflex":
		return [2]string{"AEIOUaeiou", "ÂÊÎÔÛâêîôû"}, true
	case "tilde":
		return [2]string{"ANOano", "ÃÑÕãñõ"}, true
	case "dieresis":
		return [2]string{"AEIOUaeiouy", "ÄËÏÖÜäëïöüÿ"}, true
	case "ring":
		return [2]string{"Aa", "Åå"}, true
	case "cedilla":
		return [2]string{"Cc", "Çç"}, true
	}
	return pair, false
}

// glyphRune maps a glyph name to Unicode: Adobe names for ASCII and
// Latin-1, uniXXXX and uXXXX[XX] forms, suffixed variants ("one.tf").
func glyphRune(name string) rune {
	if i := strings.IndexAny(name, "._"); i > 0 {
		name = name[:i]
	}
	if len(name) == 1 && (name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z') {
		return rune(name[0])
	}
	if r, ok := glyphNames()[name]; ok {
		return r
	}
	if r, ok := hexGlyph(name, "uni", 4); ok {
		return r
	}
	if r, ok := hexGlyph(name, "u", 0); ok {
		return r
	}
	if len(name) > 1 {
		if pair, ok := latin1Accents(name[1:]); ok {
			if i := strings.IndexByte(pair[0], name[0]); i >= 0 {
				return []rune(pair[1])[i]
			}
		}
		switch name {
		case "AE":
			return 'Æ'
		case "ae":
			return 'æ'
		case "OE":
			return 'Œ'
		case "oe":
			return 'œ'
		case "Oslash":
			return 'Ø'
		case "oslash":
			return 'ø'
		}
	}
	return 0
}

// hexGlyph reads prefix followed by hex digits (exactly n when n > 0,
// else 4 to 6).
func hexGlyph(name, prefix string, n int) (rune, bool) {
	if !strings.HasPrefix(name, prefix) {
		return 0, false
	}
	h := name[len(prefix):]
	if n > 0 && len(h) >= n {
		h = h[:n]
	}
	if len(h) < 4 || len(h) > 6 {
		return 0, false
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil || v > 0x10FFFF {
		return 0, false
	}
	return rune(v), true
}
