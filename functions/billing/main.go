// Command billing is the Lambda function serving the billing routes
// (checkout, credit packs, billing portal, and Stripe's webhook) behind
// API Gateway.
package main

import "github.com/doctrust/doctrust/internal/lambdahttp"

func main() { lambdahttp.Start() }
