// Package insights tells a team whether its traffic fits its design: an
// access-pattern report of what the requests do to each table and index,
// a declared single-table design checked against that traffic, and
// DynamoDB's Contributor Insights answered from the same counters. It
// sees requests as the emulator describes them after they ran, and knows
// nothing about HTTP or storage's internals.
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
// A Design (ParseDesign, the file format in design_parse.go) declares per
// table its key and indexes, its entities with a key template per key
// attribute ("Post_{created_at}"), and its access patterns, each served
// by the table's key or an index with a key condition over templates.
// Design.Check finds, from the design alone, patterns served by Scan,
// patterns whose condition may return another entity's items (mixed
// entity types), entities an index never holds, conditions that never
// select their own entity, ambiguous patterns and unused indexes. With
// SetDesign, each request is matched to the most specific pattern it
// fits, and the report adds per pattern its traffic, and the requests
// that fit none (Scans flagged apart) and the patterns nothing used.
// testdata/blog.design is a blog in one table (its final table
// and its six access patterns, plus its writes); TestBlogDesign drives its
// patterns' requests and gets every pattern served by a key or an index
// and the one Scan flagged (testdata/blog.report.txt).
//
// ParseDesign also reads the designs people already write in other
// formats, into the same Design: a NoSQL Workbench data model
// (design_workbench.go: tables, GSIs, facets as entities with their key
// aliases; ParseWorkbenchModel also returns the tables and sample items
// for loading them), a OneTable schema (design_onetable.go: indexes,
// models with their value templates, saved queries as patterns),
// ElectroDB entity schemas (design_electrodb.go), AWS's DynamoDB MCP
// server data model (design_datamodel.go: create_table tables, access
// patterns from their AWS CLI implementations), a Dynamoose schema
// (design_dynamoose.go) and a DynamoDB Toolbox table
// (design_toolbox.go), their keys and indexes, and the tables of a
// CloudFormation, SAM, CDK or serverless template (design_template.go,
// through internal/iac). What a format does not template (a Workbench
// facet's keys, a data model's example values) is inferred by one
// function for all (design_infer.go): from the key attribute's own
// values, read around the values of the item's attributes that are no
// key attributes, and the names the format gives. What a format cannot
// say goes in a "dynamoemu" member of dynamoemu's own (Workbench,
// OneTable); without patterns they are derived from the entities' keys
// (design_derive.go). What no file says is completed from the traffic
// (design_traffic.go): the table's name (OneTable, ElectroDB, Dynamoose:
// Unnamed) and the access patterns (templates, a data model without
// them: FromTraffic), each a from-traffic finding in the report. Each
// Recorder completes a copy of its own; Design.Match says where the
// report files a request, on the design as a recorder holds it
// (Design.Live, from its report): design_match's answer is the report's
// filing (design_live.go; TestMatchEqualsReport). A format's objects
// are read into Go structs with encoding/json, a level at a time
// (design_decode.go), closed or open as the format's documentation says.
// An error names the member at fault by its path; a member the reader
// does not know is an error, never dropped. testdata/blog.* is the blog design in every
// format: those that say all a design file says give blog.report.txt
// byte for byte, the others their own golden with the same traffic
// sections (TestBlogDesignEveryFormat); testdata/views holds the design
// each file reads as (TestDesignGoldens, which also compares what
// formats say alike); testdata/usersblog.* is a blog of users, posts,
// comments and tags with one overloaded GSI, as a design file, a plain
// Workbench model and AWS's data model (TestUsersBlogEveryFormat).
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
//   - Template matching takes a bare variable ("{id}") never to equal
//     another entity's constant ("post"): ids are not type tags. Without
//     that assumption every design that tells entities apart by a
//     constant would be flagged.
//   - Writes are checked against a table's design only when it declares
//     write patterns; requests on tables the design does not declare are
//     flagged for their reads only.
//   - Hot keys are approximate past Options.TopKeys distinct keys
//     (space-saving: the report gives each key's possible overcount).
//   - Contributor Insights' values are totals since the last Reset, where
//     CloudWatch graphs the maximum per minute; a GSI's counters see the
//     requests that read it, not the writes that update it.
package insights
