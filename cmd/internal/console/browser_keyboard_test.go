package console_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dynamoemu/dynamoemu/cmd/internal/console"
	"github.com/dynamoemu/dynamoemu/emulator"
)

// consoleKeyboard: the skip link, pressed with the keyboard on a table's
// items, moves the focus to the content and keeps the page (the router
// takes #main for no page); a table opened from a filtered sidebar clears
// the filter, so that the list shows every table again.
func consoleKeyboard(t *testing.T, b *browser) {
	s := startServerWith(t, emulator.Options{}, console.Options{Version: "browser-test"})
	const key, region = "app", "eu-west-1"
	s.apiAs(t, key, region, "CreateTable", pkTable("BlogApp", nil))
	s.apiAs(t, key, region, "CreateTable", pkTable("Orders", nil))
	s.putItems(t, key, region, "BlogApp", "p", 3, func(i int) int { return i })

	b.open(s, "#/")
	b.clickCSS("app · eu-west-1", `main .ns-strip button[data-namespace="app/eu-west-1"]`)
	b.wait("the table list", `document.getElementById("ns-button").textContent.includes("app") && document.querySelector("main table.table-list-grid tr[data-table=BlogApp]") !== null`)

	// Skip to content: Tab from the page's start reaches the link, Enter follows it.
	// A fresh load of the page, as a person arriving from a link: Tab
	// starts at the document's start.
	b.open(s, "#/t/BlogApp/items")
	b.do("reload", chromedp.Reload())
	b.wait("the items", `document.documentElement.dataset.ready === "true" && document.documentElement.dataset.route === "#/t/BlogApp/items" && document.querySelectorAll("main table.grid tbody tr").length === 3`)
	b.key(kb.Tab)
	if got := eval[string](b, `document.activeElement?.textContent ?? ""`); got != "Skip to content" {
		b.fatal("Tab from the page's start focused %q, want the skip link", got)
	}
	b.shot("skip-link", "Tab from the start of a table's items: the skip link shows")
	b.key(kb.Enter)
	b.wait("the focus on the content", `document.activeElement?.id === "main"`)
	if h, heading := eval[string](b, `location.hash`), eval[string](b, `document.querySelector("main h1")?.textContent ?? ""`); h != "#/t/BlogApp/items" || heading == "Not here" {
		b.fatal("after the skip link: hash %q, heading %q; want the items page kept", h, heading)
	}
	if n := eval[int](b, `document.querySelectorAll("main table.grid tbody tr").length`); n != 3 {
		b.fatal("after the skip link the items grid shows %d rows, want 3", n)
	}
	b.shot("skip-link-followed", "the skip link followed: the focus on the content, the items page as it was")

	// The sidebar's filter, then Enter: the table opens and the filter clears.
	b.fill("#table-filter", "blog")
	b.wait("one table listed", `document.querySelectorAll("#table-list a").length === 1`)
	eval[bool](b, `(document.getElementById("table-filter").focus(), true)`)
	b.open(s, "#/")
	b.fill("#table-filter", "ord")
	b.wait("Orders alone", `document.querySelectorAll("#table-list a").length === 1`)
	eval[bool](b, `(document.getElementById("table-filter").focus(), true)`)
	b.key(kb.Enter)
	b.wait("Orders opened", `document.documentElement.dataset.route === "#/t/Orders/items"`)
	b.wait("the filter cleared", `document.getElementById("table-filter").value === "" && document.querySelectorAll("#table-list a").length === 2`)
	if got := eval[string](b, `document.querySelector("#table-list a.active")?.dataset.table ?? ""`); got != "Orders" {
		b.fatal("after opening Orders from the filter, the marked table is %q", got)
	}
	// With the mouse too.
	b.fill("#table-filter", "blog")
	b.wait("BlogApp alone", `document.querySelectorAll("#table-list a").length === 1`)
	b.clickCSS("BlogApp in the sidebar", `#table-list a[data-table=BlogApp]`)
	b.wait("BlogApp opened, the filter cleared", `document.documentElement.dataset.route === "#/t/BlogApp/items" && document.getElementById("table-filter").value === "" && document.querySelectorAll("#table-list a").length === 2`)
	b.shot("filter-cleared", "a table opened from the filtered sidebar: the filter is cleared and every table listed")
}
