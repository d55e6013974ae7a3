package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dynamoemu/dynamoemu/cmd/internal/console"
	"github.com/dynamoemu/dynamoemu/emulator"
)

// consoleControls uses the controls the AWS console has and the first
// screens lacked, and the screens of branches and stream handlers, at
// 1280x800: the attribute form of the item editor, CSV downloads of
// items and of PartiQL results, a global secondary index added and
// deleted, the billing mode switched both ways, deletion protection on
// and off, a namespace forked, diffed against its base and dropped, and
// an event source mapping's state and last result. No call the page
// makes fails.
func consoleControls(t *testing.T, b *browser) {
	s := startServerWith(t, emulator.Options{}, console.Options{Version: "browser-test"})
	const key, region = "app", "eu-west-1"
	api := func(op string, in any) map[string]any { t.Helper(); return s.apiAs(t, key, region, op, in) }
	api("CreateTable", pkTable("Items", map[string]any{
		"StreamSpecification": map[string]any{"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"},
	}))
	s.putItems(t, key, region, "Items", "p", 3, func(i int) int { return i * 10 })
	getItem := func(pk string) map[string]any {
		t.Helper()
		item, _ := api("GetItem", map[string]any{"TableName": "Items", "ConsistentRead": true, "Key": map[string]any{"pk": map[string]string{"S": pk}}})["Item"].(map[string]any)
		return item
	}
	describe := func() map[string]any {
		t.Helper()
		return api("DescribeTable", map[string]any{"TableName": "Items"})["Table"].(map[string]any)
	}

	b.open(s, "#/")
	b.clickCSS("app · eu-west-1", `main .ns-strip button[data-namespace="app/eu-west-1"]`)
	b.wait("the table list", `document.getElementById("ns-button").textContent.includes("app") && document.documentElement.dataset.route === "#/" && document.querySelector("main table.table-list-grid tr[data-table=Items]") !== null`)
	b.watchCalls()
	checkLaptopFit(t, b, 0)

	// The attribute form: a new item typed attribute by attribute.
	b.clickCSS("Items", `main table.table-list-grid tr[data-table="Items"] a`)
	b.wait("the items", `document.documentElement.dataset.route === "#/t/Items/items" && document.querySelectorAll("main table.grid tbody tr").length === 3`)
	b.press('n')
	b.wait("the item editor", `document.querySelector("dialog[open] textarea.code-input") !== null`)
	b.click("Form", `//dialog[@open]//button[normalize-space()="Form"]`)
	b.wait("the form", `document.querySelector('dialog[open] .attr-table tr[data-attr="pk"] .attr-value') !== null`)
	b.fill(`dialog[open] tr[data-attr="pk"] .attr-value`, "form-1")
	for _, a := range [][3]string{{"score", "N", "12345678901234567890.5"}, {"tags", "SS", `["a", "b"]`}, {"ok", "BOOL", "false"}, {"note", "S", "=1+1, \"quoted\""}} {
		b.click("Add attribute", `//dialog[@open]//button[normalize-space()="Add attribute"]`)
		b.fill(`dialog[open] .attr-table tbody tr:last-child .attr-name`, a[0])
		b.fill(`dialog[open] .attr-table tbody tr:last-child .attr-type`, a[1])
		b.fill(`dialog[open] .attr-table tbody tr:last-child .attr-value`, a[2])
	}
	b.wait("a valid item", `document.querySelector("dialog[open] .editor-status")?.textContent.includes("5 attributes · valid")`)
	b.shot("item-form", "the item editor's attribute form: name, type and value per attribute (a 38-digit number, a string set, a boolean)")
	b.click("Add item", inDialog("Add item"))
	b.wait("the new item", `!document.querySelector("dialog[open]") && document.querySelectorAll("main table.grid tbody tr").length === 4`)
	item := getItem("form-1")
	if got, _ := json.Marshal(item); attr(item, "score", "N") != "12345678901234567890.5" || attr(item, "ok", "BOOL") != "false" || attr(item, "tags", "SS") != "[a b]" {
		t.Errorf("the item the form saved is %s, want score 12345678901234567890.5, ok false and tags {a, b}", got)
	}
	// Edited in the form: a number changed, an attribute removed.
	b.do("open form-1", chromedp.Click(`//main//table[contains(@class,"grid")]//td[normalize-space()="form-1"]`))
	b.wait("the editor", `document.querySelector("dialog[open] textarea.code-input")?.value.includes("form-1")`)
	b.click("Form", `//dialog[@open]//button[normalize-space()="Form"]`)
	b.wait("the form", `document.querySelector('dialog[open] tr[data-attr="score"] .attr-value')?.value === "12345678901234567890.5"`)
	b.fill(`dialog[open] tr[data-attr="score"] .attr-value`, "not a number")
	b.wait("the error", `document.querySelector("dialog[open] .editor-status")?.textContent.includes("is not a number")`)
	b.fill(`dialog[open] tr[data-attr="score"] .attr-value`, "7")
	b.clickCSS("remove ok", `dialog[open] tr[data-attr="ok"] button`)
	b.click("Save", inDialog("Save"))
	b.wait("saved", `!document.querySelector("dialog[open]")`)
	if item := getItem("form-1"); attr(item, "score", "N") != "7" || item["ok"] != nil {
		t.Errorf("after the edit in the form the item is %v, want score 7 and no ok", item)
	}

	// CSV of the page of items.
	b.captureBlobs()
	b.click("CSV", button("CSV"))
	csv := b.lastBlob()
	if lines := strings.Split(csv, "\r\n"); len(lines) != 6 || !strings.HasPrefix(lines[0], "pk,") || !strings.Contains(csv, "form-1,") || !strings.Contains(csv, `"'=1+1, ""quoted"""`) {
		t.Errorf("the items' CSV is %q, want a header, 4 rows (the formula-like note quoted and defused) and a final CRLF", csv)
	}

	// CSV of a Scan's page of results.
	b.nav('3', "#/t/Items/query")
	b.click("Scan", `//main//form[contains(@class,"builder")]//button[normalize-space()="Scan"]`)
	b.click("Run", button("Run"))
	b.wait("the scan", `document.querySelectorAll("main .result table.grid tbody tr").length === 4`)
	b.click("CSV", button("CSV"))
	if csv := b.lastBlob(); !strings.HasPrefix(csv, "pk,") || strings.Count(csv, "\r\n") != 5 {
		t.Errorf("the Scan's CSV is %q, want a header and 4 rows", csv)
	}

	// PartiQL: the results on the first screen, and as CSV.
	b.nav('p', "#/partiql")
	b.fill(`main textarea[aria-label="PartiQL statement"]`, `SELECT * FROM "Items" WHERE score > ?`)
	b.fill(`main textarea[aria-label="Parameters"]`, `[5]`)
	b.click("Run", button("Run"))
	b.wait("the select", `document.querySelectorAll("main .partiql-result table.grid tbody tr").length === 3`)
	if below := eval[bool](b, `document.querySelector("main .partiql-result table.grid tbody tr:last-child").getBoundingClientRect().bottom > document.querySelector(".statusbar").getBoundingClientRect().top`); below {
		t.Errorf("the PartiQL results are below the fold at %dx%d", viewWidth, viewHeight)
	}
	checkLaptopFit(t, b, 0)
	b.shot("partiql-laptop", "the PartiQL editor at 1280x800: the statement, its parameters and the results on one screen, with a CSV download")
	b.click("Download CSV", button("Download CSV"))
	if csv := b.lastBlob(); !strings.HasPrefix(csv, "pk,score") || strings.Count(csv, "\r\n") != 4 {
		t.Errorf("the PartiQL CSV is %q, want pk, score and 3 rows", csv)
	}

	// A global secondary index added, then deleted, from the overview.
	b.nav('t', "#/")
	b.open(s, "#/t/Items/overview")
	b.watchCalls()
	_ = eval[bool](b, `(document.querySelector("main details.add-index").open = true, true)`)
	b.fill(`main input[aria-label="New index name"]`, "byKind")
	b.fill(`main input[aria-label="New index partition key"]`, "kind")
	b.fill(`main input[aria-label="New index sort key"]`, "score")
	b.fill(`main select[aria-label="New index sort key type"]`, "N")
	b.click("Add index", button("Add index"))
	b.wait("the index", `document.querySelector('main table.indexes tr[data-index="byKind"]') !== null`)
	gsis, _ := describe()["GlobalSecondaryIndexes"].([]any)
	if len(gsis) != 1 || gsis[0].(map[string]any)["IndexName"] != "byKind" {
		t.Fatalf("after adding the index, GlobalSecondaryIndexes is %v, want byKind", gsis)
	}
	// An index may be CREATING at first: the overview is read again (r), at most once a second, until it is ACTIVE.
	b.wait("the index active", `(() => {
		if (document.querySelector('main table.indexes tr[data-index="byKind"]')?.textContent.includes("ACTIVE")) return true;
		if (!(Date.now() - (window.__refreshed || 0) < 1000)) { window.__refreshed = Date.now(); document.dispatchEvent(new KeyboardEvent("keydown", {key: "r"})); }
		return false;
	})()`)
	_ = eval[bool](b, `(document.querySelector("main table.indexes").scrollIntoView({block: "center"}), true)`)
	b.shot("index-added", "a global secondary index added from the overview (UpdateTable GlobalSecondaryIndexUpdates Create), with the forms for capacity below")

	// Billing: provisioned (the index gets its capacity too), then on-demand.
	b.fill(`main input[aria-label="Read capacity units"]`, "7")
	b.fill(`main input[aria-label="Write capacity units"]`, "3")
	b.click("Switch to provisioned", button("Switch to provisioned"))
	b.wait("provisioned", `document.querySelector("main section.billing-panel")?.textContent.includes("Provisioned: 7 read and 3 write")`)
	d := describe()
	if pt := d["ProvisionedThroughput"].(map[string]any); fmt.Sprintf("%v %v", pt["ReadCapacityUnits"], pt["WriteCapacityUnits"]) != "7 3" {
		t.Errorf("after switching to provisioned the throughput is %v, want 7 and 3", pt)
	}
	b.click("Switch to on-demand", button("Switch to on-demand"))
	b.wait("on-demand", `document.querySelector("main section.billing-panel")?.textContent.includes("On-demand")`)
	if mode := describe()["BillingModeSummary"].(map[string]any)["BillingMode"]; mode != "PAY_PER_REQUEST" {
		t.Errorf("after switching back the billing mode is %v, want PAY_PER_REQUEST", mode)
	}
	b.do("delete the index", chromedp.Click(`//main//tr[@data-index="byKind"]//button[normalize-space()="Delete…"]`))
	b.click("Delete index", inDialog("Delete index"))
	b.wait("no index", `!document.querySelector("dialog[open]") && document.querySelector('main table.indexes tr[data-index="byKind"]') === null`)
	if gsis, _ := describe()["GlobalSecondaryIndexes"].([]any); len(gsis) != 0 {
		t.Errorf("after deleting the index, GlobalSecondaryIndexes is %v, want none", gsis)
	}

	// Deletion protection on, the delete button off; then off again.
	b.clickCSS("deletion protection", `main button.protection`)
	b.wait("protected", `document.querySelector("main button.protection")?.getAttribute("aria-pressed") === "true"`)
	if on, _ := describe()["DeletionProtectionEnabled"].(bool); !on || !eval[bool](b, `[...document.querySelectorAll("main .danger-zone button")].find((x) => x.textContent.includes("Delete table")).disabled`) {
		t.Errorf("deletion protection: got DeletionProtectionEnabled %v, want true and the delete button disabled", on)
	}
	_ = eval[bool](b, `(document.querySelector("main .danger-zone").scrollIntoView({block: "end"}), true)`)
	b.shot("deletion-protection", "deletion protection switched on from the overview (UpdateTable DeletionProtectionEnabled): the delete button is off until it is switched off")
	b.clickCSS("deletion protection off", `main button.protection`)
	b.wait("unprotected", `document.querySelector("main button.protection")?.getAttribute("aria-pressed") === "false"`)
	if on, _ := describe()["DeletionProtectionEnabled"].(bool); on {
		t.Errorf("deletion protection still on after switching it off")
	}

	// Branches: fork this namespace, write to the branch, diff, drop.
	b.nav('b', "#/branches")
	b.wait("the fork form", `document.querySelector('main select[aria-label="Base namespace"]')?.value === "app/eu-west-1"`)
	b.fill(`main input[aria-label="Branch name"]`, "t1")
	b.click("Fork", button("Fork"))
	b.wait("the branch and its diff", `document.querySelector('main table.branches tr[data-branch="t1"]') !== null && document.querySelector("main .branch-diff")?.textContent.includes("same as its base")`)
	s.apiAs(t, "t1", region, "PutItem", map[string]any{"TableName": "Items", "Item": map[string]any{"pk": map[string]string{"S": "only-in-branch"}}})
	s.apiAs(t, "t1", region, "CreateTable", pkTable("Scratch", nil))
	if got := getItem("only-in-branch"); got != nil {
		t.Errorf("a write to the branch shows in its base: %v", got)
	}
	b.press('r')
	b.wait("the branch's changes", `document.querySelector('main .branch-diff .diff-tables tr[data-table="Items"]')?.textContent.includes("+1") && document.querySelector('main .branch-diff .diff-tables tr[data-table="Scratch"]')?.textContent.includes("added")`)
	b.shot("branches", "Branches: app · eu-west-1 forked as t1, the branch diffed against its base (an item and a table added in the branch only)")
	b.do("drop t1", chromedp.Click(`//main//tr[@data-branch="t1"]//button[normalize-space()="Drop…"]`))
	b.click("Drop (confirm)", inDialog("Drop"))
	b.wait("no branches", `!document.querySelector("dialog[open]") && document.querySelector("main .empty h3")?.textContent === "No branches"`)
	if left := s.emu.Branches().List(); len(left) != 0 {
		t.Errorf("after the drop the branches are %v, want none", left)
	}

	// Stream handlers: a mapping of Items' stream to a Go function.
	var handled atomic.Int64
	s.emu.Streams().SetFunction("indexer", func(_ context.Context, event []byte) ([]byte, error) {
		var ev struct{ Records []json.RawMessage }
		if err := json.Unmarshal(event, &ev); err != nil {
			return nil, err
		}
		handled.Add(int64(len(ev.Records)))
		return nil, nil
	})
	arn := describe()["LatestStreamArn"].(string)
	fn, start := "indexer", "LATEST"
	if _, err := s.emu.Streams().CreateMapping(emulator.EventSourceMapping{EventSourceArn: &arn, FunctionName: &fn, StartingPosition: &start}); err != nil {
		t.Fatalf("CreateEventSourceMapping: %v", err)
	}
	b.nav('h', "#/handlers")
	b.wait("the mapping", `document.querySelector("main table.mappings tbody tr")?.textContent.includes("indexer") && document.querySelector("main table.mappings tbody tr").textContent.includes("Enabled")`)
	api("PutItem", map[string]any{"TableName": "Items", "Item": map[string]any{"pk": map[string]string{"S": "to-handle"}}})
	b.click("Drain", button("Drain"))
	b.wait("the batch handled", `document.querySelector("main table.mappings tbody tr")?.textContent.includes("OK") && document.querySelector("main table.mappings tbody tr td:nth-child(5)")?.textContent !== "0"`)
	if handled.Load() < 1 {
		t.Errorf("the function saw %d records, want the write", handled.Load())
	}
	b.click("Disable", `//main//table[contains(@class,"mappings")]//button[normalize-space()="Disable"]`)
	b.wait("disabled", `document.querySelector("main table.mappings tbody tr")?.textContent.includes("Disabled")`)
	if st := s.emu.Streams().Mappings(); len(st) != 1 || st[0].State != "Disabled" {
		t.Errorf("after Disable the mapping is %+v, want Disabled", st)
	}
	b.click("Enable", `//main//table[contains(@class,"mappings")]//button[normalize-space()="Enable"]`)
	b.wait("enabled", `document.querySelector("main table.mappings tbody tr")?.textContent.includes("Enabled")`)
	b.shot("stream-handlers", "Stream handlers: an event source mapping of Items' stream to a Go function, its state, last result and batch, counts and iterator age (refreshed while shown)")
	// Left, the view reads the mappings no more.
	b.nav('t', "#/")
	b.wait("the tables", `document.querySelector("main table.table-list-grid tr[data-table=Items]") !== null`)
	left := len(b.callOps())
	b.press('r')
	b.wait("a round trip", fmt.Sprintf(`window.__calls.slice(%d).some((c) => c.op.startsWith("GET /namespaces"))`, left))
	if ops := b.callOps()[left:]; strings.Contains(strings.Join(ops, " "), "/streams/mappings") {
		t.Errorf("after leaving the stream handlers view the page still read the mappings: %q", ops)
	}
	if failed := b.failedCalls(); len(failed) > 0 {
		t.Errorf("calls failed: %q", failed)
	}
}

// captureBlobs keeps the Blob of each download the page makes
// (URL.createObjectURL) in window.__blobs, and stops the download itself.
func (b *browser) captureBlobs() {
	b.t.Helper()
	_ = eval[bool](b, `(() => {
		window.__blobs = [];
		const make = URL.createObjectURL.bind(URL);
		URL.createObjectURL = (blob) => { window.__blobs.push(blob); return make(blob); };
		HTMLAnchorElement.prototype.click = function () { window.__downloaded = this.download; };
		return true;
	})()`)
}

// lastBlob waits for a download and returns its text.
func (b *browser) lastBlob() string {
	b.t.Helper()
	b.wait("a download", `window.__blobs.length > 0`)
	return eval[string](b, `window.__blobs.pop().text()`)
}
