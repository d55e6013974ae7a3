package console_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// axeEnv names an axe.min.js to use instead of installing one.
const axeEnv = "DYNAMOEMU_AXE"

// axeVersion is the axe-core the test checks with: testdata/axe's
// package.json pins it and its package-lock.json holds its hash, which
// npm ci verifies. It is installed for the test alone (in the user's
// cache directory), never into the console, which loads no script of
// anyone else.
const axeVersion = "4.14.1"

// axeSource returns axe.min.js: the file $DYNAMOEMU_AXE names, or
// testdata/axe installed with npm ci into the user's cache directory
// (once per version). It skips t loudly when neither is there.
func axeSource(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(axeEnv); p != "" {
		src, err := os.ReadFile(p)
		require.NoError(t, err, "$%s", axeEnv)
		return string(src)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "dynamoemu", "console-axe-"+axeVersion)
	file := filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
	if src, err := os.ReadFile(file); err == nil {
		return string(src)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("\n" + strings.Repeat("!", 72) + "\nSKIPPED: the accessibility check needs axe-core: install npm, or set\n" + axeEnv + "=/path/to/axe.min.js (axe-core " + axeVersion + ").\n" + strings.Repeat("!", 72))
	}
	// Installed beside, then moved into place: a second test process
	// never reads a half-installed copy.
	require.NoError(t, os.MkdirAll(filepath.Dir(dir), 0o755))
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-")
	require.NoError(t, err)
	defer os.RemoveAll(tmp)
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "axe", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(tmp, f), b, 0o644))
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitScale(5*time.Minute))
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "npm ci of axe-core %s: %s", axeVersion, out)
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
		if _, statErr := os.Stat(file); statErr != nil {
			require.NoError(t, err)
		}
	}
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	return string(src)
}

// axeProblems runs axe-core on the page as it is (its light or dark
// theme, its dialogs open) and lists the serious and critical
// violations, each with up to five of its elements.
func axeProblems(b *browser, src string) []string {
	b.t.Helper()
	if !eval[bool](b, `typeof window.axe === "object"`) {
		// The DevTools protocol evaluates it, so the page's CSP (scripts of
		// its own origin only) is kept as it is.
		b.do("load axe-core", chromedp.Evaluate[chromedp.Void](src))
	}
	all := eval[[]string](b, `axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations
		.map((v) => v.impact + " " + v.id + " (" + v.nodes.length + "): " + v.help + ": " + v.nodes.slice(0, 5).map((n) => n.target.join(" ") + (n.failureSummary ? " [" + n.failureSummary.replace(/\s+/g, " ").slice(0, 160) + "]" : "")).join("; ")))`)
	var bad []string
	for _, v := range all {
		if strings.HasPrefix(v, "serious ") || strings.HasPrefix(v, "critical ") {
			bad = append(bad, v)
		} else {
			b.t.Logf("axe, not serious: %s", v) // moderate and minor: told, not failed
		}
	}
	return bad
}

// consoleAxe checks every screen of the console with axe-core, at
// 1280x800 on wideServer's data, in the light theme and the dark one,
// and the dialogs a person opens most (the namespace, a table created, an
// item edited, the columns, the keys): no serious or critical violation.
func consoleAxe(t *testing.T, b *browser) {
	src := axeSource(t)
	s := wideServer(t)
	b.open(s, "#/")
	b.clickCSS("app · eu-west-1", `main .ns-strip button[data-namespace="app/eu-west-1"]`)
	b.wait("the table list", `document.getElementById("ns-button").textContent.includes("app") && document.querySelector("main table.table-list-grid tr[data-table=Wide]") !== null`)

	check := func(what string) {
		t.Helper()
		if bad := axeProblems(b, src); len(bad) > 0 {
			t.Errorf("%s: %d serious or critical accessibility violations:\n%s", what, len(bad), strings.Join(bad, "\n"))
		}
	}
	for _, theme := range []string{"light", "dark"} {
		b.do("the "+theme+" theme", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.documentElement.dataset.theme = %q`, theme)))
		for _, sc := range wideScreens {
			b.do("go to "+sc.hash, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`location.hash = %q`, sc.hash)))
			b.wait(sc.hash, fmt.Sprintf(`document.documentElement.dataset.route === %q && !!(%s)`, sc.hash, sc.ready))
			if sc.hash == "#/t/Wide/query" {
				b.click("Scan", `//main//form[contains(@class,"builder")]//button[normalize-space()="Scan"]`)
				b.click("Run", `//main//form[contains(@class,"builder")]//button[contains(normalize-space(),"Run")]`)
				b.wait("the results", `document.querySelectorAll("main .query-result table.grid tbody tr").length > 0 && document.querySelector("main .design-match:not(:empty)")`)
			}
			check(theme + " " + sc.hash)
		}
	}
	b.do("the light theme", chromedp.Evaluate[chromedp.Void](`document.documentElement.dataset.theme = "light"`))

	// The dialogs.
	dialogs := []struct{ hash, what, open, ready string }{
		{"#/", "the namespace dialog", `document.getElementById("ns-button").click()`, `document.querySelector("dialog[open] input[list=regions]")`},
		{"#/", "the create-table dialog", `document.querySelector("main button.primary").click()`, `document.querySelector("dialog[open] h2")?.textContent === "Create a table"`},
		{"#/t/Wide/items", "the item editor", `document.querySelector("main table.grid tbody tr").click()`, `document.querySelector("dialog[open] .editor, dialog[open] textarea")`},
		{"#/t/Wide/items", "the columns dialog", `document.querySelector("main button.columns-button").click()`, `document.querySelector("dialog[open] ul.column-choice")`},
		{"#/", "the keys", `document.dispatchEvent(new KeyboardEvent("keydown", {key: "?", bubbles: true}))`, `document.querySelector("dialog[open]")`},
	}
	for _, d := range dialogs {
		b.do("go to "+d.hash, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`location.hash = %q`, d.hash)))
		b.wait(d.hash, fmt.Sprintf(`document.documentElement.dataset.route === %q && document.querySelector("main .page, main table")`, d.hash))
		b.do("open "+d.what, chromedp.Evaluate[chromedp.Void](d.open))
		b.wait(d.what, d.ready)
		check(d.what)
		b.shot("axe-"+strings.ReplaceAll(strings.TrimPrefix(d.what, "the "), " ", "-"), d.what+", checked with axe-core")
		b.do("close "+d.what, chromedp.Evaluate[chromedp.Void](`document.querySelector("dialog[open]")?.close()`))
		b.wait("no dialog", `!document.querySelector("dialog[open]")`)
	}
}
