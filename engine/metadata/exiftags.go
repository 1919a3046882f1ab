package metadata

import "sync"

// The one catalogue of EXIF, TIFF and GPS tags: each tag's name, its
// enumeration (value -> English) or its print conversion. Names and
// English values follow exiftool's tag tables (Image::ExifTool::Exif and
// ::GPS), so a listing reads like `exiftool -G1`. The translation key of
// an enumerated value is exif.<Name>.<stored value> (exif.Flash.16).
// Tags missing here are listed as Tag0x<hex> with their stored value.

// enum maps a stored value (decimal integer, or the string for GPS
// references) to its English text.
type enum map[string]string

// tagDef describes one tag. At most one of enum and print is set.
type tagDef struct {
	name  string
	enum  enum
	print printConv
}

// exifTags covers IFD0, IFD1, ExifIFD and InteropIFD, which share one tag
// space as in the TIFF and EXIF specifications.
// The tables are built on first use: a process that lists no EXIF (every
// `doctrust inspect` of a PDF) does not pay for them at start.
var (
	exifTags   = sync.OnceValue(newEXIFTags)
	gpsTags    = sync.OnceValue(newGPSTags)
	tagsByName = sync.OnceValue(newTagsByName)
)

func newEXIFTags() map[uint16]tagDef {
	return map[uint16]tagDef{
		// Interoperability IFD.
		0x0001: {name: "InteropIndex", enum: enum{"R03": "R03 - DCF option file (Adobe RGB)", "R98": "R98 - DCF basic file (sRGB)", "THM": "THM - DCF thumbnail file"}},
		0x0002: {name: "InteropVersion", print: printText},
		0x000b: {name: "ProcessingSoftware"},
		0x1000: {name: "RelatedImageFileFormat"},
		0x1001: {name: "RelatedImageWidth"},
		0x1002: {name: "RelatedImageHeight"},

		// TIFF baseline and extension tags (IFD0, IFD1, TIFF pages).
		0x00fe: {name: "SubfileType", enum: enum{"0": "Full-resolution image", "1": "Reduced-resolution image", "2": "Single page of multi-page image",
			"3": "Single page of multi-page reduced-resolution image", "4": "Transparency mask", "5": "Transparency mask of reduced-resolution image",
			"6": "Transparency mask of multi-page image", "7": "Transparency mask of reduced-resolution multi-page image", "8": "Depth map",
			"9": "Depth map of reduced-resolution image", "16": "Enhanced image data", "65537": "Alternate reduced-resolution image",
			"65540": "Semantic Mask", "4294967295": "invalid"}},
		0x00ff: {name: "OldSubfileType", enum: enum{"1": "Full-resolution image", "2": "Reduced-resolution image", "3": "Single page of multi-page image"}},
		0x0100: {name: "ImageWidth"},
		0x0101: {name: "ImageHeight"},
		0x0102: {name: "BitsPerSample"},
		0x0103: {name: "Compression", enum: enum{"1": "Uncompressed", "2": "CCITT 1D", "3": "T4/Group 3 Fax", "4": "T6/Group 4 Fax", "5": "LZW",
			"6": "JPEG (old-style)", "7": "JPEG", "8": "Adobe Deflate", "9": "JBIG B&W", "10": "JBIG Color", "99": "JPEG", "262": "Kodak 262",
			"32766": "Next", "32767": "Sony ARW Compressed", "32769": "Packed RAW", "32770": "Samsung SRW Compressed", "32771": "CCIRLEW",
			"32772": "Samsung SRW Compressed 2", "32773": "PackBits", "32809": "Thunderscan", "32867": "Kodak KDC Compressed",
			"32895": "IT8CTPAD", "32896": "IT8LW", "32897": "IT8MP", "32898": "IT8BL", "32908": "PixarFilm", "32909": "PixarLog",
			"32946": "Deflate", "32947": "DCS", "33003": "Aperio JPEG 2000 YCbCr", "33005": "Aperio JPEG 2000 RGB", "34661": "JBIG",
			"34676": "SGILog", "34677": "SGILog24", "34712": "JPEG 2000", "34713": "Nikon NEF Compressed", "34715": "JBIG2 TIFF FX",
			"34887": "ESRI Lerc", "34892": "Lossy JPEG", "34925": "LZMA2", "34926": "Zstd", "34927": "WebP", "34933": "PNG",
			"34934": "JPEG XR", "65000": "Kodak DCR Compressed", "65535": "Pentax PEF Compressed"}},
		0x0106: {name: "PhotometricInterpretation", enum: enum{"0": "WhiteIsZero", "1": "BlackIsZero", "2": "RGB", "3": "RGB Palette",
			"4": "Transparency Mask", "5": "CMYK", "6": "YCbCr", "8": "CIELab", "9": "ICCLab", "10": "ITULab", "32803": "Color Filter Array",
			"32844": "Pixar LogL", "32845": "Pixar LogLuv", "32892": "Sequential Color Filter", "34892": "Linear Raw", "51177": "Depth Map",
			"52527": "Semantic Mask"}},
		0x0107: {name: "Thresholding", enum: enum{"1": "No dithering or halftoning", "2": "Ordered dither or halftone", "3": "Randomized dither"}},
		0x0108: {name: "CellWidth"},
		0x0109: {name: "CellLength"},
		0x010a: {name: "FillOrder", enum: enum{"1": "Normal", "2": "Reversed"}},
		0x010d: {name: "DocumentName"},
		0x010e: {name: "ImageDescription"},
		0x010f: {name: "Make"},
		0x0110: {name: "Model"},
		0x0111: {name: "StripOffsets"},
		0x0112: {name: "Orientation", enum: enum{"1": "Horizontal (normal)", "2": "Mirror horizontal", "3": "Rotate 180", "4": "Mirror vertical",
			"5": "Mirror horizontal and rotate 270 CW", "6": "Rotate 90 CW", "7": "Mirror horizontal and rotate 90 CW", "8": "Rotate 270 CW"}},
		0x0115: {name: "SamplesPerPixel"},
		0x0116: {name: "RowsPerStrip"},
		0x0117: {name: "StripByteCounts"},
		0x0118: {name: "MinSampleValue"},
		0x0119: {name: "MaxSampleValue"},
		0x011a: {name: "XResolution"},
		0x011b: {name: "YResolution"},
		0x011c: {name: "PlanarConfiguration", enum: enum{"1": "Chunky", "2": "Planar"}},
		0x011d: {name: "PageName"},
		0x011e: {name: "XPosition"},
		0x011f: {name: "YPosition"},
		0x0128: {name: "ResolutionUnit", enum: resolutionUnit},
		0x0129: {name: "PageNumber"},
		0x012d: {name: "TransferFunction"},
		0x0131: {name: "Software"},
		0x0132: {name: "ModifyDate"},
		0x013b: {name: "Artist"},
		0x013c: {name: "HostComputer"},
		0x013d: {name: "Predictor", enum: enum{"1": "None", "2": "Horizontal differencing", "3": "Floating point",
			"34892": "Horizontal difference X2", "34893": "Horizontal difference X4", "34894": "Floating point X2", "34895": "Floating point X4"}},
		0x013e: {name: "WhitePoint"},
		0x013f: {name: "PrimaryChromaticities"},
		0x0140: {name: "ColorMap"},
		0x0142: {name: "TileWidth"},
		0x0143: {name: "TileLength"},
		0x0144: {name: "TileOffsets"},
		0x0145: {name: "TileByteCounts"},
		0x014a: {name: "SubIFD"},
		0x014c: {name: "InkSet", enum: enum{"1": "CMYK", "2": "Not CMYK"}},
		0x0152: {name: "ExtraSamples", enum: enum{"0": "Unspecified", "1": "Associated Alpha", "2": "Unassociated Alpha"}},
		0x0153: {name: "SampleFormat"},
		0x0201: {name: "ThumbnailOffset"},
		0x0202: {name: "ThumbnailLength"},
		0x0211: {name: "YCbCrCoefficients"},
		0x0212: {name: "YCbCrSubSampling", enum: enum{"1 1": "YCbCr4:4:4 (1 1)", "1 2": "YCbCr4:4:0 (1 2)", "1 4": "YCbCr4:4:1 (1 4)",
			"2 1": "YCbCr4:2:2 (2 1)", "2 2": "YCbCr4:2:0 (2 2)", "2 4": "YCbCr4:2:1 (2 4)", "4 1": "YCbCr4:1:1 (4 1)", "4 2": "YCbCr4:1:0 (4 2)"}},
		0x0213: {name: "YCbCrPositioning", enum: enum{"1": "Centered", "2": "Co-sited"}},
		0x0214: {name: "ReferenceBlackWhite"},
		0x02bc: {name: "ApplicationNotes"},
		0x4746: {name: "Rating"},
		0x4749: {name: "RatingPercent"},
		0x8298: {name: "Copyright"},
		0x830e: {name: "PixelScale"},
		0x8482: {name: "ModelTiePoint"},
		0x85d8: {name: "ModelTransform"},
		0x8649: {name: "PhotoshopSettings"},
		0x87af: {name: "GeoTiffDirectory"},
		0x87b0: {name: "GeoTiffDoubleParams"},
		0x87b1: {name: "GeoTiffAsciiParams"},
		0x83bb: {name: "IPTC-NAA"},
		0x8773: {name: "ICC_Profile"},
		0x9c9b: {name: "XPTitle", print: printUCS2},
		0x9c9c: {name: "XPComment", print: printUCS2},
		0x9c9d: {name: "XPAuthor", print: printUCS2},
		0x9c9e: {name: "XPKeywords", print: printUCS2},
		0x9c9f: {name: "XPSubject", print: printUCS2},
		0xc4a5: {name: "PrintIM"},
		0xea1c: {name: "Padding"},
		0xea1d: {name: "OffsetSchema"},

		// EXIF IFD.
		0x829a: {name: "ExposureTime", print: printExposureTime},
		0x829d: {name: "FNumber", print: printFNumber},
		0x8822: {name: "ExposureProgram", enum: enum{"0": "Not Defined", "1": "Manual", "2": "Program AE", "3": "Aperture-priority AE",
			"4": "Shutter speed priority AE", "5": "Creative (Slow speed)", "6": "Action (High speed)", "7": "Portrait", "8": "Landscape", "9": "Bulb"}},
		0x8824: {name: "SpectralSensitivity"},
		0x8827: {name: "ISO", print: printList(", ")},
		0x8828: {name: "Opto-ElectricConvFactor"},
		0x882a: {name: "TimeZoneOffset"},
		0x8830: {name: "SensitivityType", enum: enum{"0": "Unknown", "1": "Standard Output Sensitivity", "2": "Recommended Exposure Index",
			"3": "ISO Speed", "4": "Standard Output Sensitivity and Recommended Exposure Index", "5": "Standard Output Sensitivity and ISO Speed",
			"6": "Recommended Exposure Index and ISO Speed", "7": "Standard Output Sensitivity, Recommended Exposure Index and ISO Speed"}},
		0x8831: {name: "StandardOutputSensitivity"},
		0x8832: {name: "RecommendedExposureIndex"},
		0x8833: {name: "ISOSpeed"},
		0x8834: {name: "ISOSpeedLatitudeyyy"},
		0x8835: {name: "ISOSpeedLatitudezzz"},
		0x9000: {name: "ExifVersion", print: printText},
		0x9003: {name: "DateTimeOriginal"},
		0x9004: {name: "CreateDate"},
		0x9010: {name: "OffsetTime"},
		0x9011: {name: "OffsetTimeOriginal"},
		0x9012: {name: "OffsetTimeDigitized"},
		0x9101: {name: "ComponentsConfiguration", print: printComponents},
		0x9102: {name: "CompressedBitsPerPixel"},
		0x9201: {name: "ShutterSpeedValue", print: printShutterSpeed},
		0x9202: {name: "ApertureValue", print: printAperture},
		0x9203: {name: "BrightnessValue"},
		0x9204: {name: "ExposureCompensation", print: printFraction},
		0x9205: {name: "MaxApertureValue", print: printAperture},
		0x9206: {name: "SubjectDistance", print: printUnit(" m")},
		0x9207: {name: "MeteringMode", enum: enum{"0": "Unknown", "1": "Average", "2": "Center-weighted average", "3": "Spot", "4": "Multi-spot",
			"5": "Multi-segment", "6": "Partial", "255": "Other"}},
		0x9208: {name: "LightSource", enum: lightSource},
		0x9209: {name: "Flash", enum: enum{"0": "No Flash", "1": "Fired", "5": "Fired, Return not detected", "7": "Fired, Return detected",
			"8": "On, Did not fire", "9": "On, Fired", "13": "On, Return not detected", "15": "On, Return detected", "16": "Off, Did not fire",
			"20": "Off, Did not fire, Return not detected", "24": "Auto, Did not fire", "25": "Auto, Fired", "29": "Auto, Fired, Return not detected",
			"31": "Auto, Fired, Return detected", "32": "No flash function", "48": "Off, No flash function", "65": "Fired, Red-eye reduction",
			"69": "Fired, Red-eye reduction, Return not detected", "71": "Fired, Red-eye reduction, Return detected", "73": "On, Red-eye reduction",
			"77": "On, Red-eye reduction, Return not detected", "79": "On, Red-eye reduction, Return detected", "80": "Off, Red-eye reduction",
			"88": "Auto, Did not fire, Red-eye reduction", "89": "Auto, Fired, Red-eye reduction",
			"93": "Auto, Fired, Red-eye reduction, Return not detected", "95": "Auto, Fired, Red-eye reduction, Return detected"}},
		0x920a: {name: "FocalLength", print: printFocalLength},
		0x9214: {name: "SubjectArea"},
		0x927c: {name: "MakerNote"},
		0x9286: {name: "UserComment", print: printCharsetText},
		0x9290: {name: "SubSecTime"},
		0x9291: {name: "SubSecTimeOriginal"},
		0x9292: {name: "SubSecTimeDigitized"},
		0x9400: {name: "AmbientTemperature", print: printUnit(" C")},
		0x9401: {name: "Humidity"},
		0x9402: {name: "Pressure"},
		0x9403: {name: "WaterDepth"},
		0x9404: {name: "Acceleration"},
		0x9405: {name: "CameraElevationAngle"},
		0xa000: {name: "FlashpixVersion", print: printText},
		0xa001: {name: "ColorSpace", enum: enum{"1": "sRGB", "2": "Adobe RGB", "65533": "Wide Gamut RGB", "65534": "ICC Profile", "65535": "Uncalibrated"}},
		0xa002: {name: "ExifImageWidth"},
		0xa003: {name: "ExifImageHeight"},
		0xa004: {name: "RelatedSoundFile"},
		0xa20b: {name: "FlashEnergy"},
		0xa20c: {name: "SpatialFrequencyResponse"},
		0xa20e: {name: "FocalPlaneXResolution"},
		0xa20f: {name: "FocalPlaneYResolution"},
		0xa210: {name: "FocalPlaneResolutionUnit", enum: enum{"1": "None", "2": "inches", "3": "cm", "4": "mm", "5": "um"}},
		0xa214: {name: "SubjectLocation"},
		0xa215: {name: "ExposureIndex"},
		0xa217: {name: "SensingMethod", enum: enum{"1": "Not defined", "2": "One-chip color area", "3": "Two-chip color area",
			"4": "Three-chip color area", "5": "Color sequential area", "7": "Trilinear", "8": "Color sequential linear"}},
		0xa300: {name: "FileSource", enum: enum{"1": "Film Scanner", "2": "Reflection Print Scanner", "3": "Digital Camera",
			"3 0 0 0": "Sigma Digital Camera"}},
		0xa301: {name: "SceneType", enum: enum{"1": "Directly photographed"}},
		0xa302: {name: "CFAPattern", print: printCFAPattern},
		0xa401: {name: "CustomRendered", enum: enum{"0": "Normal", "1": "Custom", "2": "HDR (no original saved)", "3": "HDR (original saved)",
			"4": "Original (for HDR)", "6": "Panorama", "7": "Portrait HDR", "8": "Portrait"}},
		0xa402: {name: "ExposureMode", enum: enum{"0": "Auto", "1": "Manual", "2": "Auto bracket"}},
		0xa403: {name: "WhiteBalance", enum: enum{"0": "Auto", "1": "Manual"}},
		0xa404: {name: "DigitalZoomRatio"},
		0xa405: {name: "FocalLengthIn35mmFormat", print: printUnit(" mm")},
		0xa406: {name: "SceneCaptureType", enum: enum{"0": "Standard", "1": "Landscape", "2": "Portrait", "3": "Night", "4": "Other"}},
		0xa407: {name: "GainControl", enum: enum{"0": "None", "1": "Low gain up", "2": "High gain up", "3": "Low gain down", "4": "High gain down"}},
		0xa408: {name: "Contrast", enum: normalLowHigh},
		0xa409: {name: "Saturation", enum: normalLowHigh},
		0xa40a: {name: "Sharpness", enum: enum{"0": "Normal", "1": "Soft", "2": "Hard"}},
		0xa40b: {name: "DeviceSettingDescription"},
		0xa40c: {name: "SubjectDistanceRange", enum: enum{"0": "Unknown", "1": "Macro", "2": "Close", "3": "Distant"}},
		0xa420: {name: "ImageUniqueID"},
		0xa430: {name: "OwnerName"},
		0xa431: {name: "SerialNumber"},
		0xa432: {name: "LensInfo", print: printLensInfo},
		0xa433: {name: "LensMake"},
		0xa434: {name: "LensModel"},
		0xa435: {name: "LensSerialNumber"},
		0xa436: {name: "ImageTitle"},
		0xa437: {name: "Photographer"},
		0xa438: {name: "ImageEditor"},
		0xa439: {name: "CameraFirmware"},
		0xa43a: {name: "RAWDevelopingSoftware"},
		0xa43b: {name: "ImageEditingSoftware"},
		0xa43c: {name: "MetadataEditingSoftware"},
		0xa460: {name: "CompositeImage", enum: enum{"0": "Unknown", "1": "Not a Composite Image", "2": "General Composite Image",
			"3": "Composite Image Captured While Shooting"}},
		0xa461: {name: "CompositeImageCount"},
		0xa462: {name: "CompositeImageExposureTimes"},
		0xa500: {name: "Gamma"},
		0xc612: {name: "DNGVersion", print: printList(".")},
		0xc614: {name: "UniqueCameraModel"},
		0xc615: {name: "LocalizedCameraModel"},
		0xc62f: {name: "CameraSerialNumber"},
		0xc7a1: {name: "CameraLabel"},
	}
}

// gpsTags is the GPS IFD's own tag space.
func newGPSTags() map[uint16]tagDef {
	return map[uint16]tagDef{
		0x0000: {name: "GPSVersionID", print: printList(".")},
		0x0001: {name: "GPSLatitudeRef", enum: northSouth},
		0x0002: {name: "GPSLatitude", print: printDMS},
		0x0003: {name: "GPSLongitudeRef", enum: eastWest},
		0x0004: {name: "GPSLongitude", print: printDMS},
		0x0005: {name: "GPSAltitudeRef", enum: enum{"0": "Above Sea Level", "1": "Below Sea Level"}},
		0x0006: {name: "GPSAltitude", print: printUnit(" m")},
		0x0007: {name: "GPSTimeStamp", print: printTimeStamp},
		0x0008: {name: "GPSSatellites"},
		0x0009: {name: "GPSStatus", enum: enum{"A": "Measurement Active", "V": "Measurement Void"}},
		0x000a: {name: "GPSMeasureMode", enum: enum{"2": "2-Dimensional Measurement", "3": "3-Dimensional Measurement"}},
		0x000b: {name: "GPSDOP"},
		0x000c: {name: "GPSSpeedRef", enum: enum{"K": "km/h", "M": "mph", "N": "knots"}},
		0x000d: {name: "GPSSpeed"},
		0x000e: {name: "GPSTrackRef", enum: northRef},
		0x000f: {name: "GPSTrack"},
		0x0010: {name: "GPSImgDirectionRef", enum: northRef},
		0x0011: {name: "GPSImgDirection"},
		0x0012: {name: "GPSMapDatum"},
		0x0013: {name: "GPSDestLatitudeRef", enum: northSouth},
		0x0014: {name: "GPSDestLatitude", print: printDMS},
		0x0015: {name: "GPSDestLongitudeRef", enum: eastWest},
		0x0016: {name: "GPSDestLongitude", print: printDMS},
		0x0017: {name: "GPSDestBearingRef", enum: northRef},
		0x0018: {name: "GPSDestBearing"},
		0x0019: {name: "GPSDestDistanceRef", enum: enum{"K": "Kilometers", "M": "Miles", "N": "Nautical Miles"}},
		0x001a: {name: "GPSDestDistance"},
		0x001b: {name: "GPSProcessingMethod", print: printCharsetText},
		0x001c: {name: "GPSAreaInformation", print: printCharsetText},
		0x001d: {name: "GPSDateStamp"},
		0x001e: {name: "GPSDifferential", enum: enum{"0": "No Correction", "1": "Differential Corrected"}},
		0x001f: {name: "GPSHPositioningError", print: printUnit(" m")},
	}
}

// Enumerations shared by several tags.
var (
	resolutionUnit = enum{"1": "None", "2": "inches", "3": "cm"}
	normalLowHigh  = enum{"0": "Normal", "1": "Low", "2": "High"}
	northSouth     = enum{"N": "North", "S": "South"}
	eastWest       = enum{"E": "East", "W": "West"}
	northRef       = enum{"M": "Magnetic North", "T": "True North"}
	lightSource    = enum{"0": "Unknown", "1": "Daylight", "2": "Fluorescent", "3": "Tungsten (Incandescent)", "4": "Flash",
		"9": "Fine Weather", "10": "Cloudy", "11": "Shade", "12": "Daylight Fluorescent", "13": "Day White Fluorescent",
		"14": "Cool White Fluorescent", "15": "White Fluorescent", "16": "Warm White Fluorescent", "17": "Standard Light A",
		"18": "Standard Light B", "19": "Standard Light C", "20": "D55", "21": "D65", "22": "D75", "23": "D50",
		"24": "ISO Studio Tungsten", "255": "Other"}
)

// Pointer tags lead to directories that are listed as containers of their
// own; the offsets themselves are not metadata.
const (
	tagExifPointer    = 0x8769
	tagGPSPointer     = 0x8825
	tagInteropPointer = 0xa005
	tagXMPNotes       = 0x02bc
	tagIPTC           = 0x83bb
	tagICC            = 0x8773
	tagMakerNote      = 0x927c
	tagGPSLatRef      = 0x0001
	tagGPSLat         = 0x0002
	tagGPSLonRef      = 0x0003
	tagGPSLon         = 0x0004
)

// xmpEXIFNames maps the XMP names of the tiff: and exif: namespaces onto the
// table, where they differ from exiftool's EXIF names; the others are the
// same (Orientation, Flash, MeteringMode ...). An array, not a map literal
// built at every process start.
var xmpEXIFNames = [...][2]string{
	{"DateTimeOriginal", "DateTimeOriginal"},
	{"ExposureBiasValue", "ExposureCompensation"},
	{"PixelXDimension", "ExifImageWidth"},
	{"PixelYDimension", "ExifImageHeight"},
	{"ISOSpeedRatings", "ISO"},
	{"FocalLengthIn35mmFilm", "FocalLengthIn35mmFormat"},
	{"PhotographicSensitivity", "ISO"},
	{"BodySerialNumber", "SerialNumber"},
	{"CameraOwnerName", "OwnerName"},
	{"LensSpecification", "LensInfo"},
	{"SubjectDistanceRangeValue", "SubjectDistanceRange"},
}

// tagsByName indexes both tables by name; built once, never written after.
func newTagsByName() map[string]tagDef {
	m := map[string]tagDef{}
	for _, table := range []map[uint16]tagDef{exifTags(), gpsTags()} {
		for _, t := range table {
			m[t.name] = t
		}
	}
	return m
}

// tagByName finds a tag of either table by its exiftool name or its XMP
// name, for XMP properties that carry EXIF values.
func tagByName(name string) (tagDef, bool) {
	for _, n := range xmpEXIFNames {
		if n[0] == name {
			name = n[1]
			break
		}
	}
	t, ok := tagsByName()[name]
	return t, ok
}
