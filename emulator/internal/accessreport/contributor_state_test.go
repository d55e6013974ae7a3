package accessreport

import (
	"encoding/json"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"reflect"
	"testing"
	"time"
)

// TestContributorInsightsState: the state a recorder exports, read back
// by a new recorder (through JSON, as the emulator saves it), answers
// Describe and List as the first did, settles as it would have, and
// collects again.
func TestContributorInsightsState(t *testing.T) {
	clk := &movingClock{now: time.UnixMilli(1707744000000)}
	r := New(Options{Clock: clk.Now, InsightsSettle: time.Second})
	r.UpdateContributorInsights("Users", "", true, true, "")
	clk.Advance(time.Second)
	r.UpdateContributorInsights("Users", "byEmail", false, true, CIThrottledKeys)
	r.UpdateContributorInsights("Orders", "", true, true, "")
	r.UpdateContributorInsights("Orders", "", true, false, "") // DISABLING
	b, err := json.Marshal(r.ContributorInsightsState())
	if err != nil {
		t.Fatal(err)
	}
	var states []CIState
	if err := json.Unmarshal(b, &states); err != nil {
		t.Fatal(err)
	}
	r2 := New(Options{Clock: clk.Now, InsightsSettle: time.Second})
	if r2.On() {
		t.Fatal("a new recorder is on")
	}
	r2.RestoreContributorInsights(states)
	for _, k := range [][2]string{{"Users", ""}, {"Users", "byEmail"}, {"Orders", ""}, {"Other", ""}} {
		if got, want := utc(r2.DescribeContributorInsights(k[0], k[1])), utc(r.DescribeContributorInsights(k[0], k[1])); !reflect.DeepEqual(got, want) {
			t.Errorf("%v: got %+v, want %+v", k, got, want)
		}
	}
	got, want := r2.ListContributorInsights(""), r.ListContributorInsights("")
	for i := range got {
		got[i] = utc(got[i])
	}
	for i := range want {
		want[i] = utc(want[i])
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("List: got %+v, want %+v", got, want)
	}
	clk.Advance(time.Second)
	if got := r2.DescribeContributorInsights("Orders", "").Status; got != CIDisabled {
		t.Errorf("DISABLING after the settle time: got %s", got)
	}
	if !r2.On() {
		t.Fatal("the restored recorder does not collect")
	}
	r2.Record(&insights.Request{Op: "GetItem", Access: insights.Get, Table: "Users", Key: insights.KeyCondition{Partition: s("u1"), SortOp: insights.SortEQ, Sort: s("x")}, ReadUnits: 1})
	if got := r2.Contributors("Users", "", 1); len(got) == 0 || len(got[0].Contributors) != 1 {
		t.Errorf("restored Users collects nothing: %+v", got)
	}
	// Restoring over a collecting entry does not count it twice.
	r2.RestoreContributorInsights(states)
	r2.ForgetContributorInsights("Users", "")
	r2.ForgetContributorInsights("Orders", "")
	if r2.On() {
		t.Error("on with nothing configured")
	}
}

// utc is c with its LastUpdate in UTC (a time read back from JSON is).
func utc(c ContributorInsights) ContributorInsights {
	c.LastUpdate = c.LastUpdate.UTC()
	return c
}
