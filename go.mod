module github.com/doctrust/doctrust

go 1.26

require (
	github.com/google/uuid v1.6.0
	github.com/gowebpki/jcs v1.0.1
	github.com/pdfcpu/pdfcpu v0.15.0
)

require golang.org/x/image v0.44.0 // indirect
