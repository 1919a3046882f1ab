package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/doctrust/doctrust/engine/receipt"
	"github.com/doctrust/doctrust/engine/report"
)

// Verify is `doctrust verify REPORT`: the check POST /api/v1/receipt/verify
// makes, on a report as `inspect` printed it (its receipt inside; "-"
// reads standard input), with the install's secret. It prints the API's
// answer and exits 0 valid, 5 not valid.
func Verify(secret func() ([]byte, error)) Command {
	return func(args []string, stdout, stderr io.Writer) int {
		if len(args) != 1 {
			fmt.Fprint(stderr, Usage)
			return exitUsage
		}
		var data []byte
		var err error
		if args[0] == "-" {
			data, err = io.ReadAll(Stdin)
		} else {
			data, err = os.ReadFile(args[0])
		}
		if err != nil {
			fmt.Fprintf(stderr, "doctrust: %v\n", err)
			return exitError
		}
		var r struct {
			Receipt *report.Receipt `json:"receipt"`
		}
		data = bytes.TrimSpace(data)
		if err := json.Unmarshal(data, &r); err != nil || len(data) == 0 || data[0] != '{' || r.Receipt == nil {
			fmt.Fprintf(stderr, "doctrust: %s is not a report with a receipt (the JSON `inspect` prints)\n", args[0])
			return exitUsage
		}
		key, err := secret()
		if err != nil {
			fmt.Fprintf(stderr, "doctrust: %v\n", err)
			return exitError
		}
		// The report is hashed as sent; its own receipt key is ignored.
		valid, reason := receipt.Verify(data, *r.Receipt, key)
		if valid {
			fmt.Fprintln(stdout, `{"valid":true}`)
			return 0
		}
		out, _ := json.Marshal(map[string]any{"valid": false, "reason": reason})
		fmt.Fprintf(stdout, "%s\n", out)
		return exitGate
	}
}
