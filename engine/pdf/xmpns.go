package pdf

import "github.com/doctrust/doctrust/engine/xmp"

// The XMP namespaces the PDF families read (engine/xmp is the one reader).
const (
	nsPDF  = xmp.NSPDF
	nsXMP  = xmp.NSBasic
	nsMM   = xmp.NSMM
	nsEvt  = xmp.NSEvt
	nsMeta = xmp.NSMeta
)
