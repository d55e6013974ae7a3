package console_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dynamoemu/dynamoemu/cmd/internal/console"
	"github.com/dynamoemu/dynamoemu/emulator"
)

// consoleFit opens every screen of the console at 1280x800 with data
// that makes them wide (a table of 16 attributes, long values, an index,
// a stream handler with an error, a backup, a snapshot, a branch, a
// design, traffic) and finds none wider than its frame: nothing scrolls
// sideways, and no button, link or field sticks out of what clips it.
// Then the items grid of the 16-attribute table: the keys first and the
// most used attributes by default, as many as fit; columns chosen in its
// dialog (kept when the page comes back), and long values wrapped; never
// a sideways scroll.
func consoleFit(t *testing.T, b *browser) {
	s := wideServer(t)
	b.open(s, "#/")
	b.clickCSS("app · eu-west-1", `main .ns-strip button[data-namespace="app/eu-west-1"]`)
	b.wait("the table list", `document.getElementById("ns-button").textContent.includes("app") && document.querySelector("main table.table-list-grid tr[data-table=Wide]") !== null`)
	b.watchCalls()

	for _, sc := range wideScreens {
		b.do("go to "+sc.hash, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`location.hash = %q`, sc.hash)))
		b.wait(sc.hash, fmt.Sprintf(`document.documentElement.dataset.route === %q && !!(%s)`, sc.hash, sc.ready))
		if sc.hash == "#/t/Wide/query" {
			b.click("Scan", `//main//form[contains(@class,"builder")]//button[normalize-space()="Scan"]`)
			b.click("Run", `//main//form[contains(@class,"builder")]//button[contains(normalize-space(),"Run")]`)
			b.wait("the results", `document.querySelectorAll("main .query-result table.grid tbody tr").length > 0`)
		}
		if bad := fitProblems(b); len(bad) > 0 {
			t.Errorf("%s at %dx%d: %q", sc.hash, viewWidth, viewHeight, bad)
		}
		name := strings.NewReplacer("#/t/Wide/", "table-", "#/", "").Replace(sc.hash)
		if name == "" {
			name = "tables"
		}
		b.shot("fit-"+name, sc.hash+" at 1280x800 with wide data: nothing wider than its frame")
	}
	for _, label := range []string{"Disable", "Edit", "Delete…"} {
		if !eval[bool](b, fmt.Sprintf(`(() => { const btn = [...document.querySelectorAll("main table.mappings button")].find((x) => x.textContent === %q);
			if (!btn) return false; const r = btn.getBoundingClientRect(), w = document.querySelector("main table.mappings").closest(".grid-wrap").getBoundingClientRect();
			return r.width > 0 && r.left >= w.left && r.right <= w.right; })()`, label)) {
			t.Errorf("the stream handler's %s button is not whole in the frame", label)
		}
	}

	// The items grid of 16 attributes: keys first, then the most used,
	// as many as fit; nothing sideways.
	b.do("go to items", chromedp.Evaluate[chromedp.Void](`location.hash = "#/t/Wide/items"`))
	b.wait("the items", `document.documentElement.dataset.route === "#/t/Wide/items" && document.querySelectorAll("main table.grid tbody tr").length === 25`)
	heads := func() []string {
		return eval[[]string](b, `[...document.querySelectorAll("main table.grid thead th .col-name")].map((e) => e.textContent)`)
	}
	got := heads()
	// The keys take the width their values need (CUSTOMER#0000-with-a-long-identifier
	// and ORDER#2026-05-01T10:00:00.000Z: about 470 px of the grid's 990), so two
	// attributes of 120 px fit beside them.
	if len(got) < 4 || got[0] != "pk" || got[1] != "sk" {
		t.Fatalf("the default columns are %q, want pk and sk first, then at least two more", got)
	}
	if cut := cutKeys(b); len(cut) > 0 {
		t.Errorf("key values cut in the items grid of Wide: %q", cut)
	}
	for _, rare := range []string{"note", "legacyFlag"} {
		for _, g := range got[:len(got)-1] {
			if g == rare {
				t.Errorf("the default columns %q show %s (in few items) before a column every item has", got, rare)
			}
		}
	}
	if more := eval[string](b, `document.querySelector("main table.grid thead th.more-col")?.textContent || ""`); !strings.HasPrefix(more, "+") {
		t.Errorf("the grid shows %d of 16 attributes and no \"+N more\" header: %q", len(got), more)
	}
	checkGridFits(t, b, "the default columns")
	b.shot("items-16-default", "a table of 16 attributes at 1280x800: the keys and the most used attributes that fit, the rest counted in \"+N more\"; no sideways scroll")

	// Columns chosen: the keys, amount, owner, title, note; long values wrapped.
	b.click("Columns", `//main//button[contains(@class,"columns-button")]`)
	b.wait("the column dialog", `document.querySelector("dialog[open] ul.column-choice")`)
	_ = eval[bool](b, `(() => { for (const box of document.querySelectorAll("dialog[open] ul.column-choice input")) box.checked = ["amount", "owner", "title", "note"].includes(box.dataset.attr); return true; })()`)
	b.shot("items-columns", "choosing the columns of the items grid: every attribute of the page, the most used first, with how many items have it")
	b.click("Show", inDialog("Show"))
	b.wait("the chosen columns", `!document.querySelector("dialog[open]") && [...document.querySelectorAll("main table.grid thead th .col-name")].map((e) => e.textContent).join() === "pk,sk,amount,owner,title,note"`)
	checkGridFits(t, b, "the chosen columns")
	b.click("Wrap", `//main//button[normalize-space()="Wrap"]`)
	b.wait("wrapped", `document.querySelector("main table.grid.wrap-cells")`)
	if h := eval[float64](b, `[...document.querySelectorAll("main table.grid tbody tr:first-child td")].find((td) => td.textContent.startsWith("a long description")).getBoundingClientRect().height`); h < 40 {
		t.Errorf("a long value wrapped is %.0f px high, want several lines", h)
	}
	checkGridFits(t, b, "the chosen columns, wrapped")
	b.shot("items-16-chosen-wrapped", "the items grid with its columns chosen (pk, sk, amount, owner, title, note) and long values wrapped over a few lines, in a 1280x800 window")
	// Back later, the choice holds.
	b.nav('1', "#/t/Wide/overview")
	b.nav('2', "#/t/Wide/items")
	b.wait("the chosen columns again", `[...document.querySelectorAll("main table.grid thead th .col-name")].map((e) => e.textContent).join() === "pk,sk,amount,owner,title,note" && document.querySelector("main table.grid.wrap-cells")`)
	b.click("Columns", `//main//button[contains(@class,"columns-button")]`)
	b.wait("the column dialog", `document.querySelector("dialog[open] ul.column-choice")`)
	b.click("Default", inDialog("Default"))
	b.wait("the default columns again", `!document.querySelector("dialog[open]") && [...document.querySelectorAll("main table.grid thead th .col-name")].map((e) => e.textContent).join() === `+fmt.Sprintf("%q", strings.Join(got, ",")))
	if failed := b.failedCalls(); len(failed) > 0 {
		t.Errorf("calls failed: %q", failed)
	}
}

// checkGridFits fails t when the items grid scrolls sideways or a column
// is narrower than a few characters.
func checkGridFits(t *testing.T, b *browser, what string) {
	t.Helper()
	if bad := fitProblems(b); len(bad) > 0 {
		t.Errorf("%s: %q", what, bad)
	}
	if w := eval[float64](b, `Math.min(...[...document.querySelectorAll("main table.grid thead th")].filter((th) => !th.matches(".select-col, .actions-col, .more-col")).map((th) => th.getBoundingClientRect().width))`); w < 60 {
		t.Errorf("%s: a column is %.0f px wide, want room for a value", what, w)
	}
}

// fitProblems lists what of the page is wider than its frame at the
// viewport's size: a scroll container (the document, main, a grid) that
// scrolls sideways, and a control (button, link, field) that sticks out
// of the viewport or of an ancestor that clips it.
func fitProblems(b *browser) []string {
	b.t.Helper()
	return eval[[]string](b, `(() => {
		const out = [], name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : "");
		const scrollers = [document.documentElement, ...document.querySelectorAll("main, main *")].filter((e) => e === document.documentElement || /auto|scroll/.test(getComputedStyle(e).overflowX));
		for (const e of scrollers) if (e.scrollWidth > e.clientWidth + 1) out.push(name(e) + " scrolls sideways: " + e.scrollWidth + " > " + e.clientWidth);
		for (const c of document.querySelectorAll("main button, main a, main input, main select, main textarea")) {
			const r = c.getBoundingClientRect();
			if (r.width === 0 || r.height === 0 || c.closest("details:not([open])")) continue;
			if (r.right > innerWidth + 1) { out.push(name(c) + " " + JSON.stringify(c.textContent.trim().slice(0, 30)) + " ends past the window at " + Math.round(r.right)); continue; }
			for (let a = c.parentElement; a && a !== document.body; a = a.parentElement) {
				if (getComputedStyle(a).overflowX === "visible") continue;
				const ar = a.getBoundingClientRect();
				if (r.right > ar.right + 1 || r.left < ar.left - 1) { out.push(name(c) + " " + JSON.stringify(c.textContent.trim().slice(0, 30)) + " is cut by " + name(a)); break; }
			}
		}
		return out;
	})()`)
}

func ptr[T any](v T) *T { return &v }

// wideServer starts a server whose namespace app/eu-west-1 holds what
// makes every screen wide: the table Wide (16 attributes, long values,
// an index, a stream), a backup, traffic in the report with a design, a
// stream handler whose function fails, a snapshot and a branch.
func wideServer(t *testing.T) *server {
	t.Helper()
	s := startServerWith(t, emulator.Options{ExportDir: t.TempDir()}, console.Options{Version: "browser-test"})
	const key, region = "app", "eu-west-1"
	api := func(op string, in any) map[string]any { t.Helper(); return s.apiAs(t, key, region, op, in) }
	if err := s.emu.Reports().SetDesign([]byte(designPosts)); err != nil {
		t.Fatal(err)
	}
	s.emu.Reports().SetReporting(true)
	api("CreateTable", map[string]any{
		"TableName": "Wide", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}, {"AttributeName": "status", "AttributeType": "S"}},
		"KeySchema":            []map[string]string{{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}},
		"GlobalSecondaryIndexes": []map[string]any{{"IndexName": "byStatusAndAVeryLongIndexNameIndeed", "Projection": map[string]string{"ProjectionType": "ALL"},
			"KeySchema": []map[string]string{{"AttributeName": "status", "KeyType": "HASH"}}}},
		"StreamSpecification": map[string]any{"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"},
	})
	S := func(v string) map[string]string { return map[string]string{"S": v} }
	N := func(v int) map[string]string { return map[string]string{"N": fmt.Sprint(v)} }
	long := strings.Repeat("a long description that goes on and on without end ", 6)
	for i := 0; i < 30; i++ {
		item := map[string]any{
			"pk": S(fmt.Sprintf("CUSTOMER#%04d-with-a-long-identifier", i)), "sk": S(fmt.Sprintf("ORDER#2026-05-%02dT10:00:00.000Z", i%28+1)),
			"status": S("SHIPPED"), "title": S(long), "owner": S(fmt.Sprintf("user%d@example.com", i)), "createdAt": S("2026-05-01T10:00:00.000Z"),
			"updatedAt": S("2026-05-02T11:30:00.000Z"), "amount": N(1000 + i), "quantity": N(i), "region": S("eu-west-1"),
			"tags": map[string]any{"SS": []string{"gift", "express", "fragile"}}, "address": map[string]any{"M": map[string]any{"street": S("1 Long Street Name"), "city": S("Somewhere")}},
			"lines":    map[string]any{"L": []any{S("line one"), S("line two"), N(3)}},
			"priority": N(i % 3),
		}
		if i < 8 {
			item["note"] = S("a note only a few items have")
		}
		if i < 3 {
			item["legacyFlag"] = map[string]bool{"BOOL": true}
		}
		api("PutItem", map[string]any{"TableName": "Wide", "Item": item})
	}
	api("CreateBackup", map[string]any{"TableName": "Wide", "BackupName": "a-backup-with-a-rather-long-name-for-the-grid"})
	api("Query", map[string]any{"TableName": "Wide", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": map[string]any{":p": S("CUSTOMER#0001-with-a-long-identifier")}})
	api("Scan", map[string]any{"TableName": "Wide", "FilterExpression": "quantity > :q", "ExpressionAttributeValues": map[string]any{":q": N(5)}})
	arn := api("DescribeTable", map[string]any{"TableName": "Wide"})["Table"].(map[string]any)["LatestStreamArn"].(string)
	s.emu.Streams().SetFunction("an-indexer-function-with-a-long-name", func(context.Context, []byte) ([]byte, error) {
		return nil, errors.New("the downstream index refused the batch: a long error message that goes on to fill the row of the grid")
	})
	fn, one, retries := "an-indexer-function-with-a-long-name", int64(1), int64(0)
	if _, err := s.emu.Streams().CreateMapping(emulator.EventSourceMapping{EventSourceArn: &arn, FunctionName: &fn, BatchSize: &one, MaximumRetryAttempts: &retries, StartingPosition: ptr("TRIM_HORIZON")}); err != nil {
		t.Fatal(err)
	}
	_ = s.emu.Branches().Snapshot()
	if _, err := s.emu.Branches().Fork(key+"/"+region, "featurebranch"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitScale(30*time.Second))
	defer cancel()
	_ = s.emu.Streams().Drain(ctx) // the handler's error shows in its row

	return s
}

// wideScreens is every screen of the console on wideServer's data, with
// what shows it drawn.
var wideScreens = []struct{ hash, ready string }{
	{"#/", `document.querySelector("main table.table-list-grid tr[data-table=Wide]")`},
	{"#/t/Wide/overview", `document.querySelector("main table.indexes")`},
	{"#/t/Wide/items", `document.querySelectorAll("main table.grid tbody tr").length === 25`},
	{"#/t/Wide/query", `document.querySelector("main form.builder")`},
	{"#/t/Wide/stream", `document.querySelector("main .page")`},
	{"#/t/Wide/backups", `document.querySelector("main table.backups tbody tr")`},
	{"#/t/Wide/exports", `document.querySelector("main .page")`},
	{"#/t/Wide/replicas", `document.querySelector("main .page")`},
	{"#/t/Wide/contributors", `document.querySelector("main .page")`},
	{"#/t/Wide/monitor", `document.querySelector('main figure.metric[data-metric="items"]')`},
	{"#/partiql", `document.querySelector("main .page")`},
	{"#/snapshots", `document.querySelector("main table.snapshots tr[data-snapshot]")`},
	{"#/branches", `document.querySelector('main table.branches tr[data-branch="featurebranch"]')`},
	{"#/transfers", `document.querySelector("main .page")`},
	{"#/clock", `document.querySelector("main .page")`},
	{"#/conventions", `document.querySelector("main .page")`},
	{"#/insights", `document.querySelector("main .page table.grid")`},
	{"#/handlers", `document.querySelector("main table.mappings tr.mapping-error")`},
}
