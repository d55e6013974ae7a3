// Package insights reads and checks a team's single-table design: the
// design files it reads, in every format, into one Design; the findings
// it makes from the design alone; where a request's use of a table is
// filed among the design's access patterns (Design.File, Design.Match).
// The recorder that counts the traffic against it, the access-pattern
// report and Contributor Insights, is emulator/internal/accessreport,
// which fills the public emulator/report's types: this package names
// none of them, and sees requests as the emulator describes them
// (Request, in internal/access's words), knowing nothing about HTTP or
// storage's internals.
//
// # Basics
//
// A Design (ParseDesign, the file format in design_parse.go) declares per
// table its key and indexes, its entities with a key template per key
// attribute ("Post_{created_at}"), and its access patterns, each served
// by the table's key or an index with a key condition over templates.
// Design.Check finds, from the design alone, patterns served by Scan,
// patterns whose condition may return another entity's items (mixed
// entity types), entities an index never holds, conditions that never
// select their own entity, ambiguous patterns and unused indexes. A
// recorder given the design (accessreport's SetDesign) files each request
// under the most specific pattern it fits (File). testdata/blog.design is
// a blog in one table (its final table and its six access patterns, plus
// its writes); accessreport's TestBlogDesign drives its patterns'
// requests through a recorder and gets every pattern served by a key or
// an index and the one Scan flagged (its testdata/blog.report.txt).
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
// (Design.Live, from what its report learned): design_match's answer is
// the report's filing (design_live.go; accessreport's
// TestMatchEqualsReport). A format's objects
// are read into Go structs with encoding/json, a level at a time
// (design_decode.go), closed or open as the format's documentation says.
// An error names the member at fault by its path; a member the reader
// does not know is an error, never dropped. testdata/blog.* is the blog
// design in every format: those that say all a design file says give
// blog.report.txt byte for byte, the others their own golden with the
// same traffic sections (accessreport's TestBlogDesignEveryFormat, whose
// testdata holds the reports); testdata/views holds the design
// each file reads as (TestDesignGoldens, which also compares what
// formats say alike); testdata/usersblog.* is a blog of users, posts,
// comments and tags with one overloaded GSI, as a design file, a plain
// Workbench model and AWS's data model (TestUsersBlogEveryFormat;
// accessreport's TestUsersBlogReportEveryFormat for their reports).
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
package insights
