package config

import (
	"path/filepath"
	"testing"
)

// TestDataDir: DATA_DIR, else the XDG data home (absolute only, as the
// base directory rules say), else ~/.local/share, else .data.
func TestDataDir(t *testing.T) {
	for _, c := range []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"DATA_DIR": "/srv/d", "XDG_DATA_HOME": "/x", "HOME": "/h"}, "/srv/d"},
		{map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/h"}, filepath.Join("/x", "doctrust")},
		{map[string]string{"XDG_DATA_HOME": "relative", "HOME": "/h"}, filepath.Join("/h", ".local", "share", "doctrust")},
		{map[string]string{"HOME": "/h"}, filepath.Join("/h", ".local", "share", "doctrust")},
		{map[string]string{}, ".data"},
	} {
		if got := DataDir(lookup(c.vars)); got != c.want {
			t.Errorf("%v: %q, want %q", c.vars, got, c.want)
		}
	}
	if got := StoreName(Local, lookup(map[string]string{"DATA_DIR": "/srv/d"})); got != "the embedded store /srv/d (DATA_DIR)" {
		t.Errorf("StoreName %q", got)
	}
	if got := StoreName(Local, lookup(map[string]string{"STORE": "dynamodb", "TABLE_PREFIX": "dt-", "DYNAMODB_ENDPOINT": "http://127.0.0.1:8000"})); got != "the DynamoDB tables prefixed dt- at http://127.0.0.1:8000" {
		t.Errorf("StoreName %q", got)
	}
}

func lookup(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}
