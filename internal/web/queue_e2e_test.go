package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/config"
	"github.com/doctrust/doctrust/internal/plans"
)

// queueAnonLimit is the anonymous hourly allowance of the queue test's
// service: one built-in baseline inspection, a queue of three, then a
// queue of three of which only the first fits. queueBusinessQuota is the
// Business plan's monthly quota there (no buffer at that size): a keyed
// queue of four stops at the third.
const (
	queueAnonLimit     = 5
	queueBusinessQuota = 2
)

// TestInspectQueueInChromium: the inspect page's issuer field (built-in
// baselines anonymous, the account's own once signed in, an own baseline
// refused without a key and used with one), the baseline result drawn
// from the report, a queue of three files each reaching done and one
// opened with its report and pages, a queue stopped by the anonymous
// limit and a keyed one stopped by the account's quota, each with the
// server's message (e2e/inspect-queue.cjs). Each file's
// bytes reach the server in one inspect call only, however often its
// report is opened.
func TestInspectQueueInChromium(t *testing.T) {
	node, chromium, playwright := browserTools(t)
	seen := &requestLog{}
	base, svc := startRecorded(t, seen, map[string]string{"ANON_LIMIT_PER_HOUR": fmt.Sprint(queueAnonLimit),
		"BUSINESS_QUOTA": fmt.Sprint(queueBusinessQuota)})
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Five genuine statements of one issuer train the account's own
	// baseline, enough for matching; a sixth like them is inspected
	// against it.
	var samples [][]byte
	for i := 1; i <= 6; i++ {
		samples = append(samples, pdftest.OnePage(fmt.Sprintf("Acme Bank statement %d of 6", i)).Bytes())
	}
	email, password, key := trainedAccount(t, base, svc, "acme-bank", samples[:5])
	_, quotaKey := account(t, base, svc, "quota@example.com", plans.Business)
	var quotaFiles []string
	for i := 1; i <= 4; i++ {
		quotaFiles = append(quotaFiles, write(fmt.Sprintf("quota-%d.pdf", i), pdftest.OnePage(fmt.Sprintf("Invoice %d of 4", i)).Bytes()))
	}
	own := write("acme-statement-6.pdf", samples[5])
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	queue := []string{abs(genuineStatement), abs(forgedStatement), abs(rewrittenStatement)}
	limited := []string{abs("testdata/statement-resaved.pdf"), write("short-1.pdf", pdftest.OnePage("Receipt 1").Bytes()),
		write("short-2.pdf", pdftest.OnePage("Receipt 2").Bytes())}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "../../e2e/inspect-queue.cjs")
	sep := string(os.PathListSeparator)
	cmd.Env = append(os.Environ(), "BASE_URL="+base, "PLAYWRIGHT_CORE="+playwright, "CHROMIUM="+chromium,
		"TEAM_EMAIL="+email, "TEAM_PASSWORD="+password, "TEAM_KEY="+key, "OWN_ISSUER=acme-bank", "OWN_PDF="+own,
		"QUEUE_PDFS="+strings.Join(queue, sep), "LIMITED_PDFS="+strings.Join(limited, sep),
		"ANON_LIMIT="+fmt.Sprint(queueAnonLimit), "QUOTA_KEY="+quotaKey, "QUOTA_PDFS="+strings.Join(quotaFiles, sep))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "inspect-queue e2e: ok") {
		t.Fatalf("browser test failed: %v\n%s", err, out)
	}
	// The script inspects the genuine statement twice (alone with a
	// built-in issuer, then in the queue), and the forged statement, an
	// incremental update, carries it once more; every other file is sent
	// once, and the file a stopped queue did not send never reached the
	// server. The account's own statement is sent twice: with its
	// baseline, then with a slug no profile has.
	for _, c := range []struct {
		file string
		want int
	}{{queue[0], 3}, {queue[1], 1}, {queue[2], 1}, {limited[0], 1}, {limited[1], 1}, {limited[2], 0}, {own, 2},
		{quotaFiles[0], 1}, {quotaFiles[1], 1}, {quotaFiles[2], 1}, {quotaFiles[3], 0}} {
		b, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{}
		if c.want > 0 {
			want["POST /api/v1/inspect"] = c.want
		}
		if got := seen.carrying(b); !maps.Equal(got, want) {
			t.Errorf("requests carrying %s: %v, want %v", filepath.Base(c.file), got, want)
		}
	}
}

// trainedAccount signs an account up, puts it on the Team plan (as
// `doctrust admin plan` does) and trains issuer from docs through the
// baselines API with its session; it returns the login and the API key.
func trainedAccount(t *testing.T, base string, svc *config.Service, issuer string, docs [][]byte) (email, password, key string) {
	t.Helper()
	email, password = "queue@example.com", queuePassword
	c, key := account(t, base, svc, email, plans.Team)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("issuer", issuer)
	mw.WriteField("label", "Acme Bank statements")
	for i, d := range docs {
		w, _ := mw.CreateFormFile("file", fmt.Sprintf("sample-%d.pdf", i+1))
		w.Write(d)
	}
	mw.Close()
	req, _ := http.NewRequest("POST", base+"/api/v1/baselines", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var trained struct {
		FilesUsed int `json:"filesUsed"`
		Profile   struct {
			MatchingActive bool `json:"matchingActive"`
		} `json:"profile"`
	}
	err = json.NewDecoder(res.Body).Decode(&trained)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK || trained.FilesUsed != len(docs) || !trained.Profile.MatchingActive {
		t.Fatalf("training: %d %v %+v", res.StatusCode, err, trained)
	}
	return email, password, key
}

const queuePassword = "a long queue password"

// account signs email up, puts it on plan (as `doctrust admin plan`
// does) and returns a client holding its session and its API key.
func account(t *testing.T, base string, svc *config.Service, email, plan string) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	res, err := c.Post(base+"/api/v1/auth/signup", "application/json",
		strings.NewReader(`{"email":"`+email+`","password":"`+queuePassword+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	var signup struct {
		APIKey struct{ Plaintext string } `json:"apiKey"`
	}
	err = json.NewDecoder(res.Body).Decode(&signup)
	res.Body.Close()
	if err != nil || signup.APIKey.Plaintext == "" {
		t.Fatalf("signup: %d %v", res.StatusCode, err)
	}
	a, err := svc.HTTP.Accounts.Store.AccountByEmail(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Store.SetPlan(context.Background(), a.ID, plan); err != nil {
		t.Fatal(err)
	}
	return c, signup.APIKey.Plaintext
}
