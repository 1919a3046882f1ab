// Command ingest is the Lambda function the SES receipt rule invokes once
// its S3 action has stored a message for the supplier ledger
// (docs/ledger.md).
package main

import "github.com/doctrust/doctrust/internal/lambdases"

func main() { lambdases.Start() }
