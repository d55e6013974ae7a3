package emulator

import (
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/faults"
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
			if err := e.Faults().SetRules(3, []faults.Rule{{Name: "r", Table: "ci1", Operations: []string{"DescribeTable"}, Fault: faults.InternalServerError}}); err != nil {
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
