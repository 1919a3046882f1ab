// Command accounts is the Lambda function serving the account and session
// routes (signup, login, logout, verification, password reset, session,
// me, key rotation, usage) and the dashboard's pages behind API Gateway.
package main

import "github.com/doctrust/doctrust/internal/lambdahttp"

func main() { lambdahttp.Start() }
