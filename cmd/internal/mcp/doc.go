// Package mcp is dynamoemu's Model Context Protocol server: the tools a
// coding agent uses to work with the emulator's tables and to learn
// whether its requests fit the single-table design. It runs on the
// protocol's own Go SDK (github.com/modelcontextprotocol/go-sdk), over
// stdio (cmd/dynamoemu's "mcp" subcommand, with an engine of its own) or
// over streamable HTTP on the server's port (adminpath.MCP, behind the
// Host check and a bearer token).
//
// # Basics
//
// New(emulator, Options) returns a Server whose tools (tools.go lists
// them by group) call the emulator the way any client does: every
// DynamoDB operation is a DynamoDB JSON request sent to the emulator's
// Handler, signed with the namespace's access key and region (engine.go);
// snapshots, fault rules, lag, the reports and the design go through the
// emulator's public API. Nothing reaches the emulator's internals.
//
//   - tools_tables.go: tables, TTL and a sweep, tags;
//   - tools_items.go: items, batches, transactions;
//   - tools_reads.go: Query, Scan, PartiQL, the streams;
//   - tools_admin.go: snapshots, fault rules, lag;
//   - tools_insights.go: the access-pattern report and its findings, the
//     conventions report with each rule's reason, the design, which
//     pattern a request serves (design_match), what serves a request and
//     what it costs (explain.go), loading a NoSQL Workbench model
//     (load.go, also cmd/dynamoemu's -load).
//
// The tools come in groups (groups.go): a server lists the core group
// and those Options.Tools adds, so that the tool list an agent carries
// in every conversation stays small; enable_tools lists more in a
// session (the SDK then sends notifications/tools/list_changed), and a
// call of a tool not listed is refused with its group and that call. The
// instructions (instructions.go) name the tools listed only, the groups
// not listed, and sum up a design set at start. An error DynamoDB
// answered says whether the same call may succeed again (retryable).
//
// Server.Run serves one client over a transport (stdin and stdout);
// Server.HTTPHandler is the streamable HTTP endpoint, stateless (each
// POST answered with JSON), behind RequireToken; Mount lets the emulator
// take the handler before the server exists. token.go generates and keeps
// the token of a loopback server (TokenPath).
//
// # Safety
//
// A tool's bad input is a tool error that says what is wrong and changes
// nothing (the tool checks its arguments against its schema, and DynamoDB
// validates a request whole before it writes). Every schema is strict: a
// DynamoDB tool takes its operation's members (members.go) and no others,
// an unknown one refused with the nearest it takes. Options.ReadOnly
// neither lists nor runs a tool that changes data or the emulator's state
// (and refuses PartiQL statements that write). DeleteTable, and a batch, transaction or TTL
// sweep that deletes more than Options.SnapshotDeletes items, take a
// snapshot first (snapshots.go keeps the server's book of them, since the
// emulator lists none); snapshot_restore undoes the change. Results are
// capped (caps.go): a read's Limit is lowered to Options.MaxItems and
// items past Options.MaxBytes are left out, the answer saying how to
// page on, each item once (statement_pages.go gives PartiQL a NextToken of
// the server's own); an item over the cap alone comes whole, never cut.
//
// # Caveats
//
//   - snapshot_restore rewinds every namespace, as emulator.Restore does,
//     and should not race other clients' writes.
//   - explain runs a read once to measure it (it counts in the report);
//     a write's capacity is estimated from the item's size, not run.
//   - design_match and explain read KeyConditionExpression, not the legacy
//     KeyConditions, and single-attribute keys; on a table the design has
//     and the namespace not yet, they take its key types for S.
//   - A PartiQL page cut by the byte cap is read again for its rest: it
//     counts twice in the report and its capacity.
package mcp
