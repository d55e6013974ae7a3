package emulator

import (
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/report"
)

// The access-pattern report's types: the report of one namespace
// (AccessReport) down to one operation on one index. Each is declared
// once, in package report (emulator/report), which the emulator's
// recorder builds its report in; these are its names here. Their JSON is
// the admin endpoint's (GET /dynamoemu/report), and AccessReport's
// WriteText prints one for people (at shutdown, in a test's log).
type (
	// NamespaceReport is one namespace's access-pattern report.
	NamespaceReport = report.NamespaceReport
	// AccessReport is the access-pattern report of one namespace: per
	// table and index the traffic, hot keys, partitions and unused
	// indexes; the costliest requests; and, with a design, its patterns
	// and findings.
	AccessReport = report.Report
	// TableReport is one table's traffic.
	TableReport = report.TableReport
	// ResourceReport is the traffic of a table or one of its indexes.
	ResourceReport = report.ResourceReport
	// OpReport is one operation's traffic on a table or index.
	OpReport = report.OpReport
	// KeyShare is a hot key and its share of its table's or index's
	// consumed throughput units.
	KeyShare = report.KeyShare
	// PartitionSize is one partition key's items: their count and size.
	PartitionSize = report.PartitionSize
	// DesignReport is the traffic checked against the declared design.
	DesignReport = report.DesignReport
	// PatternReport is one pattern and the requests that matched it.
	PatternReport = report.PatternReport
	// UnmatchedRequest is a kind of request that matched no pattern.
	UnmatchedRequest = report.UnmatchedRequest
	// CostlyRequest is one of the costliest requests.
	CostlyRequest = report.CostlyRequest
	// Finding is one thing a report says about a design or the traffic
	// checked against it.
	Finding = report.Finding
)

// ContributorRule is what one Contributor Insights rule of a table or
// GSI reports: its top contributors (keys, partition key first) and their
// values (ConsumedThroughputUnits, 3 x write units + read units, for the
// accessed rules; ThrottleCount for the throttled ones).
type ContributorRule struct {
	// Rule is the rule's name, as DescribeContributorInsights lists it.
	Rule string
	// Contributors are the top contributors, largest first.
	Contributors []Contributor
}

// Contributor is one key of a Contributor Insights rule and its value.
type Contributor struct {
	// Keys are the key's values as text, partition key first.
	Keys []string
	// Value is the key's total since the counters were last reset.
	Value float64
}

// Contributors returns the top n contributors of each rule of a table's
// or GSI's (index; "" for the table) Contributor Insights in the
// namespace an access key and region select (nil when it is not
// collecting). Values are totals since the counters were last reset,
// where CloudWatch graphs the maximum per minute.
func (e *Emulator) Contributors(accessKey, region, table, index string, n int) []ContributorRule {
	rs := reportstage.Recorder(e.svc, accessKey, region).Contributors(table, index, n)
	if rs == nil {
		return nil
	}
	out := make([]ContributorRule, len(rs))
	for i, r := range rs {
		out[i].Rule = r.Rule
		for _, c := range r.Contributors {
			out[i].Contributors = append(out[i].Contributors, Contributor{Keys: c.Keys, Value: c.Value})
		}
	}
	return out
}
