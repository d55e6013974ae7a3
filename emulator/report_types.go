package emulator

import (
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/report"
)

// The reports' types (the access-pattern report, Contributor
// Insights' top keys, the stale reads of consistency fuzzing) are
// package report's (emulator/report), where each is declared once: the
// recorder that builds the access-pattern report (internal/insights)
// shares them with this package's API.

// Contributors returns the top n contributors of each rule of a table's
// or GSI's (index; "" for the table) Contributor Insights in the
// namespace an access key and region select (nil when it is not
// collecting). Values are totals since the counters were last reset,
// where CloudWatch graphs the maximum per minute.
func (e *Emulator) Contributors(accessKey, region, table, index string, n int) []report.ContributorRule {
	return reportstage.Recorder(e.svc, accessKey, region).Contributors(table, index, n)
}
