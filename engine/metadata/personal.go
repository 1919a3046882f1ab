package metadata

import "strings"

// personalNames are the keys that identify a person, a device or a place,
// by lower-case local name (the part after any namespace prefix and
// path): names and authors, editors, companies, owners, serial numbers,
// makes and models, software, and places. Every GPS key counts too.
var personalNames = map[string]bool{
	// people and organisations
	"artist": true, "author": true, "authors": true, "creator": true, "contributor": true, "publisher": true,
	"lastmodifiedby": true, "lastauthor": true, "company": true, "manager": true, "owner": true,
	"ownername": true, "cameraownername": true, "xpauthor": true, "photographer": true, "imageeditor": true,
	"copyright": true, "rights": true, "credit": true, "captionwriter": true, "authorsposition": true,
	"creatorcontactinfo": true, "email": true,
	// devices
	"make": true, "model": true, "serialnumber": true, "bodyserialnumber": true, "cameraserialnumber": true,
	"internalserialnumber": true, "lensserialnumber": true, "lensmake": true, "lensmodel": true, "lens": true,
	"uniquecameramodel": true, "localizedcameramodel": true, "cameralabel": true, "hostcomputer": true,
	// software
	"software": true, "creatortool": true, "producer": true, "softwareagent": true, "application": true,
	"appversion": true, "processingsoftware": true, "camerafirmware": true, "rawdevelopingsoftware": true,
	"imageeditingsoftware": true, "metadataeditingsoftware": true, "xmptk": true,
	// places
	"city": true, "state": true, "country": true, "countrycode": true, "countryname": true, "location": true,
	"sublocation": true, "provincestate": true, "worldregion": true, "locationcreated": true, "locationshown": true,
}

// personalWords catch custom keys by a word they contain
// (_AuthorEmailDisplayName, OwnerPhone, LastModifiedByUser).
var personalWords = []string{"author", "email", "owner", "serial", "creator", "modifiedby", "company", "manager",
	"artist", "photographer", "address", "phone"}

// pngPersonal are the PNG text keywords that name a person, a device or
// software (the PNG specification's Author, Software, Source and Copyright).
var pngPersonal = map[string]bool{"author": true, "software": true, "source": true, "copyright": true}

// personal reports whether an entry identifies a person, a device or a
// place. Every entry of a GPS directory counts except its version.
func personal(container, key string) bool {
	k := strings.ToLower(key)
	if container == "PNG" {
		return pngPersonal[k]
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
	if personalNames[k] {
		return true
	}
	for _, w := range personalWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}
