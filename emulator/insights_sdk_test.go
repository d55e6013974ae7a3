package emulator_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/emulator/report"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/stretchr/testify/require"
)

// The access-pattern report of real requests, checked against
// a declared design, and Contributor Insights through the SDK.

// blogTable creates the blog design's table Blog: PK and SK_GSI1PK,
// and three GSIs on the overloaded attributes.
func blogTable(t *testing.T, db *dynamodb.Client) {
	t.Helper()
	attr := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(h, r string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(r), KeyType: types.KeyTypeRange}}
	}
	gsi := func(name, h string) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: key(h, "GSI1SK_GSI2SK_GSI3SK"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
	}
	_, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:              aws.String("Blog"),
		AttributeDefinitions:   []types.AttributeDefinition{attr("PK"), attr("SK_GSI1PK"), attr("GSI1SK_GSI2SK_GSI3SK"), attr("GSI2PK"), attr("GSI3PK")},
		KeySchema:              key("PK", "SK_GSI1PK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsi("GSI1", "SK_GSI1PK"), gsi("GSI2", "GSI2PK"), gsi("GSI3", "GSI3PK")},
		BillingMode:            types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReportBlogDesign: the blog design's access patterns, sent as real requests
// through the SDK to its table with its declared design, are each served
// by the table's key or a GSI; the one Scan (a pattern the design has no
// key for: the comments of one author) is flagged. The design written as
// a NoSQL Workbench model and as a OneTable schema reports the same.
func TestReportBlogDesign(t *testing.T) {
	var reports []string
	for _, file := range []string{"blog.design", "blog.workbench.json", "blog.onetable.json"} {
		t.Run(file, func(t *testing.T) {
			design, err := os.ReadFile("../internal/insights/testdata/" + file)
			require.NoError(t, err)
			e := reportBlogDesign(t, design)
			require.Equal(t, design, e.Reports().Design())
			var text strings.Builder
			require.NoError(t, e.Reports().WriteAccess(&text))
			reports = append(reports, regexp.MustCompile(`since \S+`).ReplaceAllString(text.String(), "since T"))
		})
	}
	require.Len(t, reports, 3)
	require.Equal(t, reports[0], reports[1], "the Workbench model's report")
	require.Equal(t, reports[0], reports[2], "the OneTable schema's report")
}

// reportBlogDesign sends the blog's requests to a new emulator with
// design and checks its report.
func reportBlogDesign(t *testing.T, design []byte) *emulator.Emulator {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{})
	blogTable(t, db)
	emulatortest.Report(t, e, design)

	const p1, p2, p3 = "77fcab6b", "8a1b2c3d", "9e8f7a6b"
	post := func(id, created, author, genre string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": s(id), "SK_GSI1PK": s("post"), "GSI1SK_GSI2SK_GSI3SK": s("Post_" + created),
			"GSI2PK": s(author), "GSI3PK": s(genre), "title": s("post " + id)}
	}
	reaction := func(kind, id, postID, created string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": s(id), "SK_GSI1PK": s(postID), "GSI1SK_GSI2SK_GSI3SK": s(kind + "_" + created), "author": s("和田哲也")}
	}
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	blog := aws.String("Blog")
	// Writes: three posts, two comments and a like on the first post.
	must(db.PutItem(ctx, &dynamodb.PutItemInput{TableName: blog, Item: post(p1, "2021-12-01", "和田哲也", "データベース")}))
	must(db.PutItem(ctx, &dynamodb.PutItemInput{TableName: blog, Item: post(p2, "2021-12-02", "和田哲也", "Go")}))
	must(db.PutItem(ctx, &dynamodb.PutItemInput{TableName: blog, Item: post(p3, "2021-12-03", "佐藤", "Go")}))
	must(db.PutItem(ctx, &dynamodb.PutItemInput{TableName: blog, Item: reaction("Comment", "81fcab6a", p1, "2021-12-04")}))
	must(db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: blog, Item: reaction("Comment", "81fcab6b", p1, "2021-12-05")}}}}))
	must(db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"Blog": {{PutRequest: &types.PutRequest{Item: reaction("Like", "6b9b9319", p1, "2021-12-06")}}}}}))

	query := func(index, pk, prefix string) *dynamodb.QueryOutput {
		t.Helper()
		in := &dynamodb.QueryInput{TableName: blog, IndexName: aws.String(index),
			KeyConditionExpression:    aws.String("#pk = :pk"),
			ExpressionAttributeNames:  map[string]string{"#pk": map[string]string{"GSI1": "SK_GSI1PK", "GSI2": "GSI2PK", "GSI3": "GSI3PK"}[index]},
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s(pk)}, ScanIndexForward: aws.Bool(false)}
		if prefix != "" {
			*in.KeyConditionExpression += " and begins_with(#sk, :sk)"
			in.ExpressionAttributeNames["#sk"] = "GSI1SK_GSI2SK_GSI3SK"
			in.ExpressionAttributeValues[":sk"] = s(prefix)
		}
		out, err := db.Query(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	// Reads: each pattern once (post-by-id twice: GetItem and BatchGetItem).
	if got := query("GSI1", "post", "Post_").Count; got != 3 {
		t.Errorf("posts-newest: %d posts, want 3", got)
	}
	must(db.GetItem(ctx, &dynamodb.GetItemInput{TableName: blog, Key: map[string]types.AttributeValue{"PK": s(p1), "SK_GSI1PK": s("post")}}))
	must(db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"Blog": {Keys: []map[string]types.AttributeValue{{"PK": s(p2), "SK_GSI1PK": s("post")}}}}}))
	if got := query("GSI1", p1, "Comment_").Count; got != 2 {
		t.Errorf("comments-of-post: %d, want 2", got)
	}
	if got := query("GSI1", p1, "Like_").Count; got != 1 {
		t.Errorf("likes-of-post: %d, want 1", got)
	}
	if got := query("GSI2", "和田哲也", "").Count; got != 2 {
		t.Errorf("posts-by-author: %d, want 2", got)
	}
	if got := query("GSI3", "データベース", "").Count; got != 1 {
		t.Errorf("posts-by-genre: %d, want 1", got)
	}
	// The deliberate mistake: one author's comments by Scan and filter.
	must(db.Scan(ctx, &dynamodb.ScanInput{TableName: blog, FilterExpression: aws.String("author = :a AND begins_with(GSI1SK_GSI2SK_GSI3SK, :c)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":a": s("和田哲也"), ":c": s("Comment_")}}))

	rep := e.Reports().Access()
	if len(rep) != 1 {
		t.Fatalf("got %d namespace reports, want 1", len(rep))
	}
	d := rep[0].Report.Design
	if d == nil {
		t.Fatal("no design report")
	}
	if len(d.Patterns) != 8 {
		t.Errorf("got %d patterns, want 8", len(d.Patterns))
	}
	for _, p := range d.Patterns {
		if p.Requests == 0 {
			t.Errorf("pattern %s: no request matched it", p.Name)
		}
		if p.ServedBy != "table key" && !strings.HasPrefix(p.ServedBy, "index ") {
			t.Errorf("pattern %s served by %q, want the table key or an index", p.Name, p.ServedBy)
		}
	}
	if len(d.Findings) != 1 || d.Findings[0].Kind != insights.FindingScanRequest || d.Findings[0].Table != "Blog" {
		t.Errorf("got findings %+v, want only the Scan flagged", d.Findings)
	}
	if len(d.Unmatched) != 1 || d.Unmatched[0].Access != "scan" {
		t.Errorf("got unmatched %+v, want the Scan", d.Unmatched)
	}
	tr := rep[0].Report.Tables[0]
	if tr.Table != "Blog" || tr.ItemCount != 6 || len(tr.UnusedIndexes) != 0 {
		t.Errorf("got table report %+v", tr)
	}
	res := tr.Resources[0]
	if res.Scans != 1 || res.Gets != 2 || res.Writes != 6 || res.ItemsRead != 8 || res.ItemsReturned != 4 {
		t.Errorf("table: got %d scans, %d gets, %d writes, read %d returned %d; want 1, 2, 6, 8, 4",
			res.Scans, res.Gets, res.Writes, res.ItemsRead, res.ItemsReturned)
	}
	return e
}

// TestContributorInsightsSDK: UpdateContributorInsights, Describe and
// List through the SDK, with AWS's states and rule names, the counters
// behind them, and the validation of the table, index and action.
func TestContributorInsightsSDK(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{Clock: stillClock})
	blogTable(t, db)
	faultTable(t, db, "Other", 0, 0)
	blog := aws.String("Blog")

	d, err := db.DescribeContributorInsights(ctx, &dynamodb.DescribeContributorInsightsInput{TableName: blog})
	if err != nil || d.ContributorInsightsStatus != types.ContributorInsightsStatusDisabled || d.ContributorInsightsRuleList != nil {
		t.Fatalf("never enabled: got %+v, %v; want DISABLED without rules", d, err)
	}
	u, err := db.UpdateContributorInsights(ctx, &dynamodb.UpdateContributorInsightsInput{TableName: blog, ContributorInsightsAction: types.ContributorInsightsActionEnable})
	if err != nil || u.ContributorInsightsStatus != types.ContributorInsightsStatusEnabling || aws.ToString(u.TableName) != "Blog" {
		t.Fatalf("enable: got %+v, %v; want ENABLING", u, err)
	}
	if _, err := db.UpdateContributorInsights(ctx, &dynamodb.UpdateContributorInsightsInput{TableName: blog, IndexName: aws.String("GSI1"),
		ContributorInsightsAction: types.ContributorInsightsActionEnable, ContributorInsightsMode: types.ContributorInsightsModeThrottledKeys}); err != nil {
		t.Fatal(err)
	}
	d, err = db.DescribeContributorInsights(ctx, &dynamodb.DescribeContributorInsightsInput{TableName: blog})
	if err != nil || d.ContributorInsightsStatus != types.ContributorInsightsStatusEnabled ||
		d.ContributorInsightsMode != types.ContributorInsightsModeAccessedAndThrottledKeys || d.LastUpdateDateTime == nil {
		t.Fatalf("got %+v, %v; want ENABLED, ACCESSED_AND_THROTTLED_KEYS", d, err)
	}
	ms := stillClock().UnixMilli()
	want := regexp.MustCompile(`^DynamoDBContributorInsights-(PKC|PKT|SKC|SKT)-Blog-` + strconv.FormatInt(ms, 10) + `$`)
	if len(d.ContributorInsightsRuleList) != 4 {
		t.Errorf("got rules %q, want 4", d.ContributorInsightsRuleList)
	}
	for _, r := range d.ContributorInsightsRuleList {
		if !want.MatchString(r) {
			t.Errorf("rule %q does not match %s", r, want)
		}
	}
	l, err := db.ListContributorInsights(ctx, &dynamodb.ListContributorInsightsInput{})
	if err != nil || len(l.ContributorInsightsSummaries) != 2 || aws.ToString(l.ContributorInsightsSummaries[1].IndexName) != "GSI1" ||
		l.ContributorInsightsSummaries[1].ContributorInsightsMode != types.ContributorInsightsModeThrottledKeys {
		t.Errorf("list: got %+v, %v", l, err)
	}

	// The counters: GetItem twice on one key, once on another.
	for _, pk := range []string{"a", "a", "b"} {
		if _, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: blog, Key: map[string]types.AttributeValue{"PK": s(pk), "SK_GSI1PK": s("x")}}); err != nil {
			t.Fatal(err)
		}
	}
	rules := e.Reports().Contributors(emulatortest.AccessKeyOf(t, db), emulatortest.Region, "Blog", "", 10)
	if len(rules) != 4 || len(rules[0].Contributors) != 2 || rules[0].Contributors[0].Keys[0] != "a" || rules[0].Contributors[0].Value != 1 {
		t.Errorf("got contributors %+v, want a (1 unit: two eventually consistent reads) then b", rules)
	}
	requireContributorsJSON(t, e, rules)

	// Validation and missing resources.
	for _, tc := range []struct {
		in   *dynamodb.UpdateContributorInsightsInput
		want string
	}{
		{&dynamodb.UpdateContributorInsightsInput{TableName: aws.String("Nope"), ContributorInsightsAction: types.ContributorInsightsActionEnable}, "ResourceNotFoundException"},
		{&dynamodb.UpdateContributorInsightsInput{TableName: blog, IndexName: aws.String("NoIndex"), ContributorInsightsAction: types.ContributorInsightsActionEnable}, "ResourceNotFoundException"},
		{&dynamodb.UpdateContributorInsightsInput{TableName: blog, ContributorInsightsAction: "START"}, "ValidationException"},
	} {
		_, err := db.UpdateContributorInsights(ctx, tc.in)
		var ae interface{ ErrorCode() string }
		if !errors.As(err, &ae) || ae.ErrorCode() != tc.want {
			t.Errorf("%+v: got %v, want %s", tc.in, err, tc.want)
		}
	}
	// Disabling: DISABLING, then DISABLED and out of the list; DeleteTable forgets it.
	if u, err := db.UpdateContributorInsights(ctx, &dynamodb.UpdateContributorInsightsInput{TableName: blog, ContributorInsightsAction: types.ContributorInsightsActionDisable}); err != nil || u.ContributorInsightsStatus != types.ContributorInsightsStatusDisabling {
		t.Errorf("disable: got %+v, %v", u, err)
	}
	if _, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: blog}); err != nil {
		t.Fatal(err)
	}
	if l, err := db.ListContributorInsights(ctx, &dynamodb.ListContributorInsightsInput{}); err != nil || len(l.ContributorInsightsSummaries) != 0 {
		t.Errorf("after DeleteTable: got %+v, %v", l, err)
	}
}

// requireContributorsJSON: the rules' two encodings, byte for byte. A Go
// program marshalling Reports.Contributors gets the Go names and null
// for a rule with no contributors; the admin endpoint lower-case names
// and [] (the rules' names carry the table's creation time, so they are
// taken from the answer).
func requireContributorsJSON(t *testing.T, e *emulator.Emulator, rules []report.ContributorRule) {
	t.Helper()
	require.Len(t, rules, 4)
	pub, err := json.Marshal(rules)
	require.NoError(t, err)
	require.Equal(t, `[{"Rule":"`+rules[0].Rule+`","Contributors":[{"Keys":["a"],"Value":1},{"Keys":["b"],"Value":0.5}]},`+
		`{"Rule":"`+rules[1].Rule+`","Contributors":null},`+
		`{"Rule":"`+rules[2].Rule+`","Contributors":[{"Keys":["a","x"],"Value":1},{"Keys":["b","x"],"Value":0.5}]},`+
		`{"Rule":"`+rules[3].Rule+`","Contributors":null}]`, string(pub))

	rec := httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, adminpath.Contributors+"?table=Blog", nil))
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.Equal(t, `{"rules":[{"rule":"`+rules[0].Rule+`","contributors":[{"keys":["a"],"value":1},{"keys":["b"],"value":0.5}]},`+
		`{"rule":"`+rules[1].Rule+`","contributors":[]},`+
		`{"rule":"`+rules[2].Rule+`","contributors":[{"keys":["a","x"],"value":1},{"keys":["b","x"],"value":0.5}]},`+
		`{"rule":"`+rules[3].Rule+`","contributors":[]}]}`, strings.TrimSpace(rec.Body.String()))

	// A table without Contributor Insights: no rules, as [] (not null).
	rec = httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, adminpath.Contributors+"?table=Other", nil))
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.Equal(t, `{"rules":[]}`, strings.TrimSpace(rec.Body.String()))

	// A missing table: DescribeContributorInsights' answer, ResourceNotFoundException.
	rec = httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, adminpath.Contributors+"?table=NoSuchTable", nil))
	require.Equal(t, http.StatusBadRequest, rec.Code)
	require.JSONEq(t, `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found"}`, rec.Body.String())
}
