// Command compare is the Lambda function serving /api/v1/compare behind
// API Gateway.
package main

import "github.com/doctrust/doctrust/internal/lambdahttp"

func main() { lambdahttp.Start() }
