package console_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/cmd/internal/console"
	"github.com/dynamoemu/dynamoemu/emulator"
)

// viewport sets the page's size in CSS pixels.
func (b *browser) viewport(w, h int64) {
	b.t.Helper()
	b.do(fmt.Sprintf("the viewport at %dx%d", w, h), chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: w, Height: h, DeviceScaleFactor: 1})
		return err
	}))
}

// blogApp makes the BlogApp table of the users-and-posts design
// (internal/insights/testdata/usersblog.design) as an application fills
// it: users, their posts (GSI1: USER#<id>, POST#<created>), comments
// keyed by their time and tags.
func blogApp(t *testing.T, s *server, key, region string) {
	t.Helper()
	api := func(op string, in any) map[string]any { t.Helper(); return s.apiAs(t, key, region, op, in) }
	api("CreateTable", map[string]any{
		"TableName": "BlogApp", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "PK", "AttributeType": "S"}, {"AttributeName": "SK", "AttributeType": "S"}, {"AttributeName": "GSI1PK", "AttributeType": "S"}, {"AttributeName": "GSI1SK", "AttributeType": "S"}},
		"KeySchema":            []map[string]string{{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}},
		"GlobalSecondaryIndexes": []map[string]any{{"IndexName": "GSI1", "Projection": map[string]string{"ProjectionType": "ALL"},
			"KeySchema": []map[string]string{{"AttributeName": "GSI1PK", "KeyType": "HASH"}, {"AttributeName": "GSI1SK", "KeyType": "RANGE"}}}},
	})
	S := func(v string) map[string]string { return map[string]string{"S": v} }
	put := func(item map[string]any) { api("PutItem", map[string]any{"TableName": "BlogApp", "Item": item}) }
	for u := 1; u <= 9; u++ {
		put(map[string]any{"PK": S(fmt.Sprintf("USER#u%d", u)), "SK": S("PROFILE"), "GSI1PK": S(fmt.Sprintf("EMAIL#user%d@example.com", u)), "GSI1SK": S(fmt.Sprintf("USER#u%d", u)),
			"userId": S(fmt.Sprintf("u%d", u)), "email": S(fmt.Sprintf("user%d@example.com", u)), "name": S(fmt.Sprintf("User %d", u))})
	}
	for p := 1; p <= 12; p++ {
		created := fmt.Sprintf("2026-11-%02dT09:%02d:00.000Z", p+10, p)
		post := fmt.Sprintf("POST#p%d", p)
		user := fmt.Sprintf("u%d", 7-p%2*4) // p7, p9, p11 and the other odd ones by u3; the even ones by u7
		if p == 7 {
			user = "u7"
		}
		put(map[string]any{"PK": S(post), "SK": S(post), "GSI1PK": S("USER#" + user), "GSI1SK": S("POST#" + created),
			"postId": S(fmt.Sprintf("p%d", p)), "userId": S(user), "title": S(fmt.Sprintf("Post number %d on single-table design", p)), "createdAt": S(created)})
		for c := 1; c <= 2; c++ {
			put(map[string]any{"PK": S(post), "SK": S(fmt.Sprintf("COMMENT#2026-11-%02dT1%d:00:00.000Z#c%d", p+10, c, c)),
				"commentId": S(fmt.Sprintf("c%d", c)), "userId": S("u1"), "text": S("a comment"), "createdAt": S(fmt.Sprintf("2026-11-%02dT1%d:00:00.000Z", p+10, c))})
		}
		put(map[string]any{"PK": S(post), "SK": S("TAG#dynamodb"), "GSI1PK": S("TAG#dynamodb"), "GSI1SK": S("POST#" + created), "tag": S("dynamodb")})
	}
}

// ledgerPK is the partition of ledgerApp's items.
const ledgerPK = "MASTER#acme-corporation-tenant"

// ledgerApp makes the Ledger table whose sort keys are long, as the
// framework's key design writes them (CATEGORY#<code>@<version>, about
// 60 characters), beside a few other attributes.
func ledgerApp(t *testing.T, s *server, key, region string) {
	t.Helper()
	api := func(op string, in any) map[string]any { t.Helper(); return s.apiAs(t, key, region, op, in) }
	api("CreateTable", map[string]any{
		"TableName": "Ledger", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}},
		"KeySchema":            []map[string]string{{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}},
	})
	S := func(v string) map[string]string { return map[string]string{"S": v} }
	for i := 1; i <= 6; i++ {
		api("PutItem", map[string]any{"TableName": "Ledger", "Item": map[string]any{
			"pk": S(ledgerPK), "sk": S(fmt.Sprintf("CATEGORY#product-category-electronics-accessories-%02d@%d", i, 10+i)),
			"name": S(fmt.Sprintf("Accessories %d", i)), "code": S(fmt.Sprintf("ACC-%02d", i)), "version": map[string]string{"N": fmt.Sprint(10 + i)},
			"tenantCode": S("acme-corporation-tenant"), "updatedBy": S("user@example.com")}})
	}
}

// cutKeys lists the key cells of the main grid whose value does not show
// whole (the cell's content is wider than the cell), with the column's
// name and the value.
func cutKeys(b *browser) []string {
	b.t.Helper()
	return eval[[]string](b, `(() => {
		const table = document.querySelector("main table.grid.fit"), out = [];
		const heads = [...table.querySelectorAll("thead th")];
		const keyCols = heads.map((th, i) => [th, i]).filter(([th]) => th.classList.contains("key-col"));
		for (const tr of table.querySelectorAll("tbody tr")) for (const [th, i] of keyCols) {
			const td = tr.children[i];
			if (td.scrollWidth > td.clientWidth) out.push(th.querySelector(".col-name").textContent + " " + JSON.stringify(td.textContent) + " " + td.scrollWidth + " > " + td.clientWidth);
		}
		return out;
	})()`)
}

// consoleGrid: the keys of a grid show whole. The items of the BlogApp
// table (a comment's sort key is COMMENT#<time>#<id>) at 1280x800 and
// 1920x1080, and a Query of its GSI1 for USER#u7 at both sizes: every
// key cell's value fits its cell, the grid still fits its frame, and the
// query's result offers Columns and Wrap as the items grid does.
func consoleGrid(t *testing.T, b *browser) {
	s := startServerWith(t, emulator.Options{}, console.Options{Version: "browser-test"})
	const key, region = "app", "eu-west-1"
	blogApp(t, s, key, region)
	ledgerApp(t, s, key, region)
	t.Cleanup(func() { b.viewport(viewWidth, viewHeight) })

	b.open(s, "#/")
	b.clickCSS("app · eu-west-1", `main .ns-strip button[data-namespace="app/eu-west-1"]`)
	b.wait("the table list", `document.getElementById("ns-button").textContent.includes("app") && document.querySelector("main table.table-list-grid tr[data-table=BlogApp]") !== null`)
	b.watchCalls()

	for _, size := range [][2]int64{{1280, 800}, {1920, 1080}} {
		w, h := size[0], size[1]
		b.viewport(w, h)
		at := fmt.Sprintf("%dx%d", w, h)

		// Long sort keys (the framework's ID@VERSION under a tenant's
		// prefix) show whole without Wrap, in the items and in a Query.
		b.open(s, "#/t/Ledger/items")
		b.wait("the ledger's items", `document.querySelectorAll("main table.grid tbody tr").length === 6`)
		require.Empty(t, cutKeys(b), "%s: long sort keys cut in the items grid", at)
		b.open(s, "#/t/Ledger/query")
		b.fill(`main input[aria-label="Partition key pk"]`, ledgerPK)
		b.click("Run", `//main//form[contains(@class,"builder")]//button[contains(normalize-space(),"Run")]`)
		b.wait("the ledger's results", `document.querySelectorAll("main .query-result table.grid tbody tr").length === 6`)
		require.Empty(t, cutKeys(b), "%s: long sort keys cut in the query's result", at)
		b.shot("grid-long-keys-"+at, "the Ledger's query at "+at+": sort keys of 60 characters whole without Wrap")

		// The items: 25 of them, comments among them.
		b.open(s, "#/t/BlogApp/items")
		b.wait("the items", `document.querySelectorAll("main table.grid tbody tr").length === 25`)
		if n := eval[int](b, `[...document.querySelectorAll("main table.grid tbody tr")].filter((tr) => tr.children[2].textContent.startsWith("COMMENT#2026-")).length`); n == 0 {
			t.Fatalf("%s: no comment among the first 25 items", at)
		}
		require.Empty(t, cutKeys(b), "%s: key values cut in the items grid", at)
		if bad := fitProblems(b); len(bad) > 0 {
			t.Errorf("%s items: %q", at, bad)
		}
		b.shot("grid-items-"+at, "BlogApp's items at "+at+": PK and SK whole (COMMENT#<time>#<id>), the other attributes share the rest")

		// A Query of GSI1 for USER#u7.
		b.open(s, "#/t/BlogApp/query")
		b.fill(`main select[aria-label="Index"]`, "GSI1")
		b.wait("the index's partition key", `document.querySelector('main input[aria-label="Partition key GSI1PK"]') !== null`)
		b.fill(`main input[aria-label="Partition key GSI1PK"]`, "USER#u7")
		b.click("Run", `//main//form[contains(@class,"builder")]//button[contains(normalize-space(),"Run")]`)
		b.wait("the results", `document.querySelectorAll("main .query-result table.grid tbody tr").length === 7`)
		got := eval[[]string](b, `[...document.querySelectorAll("main .query-result table.grid tbody tr")].map((tr) => tr.children[0].textContent)`)
		require.Contains(t, got, "POST#p7", "%s: the query's partition keys", at)
		whole := eval[bool](b, `(() => { const td = [...document.querySelectorAll("main .query-result table.grid tbody td:first-child")].find((td) => td.textContent === "POST#p7");
			return td.scrollWidth <= td.clientWidth; })()`)
		require.True(t, whole, "%s: POST#p7 is cut in the query's result", at)
		require.Empty(t, cutKeys(b), "%s: key values cut in the query's result", at)
		if bad := fitProblems(b); len(bad) > 0 {
			t.Errorf("%s query: %q", at, bad)
		}
		b.shot("grid-query-"+at, "a Query of BlogApp's GSI1 for USER#u7 at "+at+": PK, SK, GSI1PK and GSI1SK whole")

	}

	// Columns and Wrap on the query's result (at 1920x1080).
	b.click("Columns", `//main//div[contains(@class,"query-result")]//button[contains(@class,"columns-button")]`)
	b.wait("the column dialog", `document.querySelector("dialog[open] ul.column-choice")`)
	_ = eval[bool](b, `(() => { for (const box of document.querySelectorAll("dialog[open] ul.column-choice input")) box.checked = ["title", "createdAt"].includes(box.dataset.attr); return true; })()`)
	b.click("Show", inDialog("Show"))
	b.wait("the chosen columns", `!document.querySelector("dialog[open]") && [...document.querySelectorAll("main .query-result table.grid thead th .col-name")].map((e) => e.textContent).join() === "PK,SK,GSI1PK,GSI1SK,createdAt,title"`)
	b.click("Wrap", `//main//div[contains(@class,"query-result")]//button[normalize-space()="Wrap"]`)
	b.wait("wrapped", `document.querySelector("main .query-result table.grid.wrap-cells") && document.querySelector("main .query-result button[aria-pressed=true]")?.textContent === "Wrap"`)
	b.shot("grid-query-columns-wrap", "the query's result with its columns chosen (the keys, createdAt, title) and wrapped")
	// The table's items keep their own columns.
	b.open(s, "#/t/BlogApp/items")
	b.wait("the items", `document.querySelectorAll("main table.grid tbody tr").length === 25`)
	heads := eval[string](b, `[...document.querySelectorAll("main table.grid thead th .col-name")].map((e) => e.textContent).join()`)
	require.NotEqual(t, "PK,SK,title,createdAt", heads, "the query's column choice leaked into the items grid")
	require.True(t, strings.HasPrefix(heads, "PK,SK,"), "the items grid's columns: %s", heads)
	if failed := b.failedCalls(); len(failed) > 0 {
		t.Errorf("calls failed: %q", failed)
	}
}

// consoleIndexSwitch: the query screen follows its Index select when a
// person changes it with the keyboard after a run (the select focused
// by a click, ArrowDown to the next index, Run clicked): the form asks
// for the index's keys with the table's key values cleared (they were
// kept, so a value typed for the index ran as POST#p7USER#u7 and found
// nothing), the page is never left on "Loading…", and the run answers
// the index's items.
func consoleIndexSwitch(t *testing.T, b *browser) {
	s := startServerWith(t, emulator.Options{}, console.Options{Version: "browser-test"})
	const key, region = "app", "eu-west-1"
	blogApp(t, s, key, region)

	b.open(s, "#/")
	b.clickCSS("app · eu-west-1", `main .ns-strip button[data-namespace="app/eu-west-1"]`)
	b.wait("the table list", `document.querySelector("main table.table-list-grid tr[data-table=BlogApp]") !== null`)
	b.open(s, "#/t/BlogApp/query")
	b.wait("the query form", `document.querySelector('main input[aria-label="Partition key PK"]') !== null`)
	b.click("the partition key", `//main//input[@aria-label="Partition key PK"]`)
	for _, r := range "POST#p7" {
		b.press(r)
	}
	run := `//main//form[contains(@class,"builder")]//button[contains(normalize-space(),"Run")]`
	b.click("Run", run)
	b.wait("the table's results", `document.querySelectorAll("main .query-result table.grid tbody tr").length === 4`)

	b.click("the Index select", `//main//select[@aria-label="Index"]`)
	b.key(kb.Escape) // a click may open the list; the keys below work on the select itself
	b.key(kb.ArrowDown)
	b.wait("the index chosen", `document.querySelector('main select[aria-label="Index"]').value === "GSI1" && document.querySelector('main input[aria-label="Partition key GSI1PK"]') !== null`)
	require.False(t, eval[bool](b, `document.body.innerText.includes("Loading…")`), "the page shows Loading… after the index changed")
	require.Empty(t, eval[string](b, `document.querySelector('main input[aria-label="Partition key GSI1PK"]').value`), "the table's partition key value kept for the index's")
	b.click("the index's partition key", `//main//input[@aria-label="Partition key GSI1PK"]`)
	for _, r := range "USER#u7" {
		b.press(r)
	}
	b.click("Run", run)
	b.wait("the index's results", `document.querySelectorAll("main .query-result table.grid tbody tr").length === 7`)
	require.False(t, eval[bool](b, `document.body.innerText.includes("Loading…")`), "the page shows Loading… after the index's run")
	b.shot("query-index-switch", "BlogApp's query after the Index select changed by keyboard: GSI1's results for USER#u7")
}
