// Package console is dynamoemu's built-in web console: a page, served by
// the emulator itself, to look at and change what an application stored,
// without installing a separate GUI. It imports nothing of ours: it talks
// to the emulator only as a browser does, through HTTP on the page's own
// origin.
//
// # Basics
//
// Handler(Options) returns the http.Handler that serves the console's
// files under Options.Prefix (DefaultPrefix, "/dynamoemu/console/"): the
// page, its stylesheet and its JavaScript modules, embedded in the binary
// with go:embed (static/), hand-written and served as they are: no build
// step, no npm, no external font or CDN. config.json, made from Options,
// tells the page where the API and the admin endpoints are, whether the
// server shares one database (-sharedDb), whether it verifies signatures
// (-credentials) and its version. The handler
// answers GET and HEAD only; a directory, a file that is not there or a
// path outside the prefix is 404 (no listing), another method 405, and
// the prefix without its final slash redirects to it. Every file is
// revalidated (Cache-Control: no-cache, a strong ETag, 304 when
// unchanged), and every answer carries a Content-Security-Policy that
// lets the page load and connect to its own origin only, nosniff, and
// frame-ancestors 'none' / X-Frame-Options DENY (it can delete tables: no
// clickjacking).
//
// The emulator serves it: cmd/dynamoemu passes Handler (with Prefix
// adminpath.Console, the default) as emulator.Options.Console, and the
// edge routes the prefix, and the prefix without its slash, to it behind
// the same Host check and admin guard as the admin endpoints
// (emulator/console_mount.go): the console is as powerful as the API. The
// guard lets the page's own origin through (Chromium sends Origin with
// same-origin POSTs, DELETEs and module script loads), so the page works
// on whatever Host the server answers; pages of other origins are refused
// unless they are loopback origins or -cors names them. dynamoemu
// -console=false leaves it out.
//
// # The page
//
// The page (static/js) speaks to the emulator in two ways:
//
//   - the DynamoDB JSON protocol: POST to the API path with X-Amz-Target
//     (DynamoDB_20120810.* and DynamoDBStreams_20120810.*) and an
//     Authorization header of SigV4's shape whose credential scope names
//     the access key and region chosen in the page. The emulator picks the
//     namespace from them and by default verifies no signature, so no
//     secret is asked for (api.js). Against a server that verifies them
//     (Options.Credentials: dynamoemu -credentials) the page asks for the
//     key's secret, keeps it in sessionStorage (the tab only) and signs
//     every call, the admin endpoints' too, with its own SigV4 (sigv4.js:
//     SHA-256 and HMAC written out, as crypto.subtle exists only on https
//     and localhost pages);
//   - the admin endpoints: GET namespaces (the namespaces that hold
//     tables), GET tables (a page of a namespace's tables described at
//     once), GET/POST clock, POST ttl/sweep, GET/DELETE conventions,
//     GET/PUT/DELETE faults, GET report, GET contributors, and
//     snapshots (GET the list and a diff, POST take and restore,
//     DELETE), branches (GET the list and a diff with the base, POST a
//     fork, DELETE), GET streams/mappings and POST streams/drain, POST
//     report/match (which design pattern a request serves: the MCP
//     server's design_match, which dynamoemu mounts there), each
//     state-changing call with Content-Type
//     application/json as the emulator requires (emulator/internal/httpedge/adminguard.go).
//
// Its views: the namespaces that hold tables, each a one-click switch
// (on the Tables page and in the namespace dialog); the tables as one
// compact list sorted by any column; a table's overview (keys, attribute
// definitions, billing, indexes with projections and sizes, stream, TTL,
// tags, delete) with switches for the stream, TTL and tags, its stat
// cards wrapping long values instead of cutting them; its items a page
// at a time (Scan with Limit and ExclusiveStartKey), the key attributes
// first and then the columns chosen (by default the most used
// attributes that fit; grid.js lays the grid out to its frame, each key
// column as wide as its values need, a long value of the others cut or
// wrapped, never a sideways scroll), sorted by a column,
// added, edited and deleted as DynamoDB JSON or plain JSON (ddb.js
// converts both ways and keeps numbers as their text: 38 digits
// survive), selected and deleted together or purged (bulk.js:
// BatchWriteItem, unprocessed items sent again); a Query and Scan builder
// that shows the request it sends and the answer's counts and
// ConsumedCapacity, and which pattern of the design it serves (or the
// nearest and why not), asked as the form rests, its results under the
// form in the same grid (Columns chosen per table and index, Wrap); a
// table's Monitor tab
// (monitor.js: consumed capacity, requests, throttles, injected errors,
// item count and size as inline SVG line graphs, from the report's
// totals, DescribeTable and the fault log read every 5 s while shown,
// kept per table for the page's life); a live tail of the table's stream (GetRecords every
// second on each open shard, from LATEST or TRIM_HORIZON); the table's
// backups and point-in-time recovery (restore to a second of the window
// or from a backup), its exports, its global-table replicas and its
// Contributor Insights; the namespace's exports and imports; snapshots
// of the emulator (take, diff with now: changed tables first, unchanged
// ones folded; rewind, drop); branches (fork, diff with the base, open,
// drop); the stream handlers (each event source mapping's state, last
// result, counts and last error, refreshed while shown; enabled or
// disabled, edited, deleted and created through Lambda's
// Create/Get/Update/DeleteEventSourceMapping, which the page calls as it
// calls the admin endpoints; a drain); a PartiQL editor
// with the statements run before (kept in localStorage); the clock and
// the TTL sweep (the clock's offset counts only what lies outside the
// round trip of the reading, so a slow page shows no false skew); the
// conventions tab (tables checked with role, mode and source, the
// configuration's entries, every refusal and warning with rule id, key,
// position, message, reason and request id); and Insights: the
// namespace's access-pattern report (GET /dynamoemu/report: hot keys,
// filter waste, reads by kind, the design's patterns and findings) and the
// fault-injection rules with their counts, edited in place (PUT and
// DELETE /dynamoemu/faults). chart.js draws bar, stacked-bar and
// donut charts as SVG from a JSON spec (documented at its top), so a
// report served as JSON needs no drawing code of its own.
//
// A view that reads on a timer or in a loop asks app.js viewAlive() for a
// check that turns false once the view is left or the namespace
// switches, and stops: nothing of a view left is sent, and nothing meant
// for one namespace reaches another.
//
// Everything works from the keyboard (? lists the keys), in a light and a
// dark theme (the system's, or the one chosen), and with reduced motion.
//
// # Files
//
//	doc.go          this
//	console.go      Options, Validate, Handler, the routing and the security headers
//	files.go        the embedded files, their types and ETags, serving one
//	static/         index.html, app.css, icon.svg, js/ (app, api, ddb, ui, grid,
//	                editor, attrform, csv, bulk, chart, views/*), served as they are
//	console_test.go the handler: paths, types, caching, 404s, 405s, imports
//	                that resolve, the size budget
//	browser_test.go the console in headless Chromium (chromedp), mounted in the
//	                emulator as dynamoemu mounts it, step by step, with
//	                screenshots ($DYNAMOEMU_CONSOLE_SCREENSHOTS; .ci/run keeps
//	                them under its output directory): the first tour, and
//	                against a server that verifies signatures
//	browser_screens_test.go  the same for the namespaces (data in several,
//	                a namespace of 50 tables at 1280x800, the TTL view left and
//	                a namespace switched with no failed call) and the screens
//	                beyond items
//	browser_controls_test.go  the item editor's form, CSV downloads, an index
//	                added and deleted, billing, deletion protection, branches
//	                and stream handlers
//	browser_design_test.go  the query builder's design pattern (and the
//	                nearest one, on an overloaded GSI too), a table's
//	                Monitor graphs, and a stream handler created, edited
//	                and deleted from its form
//	browser_fit_test.go  every screen at 1280x800 with wide data, none
//	                wider than its frame; the items grid of a 16-attribute
//	                table, its columns chosen and its values wrapped
//	browser_keyboard_test.go  the skip link and the sidebar's filter
//	browser_grid_test.go  keys whole in the items grid and a query's
//	                results (BlogApp, at 1280x800 and 1920x1080); the
//	                results' Columns and Wrap
//	browser_axe_test.go  axe-core on every screen, both themes, and the
//	                dialogs: no serious or critical violation
//	testdata/axe/   the axe-core version the test installs (npm ci, into
//	                the user's cache directory), never part of the page
//
// # Caveats
//
// The embedded files are small (TestSize holds them to a budget and logs
// their size) and are not compressed: the console is served on loopback.
package console
