package config

import (
	"fmt"
	"strconv"
	"strings"
)

// envRule is one variable of the local-run contract whose value has a
// shape: a value outside it would otherwise fall back to the default
// silently (PORT=abc serving on 8080).
type envRule struct {
	name string
	want string // what a valid value is, in the words of the message
	ok   func(string) bool
}

func intIn(lo, hi int) func(string) bool {
	return func(v string) bool {
		n, err := strconv.Atoi(v)
		return err == nil && n >= lo && n <= hi
	}
}

func oneOf(values ...string) func(string) bool {
	return func(v string) bool {
		for _, w := range values {
			if v == w {
				return true
			}
		}
		return false
	}
}

const maxInt = int(^uint(0) >> 1)

var envRules = []envRule{
	{"PORT", "a port number from 1 to 65535", intIn(1, 65535)},
	{"WORKERS", "a whole number of at least 1", intIn(1, 4096)},
	{"QUEUE", "a whole number of at least 0", intIn(0, maxInt)},
	{"MAX_UPLOAD_MB", "a whole number of megabytes of at least 1", intIn(1, 1<<20)},
	{"ANON_LIMIT_PER_HOUR", "a whole number of at least 1", intIn(1, maxInt)},
	{"TRUSTED_PROXY_HOPS", "a whole number of at least 0", intIn(0, 64)},
	{"BUSINESS_QUOTA", "a whole number of at least 1", intIn(1, maxInt)},
	{"CREDITS_SMALL_DOCUMENTS", "a whole number of at least 1", intIn(1, maxInt)},
	{"CREDITS_LARGE_DOCUMENTS", "a whole number of at least 1", intIn(1, maxInt)},
	{"STORE", `"embedded" or "dynamodb"`, oneOf("embedded", "dynamodb")},
	{"BILLING_ENABLED", `"true" or "false"`, oneOf("true", "false")},
}

// Check refuses environment values the service would otherwise read as
// their default: every invalid variable is named in one error, with what
// it holds and what it should hold. An unset or empty variable is valid
// (it means the default).
func Check(getenv func(string) string) error {
	var bad []string
	for _, r := range envRules {
		v := strings.TrimSpace(getenv(r.name))
		if v == "" || r.ok(v) {
			continue
		}
		bad = append(bad, fmt.Sprintf("%s=%q must be %s", r.name, getenv(r.name), r.want))
	}
	switch len(bad) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("invalid environment: %s", bad[0])
	}
	return fmt.Errorf("invalid environment:\n  %s", strings.Join(bad, "\n  "))
}
