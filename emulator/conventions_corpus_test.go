package emulator_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
)

// corpus is testdata/conventions_corpus.json: wrong writes and the right
// ones the rules must keep accepting, as raw DynamoDB requests.
type corpus struct {
	Config json.RawMessage `json:"config"`
	Design string          `json:"design"`
	Setup  []corpusRequest `json:"setup"`
	Wrong  []corpusCase    `json:"wrong"`
	Right  []corpusCase    `json:"right"`
}

type corpusCase struct {
	Name     string          `json:"name"`
	Issue    string          `json:"issue"`
	Expect   string          `json:"expect"` // refused, reported or accepted
	Tenant   string          `json:"tenant"` // the caller's x-tenant-code
	Requests []corpusRequest `json:"requests"`
}

type corpusRequest struct {
	Op   string          `json:"op"`
	Body json.RawMessage `json:"body"`
}

// corpusOutcome runs one case on a fresh emulator: "refused" when a
// request failed with a conventions error, else "reported" when the
// report holds violations, else "accepted"; and the items the refusal
// named (its "item ..." parts).
func corpusOutcome(t *testing.T, c *corpus, cfg conventions.Config, cs corpusCase) (string, int) {
	t.Helper()
	e, err := emulator.New(emulator.Options{Conventions: &cfg, SharedDB: true})
	require.NoError(t, err)
	require.NoError(t, e.Reports().SetDesign([]byte(c.Design)))
	do := func(r corpusRequest, tenant string) (int, string) {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(r.Body))
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+r.Op)
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDCORPUS/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
		if tenant != "" {
			req.Header.Set("X-Tenant-Code", tenant)
		}
		rec := httptest.NewRecorder()
		e.Handler().ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	for _, r := range c.Setup {
		code, body := do(r, "")
		require.Equal(t, http.StatusOK, code, "setup %s: %s", r.Op, body)
	}
	require.Zero(t, e.Reports().Conventions().Violations, "the setup breaks no rule")
	for _, r := range cs.Requests {
		code, body := do(r, cs.Tenant)
		if code == http.StatusOK {
			continue
		}
		require.Contains(t, body, "[conventions ", "%s: %s failed otherwise: %s", cs.Name, r.Op, body)
		return "refused", strings.Count(body, "(item ")
	}
	if e.Reports().Conventions().Violations > 0 {
		return "reported", 0
	}
	return "accepted", 0
}

// TestConventionsCorpus runs the corpus: every wrong write is refused
// (or, for the rules that warn, written and reported) and every right one
// accepted. Its log says the counts by the issue each case is about.
func TestConventionsCorpus(t *testing.T) {
	data, err := os.ReadFile("testdata/conventions_corpus.json")
	require.NoError(t, err)
	var c corpus
	require.NoError(t, json.Unmarshal(data, &c))
	cfg, err := conventions.ParseConfig(c.Config)
	require.NoError(t, err)

	counts := map[string]int{}
	named := 0
	for _, set := range []struct {
		name  string
		cases []corpusCase
	}{{"wrong", c.Wrong}, {"right", c.Right}} {
		for _, cs := range set.cases {
			got, items := corpusOutcome(t, &c, cfg, cs)
			t.Logf("%s\t%s\t%s\t%s", set.name, cs.Issue, got, cs.Name)
			require.Equal(t, cs.Expect, got, "%s: %s", set.name, cs.Name)
			counts[set.name+" "+got]++
			named += items
		}
	}
	t.Logf("corpus: %d wrong writes: %d refused, %d reported, %d accepted; %d right writes: %d accepted, %d refused; %d items named by the refusals",
		len(c.Wrong), counts["wrong refused"], counts["wrong reported"], counts["wrong accepted"],
		len(c.Right), counts["right accepted"], counts["right refused"], named)
}
