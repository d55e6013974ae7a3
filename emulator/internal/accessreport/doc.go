// Package accessreport is the access-pattern report and Contributor
// Insights: a Recorder counts what each request did to each table and
// index, checks it against a single-table design (internal/insights
// reads and matches the design), and fills the public emulator/report's
// types, which the emulator's Reports handle returns.
//
// # Basics
//
// A Recorder is told of each request's use of a table or index by
// Record(*Request): the operation and its Access (get, query, scan, put,
// update, delete), the table and index, the key condition, whether a
// filter ran, items read and returned, the capacity consumed, whether it
// was throttled. It keeps per table and index: requests per operation and
// access, items read and returned (a filter's waste), capacity units, the
// hottest partition keys and full keys by consumed throughput units (3 x
// write units + read units, AWS's ConsumedThroughputUnits) and the most
// throttled keys, each in a bounded space-saving counter (topk.go); and
// the costliest requests (as AWS bills on-demand reads and writes).
// Report(Catalog) returns it all as a Report (JSON tags; WriteText prints
// it), with table sizes, largest partitions and unused indexes read from
// the emulator's Catalog. Reset starts the counts again.
//
// With SetDesign(*insights.Design), each request is matched to the most
// specific pattern it fits (the design's File), and the report adds per
// pattern its traffic, and the requests that fit none (Scans flagged
// apart) and the patterns nothing used. Each Recorder completes a copy
// of the design of its own from its traffic; insights.ReadLearned reads
// out of its report's design part, as JSON, what Design.Live needs to
// rebuild that copy (the MCP server's design_match and explain do the
// same; TestReadLearnedPinsTheReport pins what it reads). The design files
// the tests read are internal/insights' testdata; the reports on their
// traffic, the goldens, are this package's (TestBlogDesign,
// TestBlogDesignEveryFormat, TestUsersBlogReportEveryFormat;
// -rewrite writes them).
//
// Contributor Insights (contributor.go): UpdateContributorInsights,
// DescribeContributorInsights and ListContributorInsights keep each
// table's and GSI's status (ENABLING, ENABLED, DISABLING, DISABLED),
// mode and AWS's rule names (DynamoDBContributorInsights-PKC-<table>-
// <ms>, ...), and Contributors returns each rule's top keys from the
// counters above.
//
// # Costs
//
// With reporting off and no Contributor Insights enabled, the hook "if
// r.On() { r.Record(&q) }" is one atomic load and no allocation; on, a
// Record takes one mutex and a few map lookups and allocates nothing for
// keys already counted (BenchmarkRecord, TestRecordAllocs).
//
// # Caveats
//
//   - Hot keys are approximate past Options.TopKeys distinct keys
//     (space-saving: the report gives each key's possible overcount).
//   - Contributor Insights' values are totals since the last Reset, where
//     CloudWatch graphs the maximum per minute; a GSI's counters see the
//     requests that read it, not the writes that update it.
//   - The design's own caveats (template matching, writes checked only
//     against write patterns) are internal/insights'.
package accessreport
