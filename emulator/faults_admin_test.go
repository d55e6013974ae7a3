package emulator_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// TestFaultsAdmin: the rules, stats, report, design and contributors
// endpoints over HTTP, behind the admin guard.
func TestFaultsAdmin(t *testing.T) {
	url, e, db := emulatortest.NewServerWith(t, emulator.Options{})
	faultTable(t, db, "tbl", 0, 0)
	do := func(method, path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
		if method != http.MethodGet {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	tests := []struct {
		method, path, body string
		status             int
		contains           string
	}{
		{"GET", adminpath.Faults, "", 200, `"rules": []`},
		{"PUT", adminpath.Faults, `{"seed":3,"rules":[{"name":"r1","table":"tbl","fault":"Throttling","count":1}]}`, 200, `"name": "r1"`},
		{"PUT", adminpath.Faults, `{"rules":[{"fault":"Nope"}]}`, 400, "ValidationException"},
		{"GET", adminpath.Faults, "", 200, `"seed": 3`},
		{"GET", adminpath.FaultStats, "", 200, `"matched":0`},
		{"POST", adminpath.Report + "/start", "{}", 200, `"reporting":true`},
		{"PUT", adminpath.Design, `{"design":"table tbl\nkey pk sk\n"}`, 200, `"design":true`},
		{"PUT", adminpath.Design, `{"design":"tabel tbl\n"}`, 400, "design:1"},
		{"PUT", adminpath.Design, `{}`, 400, "ValidationException"},
		{"GET", adminpath.Report, "", 200, `"reporting":true,"design":true`},
		{"GET", adminpath.Contributors, "", 400, "table is required"},
		{"GET", adminpath.Contributors + "?table=tbl&n=x", "", 400, "positive"},
		{"POST", adminpath.Lag, `{"table":"tbl","stream":true,"delay":"1s","hold":true}`, 400, "want"},
		{"POST", adminpath.Lag, `{"table":"tbl","stream":true,"hold":true}`, 400, "no enabled stream"},
		{"POST", adminpath.Lag, `{"table":"tbl","stream":true,"reads":true,"hold":true}`, 400, "want"},
		{"POST", adminpath.Lag, `{"table":"tbl","index":"nope","hold":true}`, 400, "no global secondary index"},
		{"POST", adminpath.Lag, `{"table":"tbl","reads":true,"delay":"250ms"}`, 200, `"lag":true`},
	}
	for _, tc := range tests {
		status, body := do(tc.method, tc.path, tc.body)
		if status != tc.status || !strings.Contains(body, tc.contains) {
			t.Errorf("%s %s %s: got %d %s, want %d with %q", tc.method, tc.path, tc.body, status, body, tc.status, tc.contains)
		}
	}
	// The rule fires once through the API; the stats and the report show it.
	_, err := db.PutItem(t.Context(), putInput("tbl", "a", "1"))
	if err == nil {
		t.Error("PutItem: want the injected ThrottlingException")
	}
	if _, err := db.PutItem(t.Context(), putInput("tbl", "a", "2")); err != nil {
		t.Errorf("PutItem after the rule's count: %v", err)
	}
	_, stats := do("GET", adminpath.FaultStats, "")
	var st struct {
		Injected map[string]int64
		Events   []struct{ Rule, Fault, Table, PartitionKey string }
	}
	if err := json.Unmarshal([]byte(stats), &st); err != nil || st.Injected["Throttling"] != 1 || len(st.Events) != 1 || st.Events[0].PartitionKey != "a" {
		t.Errorf("stats: got %s (%v)", stats, err)
	}
	_, text := do("GET", adminpath.Report+"?format=text", "")
	if !strings.Contains(text, "Access-pattern report since") || !strings.Contains(text, "Table tbl") {
		t.Errorf("text report: got %q", text)
	}
	// A state-changing call without JSON is refused by the admin guard.
	req, _ := http.NewRequest(http.MethodDelete, url+adminpath.Faults, nil)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("DELETE without Content-Type: got %v %v, want 415", res.StatusCode, err)
	}
	if status, _ := do("DELETE", adminpath.Faults, "{}"); status != 200 || e.Faults().Active() {
		t.Errorf("DELETE: got %d, rules still active %v", status, e.Faults().Active())
	}
	if status, _ := do("DELETE", adminpath.Report, "{}"); status != 200 {
		t.Errorf("DELETE report: %d", status)
	}
	if status, body := do("POST", adminpath.Report+"/stop", "{}"); status != 200 || !strings.Contains(body, "false") {
		t.Errorf("stop: %d %s", status, body)
	}
}

// putInput is a PutItem of a faultTable's item.
func putInput(table, pk, sk string) *dynamodb.PutItemInput {
	return &dynamodb.PutItemInput{TableName: aws.String(table), Item: item(pk, sk)}
}

// TestTextReportWhileCollectingNothing: the text report of a server that
// collects and has counted nothing says so instead of answering an empty
// page; once a request is counted it is the report.
func TestTextReportWhileCollectingNothing(t *testing.T) {
	url, _, db := emulatortest.NewServerWith(t, emulator.Options{})
	get := func() string {
		t.Helper()
		res, err := http.Get(url + adminpath.Report + "?format=text")
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode)
		return string(b)
	}
	require.Contains(t, get(), "not collecting")
	req, err := http.NewRequest(http.MethodPost, url+adminpath.Report+"/start", strings.NewReader("{}"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, get(), "collecting and has counted no request yet")

	faultTable(t, db, "tbl", 0, 0)
	_, err = db.PutItem(t.Context(), putInput("tbl", "a", "1"))
	require.NoError(t, err)
	text := get()
	require.NotContains(t, text, "no request yet")
	require.Contains(t, text, "Table tbl")
}
