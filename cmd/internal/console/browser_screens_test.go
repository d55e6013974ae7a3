package console_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dynamoemu/dynamoemu/cmd/internal/console"
	"github.com/dynamoemu/dynamoemu/emulator"
)

// The console's screens for what the server does beyond a table's items:
// the namespaces that hold data, a long table list, sorting and bulk
// deletes in the items grid, backups and point-in-time recovery, exports
// and imports, global-table replicas, Contributor Insights, snapshots,
// the PartiQL editor, the conventions tab, and the footer clock on a
// slow page. Each step is checked in the page and through the API, with
// a screenshot each.

// apiAs calls the DynamoDB API of s as accessKey in region (no Origin, as
// an SDK) and returns the decoded answer; an error answer fails the test.
func (s *server) apiAs(t *testing.T, accessKey, region, op string, in any) map[string]any {
	t.Helper()
	out, status := s.apiIn(t, accessKey, region, op, in)
	if status != http.StatusOK {
		t.Fatalf("%s as %s/%s: got status %d: %v", op, accessKey, region, status, out)
	}
	return out
}

// pkTable is a CreateTable request: pk (S), on demand, with extra fields.
func pkTable(name string, extra map[string]any) map[string]any {
	in := map[string]any{
		"TableName": name, "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "pk", "AttributeType": "S"}},
		"KeySchema":            []map[string]string{{"AttributeName": "pk", "KeyType": "HASH"}},
	}
	for k, v := range extra {
		in[k] = v
	}
	return in
}

// putItems writes n items {pk: prefix<i>, score: N} to table, 25 a batch.
func (s *server) putItems(t *testing.T, key, region, table, prefix string, n int, score func(i int) int) {
	t.Helper()
	for i := 0; i < n; i += 25 {
		var puts []any
		for j := i; j < min(n, i+25); j++ {
			puts = append(puts, map[string]any{"PutRequest": map[string]any{"Item": map[string]any{
				"pk": map[string]string{"S": fmt.Sprintf("%s%02d", prefix, j)}, "score": map[string]string{"N": strconv.Itoa(score(j))}}}})
		}
		s.apiAs(t, key, region, "BatchWriteItem", map[string]any{"RequestItems": map[string]any{table: puts}})
	}
}

// count returns how many items table holds (a consistent Scan's Count).
func (s *server) count(t *testing.T, key, region, table string) int {
	t.Helper()
	n, _ := s.apiAs(t, key, region, "Scan", map[string]any{"TableName": table, "Select": "COUNT", "ConsistentRead": true})["Count"].(json.Number).Int64()
	return int(n)
}

// open opens the console of s at hash and waits until that view is drawn.
func (b *browser) open(s *server, hash string) {
	b.t.Helper()
	b.do("open "+hash, chromedp.Navigate(s.page+"/dynamoemu/console/"+hash))
	b.wait("the view "+hash, fmt.Sprintf(`document.documentElement.dataset.ready === "true" && document.documentElement.dataset.route === %q`, hash))
}

// clickCSS clicks the first element matching css.
func (b *browser) clickCSS(what, css string) {
	b.t.Helper()
	b.do("click "+what, chromedp.Click(chromedp.CSS(css)))
}

// consoleNamespaces: an application that signs with other access keys
// and regions than the console's: the console lists the namespaces that
// hold tables, each one click away, and a namespace of 50 tables is one
// compact list, sorted by any column.
func consoleNamespaces(t *testing.T, b *browser) {
	s := startServer(t)
	s.apiAs(t, "appkey", "eu-west-1", "CreateTable", pkTable("Orders", nil))
	s.apiAs(t, "appkey", "eu-west-1", "CreateTable", pkTable("Users", nil))
	s.putItems(t, "appkey", "eu-west-1", "Orders", "o", 3, func(i int) int { return i })
	s.apiAs(t, "jobs", "us-west-2", "CreateTable", pkTable("Queue", nil))
	s.apiAs(t, "reader", "eu-west-1", "ListTables", map[string]any{}) // reads make no namespace

	// The console's own namespace is empty: it says where the data is.
	b.open(s, "#/")
	b.wait("the namespaces that hold data", `document.querySelectorAll("main .ns-strip .ns-pill").length === 2 && document.querySelector("main .empty p")?.textContent.includes("Other namespaces hold tables")`)
	if chip := eval[string](b, `document.getElementById("ns-button").textContent`); !strings.Contains(chip, "+2") {
		t.Errorf("the namespace chip says %q, want it to count the 2 other namespaces with data", chip)
	}
	b.shot("namespaces-elsewhere", "the console's own namespace (local · us-east-1) is empty: the namespaces that hold tables are listed, each a one-click switch, and the chip counts them (+2)")

	// One click: the application's namespace and its tables.
	b.clickCSS("appkey · eu-west-1", `main .ns-strip button[data-namespace="appkey/eu-west-1"]`)
	b.wait("appkey's tables", `document.getElementById("ns-button").textContent.includes("appkey") && document.querySelectorAll("main table.table-list-grid tbody tr").length === 2`)
	if got := eval[string](b, `document.querySelector("main .ns-pill.current")?.dataset.namespace || ""`); got != "appkey/eu-west-1" {
		t.Errorf("the current namespace pill is %q, want appkey/eu-west-1", got)
	}
	b.shot("namespaces-switched", "one click on appkey · eu-west-1: its two tables; the pill of the namespace shown is marked")

	// The namespace dialog lists them too.
	b.press('N')
	b.wait("the namespace dialog's list", `document.querySelectorAll("dialog[open] .ns-list button").length === 2`)
	b.shot("namespace-dialog", "the namespace dialog: the namespaces that hold tables with their counts, one click each, and the access key and region typed in")
	b.clickCSS("jobs · us-west-2", `dialog[open] .ns-list button[data-namespace="jobs/us-west-2"]`)
	b.wait("jobs' table", `!document.querySelector("dialog[open]") && document.getElementById("ns-button").textContent.includes("jobs") && document.documentElement.dataset.route === "#/" && document.querySelector("main table.table-list-grid tr[data-table=Queue]") !== null`)

	// 50 tables: one row each, sortable.
	for i := range 50 {
		s.apiAs(t, "many", "eu-west-1", "CreateTable", pkTable(fmt.Sprintf("table-%02d", i), nil))
	}
	s.putItems(t, "many", "eu-west-1", "table-07", "x", 30, func(i int) int { return i })
	s.putItems(t, "many", "eu-west-1", "table-42", "x", 12, func(i int) int { return i })
	b.press('r')
	b.wait("the many namespace", `document.querySelector('main .ns-strip button[data-namespace="many/eu-west-1"]') !== null`)
	b.clickCSS("many · eu-west-1", `main .ns-strip button[data-namespace="many/eu-west-1"]`)
	b.wait("50 rows", `document.querySelectorAll("main table.table-list-grid tbody tr").length === 50`)
	// One request a page of tables: a refresh of the list reads the 50
	// tables described at once, never a DescribeTable each.
	b.watchCalls()
	b.press('r')
	b.wait("the refreshed list", `window.__calls.some((c) => c.op.startsWith("GET /namespaces")) && window.__calls.some((c) => c.op.startsWith("GET /tables")) && document.querySelectorAll("main table.table-list-grid tbody tr").length === 50`)
	// The footer's clock reads on its own timer: a reading that falls in
	// the refresh is no call of the list's.
	var ops []string
	for _, op := range b.callOps() {
		if op != "GET /clock" {
			ops = append(ops, op)
		}
	}
	if len(ops) != 2 || !strings.HasPrefix(ops[0], "GET /tables?") && !strings.HasPrefix(ops[1], "GET /tables?") {
		t.Errorf("refreshing a list of 50 tables made the calls %q, want one GET /tables and the namespaces", ops)
	}
	checkLaptopFit(t, b, 20)
	b.shot("tables-50", "a namespace of 50 tables: one compact row each (keys, status, items, size, indexes, billing, stream, created), sorted by name")
	b.clickCSS("sort by items", `main table.table-list-grid th:nth-child(4) button`)
	b.wait("sorted by items, ascending", `document.querySelector("main table.table-list-grid th:nth-child(4)").getAttribute("aria-sort") === "ascending"`)
	b.clickCSS("sort by items again", `main table.table-list-grid th:nth-child(4) button`)
	b.wait("most items first", `document.querySelector("main table.table-list-grid th:nth-child(4)").getAttribute("aria-sort") === "descending" && document.querySelector("main table.table-list-grid tbody tr").dataset.table === "table-07"`)
	if second := eval[string](b, `document.querySelectorAll("main table.table-list-grid tbody tr")[1].dataset.table`); second != "table-42" {
		t.Errorf("sorted by items, the second table is %s, want table-42", second)
	}
	b.fill(`main input[aria-label="Filter tables"]`, "table-4")
	b.wait("the filter", `document.querySelectorAll("main table.table-list-grid tbody tr").length === 10`)
	b.fill(`main input[aria-label="Filter tables"]`, "")
	b.wait("no filter", `document.querySelectorAll("main table.table-list-grid tbody tr").length === 50`)
	b.shot("tables-50-sorted", "the 50 tables sorted by items, most first (a second click on a header reverses the order)")

	// The Clock & TTL view reads each table's TTL; left, it sends
	// nothing more, and a namespace switch while it reads sends nothing
	// to the new namespace: no call fails.
	b.watchCalls()
	b.nav('k', "#/clock")
	b.wait("the TTL reads", `window.__calls.some((c) => c.op === "DescribeTimeToLive")`)
	b.nav('t', "#/")
	b.wait("the tables again", `document.querySelectorAll("main table.table-list-grid tbody tr").length === 50`)
	left := len(b.callOps())
	b.press('r') // a round trip after leaving: a loop still running would have called meanwhile
	b.wait("the refresh", fmt.Sprintf(`window.__calls.length > %d && window.__calls.slice(%d).some((c) => c.op.startsWith("GET /namespaces"))`, left, left))
	if ops := b.callOps()[left:]; slices.Contains(ops, "DescribeTimeToLive") {
		t.Errorf("after leaving the Clock & TTL view the page still called %q", ops)
	}
	b.nav('k', "#/clock")
	b.wait("the TTL reads again", `window.__calls.filter((c) => c.op === "DescribeTimeToLive").length > 1`)
	b.press('N')
	b.wait("the namespace dialog's list", `document.querySelector('dialog[open] .ns-list button[data-namespace="jobs/us-west-2"]') !== null`)
	b.clickCSS("jobs · us-west-2", `dialog[open] .ns-list button[data-namespace="jobs/us-west-2"]`)
	b.wait("jobs' table", `!document.querySelector("dialog[open]") && document.documentElement.dataset.route === "#/" && document.querySelector("main table.table-list-grid tr[data-table=Queue]") !== null`)
	switched := len(b.callOps())
	b.press('r')
	b.wait("the refresh", fmt.Sprintf(`window.__calls.slice(%d).some((c) => c.op.startsWith("GET /namespaces"))`, switched))
	if ops := b.callOps()[switched:]; slices.Contains(ops, "DescribeTimeToLive") {
		t.Errorf("after a namespace switch from the Clock & TTL view the page still called %q", ops)
	}
	if failed := b.failedCalls(); len(failed) > 0 {
		t.Errorf("calls failed: %q", failed)
	}
	if foot := eval[string](b, `document.getElementById("foot-activity").textContent`); strings.Contains(foot, "ResourceNotFound") {
		t.Errorf("the footer shows a failed call: %s", foot)
	}
}

// watchCalls records every call the page makes from now on (api.js
// onActivity) in window.__calls, until the page is loaded again.
func (b *browser) watchCalls() {
	b.t.Helper()
	_ = eval[bool](b, `import("./js/api.js").then((m) => {
		window.__calls = [];
		if (!window.__watching) { window.__watching = true; m.onActivity((e) => window.__calls.push({op: e.op, status: e.status, error: e.error || ""})); }
		return true;
	})`)
}

// callOps returns the operations (DynamoDB's, or "GET /path" of the admin
// endpoints) of the calls watchCalls recorded, in order.
func (b *browser) callOps() []string {
	b.t.Helper()
	return eval[[]string](b, `window.__calls.map((c) => c.op)`)
}

// failedCalls returns the calls watchCalls recorded that failed, each as
// "op: error".
func (b *browser) failedCalls() []string {
	b.t.Helper()
	return eval[[]string](b, `window.__calls.filter((c) => c.error).map((c) => c.op + ": " + c.error)`)
}

// checkLaptopFit checks the page shown in the laptop's viewport: nothing
// scrolls sideways, the top navigation is one line, and at least rows of
// the table list are on the first screen, a line each.
func checkLaptopFit(t *testing.T, b *browser, rows int) {
	t.Helper()
	if w := eval[int](b, `innerWidth`); w != viewWidth {
		t.Errorf("the viewport is %d px wide, want %d", w, viewWidth)
	}
	if wide := eval[[]string](b, `[document.documentElement, document.querySelector("main"), ...document.querySelectorAll("main .grid-wrap")].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => (e.id || e.className) + " " + e.scrollWidth + " > " + e.clientWidth)`); len(wide) > 0 {
		t.Errorf("these scroll sideways at %dx%d: %q", viewWidth, viewHeight, wide)
	}
	if lines := eval[int](b, `new Set([...document.querySelectorAll(".mainnav a")].map((a) => Math.round(a.getBoundingClientRect().top))).size`); lines != 1 {
		t.Errorf("the top navigation is on %d lines, want 1", lines)
	}
	if cut := eval[bool](b, `(() => { const n = document.querySelector(".mainnav"); return n.scrollWidth > n.clientWidth + 1; })()`); cut {
		t.Errorf("the top navigation does not fit the top bar")
	}
	if rows > 0 {
		if h := eval[float64](b, `Math.max(...[...document.querySelectorAll("main table.table-list-grid tbody tr")].map((r) => r.getBoundingClientRect().height))`); h > 28 {
			t.Errorf("a table's row is %.0f px high, want a line (at most 28 px)", h)
		}
		if n := eval[int](b, `(() => { const end = document.querySelector(".statusbar").getBoundingClientRect().top; return [...document.querySelectorAll("main table.table-list-grid tbody tr")].filter((r) => r.getBoundingClientRect().bottom <= end).length; })()`); n < rows {
			t.Errorf("%d tables are on the first screen at %dx%d, want at least %d", n, viewWidth, viewHeight, rows)
		}
	}
}

// consoleScreens covers the screens of what the server supports besides
// items: one table through its tabs, then the pages of the namespace.
func consoleScreens(t *testing.T, b *browser) {
	s3 := t.TempDir()
	for _, bucket := range []string{"dynamoemu-exports", "exports"} { // the form's default and the one typed below, made first as on S3
		if err := os.Mkdir(filepath.Join(s3, bucket), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := startServerWith(t, emulator.Options{ExportDir: s3}, console.Options{Version: "browser-test"})
	const key, region = "app", "eu-west-1"
	api := func(op string, in any) map[string]any { t.Helper(); return s.apiAs(t, key, region, op, in) }
	api("CreateTable", pkTable("Scores", map[string]any{
		"StreamSpecification": map[string]any{"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"},
	}))
	scores := []int{10, 2, 33, 4, 150, 6, 71, 8, 9, 1000, 11, 12}
	s.putItems(t, key, region, "Scores", "p", len(scores), func(i int) int { return scores[i] })

	b.open(s, "#/")
	b.clickCSS("app · eu-west-1", `main .ns-strip button[data-namespace="app/eu-west-1"]`)
	b.wait("the table list", `document.getElementById("ns-button").textContent.includes("app") && document.documentElement.dataset.route === "#/" && document.querySelector("main table.table-list-grid tr[data-table=Scores]") !== null`)

	// Items: sorted by a column, numbers as numbers.
	b.open(s, "#/t/Scores/items")
	b.wait("the items", `document.querySelectorAll("main table.grid tbody tr").length === 12`)
	b.do("sort by score", chromedp.Click(`//main//table[contains(@class,"grid")]//th//button[contains(., "score")]`))
	b.wait("sorted by score", `document.querySelector("main table.grid th[aria-sort=ascending]")?.textContent.includes("score")`)
	got := eval[string](b, `[...document.querySelectorAll("main table.grid tbody tr")].map((r) => r.querySelector("td.t-n").textContent).join(" ")`)
	if want := "2 4 6 8 9 10 11 12 33 71 150 1000"; got != want {
		t.Errorf("sorted by score: got %s, want %s (numbers sorted as numbers)", got, want)
	}
	// Bulk delete: three rows selected, deleted together.
	for i := 1; i <= 3; i++ {
		b.clickCSS(fmt.Sprintf("select row %d", i), fmt.Sprintf(`main table.grid tbody tr:nth-child(%d) td.select-col input`, i))
	}
	b.wait("three selected", `document.querySelectorAll("main table.grid tbody tr.selected").length === 3 && [...document.querySelectorAll("main .toolbar button")].some((x) => x.textContent === "Delete 3 selected")`)
	b.shot("items-sorted-selected", "the items grid sorted by score (numbers as numbers, ▲ on the header), three rows selected for a bulk delete")
	b.click("Delete 3 selected", button("Delete 3 selected"))
	b.wait("the confirmation", `document.querySelector("dialog[open] h2")?.textContent === "Delete 3 items?"`)
	b.click("Delete", inDialog("Delete"))
	b.wait("nine items", `!document.querySelector("dialog[open]") && document.querySelectorAll("main table.grid tbody tr").length === 9`)
	if n := s.count(t, key, region, "Scores"); n != 9 {
		t.Errorf("after the bulk delete the table holds %d items, want 9", n)
	}
	if still := eval[string](b, `document.querySelector("main table.grid tbody tr td.t-n").textContent`); still != "8" {
		t.Errorf("after deleting 2, 4 and 6 the first score shown is %s, want 8 (the sort kept)", still)
	}

	// Purge: every item, the table kept.
	b.click("Purge…", button("Purge…"))
	b.wait("the purge dialog", `document.querySelector("dialog[open] h2")?.textContent === "Purge Scores?"`)
	b.do("type the name", chromedp.SendKeys(chromedp.CSS(`dialog[open] input[aria-label="Table name"]`), "Scores"))
	b.shot("purge", "purging a table: every item deleted through the write path (the stream records them), the table, its indexes and settings kept; the name typed to confirm")
	b.click("Purge", inDialog("Purge"))
	b.wait("no items", `!document.querySelector("dialog[open]") && document.querySelector("main .empty h3")?.textContent === "No items yet"`)
	if n := s.count(t, key, region, "Scores"); n != 0 {
		t.Errorf("after the purge the table holds %d items, want 0", n)
	}
	s.putItems(t, key, region, "Scores", "p", 5, func(i int) int { return i })

	// Backups and point-in-time recovery.
	b.open(s, "#/t/Scores/backups")
	b.wait("recovery off", `document.querySelector("main .pitr h2")?.textContent.includes("off")`)
	b.click("Enable recovery", button("Enable recovery"))
	b.wait("recovery on", `document.querySelector("main .pitr h2")?.textContent.includes("enabled") && document.querySelector("main .pitr .stats")?.textContent.includes("Latest restorable")`)
	b.fill(`main input[aria-label="Backup name"]`, "before-changes")
	b.click("Create backup", button("Create backup"))
	b.wait("the backup", `document.querySelector('main table.backups tr[data-backup="before-changes"]')?.textContent.includes("AVAILABLE")`)
	backups := api("ListBackups", map[string]any{"TableName": "Scores"})["BackupSummaries"].([]any)
	if len(backups) != 1 || backups[0].(map[string]any)["BackupName"] != "before-changes" {
		t.Errorf("ListBackups: got %v, want the backup before-changes", backups)
	}
	_ = eval[bool](b, `(document.querySelector("main .backups-panel").scrollIntoView({block: "end"}), true)`)
	b.shot("backups", "Backups & PITR: point-in-time recovery on (its window on the emulator's clock, a restore to any second), an on-demand backup with restore and delete")
	// Restore to the latest restorable time, into a new table.
	b.fill(`main input[aria-label="New table name"]`, "Scores-pitr")
	b.clickCSS("latest restorable time", `main input[aria-label="The latest restorable time"]`)
	b.click("Restore to this time", button("Restore to this time"))
	b.wait("the restored table", `document.documentElement.dataset.route === "#/t/Scores-pitr/overview"`)
	if n := s.count(t, key, region, "Scores-pitr"); n != 5 {
		t.Errorf("the table restored to the latest time holds %d items, want 5", n)
	}
	// Restore the backup, from its row.
	b.open(s, "#/t/Scores/backups")
	b.wait("the backup row", `document.querySelector('main table.backups tr[data-backup="before-changes"]') !== null`)
	b.do("restore the backup", chromedp.Click(`//main//table[contains(@class,"backups")]//button[normalize-space()="Restore…"]`))
	b.wait("the restore dialog", `document.querySelector("dialog[open] h2")?.textContent === "Restore before-changes"`)
	b.fill(`dialog[open] input[aria-label="New table name"]`, "Scores-backup")
	b.click("Restore", inDialog("Restore"))
	b.wait("the table from the backup", `document.documentElement.dataset.route === "#/t/Scores-backup/overview"`)
	if n := s.count(t, key, region, "Scores-backup"); n != 5 {
		t.Errorf("the table restored from the backup holds %d items, want 5", n)
	}

	// Exports, then an import of the export as a new table.
	b.open(s, "#/t/Scores/exports")
	b.wait("the export form", `document.querySelector("main .export-form form") !== null`)
	b.fill(`main input[aria-label="S3 bucket"]`, "exports")
	b.click("Export", button("Export"))
	b.wait("the export", `document.querySelector("main table.exports tbody tr")?.textContent.includes("COMPLETED")`)
	b.shot("exports", "a table's Exports tab: a full export to S3 (the export directory), done, with its item count, size and where its files are")
	b.open(s, "#/transfers")
	b.wait("the export on the transfers page", `document.querySelector("main table.exports tbody tr button") !== null`)
	b.do("import the export", chromedp.Click(`//main//table[contains(@class,"exports")]//button[normalize-space()="Import…"]`))
	b.wait("the import form filled", `document.querySelector('main input[aria-label="Import partition key"]').value === "pk" && document.querySelector('main input[aria-label="Import S3 key prefix"]').value.endsWith("/data/")`)
	b.fill(`main input[aria-label="Import table name"]`, "Scores-imported")
	b.click("Import", button("Import"))
	b.wait("the import", `document.querySelector("main table.imports tbody tr")?.textContent.includes("COMPLETED")`)
	if n := s.count(t, key, region, "Scores-imported"); n != 5 {
		t.Errorf("the imported table holds %d items, want 5", n)
	}
	_ = eval[bool](b, `(document.querySelector("main").scrollTop = 0) === 0`)
	b.shot("transfers", "Exports & imports: the namespace's exports and imports; the import form filled from an export's row (its data folder and its table's keys), imported into a new table")

	// A global-table replica in another region, and a switch to it.
	b.open(s, "#/t/Scores/replicas")
	b.wait("no replicas", `document.querySelector("main .replicas")?.textContent.includes("No replicas")`)
	b.fill(`main select[aria-label="Replica region"]`, "us-east-2")
	b.click("Add replica", button("Add replica"))
	b.wait("the replica", `document.querySelector('main .replicas tr[data-region="us-east-2"]') !== null`)
	if names := s.apiAs(t, key, "us-east-2", "ListTables", map[string]any{})["TableNames"].([]any); len(names) != 1 || names[0] != "Scores" {
		t.Errorf("in us-east-2 got tables %v, want the replica Scores", names)
	}
	b.shot("replicas", "a table's global-table replicas: one added in us-east-2 (version 2019.11.21), with a one-click switch to its namespace")
	b.do("open the replica", chromedp.Click(`//main//tr[@data-region="us-east-2"]//button[normalize-space()="Open there"]`))
	b.wait("the replica's items", `document.documentElement.dataset.route === "#/t/Scores/items" && document.getElementById("ns-button").textContent.includes("us-east-2") && document.querySelectorAll("main table.grid tbody tr").length === 5`)
	b.open(s, "#/")
	b.clickCSS("back to eu-west-1", `main .ns-strip button[data-namespace="app/eu-west-1"]`)
	b.wait("eu-west-1's tables", `document.getElementById("ns-button").textContent.includes("eu-west-1") && document.documentElement.dataset.route === "#/" && document.querySelectorAll("main table.table-list-grid tbody tr").length === 4`)

	// Contributor Insights: on, traffic, the top keys.
	b.open(s, "#/t/Scores/contributors")
	b.wait("insights off", `document.querySelector('main .ci-panel[data-resource="table"]')?.textContent.includes("DISABLED")`)
	b.do("enable", chromedp.Click(`//main//section[@data-resource="table"]//button[normalize-space()="Enable"]`))
	b.wait("insights on", `/ENABL(ING|ED)/.test(document.querySelector('main .ci-panel[data-resource="table"]')?.textContent)`)
	for i := range 6 {
		api("GetItem", map[string]any{"TableName": "Scores", "Key": map[string]any{"pk": map[string]string{"S": fmt.Sprintf("p%02d", i%2)}}})
	}
	b.click("Refresh", button("Refresh"))
	b.wait("the top keys", `document.querySelector('main .ci-panel[data-resource="table"] figure svg') !== null && document.querySelector('main .ci-panel[data-resource="table"]').textContent.includes("p00")`)
	b.shot("contributor-insights", "Contributor Insights on the table: the most accessed partition keys (p00 and p01, read 3 times each: 1.5 units), from GET /dynamoemu/contributors")

	// Snapshots: take one, change things, see the diff, rewind.
	b.nav('s', "#/snapshots")
	b.wait("no snapshots", `document.querySelector("main .empty h3")?.textContent === "No snapshots"`)
	b.click("Take snapshot", button("Take snapshot"))
	b.wait("the snapshot and its diff", `document.querySelector("main table.snapshots tr[data-snapshot]") !== null && document.querySelector("main .diff-panel")?.textContent.includes("no change")`)
	api("PutItem", map[string]any{"TableName": "Scores", "Item": map[string]any{"pk": map[string]string{"S": "p00"}, "score": map[string]string{"N": "99"}}})
	api("PutItem", map[string]any{"TableName": "Scores", "Item": map[string]any{"pk": map[string]string{"S": "new"}, "score": map[string]string{"N": "1"}}})
	api("DeleteItem", map[string]any{"TableName": "Scores", "Key": map[string]any{"pk": map[string]string{"S": "p01"}}})
	api("CreateTable", pkTable("Scratch", nil))
	b.press('r')
	b.wait("the diff", `document.querySelector('main .diff-tables tr[data-table="Scores"]')?.textContent.includes("changed") && document.querySelector('main .diff-tables tr[data-table="Scratch"]')?.textContent.includes("added")`)
	diff := eval[string](b, `document.querySelector('main .diff-tables tr[data-table="Scores"]').textContent`)
	for _, want := range []string{"+1", "−1", "~1"} {
		if !strings.Contains(diff, want) {
			t.Errorf("the diff of Scores %q lacks %s", diff, want)
		}
	}
	if items := eval[string](b, `document.querySelector("main .diff-items")?.textContent || ""`); !strings.Contains(items, "99") || !strings.Contains(items, "new") {
		t.Errorf("the item diff %q lacks the modified score 99 or the added item new", items)
	}
	// The changed tables first, the unchanged ones folded away after the items.
	if first := eval[[]string](b, `[...document.querySelector("main .diff-tables").querySelectorAll("tbody tr")].map((r) => r.dataset.table)`); !slices.Equal(first, []string{"Scores", "Scratch"}) {
		t.Errorf("the first tables of the diff are %q, want the changed ones, Scores and Scratch", first)
	}
	if folded := eval[[]string](b, `[...document.querySelectorAll("main details.diff-unchanged:not([open]) tr[data-table]")].map((r) => r.dataset.table)`); !slices.Equal(folded, []string{"Scores-backup", "Scores-imported", "Scores-pitr"}) {
		t.Errorf("the folded unchanged tables are %q, want Scores-backup, Scores-imported and Scores-pitr", folded)
	}
	if !eval[bool](b, `!!(document.querySelector("main .diff-items").compareDocumentPosition(document.querySelector("main details.diff-unchanged")) & Node.DOCUMENT_POSITION_FOLLOWING)`) {
		t.Errorf("the unchanged tables come before the item diff")
	}
	b.shot("snapshots-diff", "Snapshots: one taken, then a diff with now: Scores changed (+1 −1 ~1, item by item with old → new), Scratch added")
	b.do("rewind", chromedp.Click(`//main//table[contains(@class,"snapshots")]//button[normalize-space()="Rewind…"]`))
	b.click("Rewind (confirm)", inDialog("Rewind"))
	b.wait("no change since", `!document.querySelector("dialog[open]") && document.querySelector("main .diff-panel")?.textContent.includes("no change")`)
	if names := api("ListTables", map[string]any{})["TableNames"].([]any); len(names) != 4 {
		t.Errorf("after the rewind got tables %v, want the 4 of the snapshot (Scratch gone)", names)
	}

	// PartiQL: an insert with parameters, a select, the history.
	b.nav('p', "#/partiql")
	b.fill(`main textarea[aria-label="PartiQL statement"]`, `INSERT INTO "Scores" VALUE {'pk': ?, 'score': ?}`)
	b.fill(`main textarea[aria-label="Parameters"]`, `["from-partiql", 12345678901234567890.5]`)
	b.click("Run", button("Run"))
	b.wait("the insert", `document.querySelector("main .partiql-result .empty h3")?.textContent === "Done" && document.querySelectorAll("main .history-list li").length === 1`)
	if got := s.apiAs(t, key, region, "GetItem", map[string]any{"TableName": "Scores", "Key": map[string]any{"pk": map[string]string{"S": "from-partiql"}}})["Item"]; attr(got.(map[string]any), "score", "N") != "12345678901234567890.5" {
		t.Errorf("the item PartiQL inserted is %v, want score 12345678901234567890.5", got)
	}
	b.fill(`main textarea[aria-label="PartiQL statement"]`, `SELECT * FROM "Scores" WHERE score > ?`)
	b.fill(`main textarea[aria-label="Parameters"]`, `[2]`)
	b.click("Run", button("Run"))
	b.wait("the select", `document.querySelectorAll("main .partiql-result table.grid tbody tr").length === 3 && document.querySelectorAll("main .history-list li").length === 2`)
	_ = eval[bool](b, `(document.querySelector("main .partiql-result").scrollIntoView({block: "end"}), true)`)
	b.shot("partiql", "the PartiQL editor: a SELECT with a parameter, its items in the grid (editable: the statement reads one table), and the history of statements run")
	b.clickCSS("the first statement of the history", `main .history-list li:nth-child(2) button`)
	b.wait("the statement loaded back", `document.querySelector('main textarea[aria-label="PartiQL statement"]').value.startsWith("INSERT")`)

	// Conventions: tables with their role and mode; a refused batch names each item.
	tags := func(role, mode string) map[string]any {
		return map[string]any{"Tags": []map[string]string{{"Key": "dynamoemu:conventions", "Value": role}, {"Key": "dynamoemu:conventions-mode", "Value": mode}}}
	}
	ledger := func(name string, extra map[string]any) map[string]any {
		in := map[string]any{
			"TableName": name, "BillingMode": "PAY_PER_REQUEST",
			"AttributeDefinitions": []map[string]string{{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}},
			"KeySchema":            []map[string]string{{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}},
		}
		for k, v := range extra {
			in[k] = v
		}
		return in
	}
	api("CreateTable", ledger("LedgerWarn", tags("data", "warn")))
	api("CreateTable", ledger("LedgerEnforced", tags("data", "enforce")))
	item := func(pk string) map[string]any {
		return map[string]any{"PutRequest": map[string]any{"Item": map[string]any{"pk": map[string]string{"S": pk}, "sk": map[string]string{"S": "x"}}}}
	}
	api("BatchWriteItem", map[string]any{"RequestItems": map[string]any{"LedgerWarn": []any{item("no-tenant"), item("ORDER#")}}})
	_, status := s.apiIn(t, key, region, "BatchWriteItem", map[string]any{"RequestItems": map[string]any{"LedgerEnforced": []any{item("no-tenant-either")}}})
	if status != http.StatusBadRequest {
		t.Errorf("a write that breaks the rules of an enforced table: got status %d, want 400", status)
	}
	b.open(s, "#/conventions")
	b.wait("the checked tables and the entries", `document.querySelector("main .conv-checked tr[data-table=LedgerEnforced]")?.textContent.includes("enforce") && document.querySelector("main table.conv-entries")?.textContent.includes("RequestItems")`)
	checked := eval[string](b, `document.querySelector("main .conv-checked tr[data-table=LedgerWarn]").textContent`)
	if !strings.Contains(checked, "data") || !strings.Contains(checked, "warn") || !strings.Contains(checked, "tags") {
		t.Errorf("the checked table LedgerWarn shows %q, want its role (data), mode (warn) and source (tags)", checked)
	}
	entries := eval[string](b, `[...document.querySelectorAll("main table.conv-entries tbody tr")].map((r) => r.textContent).join("\n")`)
	for _, want := range []string{`RequestItems["LedgerWarn"][1]`, `RequestItems["LedgerEnforced"][0]`, "Why:", "no-tenant-either", "refused"} {
		if !strings.Contains(entries, want) {
			t.Errorf("the conventions entries lack %q:\n%s", want, entries)
		}
	}
	if ids := eval[int](b, `document.querySelectorAll("main table.conv-entries .link-button").length`); ids < 3 {
		t.Errorf("%d entries show their request id, want every one (3)", ids)
	}
	b.shot("conventions-tab", "the conventions tab: the totals, each checked table with its role, mode and where its policy comes from (here its tags)")
	_ = eval[bool](b, `(document.querySelector('main .conv-table[data-table="LedgerWarn"] table.conv-entries').scrollIntoView({block: "start"}), true)`)
	b.shot("conventions-entries", "the conventions tab, further down: every refusal and warning with rule id, key, position in the batch (RequestItems[...][i]), message, the rule's reason, and the request id (click to copy)")
	b.do("only refusals", chromedp.Click(`//main//div[contains(@class,"conv-filter")]//button[normalize-space()="Refused"]`))
	b.wait("only the refusals", `document.querySelectorAll("main table.conv-entries").length === 1 && [...document.querySelectorAll("main table.conv-entries tbody tr")].every((r) => r.textContent.includes("no-tenant-either") && r.textContent.includes("refused"))`)

	// The footer clock on a slow page: the page stalls for 3 s while
	// the emulator's answer is in flight; its clock is in step, and the
	// page must not say otherwise.
	b.open(s, "#/clock")
	inStep := eval[bool](b, `import("./js/app.js").then(async (m) => {
		const reading = m.readClock();
		const until = Date.now() + 3000;
		while (Date.now() < until) { /* a page busy with something else */ }
		await reading;
		return document.querySelector(".foot-clock .clock-skew") === null;
	})`)
	if !inStep {
		t.Errorf("after a slow reading the footer shows a clock skew of %q, want none (the clocks are in step)", eval[string](b, `document.querySelector(".foot-clock").textContent`))
	}
	b.wait("in step", `document.querySelector(".clock-offset")?.textContent.includes("In step")`)
	offsets := eval[string](b, `import("./js/app.js").then((m) => [m.clockOffset("2026-01-01T00:00:05Z", Date.parse("2026-01-01T00:00:00Z"), Date.parse("2026-01-01T00:00:09Z")),
		m.clockOffset("2026-01-01T00:00:20Z", Date.parse("2026-01-01T00:00:00Z"), Date.parse("2026-01-01T00:00:01Z")),
		m.clockOffset("2025-12-31T23:59:50Z", Date.parse("2026-01-01T00:00:00Z"), Date.parse("2026-01-01T00:00:01Z"))].join(" "))`)
	if offsets != "0 19000 -10000" {
		t.Errorf("clock offsets: got %s, want 0 (inside the round trip) 19000 (ahead) -10000 (behind)", offsets)
	}
}
