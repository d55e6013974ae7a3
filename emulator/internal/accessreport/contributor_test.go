package accessreport

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/report"
	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// movingClock is a clock tests move.
type movingClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *movingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *movingClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestContributorInsightsLifecycle(t *testing.T) {
	clk := &movingClock{now: time.UnixMilli(1707744000000)}
	r := New(Options{Clock: clk.Now, InsightsSettle: time.Second})
	const created = "-1707744000000"
	if d := r.DescribeContributorInsights("Users", ""); !reflect.DeepEqual(d, ContributorInsights{TableName: "Users", Status: CIDisabled}) {
		t.Errorf("never configured: %+v", d)
	}
	if r.On() {
		t.Errorf("on before anything is enabled")
	}
	steps := []struct {
		do         string // "enable[:mode]", "disable", "advance"
		index      string
		wantUpdate CIStatus
		wantStatus CIStatus
		wantMode   CIMode
		wantRules  []string
	}{
		{"enable", "", CIEnabling, CIEnabling, CIAccessedAndThrottledKeys, []string{"PKC", "PKT", "SKC", "SKT"}},
		{"advance", "", "", CIEnabled, CIAccessedAndThrottledKeys, []string{"PKC", "PKT", "SKC", "SKT"}},
		{"enable", "", CIEnabled, CIEnabled, CIAccessedAndThrottledKeys, []string{"PKC", "PKT", "SKC", "SKT"}}, // the same mode: nothing changes
		{"enable:THROTTLED_KEYS", "", CIEnabling, CIEnabling, CIThrottledKeys, []string{"PKT", "SKT"}},
		{"advance", "", "", CIEnabled, CIThrottledKeys, []string{"PKT", "SKT"}},
		{"enable", "", CIEnabling, CIEnabling, CIAccessedAndThrottledKeys, []string{"PKC", "PKT", "SKC", "SKT"}}, // no mode: back to the default
		{"disable", "", CIDisabling, CIDisabling, CIAccessedAndThrottledKeys, []string{"PKC", "PKT", "SKC", "SKT"}},
		{"advance", "", "", CIDisabled, CIAccessedAndThrottledKeys, nil},
		{"disable", "", CIDisabled, CIDisabled, CIAccessedAndThrottledKeys, nil},
		{"enable", "byEmail", CIEnabling, CIEnabling, CIAccessedAndThrottledKeys, []string{"PKC", "PKT"}},
	}
	for i, st := range steps {
		verb, mode, _ := strings.Cut(st.do, ":")
		switch verb {
		case "enable", "disable":
			u := r.UpdateContributorInsights("Users", st.index, st.index == "", verb == "enable", CIMode(mode))
			if u.Status != st.wantUpdate {
				t.Errorf("step %d %s: update answers %s, want %s", i, st.do, u.Status, st.wantUpdate)
			}
		case "advance":
			clk.Advance(time.Second)
		}
		d := r.DescribeContributorInsights("Users", st.index)
		var rules []string
		for _, name := range d.RuleList {
			rules = append(rules, strings.Split(name, "-")[1])
			res := "Users"
			if st.index != "" {
				res = "Users-" + st.index
			}
			if want := "DynamoDBContributorInsights-" + strings.Split(name, "-")[1] + "-" + res + created; name != want && st.index == "" {
				t.Errorf("step %d: rule %s, want %s", i, name, want)
			}
		}
		if d.Status != st.wantStatus || d.Mode != st.wantMode || !reflect.DeepEqual(rules, st.wantRules) {
			t.Errorf("step %d %s: %s %s %v, want %s %s %v", i, st.do, d.Status, d.Mode, rules, st.wantStatus, st.wantMode, st.wantRules)
		}
	}
	// The index's rules were created later: a new timestamp.
	if d := r.DescribeContributorInsights("Users", "byEmail"); d.RuleList[0] != "DynamoDBContributorInsights-PKC-Users-byEmail-1707744003000" {
		t.Errorf("index rule %s", d.RuleList[0])
	}
	// List: only what is not DISABLED, the table before its indexes.
	r.UpdateContributorInsights("Orders", "", false, true, CIThrottledKeys)
	var listed []string
	for _, c := range r.ListContributorInsights("") {
		listed = append(listed, c.TableName+"/"+c.IndexName+"/"+string(c.Status))
	}
	if want := "Orders//ENABLING Users/byEmail/ENABLING"; strings.Join(listed, " ") != want {
		t.Errorf("listed %v, want %s", listed, want)
	}
	if got := r.ListContributorInsights("Users"); len(got) != 1 {
		t.Errorf("listed for Users: %+v", got)
	}
	if !r.On() {
		t.Errorf("not on with two enabled")
	}
	r.ForgetContributorInsights("Users", "")
	r.ForgetContributorInsights("Orders", "")
	if r.On() || len(r.ListContributorInsights("")) != 0 {
		t.Errorf("on or listing after forgetting everything")
	}
}

// TestContributors: with Contributor Insights enabled (and the report
// off), the rules report the most accessed and most throttled keys.
func TestContributors(t *testing.T) {
	r := New(Options{Clock: fixedClock})
	r.UpdateContributorInsights("Orders", "", true, true, "")
	key := func(pk, sk string) insights.KeyCondition {
		return insights.KeyCondition{Partition: s(pk), SortOp: insights.SortEQ, Sort: s(sk)}
	}
	reqs := []insights.Request{
		{Op: "PutItem", Access: insights.Put, Table: "Orders", Key: key("c1", "o1"), WriteUnits: 1},
		{Op: "PutItem", Access: insights.Put, Table: "Orders", Key: key("c1", "o2"), WriteUnits: 2},
		{Op: "GetItem", Access: insights.Get, Table: "Orders", Key: key("c2", "o1"), ReadUnits: 0.5},
		{Op: "Query", Access: insights.Query, Table: "Orders", Key: insights.KeyCondition{Partition: s("c2")}, ReadUnits: 4},
		{Op: "PutItem", Access: insights.Put, Table: "Orders", Key: key("c1", "o2"), Throttled: true},
		{Op: "PutItem", Access: insights.Put, Table: "Orders", Key: key("c1", "o2"), Throttled: true},
		{Op: "Query", Access: insights.Query, Table: "Orders", Index: "byStatus", Key: insights.KeyCondition{Partition: s("NEW")}, ReadUnits: 1}, // the GSI is not enabled
		{Op: "Query", Access: insights.Query, Table: "Other", Key: insights.KeyCondition{Partition: s("x")}, ReadUnits: 1},
	}
	for _, q := range reqs {
		if !r.On() {
			t.Fatal("not on")
		}
		r.Record(&q)
	}
	got := r.Contributors("Orders", "", 10)
	want := []report.ContributorRule{
		{Rule: "DynamoDBContributorInsights-PKC-Orders-1638525600000", Contributors: []report.Contributor{{Keys: []string{"c1"}, Value: 9}, {Keys: []string{"c2"}, Value: 4.5}}},
		{Rule: "DynamoDBContributorInsights-PKT-Orders-1638525600000", Contributors: []report.Contributor{{Keys: []string{"c1"}, Value: 2}}},
		{Rule: "DynamoDBContributorInsights-SKC-Orders-1638525600000", Contributors: []report.Contributor{{Keys: []string{"c1", "o2"}, Value: 6}, {Keys: []string{"c1", "o1"}, Value: 3}, {Keys: []string{"c2", "o1"}, Value: 0.5}}},
		{Rule: "DynamoDBContributorInsights-SKT-Orders-1638525600000", Contributors: []report.Contributor{{Keys: []string{"c1", "o2"}, Value: 2}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("contributors\n%+v\nwant\n%+v", got, want)
	}
	if got := r.Contributors("Orders", "byStatus", 10); got != nil {
		t.Errorf("contributors of a GSI not enabled: %+v", got)
	}
	if rep := r.Report(nil); len(rep.Tables) != 1 || rep.Tables[0].Table != "Orders" || len(rep.Costliest) != 0 {
		t.Errorf("with the report off, only the enabled table is counted and no request kept: %+v", rep)
	}
}
