package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dynamoemu/dynamoemu/cmd/internal/console"
	"github.com/dynamoemu/dynamoemu/emulator"
)

// designPosts is the design the query builder's requests are matched
// against: posts read by id on the table's key, or by user on an index.
const designPosts = `table Posts
key pk sk
index byUser userId
entity Post pk=POST#{id} sk=post userId={user}
pattern post get Post where pk = POST#{id} and sk = post
pattern posts-by-user query Post on byUser where pk = {user}
`

// consoleDesign uses what the console adds to the AWS console's screens
// for a design and a table's traffic, at 1280x800: the query builder
// names the design's pattern a request serves (or the nearest and why
// not), a table's Monitor tab graphs its capacity, requests, throttles,
// injected errors, item count and size over time, and the stream
// handlers screen creates, edits and deletes an event source mapping.
// No call the page makes fails.
func consoleDesign(t *testing.T, b *browser) {
	s := startServerWith(t, emulator.Options{}, console.Options{Version: "browser-test"})
	const key, region = "app", "eu-west-1"
	api := func(op string, in any) map[string]any { t.Helper(); return s.apiAs(t, key, region, op, in) }
	if err := s.emu.Reports().SetDesign([]byte(designPosts)); err != nil {
		t.Fatal(err)
	}
	s.emu.Reports().SetReporting(true)
	api("CreateTable", map[string]any{
		"TableName": "Posts", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}, {"AttributeName": "userId", "AttributeType": "S"}},
		"KeySchema":            []map[string]string{{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}},
		"GlobalSecondaryIndexes": []map[string]any{{"IndexName": "byUser", "Projection": map[string]string{"ProjectionType": "ALL"},
			"KeySchema": []map[string]string{{"AttributeName": "userId", "KeyType": "HASH"}}}},
		"StreamSpecification": map[string]any{"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"},
	})
	put := func(i int) {
		api("PutItem", map[string]any{"TableName": "Posts", "Item": map[string]any{
			"pk": map[string]string{"S": fmt.Sprintf("POST#%d", i)}, "sk": map[string]string{"S": "post"}, "userId": map[string]string{"S": "ann"}}})
	}
	put(1)

	b.open(s, "#/")
	b.clickCSS("app · eu-west-1", `main .ns-strip button[data-namespace="app/eu-west-1"]`)
	b.wait("the table list", `document.getElementById("ns-button").textContent.includes("app") && document.querySelector("main table.table-list-grid tr[data-table=Posts]") !== null`)
	b.watchCalls()

	// The query builder: a get's key, a Scan filtered on the index's key, a Query of the index.
	b.clickCSS("Posts", `main table.table-list-grid tr[data-table="Posts"] a`)
	b.wait("the items", `document.documentElement.dataset.route === "#/t/Posts/items"`)
	b.nav('3', "#/t/Posts/query")
	b.fill(`main input[aria-label="Partition key pk"]`, "POST#1")
	b.fill(`main select[aria-label="Sort key condition"]`, "=")
	b.fill(`main input[aria-label="Sort key value"]`, "post")
	// A Query of the full key is no get: the design's get pattern does not count it.
	b.wait("no pattern", `document.querySelector("main .design-match .badge.warn")?.textContent === "none" && document.querySelector("main .design-match")?.textContent.includes("2 other patterns of Posts")`)
	if tabs := eval[bool](b, `(() => { const n = document.querySelector("main nav.tabs"); return n.scrollWidth > n.clientWidth + 1; })()`); tabs {
		t.Errorf("the table's tabs do not fit at %dx%d", viewWidth, viewHeight)
	}
	b.click("Scan", `//main//form[contains(@class,"builder")]//button[normalize-space()="Scan"]`)
	b.fill(`main input[placeholder^="#status"]`, "#u = :u")
	b.fill(`main textarea[placeholder='{"#status": "status"}']`, `{"#u": "userId"}`)
	b.fill(`main .builder textarea:not([placeholder^='{"#'])`, `{":u": "ann"}`)
	b.wait("no pattern, the nearest and how it serves", `document.querySelector("main .design-match .badge.warn")?.textContent === "none" && /posts-by-user.*Use a Query of index byUser/.test(document.querySelector("main .design-match .nearest")?.textContent)`)
	b.shot("query-nearest", "a Scan filtered on userId: no pattern serves it, and the builder names the nearest (posts-by-user) and how to rewrite it")
	b.click("Query", `//main//form[contains(@class,"builder")]//button[normalize-space()="Query"]`)
	b.fill(`main textarea[placeholder='{"#status": "status"}']`, "")
	b.fill(`main .builder textarea:not([placeholder^='{"#'])`, "")
	b.fill(`main input[placeholder^="#status"]`, "")
	b.fill(`main select[aria-label="Index"]`, "byUser")
	b.fill(`main input[aria-label="Partition key userId"]`, "ann")
	b.wait("the index's pattern", `document.querySelector("main .design-match .badge.ok")?.textContent === "posts-by-user"`)
	b.shot("query-pattern", "the query builder names the design's access pattern the request serves (the MCP server's design_match)")

	// Monitor: a reading, traffic, another reading.
	b.nav('9', "#/t/Posts/monitor")
	b.wait("the first reading", `document.querySelector('main figure.metric[data-metric="items"]')?.dataset.points === "1"`)
	for i := 2; i <= 12; i++ {
		put(i)
	}
	for i := 0; i < 5; i++ {
		api("Query", map[string]any{"TableName": "Posts", "IndexName": "byUser", "KeyConditionExpression": "userId = :u",
			"ExpressionAttributeValues": map[string]any{":u": map[string]string{"S": "ann"}}})
	}
	s.admin(t, http.MethodPut, "/dynamoemu/faults", `{"rules":[{"table":"Posts","operations":["GetItem"],"fault":"InternalServerError","count":2}]}`)
	for i := 0; i < 2; i++ {
		if _, status := s.apiIn(t, key, region, "GetItem", map[string]any{"TableName": "Posts", "Key": map[string]any{"pk": map[string]string{"S": "POST#1"}, "sk": map[string]string{"S": "post"}}}); status != http.StatusInternalServerError {
			t.Errorf("the injected fault: got status %d, want 500", status)
		}
	}
	b.press('r')
	b.wait("the second reading", `document.querySelector('main figure.metric[data-metric="items"]')?.dataset.points === "2"`)
	for _, m := range []string{"read", "write", "requests", "faults"} {
		if last := eval[string](b, fmt.Sprintf(`document.querySelector('main figure.metric[data-metric=%q] .metric-last').textContent`, m)); last == "—" || strings.HasPrefix(last, "0 ") {
			t.Errorf("the %s graph's latest value is %q, want the traffic's rate above 0", m, last)
		}
	}
	if items := eval[string](b, `document.querySelector('main figure.metric[data-metric="items"] .metric-last').textContent`); items != "12" {
		t.Errorf("the item count graph ends at %q, want 12", items)
	}
	if n := eval[int](b, `document.querySelectorAll("main .metric-grid svg polyline").length`); n != 2 {
		t.Errorf("%d graphs have a line after two readings, want the item count's and the size's (the rates start at the second reading)", n)
	}
	b.press('r')
	b.wait("the third reading", `document.querySelector('main figure.metric[data-metric="items"]')?.dataset.points === "3" && document.querySelectorAll("main .metric-grid svg polyline").length === 7`)
	checkLaptopFit(t, b, 0)
	b.shot("monitor", "a table's Monitor tab: consumed capacity, requests, throttles, injected errors, item count and size over time, as inline SVG")
	// Left, the tab reads no more: past its period, no report was read.
	b.nav('1', "#/t/Posts/overview")
	left := len(b.callOps())
	_ = eval[bool](b, `(window.__leftAt = Date.now(), true)`)
	b.wait("past the Monitor tab's period", `Date.now() - window.__leftAt > 6000`)
	if ops := b.callOps()[left:]; strings.Contains(strings.Join(ops, " "), "/faults/stats") {
		t.Errorf("after leaving the Monitor tab the page still read the totals: %q", ops)
	}

	// Stream handlers: one created from the form, edited, deleted.
	var handled atomic.Int64
	s.emu.Streams().SetFunction("indexer", func(_ context.Context, event []byte) ([]byte, error) {
		var ev struct{ Records []json.RawMessage }
		if err := json.Unmarshal(event, &ev); err != nil {
			return nil, err
		}
		handled.Add(int64(len(ev.Records)))
		return nil, nil
	})
	b.nav('h', "#/handlers")
	b.wait("no handlers", `document.querySelector("main .empty h3")?.textContent === "No stream handlers"`)
	_ = eval[bool](b, `(document.querySelector("main details.mapping-form").open = true, true)`)
	b.fill(`main input[aria-label="Handler table"]`, "Posts")
	b.fill(`main input[aria-label="Function name"]`, "indexer")
	b.fill(`main select[aria-label="Starting position"]`, "TRIM_HORIZON")
	b.fill(`main input[aria-label="Batch size"]`, "5")
	b.fill(`main textarea[aria-label="Filter pattern"]`, `{"eventName": ["INSERT"]}`)
	b.shot("handler-form", "the stream handlers' form: a table's stream mapped to a function, with Lambda's batch size and filter")
	b.click("Create", button("Create"))
	b.wait("the mapping", `document.querySelector("main table.mappings tbody tr")?.textContent.includes("indexer")`)
	st := s.emu.Streams().Mappings()
	if len(st) != 1 {
		t.Fatalf("after Create the mappings are %+v, want one", st)
	}
	uuid := st[0].UUID
	if c := s.mapping(t, uuid); fmt.Sprint(c["BatchSize"], " ", c["StartingPosition"]) != "5 TRIM_HORIZON" || c["FilterCriteria"] == nil {
		t.Fatalf("after Create the mapping is %v, want batch size 5 from TRIM_HORIZON, filtered", c)
	}
	b.click("Drain", button("Drain"))
	b.wait("the records handled", `document.querySelector("main table.mappings tbody tr td:nth-child(5)")?.textContent !== "0"`)
	if handled.Load() != 12 {
		t.Errorf("the function saw %d records, want the 12 inserts from the trim horizon", handled.Load())
	}
	b.clickMapping("Edit")
	b.wait("the form filled", `document.querySelector('main input[aria-label="Batch size"]').value === "5" && document.querySelector('main input[aria-label="Handler table"]').disabled`)
	b.fill(`main input[aria-label="Batch size"]`, "7")
	b.fill(`main textarea[aria-label="Filter pattern"]`, "")
	b.click("Save", button("Save"))
	b.wait("the form closed", `!document.querySelector("main details.mapping-form").open`)
	if c := s.mapping(t, uuid); fmt.Sprint(c["BatchSize"]) != "7" || c["FilterCriteria"] != nil {
		t.Errorf("after the edit the mapping is %v, want batch size 7 and no filter", c)
	}
	b.clickMapping("Delete…")
	b.click("Delete (confirm)", inDialog("Delete"))
	b.wait("no handlers again", `!document.querySelector("dialog[open]") && document.querySelector("main .empty h3")?.textContent === "No stream handlers"`)
	if st := s.emu.Streams().Mappings(); len(st) != 0 {
		t.Errorf("after the delete the mappings are %+v, want none", st)
	}

	// An overloaded GSI1 (a user by e-mail, a user's posts, a tag's
	// posts): a Scan on GSI1PK with a user's key is pointed at the
	// pattern whose prefix the value has, with the Query to send.
	users, err := os.ReadFile("../../../internal/insights/testdata/usersblog.design")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.emu.Reports().SetDesign(users); err != nil {
		t.Fatal(err)
	}
	api("CreateTable", map[string]any{
		"TableName": "BlogApp", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": []map[string]string{{"AttributeName": "PK", "AttributeType": "S"}, {"AttributeName": "SK", "AttributeType": "S"}, {"AttributeName": "GSI1PK", "AttributeType": "S"}, {"AttributeName": "GSI1SK", "AttributeType": "S"}},
		"KeySchema":            []map[string]string{{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}},
		"GlobalSecondaryIndexes": []map[string]any{{"IndexName": "GSI1", "Projection": map[string]string{"ProjectionType": "ALL"},
			"KeySchema": []map[string]string{{"AttributeName": "GSI1PK", "KeyType": "HASH"}, {"AttributeName": "GSI1SK", "KeyType": "RANGE"}}}},
	})
	b.open(s, "#/t/BlogApp/query")
	b.click("Scan", `//main//form[contains(@class,"builder")]//button[normalize-space()="Scan"]`)
	b.fill(`main input[placeholder^="#status"]`, "GSI1PK = :v")
	b.fill(`main .builder textarea:not([placeholder^='{"#'])`, `{":v": "USER#u7"}`)
	b.wait("the nearest pattern by the value's prefix", `/posts-by-user.*GSI1PK = :v AND begins_with\(GSI1SK, :s\)/.test(document.querySelector("main .design-match .nearest")?.textContent)`)
	b.shot("query-nearest-overloaded", "a Scan on GSI1PK = USER#u7 in a design whose GSI1 serves users by e-mail, users' posts and tags' posts: the builder names posts-by-user, the pattern whose prefix the value has, and the Query to send")
	b.fill(`main input[placeholder^="#status"]`, "userId = :u")
	b.fill(`main .builder textarea:not([placeholder^='{"#'])`, `{":u": "u7"}`)
	b.wait("the nearest pattern by what its key is made of", `/posts-by-user.*filters on userId/.test(document.querySelector("main .design-match .nearest")?.textContent)`)
	if failed := b.failedCalls(); len(failed) > 0 {
		t.Errorf("calls failed: %q", failed)
	}
}

// admin calls an admin endpoint of s as a script would (JSON, no Origin)
// and fails the test unless it answers 2xx.
func (s *server) admin(t *testing.T, method, path, body string) {
	t.Helper()
	req, _ := http.NewRequest(method, s.url+path, bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		t.Fatalf("%s %s: status %d", method, path, res.StatusCode)
	}
}

// mapping returns Lambda's GetEventSourceMapping answer for uuid.
func (s *server) mapping(t *testing.T, uuid string) map[string]any {
	t.Helper()
	res, err := http.Get(s.url + "/2015-03-31/event-source-mappings/" + uuid)
	if err != nil {
		t.Fatalf("GetEventSourceMapping: %v", err)
	}
	defer res.Body.Close()
	var c map[string]any
	if err := json.NewDecoder(res.Body).Decode(&c); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GetEventSourceMapping: status %d, %v", res.StatusCode, err)
	}
	return c
}

// clickMapping clicks the button labelled text of the first mapping in
// the page's own event loop: the list is drawn again every two seconds,
// and a node found by one call may be gone by the next.
func (b *browser) clickMapping(text string) {
	b.t.Helper()
	b.wait("the mapping's "+text, fmt.Sprintf(`(() => { const x = [...document.querySelectorAll("main table.mappings button")].find((e) => e.textContent === %q); if (x) x.click(); return !!x; })()`, text))
}
