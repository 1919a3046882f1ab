package cli

import (
	"fmt"
	"time"
)

// progressLine is the batch's progress on a terminal's stderr: files done,
// of how many found ("+" while the folders are still being walked), the
// rate, and the time so far.
func progressLine(done, found int, walking bool, took time.Duration) string {
	of := fmt.Sprint(found)
	if walking {
		of += "+"
	}
	rate := 0.0
	if s := took.Seconds(); s > 0 {
		rate = float64(done) / s
	}
	return fmt.Sprintf("doctrust: %d of %s files, %.1f files/s, %.1f s", done, of, rate, took.Seconds())
}
