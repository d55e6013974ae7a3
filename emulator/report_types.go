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

// The Contributor Insights rules' types, declared once in package report
// too: their JSON is encoding/json's, with the Go names; the admin
// endpoint (GET /dynamoemu/contributors) writes the same values with
// lower-case names.
type (
	// ContributorRule is what one Contributor Insights rule of a table
	// or GSI reports: its top contributors and their values.
	ContributorRule = report.ContributorRule
	// Contributor is one key of a Contributor Insights rule and its
	// value.
	Contributor = report.Contributor
)

// Contributors returns the top n contributors of each rule of a table's
// or GSI's (index; "" for the table) Contributor Insights in the
// namespace an access key and region select (nil when it is not
// collecting). Values are totals since the counters were last reset,
// where CloudWatch graphs the maximum per minute.
func (e *Emulator) Contributors(accessKey, region, table, index string, n int) []ContributorRule {
	return reportstage.Recorder(e.svc, accessKey, region).Contributors(table, index, n)
}
