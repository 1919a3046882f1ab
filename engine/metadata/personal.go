package metadata

import "strings"

// personalName reports the keys that identify a person, a device or a place,
// by lower-case local name (the part after any namespace prefix and
// path): names and authors, editors, companies, owners, serial numbers,
// makes and models, software, and places. Every GPS key counts too.
func personalName(k string) bool {
	switch k {
	// people and organisations
	case "artist", "author", "authors", "creator", "contributor", "publisher", "lastmodifiedby",
		"lastauthor", "company", "manager", "owner", "ownername", "cameraownername", "xpauthor",
		"photographer", "imageeditor", "copyright", "rights", "credit", "captionwriter",
		"authorsposition", "creatorcontactinfo", "email":
		return true
	// devices
	case "make", "model", "serialnumber", "bodyserialnumber", "cameraserialnumber",
		"internalserialnumber", "lensserialnumber", "lensmake", "lensmodel", "lens", "uniquecameramodel",
		"localizedcameramodel", "cameralabel", "hostcomputer":
		return true
	// software
	case "software", "creatortool", "producer", "softwareagent", "application", "appversion",
		"processingsoftware", "camerafirmware", "rawdevelopingsoftware", "imageeditingsoftware",
		"metadataeditingsoftware", "xmptk":
		return true
	// places
	case "city", "state", "country", "countrycode", "countryname", "location", "sublocation",
		"provincestate", "worldregion", "locationcreated", "locationshown":
		return true
	}
	return false
}

// personalWords catch custom keys by a word they contain
// (_AuthorEmailDisplayName, OwnerPhone, LastModifiedByUser).
var personalWords = []string{"author", "email", "owner", "serial", "creator", "modifiedby", "company", "manager",
	"artist", "photographer", "address", "phone"}

// pngPersonal reports the PNG text keywords that name a person, a device or
// software (the PNG specification's Author, Software, Source and Copyright).
func pngPersonal(k string) bool {
	return k == "author" || k == "software" || k == "source" || k == "copyright"
}

// personal reports whether an entry identifies a person, a device or a
// place. Every entry of a GPS directory counts except its version.
func personal(container, key string) bool {
	k := strings.ToLower(key)
	if container == "PNG" {
		return pngPersonal(k)
	}
	if strings.Contains(k, "creatorcontactinfo") {
		return true
	}
	// The last path segment, without its array index, prefix or language.
	if i := strings.LastIndexByte(k, '/'); i >= 0 {
		k = k[i+1:]
	}
	if i := strings.IndexByte(k, '['); i >= 0 {
		k = k[:i]
	}
	if i := strings.LastIndexByte(k, ':'); i >= 0 {
		k = k[i+1:]
	}
	if i := strings.IndexByte(k, '-'); i >= 0 {
		k = k[:i]
	}
	if strings.HasPrefix(k, "gps") {
		return k != "gpsversionid"
	}
	if personalName(k) {
		return true
	}
	for _, w := range personalWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}
