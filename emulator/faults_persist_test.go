package emulator

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestPersistFaultsSnapshot: Contributor Insights' configuration is back
// after a restart from a snapshot (the log compacted away), as from the
// log; and a DeleteTable removes it from what is saved. The fault rules
// are the store's state, which no compaction touches.
func TestPersistFaultsSnapshot(t *testing.T) {
	for _, compact := range []bool{false, true} {
		name := "log"
		if compact {
			name = "snapshot"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			clock := testkit.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
			opts := Options{Clock: clock.Now}
			e := openPersisted(t, dir, opts)
			restart := func() {
				t.Helper()
				if compact {
					names, _ := e.store.Namespaces()
					for _, n := range names {
						if err := e.store.Compact(n); err != nil {
							t.Fatal(err)
						}
					}
				}
				if err := e.Close(); err != nil {
					t.Fatal(err)
				}
				e = openPersisted(t, dir, opts)
			}
			for _, tbl := range []string{"ci1", "ci2"} {
				mustDo(t, e, 200, "CreateTable", `{"TableName":"`+tbl+`","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`)
				mustDo(t, e, 200, "UpdateContributorInsights", `{"TableName":"`+tbl+`","ContributorInsightsAction":"ENABLE","ContributorInsightsMode":"THROTTLED_KEYS"}`)
			}
			if err := e.Faults().SetRules(3, []FaultRule{{Name: "r", Table: "ci1", Operations: []string{"DescribeTable"}, Fault: FaultInternalServerError}}); err != nil {
				t.Fatal(err)
			}
			clock.Advance(time.Minute)
			restart()
			for _, tbl := range []string{"ci1", "ci2"} {
				got := mustDo(t, e, 200, "DescribeContributorInsights", `{"TableName":"`+tbl+`"}`)
				if !strings.Contains(got, `"ContributorInsightsStatus":"ENABLED"`) || !strings.Contains(got, `"ContributorInsightsMode":"THROTTLED_KEYS"`) {
					t.Errorf("%s after a restart: got %s, want ENABLED THROTTLED_KEYS", tbl, got)
				}
			}
			if got := mustDo(t, e, 500, "DescribeTable", `{"TableName":"ci1"}`); testkit.ErrorType(got) != "InternalServerError" {
				t.Errorf("the rule after a restart: got %s", got)
			}
			e.Faults().Clear()
			mustDo(t, e, 200, "DeleteTable", `{"TableName":"ci2"}`)
			restart()
			mustDo(t, e, 200, "CreateTable", `{"TableName":"ci2","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`)
			restart()
			if got := mustDo(t, e, 200, "DescribeContributorInsights", `{"TableName":"ci2"}`); !strings.Contains(got, `"ContributorInsightsStatus":"DISABLED"`) {
				t.Errorf("a new table of a deleted one's name after restarts: got %s, want DISABLED", got)
			}
			if got := mustDo(t, e, 200, "DescribeContributorInsights", `{"TableName":"ci1"}`); !strings.Contains(got, `"ContributorInsightsStatus":"ENABLED"`) {
				t.Errorf("ci1 after restarts: got %s, want ENABLED", got)
			}
		})
	}
}

// TestPersistContributorInsightsConcurrent: Contributor Insights changed
// from several goroutines at once (and tables deleted meanwhile) come
// back after a restart as they were last: the saves are serialized, the
// last one saved is the latest.
func TestPersistContributorInsightsConcurrent(t *testing.T) {
	dir := t.TempDir()
	clock := testkit.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	opts := Options{Clock: clock.Now}
	e := openPersisted(t, dir, opts)
	tables := []string{"cc0", "cc1", "cc2", "cc3"}
	for _, tbl := range tables {
		mustDo(t, e, 200, "CreateTable", `{"TableName":"`+tbl+`","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				tbl := tables[(g+i)%len(tables)]
				action := []string{"ENABLE", "DISABLE"}[(g*7+i)%2]
				res, out := do(t, e, "DynamoDB_20120810.UpdateContributorInsights", testkit.DefaultAuth,
					`{"TableName":"`+tbl+`","ContributorInsightsAction":"`+action+`"}`)
				if res.StatusCode != 200 && testkit.ErrorType(out) != "ResourceNotFoundException" {
					t.Errorf("UpdateContributorInsights: %d %s", res.StatusCode, out)
				}
				if g == 0 && i == 10 {
					mustDo(t, e, 200, "DeleteTable", `{"TableName":"cc3"}`)
				}
			}
		}()
	}
	wg.Wait()
	want := mustDo(t, e, 200, "ListContributorInsights", `{}`)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e = openPersisted(t, dir, opts)
	if got := mustDo(t, e, 200, "ListContributorInsights", `{}`); got != want {
		t.Errorf("after a restart: got %s, want %s", got, want)
	}
	if strings.Contains(want, "cc3") {
		t.Errorf("a deleted table listed: %s", want)
	}
}
