module github.com/doctrust/doctrust

go 1.26

require (
	github.com/aws/aws-lambda-go v1.55.1
	github.com/awslabs/aws-lambda-go-api-proxy v0.16.2
	github.com/google/uuid v1.6.0
	github.com/gowebpki/jcs v1.0.1
	github.com/pdfcpu/pdfcpu v0.15.0
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/image v0.44.0 // indirect
