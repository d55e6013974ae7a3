package emulator_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// TestConventionsReportHTTP: the report over HTTP, one entry per distinct
// violation with its count, refusals, operation and times; DELETE empties
// it.
func TestConventionsReportHTTP(t *testing.T) {
	t1 := time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)
	now := t1
	env := newConvEnvClock(t, func() time.Time { return now })
	bad := commandItem(orderPK, orderSK, 1)
	bad["version"] = n("7")
	_ = env.put(cmdTable, bad, createCnd) // A3, refused
	now = now.Add(time.Minute)
	_ = env.put(cmdTable, bad, createCnd) // the same, counted
	upper := commandItem("ORDER#MBC", orderSK, 1)
	upper["tenantCode"] = s("MBC")
	env.mustPut(cmdTable, upper, createCnd) // A12, a warning

	srv := httptest.NewServer(env.e.Handler())
	defer srv.Close()
	type entry struct {
		Operation, Rule, Severity, Message string
		Key                                struct{ PK, SK string }
		Count, Refused                     uint64
		First, Last                        time.Time
	}
	type report struct {
		Violations, Errors, Warnings, Refused, Dropped uint64
		Tables                                         []struct {
			Table   string
			Counts  map[string]uint64
			Entries []entry
		}
	}
	get := func() report {
		t.Helper()
		res, err := http.Get(srv.URL + adminpath.Conventions)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var got report
		if err := json.NewDecoder(res.Body).Decode(&got); err != nil || res.StatusCode != 200 {
			t.Fatalf("GET report: %d, %v", res.StatusCode, err)
		}
		return got
	}
	got := get()
	if got.Violations != 3 || got.Errors != 2 || got.Warnings != 1 || got.Refused != 2 || len(got.Tables) != 1 {
		t.Fatalf("got %+v, want 3 violations (2 errors refused, 1 warning) in one table", got)
	}
	tr := got.Tables[0]
	if tr.Table != cmdTable || tr.Counts["A3"] != 2 || tr.Counts["A12"] != 1 || len(tr.Entries) != 2 {
		t.Fatalf("got %+v, want A3 twice and A12 once in two entries", tr)
	}
	if e := tr.Entries[0]; e.Rule != "A12" || e.Severity != "warn" || e.Refused != 0 {
		t.Errorf("most recent: got %+v, want the A12 warning", e)
	}
	want := entry{Operation: "PutItem", Rule: "A3", Severity: "error",
		Message: "command item version 7 differs from its sort key's version 1",
		Key:     struct{ PK, SK string }{orderPK, orderSK + "@1"}, Count: 2, Refused: 2,
		First: t1, Last: t1.Add(time.Minute)}
	if e := tr.Entries[1]; !reflect.DeepEqual(e, want) {
		t.Errorf("A3 entry: got %+v, want %+v", e, want)
	}

	req, _ := http.NewRequest(http.MethodDelete, srv.URL+adminpath.Conventions, nil)
	req.Header.Set("Content-Type", "application/json") // the admin endpoints' cross-site guard
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != `{"reset":true}` {
		t.Fatalf("DELETE: got %d %s", res.StatusCode, body)
	}
	if got := get(); got.Violations != 0 || len(got.Tables) != 0 {
		t.Fatalf("after reset: got %+v, want an empty report", got)
	}
	env.e.Reports().ResetConventions() // the embedding API, idempotent
	env.wantNoViolations()
}

// TestConventionsLogged: a violation is logged with its rule and key, and
// whether it refused the request.
func TestConventionsLogged(t *testing.T) {
	var buf strings.Builder
	e, err := emulator.New(emulator.Options{Conventions: convConfig(), Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	env := &convEnv{t: t, ctx: t.Context(), e: e, db: emulatortest.Client(t, e, accessKey)}
	if err := env.createTable(cmdTable, nil); err != nil {
		t.Fatal(err)
	}
	_ = env.put(cmdTable, commandItem(orderPK, orderSK, 1), "") // B6, refused
	upper := commandItem("ORDER#MBC", orderSK, 1)
	upper["tenantCode"] = s("MBC")
	env.mustPut(cmdTable, upper, createCnd) // A12, warned
	for _, want := range []string{`msg="conventions violation"`, "rule=B6", `sk=` + orderSK + `@1`, "refused=true", "op=PutItem",
		"rule=A12", "refused=false"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log %q lacks %q", buf.String(), want)
		}
	}
}
