package office

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHiddenDatesShownAsDates: a hidden row's date cells come back as the
// dates a reader saw, not Excel's serial numbers, from openpyxl's styles
// and from LibreOffice Calc's (scripts/fixtures/xldates/make.py).
func TestHiddenDatesShownAsDates(t *testing.T) {
	for _, name := range []string{"hidden-date-openpyxl.xlsx", "hidden-date-lo.xlsx"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "xldates", name))
			if err != nil {
				t.Fatal(err)
			}
			r := analyzeAny(t, data)
			var recovered string
			for _, s := range r.Signals {
				if s.ID == "office-hidden-content" {
					recovered, _ = s.Evidence["recovered"].(string)
				}
			}
			for _, want := range []string{"2025-05-04", "2025-05-04 14:05:00", "-950", "Transfer to J. Smith"} {
				if !strings.Contains(recovered, want) {
					t.Errorf("recovered %q lacks %q", recovered, want)
				}
			}
			if strings.Contains(recovered, "45781") {
				t.Errorf("a serial number is still shown: %q", recovered)
			}
		})
	}
}

func TestFormatKind(t *testing.T) {
	custom := map[int]string{164: "dd/mm/yyyy", 165: `"Invoice "0`, 166: "[h]:mm", 167: `#,##0.00\ "days"`, 168: "yyyy-mm-dd h:mm:ss",
		169: "[Red]#,##0.00", 170: "[$-409]mmmm d, yyyy", 171: "0.00E+00", 172: `_(* #,##0_)`}
	for id, want := range map[int]dateKind{0: notDate, 2: notDate, 14: dateOnly, 22: dateTime, 20: timeOnly, 49: notDate,
		164: dateOnly, 165: notDate, 166: timeOnly, 167: notDate, 168: dateTime, 169: notDate, 170: dateOnly, 171: notDate, 172: notDate, 999: notDate} {
		if got := formatKind(id, custom); got != want {
			t.Errorf("format %d (%q): %v, want %v", id, custom[id], got, want)
		}
	}
}

func TestSerialText(t *testing.T) {
	for _, c := range []struct {
		v    string
		kind dateKind
		d04  bool
		want string
	}{
		{"45781", dateOnly, false, "2025-05-04"},
		{"45781.5868055556", dateTime, false, "2025-05-04 14:05:00"},
		{"0.75", timeOnly, false, "18:00:00"},
		{"1", dateOnly, false, "1900-01-01"},
		{"59", dateOnly, false, "1900-02-28"},
		{"60", dateOnly, false, "1900-02-29"},
		{"61", dateOnly, false, "1900-03-01"},
		{"44319", dateOnly, true, "2025-05-04"},
	} {
		if got, ok := serialText(c.v, c.kind, c.d04); !ok || got != c.want {
			t.Errorf("serialText(%s) = %q %v, want %q", c.v, got, ok, c.want)
		}
	}
	for _, bad := range []string{"-1", "abc", "3000000", "NaN"} {
		if _, ok := serialText(bad, dateOnly, false); ok {
			t.Errorf("serialText(%q) accepted", bad)
		}
	}
}
