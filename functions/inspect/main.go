// Command inspect is the Lambda function serving /api/v1/inspect,
// /api/v1/receipt/verify, /api/v1/health and /api/v1/openapi.json behind API Gateway.
package main

import "github.com/doctrust/doctrust/internal/lambdahttp"

func main() { lambdahttp.Start() }
