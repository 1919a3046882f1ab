package main

import "testing"

func TestClientFromEnv(t *testing.T) {
	c := clientFromEnv(func(string) string { return "" })
	if c.BaseURL != "http://127.0.0.1:8080" || c.APIKey != "" || c.MaxUpload != 10<<20 {
		t.Fatalf("defaults %+v", c)
	}
	env := map[string]string{"DOCTRUST_API_URL": "https://api.example", "DOCTRUST_API_KEY": "svc_x", "DOCTRUST_MAX_UPLOAD_MB": "4"}
	c = clientFromEnv(func(k string) string { return env[k] })
	if c.BaseURL != "https://api.example" || c.APIKey != "svc_x" || c.MaxUpload != 4<<20 {
		t.Fatalf("from env %+v", c)
	}
}
