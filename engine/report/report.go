// Package report holds the InspectionReport contract of SPEC.md: the types every
// format analyser fills, the one family catalogue, the one English message
// catalogue, scoring and the sanitiser for attacker-authored strings.
//
// Everything here is pure and deterministic: no clock, no randomness, no
// mutable package state. Evidence maps are encoded with their keys sorted
// (json.go, as encoding/json does), so map iteration order never reaches the
// output.
package report

// EngineVersion is the contract level implemented. Scoring weights may change
// with it, so consumers pin it in their tests. Kept in this one constant.
const EngineVersion = "1.40.0"

// MediaType is the report's top-level media classification.
type MediaType string

const (
	MediaPDF    MediaType = "pdf"
	MediaOffice MediaType = "office"
	MediaImage  MediaType = "image"
)

// Report is the InspectionReport. Field order is the JSON key order, and
// Receipt must stay last (SPEC.md: receipt is the last key).
type Report struct {
	ID             string          `json:"id"`
	EngineVersion  string          `json:"engineVersion"`
	MediaType      MediaType       `json:"mediaType"`
	Summary        Summary         `json:"summary"`
	Signals        []Signal        `json:"signals"`
	Document       Document        `json:"document"`
	Image          *ImageBlock     `json:"image,omitempty"`
	Office         *OfficeBlock    `json:"office,omitempty"`
	IssuerBaseline *IssuerBaseline `json:"issuerBaseline,omitempty"`
	Policy         *PolicyBlock    `json:"policy,omitempty"`
	Triage         *TriageBlock    `json:"triage,omitempty"`
	Timing         *TimingBlock    `json:"timing,omitempty"`
	UsageCaution   UsageCaution    `json:"usageCaution"`
	Disclaimer     string          `json:"disclaimer"`
	Receipt        *Receipt        `json:"receipt,omitempty"`
}

// Summary is the headline of a report.
type Summary struct {
	RiskScore   int  `json:"riskScore"`
	RiskBand    Band `json:"riskBand"`
	SignalCount int  `json:"signalCount"`
	Revisions   int  `json:"revisions"`
	Cost        Cost `json:"cost"`
}

// Cost is what parsing the file cost, deterministically: the bytes read and
// the bytes produced by decompressing content, object and xref streams.
type Cost struct {
	PhysicalBytes  int64   `json:"physicalBytes"`
	ExpandedBytes  int64   `json:"expandedBytes"`
	ExpansionRatio float64 `json:"expansionRatio"`
}

// Document is the block of facts common to every media type. Text fields are
// nil when the file does not carry them (JSON null).
type Document struct {
	Pages        int     `json:"pages"`
	Producer     *string `json:"producer"`
	Creator      *string `json:"creator"`
	CreationDate *string `json:"creationDate"`
	ModDate      *string `json:"modDate"`
	Encrypted    bool    `json:"encrypted"`
	Signed       bool    `json:"signed"`
	Revisions    int     `json:"revisions"`
	SizeBytes    int64   `json:"sizeBytes"`
	// RevisionLengths (PDF only) is where each revision ends, oldest
	// first: the byte length of the file as that save left it, so the
	// first n bytes of the file are revision i as first written. The
	// dashboard renders those prefixes; at most MaxArray are listed
	// (revisions says how many there are).
	RevisionLengths []int64 `json:"revisionLengths,omitempty"`
	// Signatures lists a PDF's signatures and document timestamps in file
	// order with the integrity of each (issue 38), cut to MaxArray; absent
	// when there are none. SignaturesTotal counts them all.
	Signatures          []SignatureFact `json:"signatures,omitempty"`
	SignaturesTotal     int             `json:"signaturesTotal,omitempty"`
	SignaturesTruncated bool            `json:"signaturesTruncated,omitempty"`
}

// SignatureFact is one signature of the document block: what it is, which
// revision it vouches for and whether its digest and signature hold. The
// signer's common name is attacker-authored (report.Untrusted) and no
// trust verdict: nothing is checked against a trust list.
type SignatureFact struct {
	Kind      string `json:"kind"` // approval | certification | timestamp | usage-rights
	Revision  int    `json:"revision"`
	SubFilter string `json:"subFilter,omitempty"`
	// Integrity is verified, digest-mismatch, signature-invalid,
	// unsupported-algorithm or unreadable; IntegrityReason says why when
	// it is not verified.
	Integrity       string `json:"integrity"`
	IntegrityReason string `json:"integrityReason,omitempty"`
	SignerCN        string `json:"signerCN,omitempty"`
}

// ImageBlock is present when mediaType is image. Nil fields are facts the
// container walk could not establish.
type ImageBlock struct {
	Format             string   `json:"format"`
	Walked             bool     `json:"containerWalked"`
	Width              *int     `json:"width"`
	Height             *int     `json:"height"`
	CameraMake         *string  `json:"cameraMake"`
	CameraModel        *string  `json:"cameraModel"`
	MetadataContainers []string `json:"metadataContainers"`
	JPEGQuality        *int     `json:"jpegQuality"`
	Encoder            *string  `json:"encoder"`
	// ProvenanceManifest says where the C2PA manifest named by the XMP's
	// dcterms:provenance is: "embedded", "remote" or "missing" (named as
	// in the file but absent); nil when the XMP names none.
	ProvenanceManifest *string `json:"provenanceManifest"`
	// ProvenanceReference is that dcterms:provenance value (a URL for a
	// remote manifest, a self#jumbf= reference otherwise).
	ProvenanceReference *string `json:"provenanceReference"`
}

// OfficeBlock is present when mediaType is office.
type OfficeBlock struct {
	Format         string  `json:"format"`
	Application    *string `json:"application"`
	AppVersion     *string `json:"appVersion"`
	LastModifiedBy *string `json:"lastModifiedBy"`
	SaveCount      *int    `json:"saveCount"`
	EditingMinutes *int    `json:"editingMinutes"`
	PartCount      *int    `json:"partCount"`
	Macros         *bool   `json:"macros"`
}

// IssuerBaseline is the issuerBaseline block (filled by the baseline feature).
type IssuerBaseline struct {
	Requested            string   `json:"requested,omitempty"`
	Resolved             bool     `json:"resolved"`
	Reason               string   `json:"reason,omitempty"`
	Source               string   `json:"source,omitempty"`
	SampleCount          *int     `json:"sampleCount,omitempty"`
	MatchingActive       *bool    `json:"matchingActive,omitempty"`
	Divergence           *float64 `json:"divergence,omitempty"`
	MismatchedDimensions []string `json:"mismatchedDimensions,omitempty"`
}

// PolicyBlock echoes a caller-supplied verdict policy's outcome.
type PolicyBlock struct {
	Verdict     string     `json:"verdict"`
	RiskScore   int        `json:"riskScore"`
	Thresholds  Thresholds `json:"thresholds"`
	Reason      string     `json:"reason"`
	TriggeredBy []string   `json:"triggeredBy"`
}

// Thresholds are the policy's score cut-points.
type Thresholds struct {
	Review int `json:"review"`
	Reject int `json:"reject"`
}

// TriageBlock marks a triage-mode report.
type TriageBlock struct {
	ContentAnalysed    bool     `json:"contentAnalysed"`
	SuppressedFamilies []string `json:"suppressedFamilies"`
	Guidance           string   `json:"guidance"`
}

// TimingBlock is present only with ?timing=1.
type TimingBlock struct {
	ElapsedMs int64 `json:"elapsedMs"`
}

// UsageCaution is constant on every report, clean ones included.
type UsageCaution struct {
	SafeForAutomatedAdverseDecision bool   `json:"safeForAutomatedAdverseDecision"`
	Guidance                        string `json:"guidance"`
}

// Receipt is the signed envelope; see package engine/receipt.
type Receipt struct {
	Version       string `json:"version"`
	IssuedAt      string `json:"issuedAt"`
	EngineVersion string `json:"engineVersion"`
	ReportHash    string `json:"reportHash"`
	Redacted      bool   `json:"redacted"`
	Signature     string `json:"signature"`
}

// Disclaimer is the constant English disclaimer of every report.
const Disclaimer = "This report lists risk signals found in the file's structure and metadata. " +
	"It is not a verdict on authenticity or fraud: every signal can have a benign cause, " +
	"and a report without signals does not prove a document genuine."

// Caution is the constant usageCaution block.
var caution = UsageCaution{
	SafeForAutomatedAdverseDecision: false,
	Guidance: "Use these signals to prioritise human review. Do not reject, deny or penalise " +
		"anyone on this report alone; confirm with the issuer or the original source.",
}

// Caution returns the constant usageCaution block, for the other reports
// the service writes (comparison) to carry the same words.
func Caution() UsageCaution { return caution }

// New returns an empty report for a media type with the constant blocks set.
func New(media MediaType, sizeBytes int64) *Report {
	return &Report{
		EngineVersion: EngineVersion,
		MediaType:     media,
		Signals:       []Signal{},
		Document:      Document{SizeBytes: sizeBytes, Revisions: 1},
		Summary:       Summary{Revisions: 1, Cost: Cost{PhysicalBytes: sizeBytes}},
		UsageCaution:  caution,
		Disclaimer:    Disclaimer,
	}
}

// Str returns a pointer to s, or nil when s is empty, for the nullable text
// fields of the document block.
func Str(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
