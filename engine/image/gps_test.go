package image

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
)

// TestLocationNeedsCoordinates: a GPS block says where an image was taken
// only when it holds coordinates. exiftool wrote the three files
// (scripts/fixtures/gps/make.sh): reference tags alone, coordinates of
// zero (a device without a fix), and a real position, the twin that keeps
// the signal.
func TestLocationNeedsCoordinates(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "gps", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	wantQuiet(t, analyze(t, read("gps-refs-only.jpg")), "image-location-present")
	wantQuiet(t, analyze(t, read("gps-zero.jpg")), "image-location-present")
	wantSignal(t, analyze(t, read("gps-located.jpg")), "image-location-present", "image-location-present.gps-present", report.Info)
}
