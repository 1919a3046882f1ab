package awsconf

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	for k, v := range map[string]string{"AWS_REGION": "", "AWS_DEFAULT_REGION": "", "AWS_PROFILE": "", "AWS_ACCESS_KEY_ID": "",
		"AWS_CONFIG_FILE": filepath.Join(dir, "config"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "credentials")} {
		t.Setenv(k, v)
	}
	none := func(string) string { return "" }
	if _, err := Load(t.Context(), "", "", none); !errors.Is(err, ErrNoRegion) {
		t.Fatalf("no region, no endpoint: %v", err)
	}
	cfg, err := Load(t.Context(), "", "http://127.0.0.1:1", none)
	if err != nil || cfg.Region != "us-east-1" {
		t.Fatalf("local endpoint: %v %q", err, cfg.Region)
	}
	creds, err := cfg.Credentials.Retrieve(t.Context())
	if err != nil || creds.AccessKeyID != "local" {
		t.Fatalf("local endpoint credentials: %v %q", err, creds.AccessKeyID)
	}
	if cfg, err := Load(t.Context(), "eu-west-1", "", none); err != nil || cfg.Region != "eu-west-1" {
		t.Fatalf("region given: %v %q", err, cfg.Region)
	}
}
