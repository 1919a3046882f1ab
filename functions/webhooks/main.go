// Command webhooks is the Lambda function an EventBridge schedule invokes
// every minute: it retries the supplier ledger's alert webhooks that are
// due (docs/ledger.md, "Webhook").
package main

import "github.com/doctrust/doctrust/internal/lambdasweep"

func main() { lambdasweep.Start() }
