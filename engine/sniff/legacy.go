package sniff

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"strings"

	"github.com/doctrust/doctrust/engine/internal/cfb"
)

// sniffCFB names the binary Office format of a compound file by the streams
// at its root. The directory walk is bounded by the cfb reader; no stream is
// read. A compound file holding an EncryptedPackage stream is Unknown: it
// is an encrypted OOXML package, whatever else it holds.
func sniffCFB(b []byte) Format {
	f := cfb.Open(b, 0)
	if f == nil {
		return Unknown
	}
	var word, xls, ppt bool
	for _, e := range f.Children(0) {
		if e.Type != cfb.TypeStream {
			continue
		}
		switch {
		case strings.EqualFold(e.Name, "EncryptedPackage"):
			// A password-protected OOXML package; some writers add a
			// WordDocument stream beside it saying so. The package is
			// what Office opens.
			return Unknown
		case strings.EqualFold(e.Name, "WordDocument"):
			word = true
		case strings.EqualFold(e.Name, "Workbook"), strings.EqualFold(e.Name, "Book"):
			xls = true
		case strings.EqualFold(e.Name, "PowerPoint Document"):
			ppt = true
		}
	}
	switch {
	case word:
		return DOC
	case xls:
		return XLS
	case ppt:
		return PPT
	}
	return Unknown
}

// odfMediaType maps an OpenDocument media type (templates included) to its
// format.
func odfMediaType(mt string) Format {
	mt = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(mt)), "-template")
	switch mt {
	case "application/vnd.oasis.opendocument.text":
		return ODT
	case "application/vnd.oasis.opendocument.spreadsheet":
		return ODS
	case "application/vnd.oasis.opendocument.presentation":
		return ODP
	}
	return Unknown
}

// sniffODF recognises an OpenDocument package: its mimetype entry, or when
// that is missing the media type the manifest gives the package root.
func sniffODF(b []byte) Format {
	if bytes.Count(b, []byte("PK\x01\x02")) > maxZipEntries {
		return Unknown
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil || zr == nil {
		return Unknown
	}
	var manifest *zip.File
	for i, f := range zr.File {
		if i >= maxZipEntries {
			break
		}
		switch partName(f.Name) {
		case "mimetype":
			rc, err := f.Open()
			if err != nil {
				continue
			}
			mt, _ := io.ReadAll(io.LimitReader(rc, 256))
			rc.Close()
			if fm := odfMediaType(string(mt)); fm != Unknown {
				return fm
			}
		case "META-INF/manifest.xml":
			manifest = f
		}
	}
	if manifest == nil {
		return Unknown
	}
	d, c, err := openPart(manifest)
	if err != nil {
		return Unknown
	}
	defer c.Close()
	for {
		tok, err := d.RawToken()
		if err != nil {
			return Unknown
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "file-entry" {
			continue
		}
		var full, mt string
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "full-path":
				full = a.Value
			case "media-type":
				mt = a.Value
			}
		}
		if strings.TrimSpace(full) == "/" {
			return odfMediaType(mt)
		}
	}
}
