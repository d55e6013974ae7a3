package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dynamoemu/dynamoemu/cmd/internal/console"
	"github.com/dynamoemu/dynamoemu/cmd/internal/mcp"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// The browser test drives the console in a real, headless Chromium through
// what a person does with it: switch namespace, create a table (stream,
// TTL, an index), add items (plain JSON with a 38-digit number), query
// with a key condition and a filter, edit, delete, tail the stream, move
// the clock and sweep TTL, and the insights report and fault rules. Each step is checked
// in the page and, independently, through the DynamoDB API. It saves a
// screenshot after each step in $DYNAMOEMU_CONSOLE_SCREENSHOTS (a
// temporary directory if unset) and logs their paths.
//
// TestConsoleInBrowser runs it in three parts, each on a server of its
// own: the tour above, the namespaces (tables in several, one of 50
// tables) and the screens beyond items (browser_screens_test.go).
//
// It skips only when no Chromium is installed (apt-get install chromium),
// and says so loudly; $DYNAMOEMU_CHROMIUM names a binary explicitly.

// screenshotsEnv names the directory the screenshots go to.
const screenshotsEnv = "DYNAMOEMU_CONSOLE_SCREENSHOTS"

// findChromium returns the Chromium (or Chrome) binary to drive, or "".
func findChromium() string {
	if p := os.Getenv("DYNAMOEMU_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// The viewport the console is checked in: a laptop's.
const (
	viewWidth  = 1280
	viewHeight = 800
)

// namespace is the credential the test uses, in the page and from Go.
const (
	testAccessKey = "consoletest"
	testRegion    = "eu-west-1"
)

// server is the emulator with the console mounted as dynamoemu mounts it
// (emulator.Options.Console at adminpath.Console), on 127.0.0.1.
type server struct {
	url  string // http://127.0.0.1:port, for the test's own API calls
	page string // http://console.localhost:port, the browser's origin
	emu  *emulator.Emulator
}

func startServer(t *testing.T) *server {
	t.Helper()
	return startServerWith(t, emulator.Options{}, console.Options{Version: "browser-test"})
}

// startServerWith starts the emulator with the console (and the design
// matcher its query builder asks, as dynamoemu mounts them). The browser opens
// it as console.localhost (Chromium resolves every *.localhost name to
// loopback itself; the emulator answers that Host): an origin that is not
// one of the loopback origins CORS allows by default, so the page's calls
// to the admin endpoints pass the admin guard as the server's own origin,
// which is what the edge lets through for the console on any Host.
func startServerWith(t *testing.T, eopts emulator.Options, copts console.Options) *server {
	t.Helper()
	copts.Prefix = adminpath.Console
	con, err := console.Handler(copts)
	if err != nil {
		t.Fatal(err)
	}
	eopts.Console = con
	matcher := &mcp.Mount{} // as dynamoemu mounts it beside the console
	if eopts.DesignMatch == nil {
		eopts.DesignMatch = matcher
	}
	emu, err := emulator.New(eopts)
	if err != nil {
		t.Fatal(err)
	}
	matcher.Set(mcp.MatchHandler(emu))
	t.Cleanup(func() { emu.Close() })
	srv := httptest.NewServer(emu.Handler())
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndexByte(srv.URL, ':'):]
	return &server{url: srv.URL, page: "http://console.localhost" + port, emu: emu}
}

// api calls the DynamoDB API of s with the test's namespace, as an SDK
// would (no Origin), and decodes the answer; it fails the test on an error.
func (s *server) api(t *testing.T, op string, in any) map[string]any {
	t.Helper()
	out, status := s.apiStatus(t, testAccessKey, op, in)
	if status != 200 {
		t.Fatalf("%s: got status %d: %v", op, status, out)
	}
	return out
}

func (s *server) apiStatus(t *testing.T, accessKey, op string, in any) (map[string]any, int) {
	t.Helper()
	return s.apiIn(t, accessKey, testRegion, op, in)
}

// apiIn calls the DynamoDB API of s as accessKey in region and returns
// the decoded answer and its status.
func (s *server) apiIn(t *testing.T, accessKey, region, op string, in any) (map[string]any, int) {
	t.Helper()
	body, _ := json.Marshal(in)
	req, _ := http.NewRequest(http.MethodPost, s.url+"/", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+accessKey+"/20261122/"+region+"/dynamodb/aws4_request, SignedHeaders=host, Signature=00")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	defer res.Body.Close()
	var out map[string]any
	dec := json.NewDecoder(res.Body)
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("%s: decoding the answer: %v", op, err)
	}
	return out, res.StatusCode
}

// getItem returns the item of key in Orders, or nil.
func (s *server) getItem(t *testing.T, pk, sk string) map[string]any {
	t.Helper()
	out := s.api(t, "GetItem", map[string]any{"TableName": "Orders", "ConsistentRead": true,
		"Key": map[string]any{"pk": map[string]string{"S": pk}, "sk": map[string]string{"S": sk}}})
	item, _ := out["Item"].(map[string]any)
	return item
}

// attr returns item[name][typ] as text ("" when absent).
func attr(item map[string]any, name, typ string) string {
	av, _ := item[name].(map[string]any)
	v, ok := av[typ]
	if !ok {
		return ""
	}
	return fmt.Sprint(v)
}

// browser drives one tab and takes the screenshots.
type browser struct {
	t     *testing.T
	ctx   context.Context
	dir   string
	shots []string
	mu    sync.Mutex
	errs  []string // uncaught exceptions and console errors of the page
}

func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.fatal("%s: %v", what, err)
	}
}

func (b *browser) fatal(format string, args ...any) {
	b.t.Helper()
	b.shot("failure", "the page when the test failed")
	b.t.Fatalf(format, args...)
}

// wait polls a JavaScript predicate until it is truthy.
func (b *browser) wait(what, predicate string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(waitScale(time.Minute)), chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		b.fatal("waiting for %s (%s): %v", what, predicate, err)
	}
}

// eval runs JavaScript and decodes its value into T.
func eval[T any](b *browser, js string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.fatal("evaluating %s: %v", js, err)
	}
	return v
}

// fill sets a form control's value and tells the page, as typing would.
func (b *browser) fill(css, value string) {
	b.t.Helper()
	js := fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return false;
		el.value = %q; el.dispatchEvent(new Event("input", {bubbles: true})); el.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, css, value)
	if !eval[bool](b, js) {
		b.fatal("fill: no element %s", css)
	}
}

// click clicks (with the mouse) the element matching xpath.
//
// A page that renders again between the node's lookup and the click
// (a list reloaded after a save) leaves the looked-up node gone, and
// Chrome answers "Could not find node with given id": the click never
// happened, so it is looked up and tried again, a few times.
func (b *browser) click(what, xpath string) {
	b.t.Helper()
	for try := 1; ; try++ {
		err := chromedp.Do(b.ctx, chromedp.Click(xpath))
		if err == nil {
			return
		}
		if try == 5 || !strings.Contains(err.Error(), "Could not find node with given id") {
			b.fatal("click %s: %v", what, err)
		}
	}
}

// key presses a key without text (Enter, Delete) on the focused element.
func (b *browser) key(keys string, opts ...chromedp.KeyOption) {
	b.t.Helper()
	b.do("key "+strconv.Quote(keys), chromedp.KeyEvent(keys, opts...))
}

// press types one character as a keyboard does: a keyDown that carries
// its text, then a keyUp. (chromedp.KeyEvent sends the text as a separate
// char event, which the page's preventDefault on keydown does not cancel:
// a shortcut that opens a dialog would then type its letter into the
// dialog's first field, which no real keyboard does.)
func (b *browser) press(r rune) {
	b.t.Helper()
	b.do("press "+strconv.QuoteRune(r), chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, k := range kb.Encode(r) {
			switch k.Type {
			case kb.KeyChar:
				continue
			case kb.KeyDown:
				k.Text, k.UnmodifiedText = string(r), string(r)
			}
			if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, *k); err != nil {
				return err
			}
		}
		return nil
	}))
}

// shot saves a screenshot of the window as NN-name.png, without the
// toasts of earlier steps.
func (b *browser) shot(name, what string) {
	b.t.Helper()
	b.shotToasts(name, what, false)
}

// shotToasts is shot, keeping the toasts if toasts.
func (b *browser) shotToasts(name, what string, toasts bool) {
	b.t.Helper()
	if !toasts {
		_, _ = chromedp.Run(b.ctx, chromedp.Evaluate[chromedp.Void](`document.querySelectorAll(".toast").forEach((t) => t.remove())`))
	}
	buf, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	file := filepath.Join(b.dir, fmt.Sprintf("%02d-%s.png", len(b.shots)+1, name))
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	b.shots = append(b.shots, fmt.Sprintf("%s\t%s", file, what))
	b.t.Logf("screenshot %s: %s", file, what)
}

func (b *browser) pageErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

func newBrowser(t *testing.T, exe string) *browser {
	t.Helper()
	dir := os.Getenv(screenshotsEnv)
	if dir == "" {
		dir = t.TempDir()
		t.Logf("screenshots go to a temporary directory; set %s to keep them", screenshotsEnv)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // CI and these machines run as root
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(viewWidth, viewHeight),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	// A bound for a browser that hangs, generous for a loaded machine
	// (waitScale): the test takes a few minutes on a quiet 2-core
	// machine.
	ctx, cancelTime := context.WithTimeout(ctx, waitScale(20*time.Minute))
	t.Cleanup(cancelTime)
	b := &browser{t: t, ctx: ctx, dir: dir}
	// Start the browser, then listen to the page's errors.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	// Light theme by the system's preference, and reduced motion, so
	// that no screenshot catches an element half faded in.
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
			{Name: "prefers-reduced-motion", Value: "reduce"}, {Name: "prefers-color-scheme", Value: "light"}}})
		return err
	}))
	if err != nil {
		t.Fatalf("emulating reduced motion: %v", err)
	}
	// A laptop's screen: the page is checked at 1280x800 CSS pixels.
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: viewWidth, Height: viewHeight, DeviceScaleFactor: 1})
		return err
	}))
	if err != nil {
		t.Fatalf("setting the viewport: %v", err)
	}
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	consoleCalls := chromedp.Events(ctx, runtime.ConsoleAPICalled)
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			b.mu.Lock()
			b.errs = append(b.errs, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
			b.mu.Unlock()
		}
	}()
	go func() {
		for ev, err := range consoleCalls {
			if err != nil {
				return
			}
			if ev.Type != runtime.ConsoleAPICalledTypeError {
				continue
			}
			var parts []string
			for _, a := range ev.Args {
				if a.Description != "" {
					parts = append(parts, a.Description)
				} else {
					parts = append(parts, string(a.Value))
				}
			}
			b.mu.Lock()
			b.errs = append(b.errs, "console.error: "+strings.Join(parts, " "))
			b.mu.Unlock()
		}
	}()
	return b
}

// nav presses a shortcut that goes to hash and waits until that view is
// drawn and its own shortcuts are live.
func (b *browser) nav(r rune, hash string) {
	b.t.Helper()
	b.press(r)
	b.wait("the view "+hash, fmt.Sprintf(`document.documentElement.dataset.route === %q`, hash))
}

// inDialog is an XPath to the button labelled text in the open dialog.
func inDialog(text string) string {
	return fmt.Sprintf(`//dialog[@open]//footer//button[normalize-space()=%q]`, text)
}

// button is an XPath to a button labelled text outside dialogs.
func button(text string) string {
	return fmt.Sprintf(`//main//button[normalize-space()=%q]`, text)
}

func TestConsoleInBrowser(t *testing.T) {
	exe := findChromium()
	if exe == "" {
		t.Skip("\n" + strings.Repeat("!", 72) + "\nSKIPPED: the console's browser test needs Chromium and none is installed\n(apt-get install -y chromium, or DYNAMOEMU_CHROMIUM=/path/to/chrome).\n" + strings.Repeat("!", 72))
	}
	b := newBrowser(t, exe)
	t.Cleanup(func() {
		if len(b.shots) > 0 {
			index := filepath.Join(b.dir, "screenshots.txt")
			_ = os.WriteFile(index, []byte(strings.Join(b.shots, "\n")+"\n"), 0o644)
			t.Logf("%d screenshots in %s (listed in %s)", len(b.shots), b.dir, index)
		}
	})
	// Each part on a server of its own (and so a page origin of its own:
	// nothing the page keeps in its storage crosses over).
	t.Run("tour", func(t *testing.T) { b.use(t); consoleTour(t, b) })
	t.Run("namespaces", func(t *testing.T) { b.use(t); consoleNamespaces(t, b) })
	t.Run("screens", func(t *testing.T) { b.use(t); consoleScreens(t, b) })
	t.Run("controls", func(t *testing.T) { b.use(t); consoleControls(t, b) })
	t.Run("design", func(t *testing.T) { b.use(t); consoleDesign(t, b) })
	t.Run("fit", func(t *testing.T) { b.use(t); consoleFit(t, b) })
	t.Run("keyboard", func(t *testing.T) { b.use(t); consoleKeyboard(t, b) })
	t.Run("grid", func(t *testing.T) { b.use(t); consoleGrid(t, b) })
	t.Run("index switch", func(t *testing.T) { b.use(t); consoleIndexSwitch(t, b) })
	t.Run("axe", func(t *testing.T) { b.use(t); consoleAxe(t, b) })
	b.use(t)
	if errs := b.pageErrors(); len(errs) > 0 {
		t.Errorf("the page reported %d errors:\n%s", len(errs), strings.Join(errs, "\n"))
	}
}

// use makes b report to t (the subtest running).
func (b *browser) use(t *testing.T) { b.t = t }

// consoleTour is what a person does first: a namespace, a table created,
// items added, queried, edited and deleted, the stream, the clock,
// conventions, insights, paging, the dark theme, -sharedDb.
func consoleTour(t *testing.T, b *browser) {
	s := startServer(t)
	// The page, through the redirect from the prefix without its slash.
	b.do("open the console", chromedp.Navigate(s.page+"/dynamoemu/console"))
	b.wait("the console to start", `document.documentElement.dataset.ready === "true" && document.documentElement.dataset.route === "#/"`)
	b.wait("the empty state", `document.querySelector("main .empty h3")?.textContent.includes("No tables")`)

	// The chart component and the JSON conversions, in this browser.
	t.Run("ddb.js", func(t *testing.T) { checkConversions(t, b) })

	// Namespace: switch with the keyboard (N), type key and region.
	b.press('N')
	b.wait("the namespace dialog", `document.querySelector("dialog[open]")?.textContent.includes("Access key id")`)
	b.fill("dialog[open] input", testAccessKey)
	b.fill("dialog[open] input[list=regions]", testRegion)
	b.shot("namespace", "switching the namespace: the access key and region pick the database, as in DynamoDB Local")
	b.click("Switch", inDialog("Switch"))
	b.wait("the namespace chip", fmt.Sprintf(`!document.querySelector("dialog[open]") && document.getElementById("ns-button").textContent.includes(%q)`, testAccessKey+"·"+testRegion))

	// Create a table: keys, a stream, TTL, a GSI.
	b.press('c')
	b.wait("the create dialog", `document.querySelector("dialog[open] h2")?.textContent === "Create a table"`)
	b.do("type the table name", chromedp.SendKeys(chromedp.CSS(`dialog[open] input[aria-label="Table name"]`), "Orders"))
	b.fill(`dialog[open] select[aria-label="Stream"]`, "NEW_AND_OLD_IMAGES")
	b.fill(`dialog[open] input[aria-label="TTL attribute"]`, "expiresAt")
	b.click("Add an index", `//dialog[@open]//button[normalize-space()="Add an index"]`)
	b.fill(`dialog[open] input[aria-label="Index name"]`, "byStatus")
	b.fill(`dialog[open] input[aria-label="Index partition key"]`, "status")
	b.fill(`dialog[open] input[aria-label="Index sort key"]`, "")
	b.do("open the request", chromedp.Click(chromedp.CSS("dialog[open] .create-preview summary")))
	b.wait("the request preview", `document.querySelector("dialog[open] .create-preview pre")?.textContent.includes('"byStatus"')`)
	b.shot("create-table", "the create-table dialog: keys pk/sk, a stream, TTL on expiresAt, GSI byStatus, and the CreateTable request it sends")
	b.click("Create table", inDialog("Create table"))
	b.wait("the overview", `document.documentElement.dataset.route === "#/t/Orders/overview" && document.querySelector(".stats")?.textContent.includes("NEW_AND_OLD_IMAGES")`)
	b.wait("TTL on the overview", `document.querySelector(".stats")?.textContent.includes("expiresAt")`)
	// The stat cards show their values whole: none is cut off or overflows its card.
	if cut := eval[[]string](b, `[...document.querySelectorAll("main .stats .stat")].filter((c) => c.scrollWidth > c.clientWidth + 1 || [...c.querySelectorAll(".stat-value")].some((v) => v.scrollWidth > v.clientWidth + 1)).map((c) => c.textContent)`); len(cut) > 0 {
		t.Errorf("stat cards cut off: %q", cut)
	}
	desc := s.api(t, "DescribeTable", map[string]any{"TableName": "Orders"})["Table"].(map[string]any)
	if spec, _ := desc["StreamSpecification"].(map[string]any); spec["StreamViewType"] != "NEW_AND_OLD_IMAGES" {
		t.Errorf("got StreamSpecification %v, want NEW_AND_OLD_IMAGES", spec)
	}
	if gsis, _ := desc["GlobalSecondaryIndexes"].([]any); len(gsis) != 1 || gsis[0].(map[string]any)["IndexName"] != "byStatus" {
		t.Errorf("got GlobalSecondaryIndexes %v, want byStatus", desc["GlobalSecondaryIndexes"])
	}
	ttl := s.api(t, "DescribeTimeToLive", map[string]any{"TableName": "Orders"})["TimeToLiveDescription"].(map[string]any)
	if ttl["AttributeName"] != "expiresAt" || ttl["TimeToLiveStatus"] != "ENABLED" {
		t.Errorf("got TTL %v, want ENABLED on expiresAt", ttl)
	}
	if out, status := s.apiStatus(t, "someoneelse", "ListTables", map[string]any{}); status != 200 || len(out["TableNames"].([]any)) != 0 {
		t.Errorf("another access key sees %v (status %d), want no tables: the console's namespace leaked", out, status)
	}
	b.shot("table-overview", "the new table's overview: items, size, billing, stream, TTL, keys, the GSI with its projection, tags, delete")

	// A tag, from the overview's form.
	b.fill(`main input[aria-label="Tag key"]`, "team")
	b.fill(`main input[aria-label="Tag value"]`, "payments")
	b.click("Add tag", button("Add tag"))
	b.wait("the tag", `document.querySelector("main .tags")?.textContent.includes("teampayments")`)
	tags := s.api(t, "ListTagsOfResource", map[string]any{"ResourceArn": desc["TableArn"]})["Tags"].([]any)
	if len(tags) != 1 || tags[0].(map[string]any)["Key"] != "team" || tags[0].(map[string]any)["Value"] != "payments" {
		t.Errorf("got tags %v, want team=payments", tags)
	}
	_ = eval[bool](b, `(document.querySelector("main .tags").scrollIntoView({block: "center"}), true)`)
	b.shot("table-overview-lower", "the overview, further down: the stream (view type, label, ARN), TTL, the tag just added from the form")

	// Tail the stream from now on, while the items are written.
	b.nav('4', "#/t/Orders/stream")
	b.wait("the stream tail", `document.querySelector(".tail-status")?.textContent.includes("tailing")`)

	// Add items on the items tab: plain JSON, a number with 38 digits.
	b.nav('2', "#/t/Orders/items")
	b.wait("the items tab", `document.querySelector("main .empty h3")?.textContent === "No items yet"`)
	expires := time.Now().Add(time.Hour).Unix()
	items := []string{
		`{"pk": "ORDER#1", "sk": "2026-11-22#a", "status": "open", "total": 12345678901234567890.123456789012345678, "lines": [{"sku": "A-1", "qty": 2}], "gift": false}`,
		`{"pk": "ORDER#1", "sk": "2026-11-23#b", "status": "shipped", "total": 19.99, "note": null}`,
		fmt.Sprintf(`{"pk": "ORDER#2", "sk": "2026-11-24#c", "status": "open", "total": 5, "expiresAt": %d}`, expires),
	}
	for i, it := range items {
		b.press('n')
		b.wait("the item editor", `document.querySelector("dialog[open] textarea.code-input") !== null`)
		if i == 0 {
			b.click("Plain JSON", `//dialog[@open]//button[normalize-space()="Plain JSON"]`)
		}
		b.fill("dialog[open] textarea.code-input", it)
		b.wait("a valid item", `document.querySelector("dialog[open] .editor-status")?.textContent.includes("valid")`)
		if i == 0 {
			b.shot("add-item", "adding an item in plain JSON: a 38-digit number, a list of maps, a boolean")
		}
		b.do("focus the editor", chromedp.Focus(chromedp.CSS("dialog[open] textarea.code-input")))
		b.key(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl)) // Ctrl+Enter saves
		b.wait("the item in the grid", fmt.Sprintf(`!document.querySelector("dialog[open]") && document.querySelectorAll("main table.grid tbody tr").length === %d`, i+1))
	}
	first := s.getItem(t, "ORDER#1", "2026-11-22#a")
	if got, want := attr(first, "total", "N"), "12345678901234567890.123456789012345678"; got != want {
		t.Errorf("got total %q, want %q: the page lost digits", got, want)
	}
	if got := attr(first, "gift", "BOOL"); got != "false" {
		t.Errorf("got gift %q, want BOOL false", got)
	}
	b.wait("the number shown whole", `document.querySelector("main table.grid").textContent.includes("12345678901234567890.123456789012345678")`)
	b.shot("items", "the items grid: key columns first with PK/SK badges, then attributes by frequency; paging at the top right")

	// Query: key condition, sort key begins_with, a filter with names and values.
	b.nav('3', "#/t/Orders/query")
	b.fill(`form.builder input[aria-label="Partition key pk"]`, "ORDER#1")
	b.fill(`form.builder select[aria-label="Sort key condition"]`, "begins_with")
	b.fill(`form.builder input[aria-label="Sort key value"]`, "2026-11")
	b.fill(`form.builder input[placeholder^="#status"]`, "#st = :open")
	b.fill(`form.builder textarea[placeholder^='{"#status"']`, `{"#st": "status"}`)
	b.fill(`form.builder textarea[placeholder^='{":open"']`, `{":open": "open"}`)
	b.wait("the request preview", `document.querySelector(".request-json")?.textContent.includes("begins_with(#sk, :sk)")`)
	b.click("Run", button("Run"))
	b.wait("the answer", `document.querySelector(".result .summary")?.textContent.includes("Count1")`)
	summary := eval[string](b, `document.querySelector(".result .summary").textContent`)
	for _, want := range []string{"Count1", "Scanned2", "Dropped50%", "Consumed0.5 RCU"} {
		if !strings.Contains(summary, want) {
			t.Errorf("query summary %q lacks %q", summary, want)
		}
	}
	if cap := eval[string](b, `document.querySelector(".result .capacity")?.textContent || ""`); !strings.Contains(cap, "table 0.5") {
		t.Errorf("got ConsumedCapacity %q, want the table's part (ReturnConsumedCapacity INDEXES)", cap)
	}
	req := eval[string](b, `document.querySelector(".request-json").textContent`)
	for _, want := range []string{`"KeyConditionExpression": "#pk = :pk AND begins_with(#sk, :sk)"`, `"FilterExpression": "#st = :open"`, `"ReturnConsumedCapacity": "INDEXES"`, `":open": {`} {
		if !strings.Contains(req, want) {
			t.Errorf("the request shown lacks %s:\n%s", want, req)
		}
	}
	_ = eval[bool](b, `(document.querySelector("main").scrollTop = 0) === 0`)
	b.shot("query", "Query builder: key condition with begins_with, a filter with names/values, the request it sent, Count, Scanned, Dropped (by the filter) and ConsumedCapacity (INDEXES)")

	// Query the index too.
	b.fill(`form.builder select[aria-label="Index"]`, "byStatus")
	b.fill(`form.builder input[aria-label="Partition key status"]`, "open")
	b.fill(`form.builder input[placeholder^="#status"]`, "")
	b.fill(`form.builder textarea[placeholder^='{"#status"']`, "")
	b.fill(`form.builder textarea[placeholder^='{":open"']`, "")
	b.click("Run", button("Run"))
	b.wait("the index's answer", `document.querySelector(".result .summary")?.textContent.includes("Count2") && document.querySelector(".result .capacity")?.textContent.includes("GSI byStatus")`)

	// Edit: open the first item from the grid, change its status, save.
	b.nav('2', "#/t/Orders/items")
	b.wait("the grid", `document.querySelectorAll("main table.grid tbody tr").length === 3`)
	b.do("open the first item", chromedp.Click(chromedp.CSS(`main table.grid tbody tr:first-child td:nth-child(3)`)))
	b.wait("the editor", `document.querySelector("dialog[open] textarea.code-input")?.value.includes("ORDER#1")`)
	edited := eval[string](b, `document.querySelector("dialog[open] textarea.code-input").value`)
	if !strings.Contains(edited, `12345678901234567890.123456789012345678`) {
		t.Errorf("the editor shows %s, want the whole number", edited)
	}
	b.fill("dialog[open] textarea.code-input", strings.Replace(edited, `"open"`, `"packed"`, 1))
	b.shot("edit-item", "editing an item (plain JSON); the format switch keeps every digit")
	b.click("Save", inDialog("Save"))
	b.wait("the saved status", `!document.querySelector("dialog[open]") && document.querySelector("main table.grid").textContent.includes("packed")`)
	if got := attr(s.getItem(t, "ORDER#1", "2026-11-22#a"), "status", "S"); got != "packed" {
		t.Errorf("after the edit, got status %q, want packed", got)
	}
	if got := attr(s.getItem(t, "ORDER#1", "2026-11-22#a"), "total", "N"); got != "12345678901234567890.123456789012345678" {
		t.Errorf("after the edit, got total %q: the editor lost digits", got)
	}

	// Delete with the keyboard: focus the second row, Delete, confirm.
	b.do("focus the second row", chromedp.Focus(chromedp.CSS(`main table.grid tbody tr:nth-child(2)`)))
	b.key(kb.Delete)
	b.wait("the confirmation", `document.querySelector("dialog[open]")?.textContent.includes("Delete this item?")`)
	b.click("Delete", inDialog("Delete"))
	b.wait("two rows", `!document.querySelector("dialog[open]") && document.querySelectorAll("main table.grid tbody tr").length === 2`)
	if it := s.getItem(t, "ORDER#1", "2026-11-23#b"); it != nil {
		t.Errorf("after the delete, got item %v, want none", it)
	}

	// The stream: live from LATEST, a write from outside shows up, then the whole history.
	b.nav('4', "#/t/Orders/stream")
	b.wait("the stream tail", `document.querySelector(".tail-status")?.textContent.includes("tailing")`)
	s.api(t, "PutItem", map[string]any{"TableName": "Orders", "Item": map[string]any{
		"pk": map[string]string{"S": "ORDER#9"}, "sk": map[string]string{"S": "from-an-sdk"}, "status": map[string]string{"S": "open"}}})
	b.wait("the SDK's write, live", `document.querySelector(".records .record.r-insert .record-key")?.textContent.includes("ORDER#9")`)
	b.click("TRIM_HORIZON", `//main//button[normalize-space()="From the oldest (TRIM_HORIZON)"]`)
	b.wait("the whole history", `document.querySelectorAll(".records .record").length === 6`)
	kinds := eval[string](b, `[...document.querySelectorAll(".records .record .badge")].map(e => e.textContent).reverse().join(",")`)
	if kinds != "INSERT,INSERT,INSERT,MODIFY,REMOVE,INSERT" {
		t.Errorf("got stream records %s (oldest first), want INSERT,INSERT,INSERT,MODIFY,REMOVE,INSERT", kinds)
	}
	if diff := eval[string](b, `document.querySelector(".records .record.r-modify table.diff")?.textContent || ""`); !strings.Contains(diff, "status") || !strings.Contains(diff, "packed") {
		t.Errorf("got the MODIFY record's diff %q, want status open → packed", diff)
	}
	b.shot("stream", "the stream tail from TRIM_HORIZON: 3 inserts, the edit as a diff (open → packed), the delete, and a write made from an SDK")

	// The clock: advance a day from the page, then sweep: ORDER#2 has expired.
	b.nav('k', "#/clock")
	b.wait("the clock", `document.querySelector(".clock-time")?.textContent.length === 8`)
	before := s.emu.Clock().Now()
	b.click("+1 day", button("+1 day"))
	b.wait("the offset", `document.querySelector(".clock-offset")?.textContent.includes("ahead")`)
	if got := s.emu.Clock().Now().Sub(before); got < 24*time.Hour || got > 25*time.Hour {
		t.Errorf("the clock moved %v, want a day", got)
	}
	b.click("Sweep now", button("Sweep now"))
	b.wait("the sweep's answer", `document.querySelector(".sweep-log")?.textContent.includes("deleted 1 expired item")`)
	if it := s.getItem(t, "ORDER#2", "2026-11-24#c"); it != nil {
		t.Errorf("after the sweep, got item %v, want it expired and deleted", it)
	}
	b.wait("the TTL table list", `document.querySelector(".ttl-tables")?.textContent.includes("Orders")`)
	b.shotToasts("clock", "Clock & TTL: the emulator's time a day ahead of the machine's, the step buttons, a sweep that deleted the expired item", true)

	// Conventions: a table that opts in by its tags (warn mode), writes
	// that break the key rules, the report, its reset.
	b.nav('v', "#/conventions")
	b.wait("the empty conventions report", `document.querySelector("main .empty h3")?.textContent === "No violations"`)
	s.api(t, "CreateTable", map[string]any{
		"TableName": "Ledger", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}},
		"KeySchema":            []map[string]string{{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}},
		"Tags":                 []map[string]string{{"Key": "dynamoemu:conventions", "Value": "data"}, {"Key": "dynamoemu:conventions-mode", "Value": "warn"}},
	})
	for _, pk := range []string{"no-tenant", "ORDER#", "no-tenant"} {
		s.api(t, "PutItem", map[string]any{"TableName": "Ledger", "Item": map[string]any{"pk": map[string]string{"S": pk}, "sk": map[string]string{"S": "x"}}})
	}
	b.press('r')
	b.wait("the violations", `document.querySelector("main .chart svg") !== null && document.querySelector("main table.conv-entries")?.textContent.includes("no-tenant")`)
	b.shot("conventions", "the conventions report: totals, violations by rule as a chart, each distinct violation with its key, message and count")
	b.click("Reset", button("Reset"))
	b.click("Reset (confirm)", inDialog("Reset"))
	b.wait("the reset report", `document.querySelector("main .empty h3")?.textContent === "No violations"`)
	s.api(t, "DeleteTable", map[string]any{"TableName": "Ledger"})
	// Insights: the access-pattern report of this namespace and the
	// fault rules, from the admin endpoints.
	b.nav('i', "#/insights")
	b.wait("insights, not collecting", `document.querySelector("main .report .empty") !== null && document.querySelector("main .faults")?.textContent.includes("no rules")`)
	b.click("start collecting", button("Start collecting"))
	b.wait("collecting", `document.querySelector("main button") && [...document.querySelectorAll("main button")].some((x) => x.textContent === "Stop collecting")`)
	s.api(t, "CreateTable", map[string]any{
		"TableName": "Hits", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}},
		"KeySchema":            []map[string]string{{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}},
	})
	for i, pk := range []string{"user#1", "user#1", "user#1", "user#2", "user#2", "user#3"} {
		s.api(t, "PutItem", map[string]any{"TableName": "Hits", "Item": map[string]any{"pk": map[string]string{"S": pk}, "sk": map[string]string{"S": strconv.Itoa(i)}}})
	}
	s.api(t, "Query", map[string]any{"TableName": "Hits", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": map[string]any{":p": map[string]string{"S": "user#1"}}})
	s.api(t, "Scan", map[string]any{"TableName": "Hits", "FilterExpression": "sk = :s", "ExpressionAttributeValues": map[string]any{":s": map[string]string{"S": "4"}}})
	_ = eval[bool](b, `(document.querySelector("details.rules-edit").open = true, true)`)
	b.fill("textarea.rules-editor", `{"seed": 1, "rules": [{"name": "throttle-user1", "table": "Hits", "partitionKey": "user#1", "fault": "ProvisionedThroughputExceeded", "probability": 0.5}, {"name": "slow-scans", "operations": ["Scan"], "fault": "Delay", "delay": "250ms"}]}`)
	b.click("save the rules", button("Save rules"))
	b.wait("the report and the rules", `document.querySelectorAll("main .report .chart-grid figure svg").length === 3 && document.querySelector("main .faults table.grid")?.textContent.includes("slow-scans")`)
	_ = eval[bool](b, `(document.querySelector("main .report .chart-grid").scrollIntoView({block: "start"}), true)`)
	b.shot("insights", "Insights: this namespace's access-pattern report from GET /dynamoemu/report: hot partition keys, filter waste and reads by kind per table, the per-resource counts, the costliest requests")
	_ = eval[bool](b, `(document.querySelector("main .faults").scrollIntoView({block: "end"}), true)`)
	b.shot("insights-faults", "Insights: the fault rules from GET /dynamoemu/faults with their matched and fired counts (GET /dynamoemu/faults/stats), edited in place")
	_ = eval[bool](b, `(document.querySelector("details.rules-edit").open = true, true)`)
	b.click("clear the rules", button("Clear"))
	b.wait("no rules", `document.querySelector("main .faults")?.textContent.includes("no rules")`)
	b.click("stop collecting", button("Stop collecting"))
	b.wait("not collecting", `[...document.querySelectorAll("main button")].some((x) => x.textContent === "Start collecting")`)
	s.api(t, "DeleteTable", map[string]any{"TableName": "Hits"})

	// A second table of 25 items, made from an SDK: the tables' cards.
	s.api(t, "CreateTable", map[string]any{
		"TableName": "Paged", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "id", "AttributeType": "N"}},
		"KeySchema":            []map[string]string{{"AttributeName": "id", "KeyType": "HASH"}},
	})
	for i := 0; i < 25; i += 25 / 5 {
		var puts []any
		for j := i; j < i+5; j++ {
			puts = append(puts, map[string]any{"PutRequest": map[string]any{"Item": map[string]any{
				"id": map[string]string{"N": strconv.Itoa(j)}, "name": map[string]string{"S": fmt.Sprintf("item %02d", j)}}}})
		}
		s.api(t, "BatchWriteItem", map[string]any{"RequestItems": map[string]any{"Paged": puts}})
	}
	b.nav('t', "#/")
	b.wait("two tables", `document.querySelectorAll("main table.table-list-grid tbody tr").length === 2`)
	b.shot("tables", "all tables of the namespace, one row each: keys, status, items, size, indexes, billing, stream, created")

	// Paging, with the keyboard: 10 a page, ] and [.
	b.do("open Paged", chromedp.Click(chromedp.CSS(`main table.table-list-grid tr[data-table="Paged"] a`)))
	b.wait("Paged's items", `document.documentElement.dataset.route === "#/t/Paged/items" && document.querySelectorAll("main table.grid tbody tr").length > 0`)
	b.fill(`main select[aria-label="Items per page"]`, "10")
	b.wait("10 a page", `document.querySelectorAll("main table.grid tbody tr").length === 10 && document.querySelector(".page-info").textContent.startsWith("Page 1")`)
	page1 := eval[string](b, `document.querySelector("main table.grid tbody").textContent`)
	b.do("focus the page", chromedp.Click(chromedp.CSS("main h1")))
	b.press(']')
	b.wait("page 2", `document.querySelector(".page-info").textContent.startsWith("Page 2") && document.querySelectorAll("main table.grid tbody tr").length === 10`)
	if page2 := eval[string](b, `document.querySelector("main table.grid tbody").textContent`); page2 == page1 {
		t.Errorf("page 2 shows page 1's items: %s", page2)
	}
	b.press(']')
	b.wait("page 3", `document.querySelector(".page-info").textContent.startsWith("Page 3") && document.querySelectorAll("main table.grid tbody tr").length === 5`)
	b.press('[')
	b.press('[') // at once: the answer for page 2 may come after page 1's, and must not show
	b.wait("page 1 again", `document.querySelector(".page-info").textContent.startsWith("Page 1")`)
	if again := eval[string](b, `document.querySelector("main table.grid tbody").textContent`); again != page1 {
		t.Errorf("page 1 again shows %s, want %s", again, page1)
	}
	s.api(t, "DeleteTable", map[string]any{"TableName": "Paged"})

	// Dark theme, on the items.
	b.do("back to the table", chromedp.Navigate(s.page+"/dynamoemu/console/#/t/Orders/items"))
	b.wait("the grid", `document.documentElement.dataset.route === "#/t/Orders/items" && document.querySelectorAll("main table.grid tbody tr").length === 2`)
	b.press('d')
	b.wait("the dark theme", `document.documentElement.dataset.theme === "dark"`)
	b.shot("items-dark", "the items grid in the dark theme")

	// A changed key: the editor in DynamoDB JSON saves the new item and
	// deletes the old one in one transaction.
	b.do("open ORDER#9", chromedp.Click(`//main//table[contains(@class,"grid")]//td[normalize-space()="from-an-sdk"]`))
	b.wait("the editor", `document.querySelector("dialog[open] textarea.code-input")?.value.includes("from-an-sdk")`)
	b.click("DynamoDB JSON", `//dialog[@open]//button[normalize-space()="DynamoDB JSON"]`)
	b.wait("DynamoDB JSON", `document.querySelector("dialog[open] textarea.code-input").value.includes('"S": "from-an-sdk"')`)
	ddbText := eval[string](b, `document.querySelector("dialog[open] textarea.code-input").value`)
	b.fill("dialog[open] textarea.code-input", strings.Replace(ddbText, `"from-an-sdk"`, `"renamed"`, 1))
	b.click("Save", inDialog("Save"))
	b.wait("the key-change question", `[...document.querySelectorAll("dialog[open] h2")].pop()?.textContent === "The key changed"`)
	b.click("Save and delete the old one", inDialog("Save and delete the old one"))
	b.wait("the renamed item", `!document.querySelector("dialog[open]") && document.querySelector("main table.grid").textContent.includes("renamed")`)
	if s.getItem(t, "ORDER#9", "from-an-sdk") != nil || attr(s.getItem(t, "ORDER#9", "renamed"), "status", "S") != "open" {
		t.Errorf("after the key change: want ORDER#9/from-an-sdk gone and ORDER#9/renamed with its attributes")
	}
	b.nav('3', "#/t/Orders/query")
	b.wait("the builder", `document.querySelector("form.builder") !== null`)
	b.wait("the index query again", `document.querySelector(".result .summary")?.textContent.includes("Count1")`) // ORDER#2 expired
	b.shot("query-dark", "the Query builder in the dark theme: the form kept from before and run again (the expired item is gone); index keys badged GSI PK")

	// Delete the table from its overview.
	b.nav('1', "#/t/Orders/overview")
	b.wait("the overview", `document.querySelector(".danger-zone") !== null`)
	b.click("Delete table…", button("Delete table…"))
	b.do("type the name", chromedp.SendKeys(chromedp.CSS(`dialog[open] input[aria-label="Table name"]`), "Orders"))
	b.click("Delete table", inDialog("Delete table"))
	b.wait("no tables", `location.hash === "#/" && document.querySelector("main .empty h3")?.textContent.includes("No tables")`)
	if names := s.api(t, "ListTables", map[string]any{})["TableNames"].([]any); len(names) != 0 {
		t.Errorf("after deleting the table, got tables %v, want none", names)
	}

	// -sharedDb: one database whatever the key; the page says so.
	shared := startServerWith(t, emulator.Options{SharedDB: true}, console.Options{SharedDB: true, Version: "browser-test"})
	if out, status := shared.apiStatus(t, "someoneelse", "CreateTable", map[string]any{
		"TableName": "Shared", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "id", "AttributeType": "S"}},
		"KeySchema":            []map[string]string{{"AttributeName": "id", "KeyType": "HASH"}},
	}); status != 200 {
		t.Fatalf("CreateTable on the shared server: %d %v", status, out)
	}
	b.do("open the shared server's console", chromedp.Navigate(shared.page+"/dynamoemu/console/"))
	b.wait("the shared table", `document.documentElement.dataset.route === "#/" && document.querySelector("main table.table-list-grid tr[data-table=Shared]") !== null`)
	if chip := eval[string](b, `document.getElementById("ns-button").textContent`); !strings.Contains(chip, "shared") {
		t.Errorf("with -sharedDb the namespace chip says %q, want it to say shared", chip)
	}
	b.shot("shared-db", "a server with -sharedDb: the page's own key sees a table another key made, and says the database is shared")
}

// checkConversions runs ddb.js and chart.js in the page on table-driven cases.
func checkConversions(t *testing.T, b *browser) {
	tests := []struct{ name, js, want string }{
		{"plain to DynamoDB JSON keeps 38 digits",
			`m.stringify(m.itemFromPlain(m.parse('{"n": 12345678901234567890.123456789012345678}')), 0)`,
			`{"n":{"N":"12345678901234567890.123456789012345678"}}`},
		{"DynamoDB JSON to plain keeps them",
			`m.stringify(m.itemToPlain({n: {N: "-0.000000000000000000000000000000000000012345"}}), 0)`,
			`{"n":-0.000000000000000000000000000000000000012345}`},
		{"every type to plain",
			`m.stringify(m.itemToPlain({s: {S: "x"}, b: {BOOL: true}, z: {NULL: true}, l: {L: [{N: "1"}, {S: "y"}]}, m: {M: {k: {N: "2.50"}}}}), 0)`,
			`{"s":"x","b":true,"z":null,"l":[1,"y"],"m":{"k":2.50}}`},
		{"plain to every type",
			`JSON.stringify(m.itemFromPlain(m.parse('{"s":"x","b":false,"z":null,"l":[1,"y"],"m":{"k":1e3}}')))`,
			`{"s":{"S":"x"},"b":{"BOOL":false},"z":{"NULL":true},"l":{"L":[{"N":"1"},{"S":"y"}]},"m":{"M":{"k":{"N":"1e3"}}}}`},
		{"sets and binary are named as lossy",
			`(() => { const lossy = []; m.itemToPlain({a: {SS: ["x"]}, b: {NS: ["1"]}, c: {B: "AAE="}}, lossy); return lossy.join("; "); })()`,
			`a (string set); b (number set); c (binary)`},
		{"N written as JSON", `[".5", "5.", "+5", "007", "-0.50", "1E+5"].map(m.jsonNumber).join(" ")`, `0.5 5 5 7 -0.50 1E+5`},
		{"a bare number in DynamoDB JSON is refused",
			`(() => { try { m.parseItem('{"n": {"N": 5}}', "ddb"); return "accepted"; } catch (e) { return e.message; } })()`,
			`n: N takes the number as a string, {"N": "5"}`},
		{"a syntax error says where",
			`(() => { try { m.parse('{\n  "a": 1,\n  "b": }'); return "accepted"; } catch (e) { return e.message; } })()`,
			`line 3, column 8: unexpected "}"`},
		{"a duplicate name is an error",
			`(() => { try { m.parse('{"a": 1, "a": 2}'); return "accepted"; } catch (e) { return e.message; } })()`,
			`line 1, column 10: duplicate member "a"`},
		{"short forms",
			`[m.short({SS: ["a", "b"]}), m.short({B: "AAEC"}), m.short({M: {x: {N: "1"}}}), m.short({NULL: true})].join(" | ")`,
			`{"a", "b"} | binary, 3 B | {"x":1} | null`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := eval[string](b, `import("./js/ddb.js").then((m) => `+tc.js+`)`)
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	charts := []struct {
		name, spec string
		rects      int // bars drawn (with their tracks)
		text       string
	}{
		{"bar", `{"kind":"bar","title":"t","rows":[{"label":"a","values":[3]},{"label":"b","values":[1]}]}`, 4, "a"},
		{"stacked", `{"kind":"stacked","title":"t","series":[{"name":"x"},{"name":"y"}],"rows":[{"label":"a","values":[3,1]}]}`, 5, "x"},
		{"others past the limit", `{"kind":"bar","title":"t","limit":2,"rows":[{"label":"a","values":[3]},{"label":"b","values":[2]},{"label":"c","values":[1]}]}`, 4, "2 others"},
		{"a bad value draws a message", `{"kind":"bar","title":"t","rows":[{"label":"a","values":["x"]}]}`, 0, "not usable"},
		{"no rows", `{"kind":"donut","title":"t","rows":[]}`, 0, "Nothing to show"},
		{"unknown kind", `{"kind":"pie","title":"t","rows":[{"label":"a","values":[1]}]}`, 0, "Unknown chart kind"},
	}
	for _, tc := range charts {
		t.Run("chart "+tc.name, func(t *testing.T) {
			got := eval[string](b, `import("./js/chart.js").then((m) => { const f = m.chart(`+tc.spec+`); return f.querySelectorAll("rect").length + " " + f.textContent; })`)
			n, text, _ := strings.Cut(got, " ")
			if n != strconv.Itoa(tc.rects) || !strings.Contains(text, tc.text) {
				t.Errorf("got %s rects and text %q, want %d and %q", n, text, tc.rects, tc.text)
			}
		})
	}
}

// timeScaleEnv scales the browser test's bounds: on a machine slower or
// busier than a quiet 2-core one, set it above 1 (DYNAMOEMU_TEST_TIMEOUT_SCALE=3).
const timeScaleEnv = "DYNAMOEMU_TEST_TIMEOUT_SCALE"

// waitScale is d times the scale timeScaleEnv gives (1 when unset or not
// a positive number). The bounds catch a hang; a condition is waited
// for, never a fixed time.
func waitScale(d time.Duration) time.Duration {
	if f, err := strconv.ParseFloat(os.Getenv(timeScaleEnv), 64); err == nil && f > 0 {
		return time.Duration(float64(d) * f)
	}
	return d
}

// TestConsoleSignedInBrowser: against a server that verifies signatures
// (emulator.Options.Credentials, dynamoemu -credentials) the page asks for
// the key's secret at start and signs every call in the browser: the API
// (a table created and shown), the admin endpoints (the clock) and
// Lambda's event source mapping API, signed for lambda (a stream handler
// created, listed and deleted). A wrong secret shows AWS's
// InvalidSignatureException.
func TestConsoleSignedInBrowser(t *testing.T) {
	exe := findChromium()
	if exe == "" {
		t.Skip("\n" + strings.Repeat("!", 72) + "\nSKIPPED: the console's browser test needs Chromium and none is installed\n(apt-get install -y chromium, or DYNAMOEMU_CHROMIUM=/path/to/chrome).\n" + strings.Repeat("!", 72))
	}
	const secret = "console-secret/with+symbols"
	s := startServerWith(t, emulator.Options{Credentials: []emulator.Credential{{AccessKeyID: testAccessKey, SecretAccessKey: secret}}},
		console.Options{Version: "browser-test", Signatures: true})
	b := newBrowser(t, exe)

	b.do("open the console", chromedp.Navigate(s.page+"/dynamoemu/console/"))
	b.wait("the namespace dialog asking for the secret", `document.querySelector("dialog[open]")?.textContent.includes("Secret access key")`)
	b.fill("dialog[open] input", testAccessKey)
	b.fill("dialog[open] input[list=regions]", testRegion)
	b.fill("dialog[open] input[type=password]", "not-the-secret")
	b.click("Switch", inDialog("Switch"))
	b.wait("AWS's answer to a wrong secret", `document.body.textContent.includes("InvalidSignatureException: The request signature we calculated")`)
	b.shotToasts("signed-wrong-secret", "a wrong secret: the server's InvalidSignatureException, as AWS words it", true)

	b.press('N')
	b.wait("the namespace dialog", `document.querySelector("dialog[open]")?.textContent.includes("Secret access key")`)
	b.fill("dialog[open] input[type=password]", secret)
	b.click("Switch", inDialog("Switch"))
	b.wait("the signed ListTables", `document.querySelector("main .empty h3")?.textContent.includes("No tables")`)
	b.wait("the signed clock", `document.getElementById("foot-clock")?.querySelector("a") !== null`)

	b.press('c')
	b.wait("the create dialog", `document.querySelector("dialog[open] h2")?.textContent === "Create a table"`)
	b.do("type the table name", chromedp.SendKeys(chromedp.CSS(`dialog[open] input[aria-label="Table name"]`), "Signed"))
	b.fill(`dialog[open] select[aria-label="Stream"]`, "NEW_IMAGE") // for the stream handler below
	b.click("Create table", inDialog("Create table"))
	b.wait("the overview", `document.documentElement.dataset.route === "#/t/Signed/overview" && document.querySelector(".stats") !== null`)
	b.shot("signed-table", "with -credentials: the table created and described by signed calls from the page")

	b.nav('h', "#/handlers")
	b.wait("no handlers", `document.querySelector("main .empty h3")?.textContent === "No stream handlers"`)
	_ = eval[bool](b, `(document.querySelector("main details.mapping-form").open = true, true)`)
	b.fill(`main input[aria-label="Handler table"]`, "Signed")
	b.fill(`main input[aria-label="Function name"]`, "indexer")
	b.click("Create", button("Create"))
	b.wait("the signed mapping", `document.querySelector("main table.mappings tbody tr")?.textContent.includes("indexer")`)
	if st := s.emu.Streams().Mappings(); len(st) != 1 {
		t.Fatalf("after a signed Create the mappings are %+v, want one", st)
	}
	b.clickMapping("Delete…")
	b.click("Delete (confirm)", inDialog("Delete"))
	b.wait("no handlers again", `!document.querySelector("dialog[open]") && document.querySelector("main .empty h3")?.textContent === "No stream handlers"`)
	if st := s.emu.Streams().Mappings(); len(st) != 0 {
		t.Errorf("after a signed Delete the mappings are %+v, want none", st)
	}
	if errs := b.pageErrors(); len(errs) > 0 {
		t.Errorf("page errors: %v", errs)
	}
}
