package deploy

import (
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestSESDoorDeclared: the receipt rule stores messages where the ingest
// function reads them (bucket and prefix from its environment) and then
// invokes that function asynchronously; the bucket keeps nothing public
// and expires messages within a day; only SES of this account may write
// it and invoke the function; the function may read and delete the
// messages.
func TestSESDoorDeclared(t *testing.T) {
	res := resources(t)
	var fnName string
	for _, fn := range functions(t) {
		if fn.codeURI == "functions/ingest/" {
			fnName = fn.name
		}
	}
	if fnName == "" {
		t.Fatal("no function has CodeUri functions/ingest/")
	}
	props := get(get(res, fnName), "Properties")
	vars := get(get(props, "Environment"), "Variables")
	bucketRef, prefix := get(vars, "INGEST_BUCKET"), value(get(vars, "INGEST_PREFIX"))
	if bucketRef == nil || bucketRef.Tag != "!Ref" || value(get(get(res, bucketRef.Value), "Type")) != "AWS::S3::Bucket" || prefix == "" {
		t.Fatalf("ingest function: INGEST_BUCKET must !Ref a bucket and INGEST_PREFIX be set")
	}
	bucket := bucketRef.Value
	bprops := get(get(res, bucket), "Properties")
	for _, k := range []string{"BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets"} {
		if value(get(get(bprops, "PublicAccessBlockConfiguration"), k)) != "true" {
			t.Errorf("%s: %s is not true", bucket, k)
		}
	}
	expires := false
	for _, r := range get(get(bprops, "LifecycleConfiguration"), "Rules").Content {
		expires = expires || (value(get(r, "Status")) == "Enabled" && value(get(r, "ExpirationInDays")) == "1" && get(r, "Prefix") == nil && get(r, "Filter") == nil)
	}
	if !expires {
		t.Errorf("%s: no enabled lifecycle rule expires every object after 1 day", bucket)
	}

	var rule, sesWrite, invoke *yaml.Node
	for i := 0; i+1 < len(res.Content); i += 2 {
		r := res.Content[i+1]
		p := get(r, "Properties")
		switch value(get(r, "Type")) {
		case "AWS::SES::ReceiptRule":
			rule = get(p, "Rule")
		case "AWS::S3::BucketPolicy":
			if value(get(p, "Bucket")) != bucket {
				continue
			}
			for _, st := range get(get(p, "PolicyDocument"), "Statement").Content {
				if value(get(get(st, "Principal"), "Service")) == "ses.amazonaws.com" && value(get(st, "Action")) == "s3:PutObject" {
					sesWrite = st
				}
			}
		case "AWS::Lambda::Permission":
			if value(get(p, "Principal")) == "ses.amazonaws.com" && value(get(p, "FunctionName")) == fnName+".Arn" {
				invoke = p
			}
		}
	}
	if sesWrite == nil || get(get(get(sesWrite, "Condition"), "StringEquals"), "aws:SourceAccount") == nil {
		t.Errorf("%s's policy does not let SES put objects on the condition of aws:SourceAccount", bucket)
	} else if !strings.Contains(value(get(sesWrite, "Resource")), "/"+prefix+"*") {
		t.Errorf("SES may write %s, not only %s*", value(get(sesWrite, "Resource")), prefix)
	}
	if invoke == nil || value(get(invoke, "SourceAccount")) != "AWS::AccountId" {
		t.Errorf("no permission lets SES of this account invoke %s", fnName)
	}
	if rule == nil {
		t.Fatal("no AWS::SES::ReceiptRule")
	}
	var stored, invoked bool
	for _, a := range get(rule, "Actions").Content {
		if s3a := get(a, "S3Action"); s3a != nil {
			stored = value(get(s3a, "BucketName")) == bucket && value(get(s3a, "ObjectKeyPrefix")) == prefix && !invoked
		}
		if la := get(a, "LambdaAction"); la != nil {
			invoked = value(get(la, "FunctionArn")) == fnName+".Arn" && value(get(la, "InvocationType")) == "Event" && stored
		}
	}
	if !stored || !invoked {
		t.Errorf("the receipt rule must store into %s under %s, then invoke %s with InvocationType Event", bucket, prefix, fnName)
	}

	var actions []string
	for _, p := range get(props, "Policies").Content {
		if p.Kind != yaml.MappingNode {
			continue // a managed policy's !Ref
		}
		for _, st := range get(p, "Statement").Content {
			if strings.HasPrefix(value(get(st, "Resource")), "${"+bucket+".Arn}/"+prefix) {
				for _, a := range get(st, "Action").Content {
					actions = append(actions, a.Value)
				}
			}
		}
	}
	if !slices.Contains(actions, "s3:GetObject") || !slices.Contains(actions, "s3:DeleteObject") {
		t.Errorf("%s may not read and delete %s objects: %v", fnName, prefix, actions)
	}
}
