package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// trafficRequest is one request of a golden's traffic as an agent sends
// it: a tool, its arguments, and design_match's operation.
type trafficRequest struct {
	op, tool, args string
}

// goldenTraffic builds the requests of insights' golden traffic
// (blogTraffic, usersBlogTraffic) as tool calls: table and key
// attributes from the design file's keys.
func goldenTraffic(table string, pk, sk string, indexKeys map[string][2]string, reqs []goldenReq) []trafficRequest {
	av := func(v string) string { b, _ := json.Marshal(map[string]string{"S": v}); return string(b) }
	key := func(p, s string) string { return fmt.Sprintf(`{%q:%s,%q:%s}`, pk, av(p), sk, av(s)) }
	var out []trafficRequest
	for _, r := range reqs {
		var tr trafficRequest
		switch r.op {
		case "PutItem":
			tr = trafficRequest{"PutItem", "put_item", fmt.Sprintf(`{"TableName":%q,"Item":%s}`, table, key(r.pk, r.sk))}
		case "TransactWriteItems":
			tr = trafficRequest{"TransactWriteItems", "transact_write_items", fmt.Sprintf(`{"TransactItems":[{"Put":{"TableName":%q,"Item":%s}}]}`, table, key(r.pk, r.sk))}
		case "BatchWriteItem":
			tr = trafficRequest{"BatchWriteItem", "batch_write_item", fmt.Sprintf(`{"RequestItems":{%q:[{"PutRequest":{"Item":%s}}]}}`, table, key(r.pk, r.sk))}
		case "GetItem":
			tr = trafficRequest{"GetItem", "get_item", fmt.Sprintf(`{"TableName":%q,"Key":%s}`, table, key(r.pk, r.sk))}
		case "BatchGetItem":
			tr = trafficRequest{"BatchGetItem", "batch_get_item", fmt.Sprintf(`{"RequestItems":{%q:{"Keys":[%s]}}}`, table, key(r.pk, r.sk))}
		case "Query":
			kp, ks := pk, sk
			index := ""
			if r.index != "" {
				kp, ks = indexKeys[r.index][0], indexKeys[r.index][1]
				index = fmt.Sprintf(`"IndexName":%q,`, r.index)
			}
			cond, values := "#p = :p", fmt.Sprintf(`":p":%s`, av(r.pk))
			names := fmt.Sprintf(`"#p":%q`, kp)
			if r.prefix != "" {
				cond += " AND begins_with(#s, :s)"
				values += fmt.Sprintf(`,":s":%s`, av(r.prefix))
				names += fmt.Sprintf(`,"#s":%q`, ks)
			}
			tr = trafficRequest{"Query", "query", fmt.Sprintf(`{"TableName":%q,%s"KeyConditionExpression":%q,"ExpressionAttributeNames":{%s},"ExpressionAttributeValues":{%s}}`,
				table, index, cond, names, values)}
		case "Scan":
			tr = trafficRequest{"Scan", "scan", fmt.Sprintf(`{"TableName":%q,"FilterExpression":"attribute_exists(title)"}`, table)}
		}
		out = append(out, tr)
	}
	return out
}

// goldenReq is one request of a golden's traffic.
type goldenReq struct{ op, index, pk, sk, prefix string }

// TestMatchEqualsReportOverMCP: for the blog designs in every format
// insights reads (insights/testdata), an agent's design_match of each
// request of the golden traffic names the pattern the access-pattern
// report then files it under (access_report, after the request runs
// through the tools), or none when the report files it under none: the
// patterns a Dynamoose, Toolbox or CloudFormation design takes from the
// traffic, and the table a OneTable, ElectroDB or Dynamoose design
// names none of, included.
func TestMatchEqualsReportOverMCP(t *testing.T) {
	const p1, p2, p3 = "77fcab6b", "8a1b2c3d", "9e8f7a6b"
	blog := goldenTraffic("Blog", "PK", "SK_GSI1PK",
		map[string][2]string{"GSI1": {"SK_GSI1PK", "GSI1SK_GSI2SK_GSI3SK"}, "GSI2": {"GSI2PK", "GSI1SK_GSI2SK_GSI3SK"}, "GSI3": {"GSI3PK", "GSI1SK_GSI2SK_GSI3SK"}},
		[]goldenReq{
			{op: "PutItem", pk: p1, sk: "post"}, {op: "PutItem", pk: p2, sk: "post"}, {op: "PutItem", pk: p3, sk: "post"},
			{op: "PutItem", pk: "81fcab6a", sk: p1}, {op: "TransactWriteItems", pk: "81fcab6b", sk: p1}, {op: "BatchWriteItem", pk: "6b9b9319", sk: p1},
			{op: "Query", index: "GSI1", pk: "post", prefix: "Post_"}, {op: "GetItem", pk: p1, sk: "post"}, {op: "BatchGetItem", pk: p2, sk: "post"},
			{op: "Query", index: "GSI1", pk: p1, prefix: "Comment_"}, {op: "Query", index: "GSI1", pk: p1, prefix: "Like_"},
			{op: "Query", index: "GSI2", pk: "和田哲也"}, {op: "Query", index: "GSI3", pk: "データベース"}, {op: "Scan"},
		})
	users := goldenTraffic("BlogApp", "PK", "SK", map[string][2]string{"GSI1": {"GSI1PK", "GSI1SK"}},
		[]goldenReq{
			{op: "PutItem", pk: "USER#u9", sk: "PROFILE"}, {op: "PutItem", pk: "POST#p9", sk: "POST#p9"}, {op: "PutItem", pk: "POST#p1", sk: "COMMENT#c9"},
			{op: "TransactWriteItems", pk: "POST#p9", sk: "TAG#streams"}, {op: "BatchWriteItem", pk: "POST#p9", sk: "TAG#go"},
			{op: "GetItem", pk: "USER#u7", sk: "PROFILE"}, {op: "Query", index: "GSI1", pk: "EMAIL#ann@example.com"},
			{op: "GetItem", pk: "POST#p1", sk: "POST#p1"}, {op: "BatchGetItem", pk: "POST#p2", sk: "POST#p2"},
			{op: "Query", index: "GSI1", pk: "USER#u7", prefix: "POST#"}, {op: "Query", pk: "POST#p1", prefix: "COMMENT#"},
			{op: "Query", pk: "POST#p1", prefix: "TAG#"}, {op: "Query", index: "GSI1", pk: "TAG#dynamodb", prefix: "POST#"}, {op: "Scan"},
		})
	createBlog := `{"TableName":"Blog","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK_GSI1PK","KeyType":"RANGE"}],
		"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK_GSI1PK","AttributeType":"S"},{"AttributeName":"GSI1SK_GSI2SK_GSI3SK","AttributeType":"S"},{"AttributeName":"GSI2PK","AttributeType":"S"},{"AttributeName":"GSI3PK","AttributeType":"S"}],
		"GlobalSecondaryIndexes":[{"IndexName":"GSI1","KeySchema":[{"AttributeName":"SK_GSI1PK","KeyType":"HASH"},{"AttributeName":"GSI1SK_GSI2SK_GSI3SK","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}},
		{"IndexName":"GSI2","KeySchema":[{"AttributeName":"GSI2PK","KeyType":"HASH"},{"AttributeName":"GSI1SK_GSI2SK_GSI3SK","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}},
		{"IndexName":"GSI3","KeySchema":[{"AttributeName":"GSI3PK","KeyType":"HASH"},{"AttributeName":"GSI1SK_GSI2SK_GSI3SK","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`
	createUsers := `{"TableName":"BlogApp","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],
		"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"},{"AttributeName":"GSI1PK","AttributeType":"S"},{"AttributeName":"GSI1SK","AttributeType":"S"}],
		"GlobalSecondaryIndexes":[{"IndexName":"GSI1","KeySchema":[{"AttributeName":"GSI1PK","KeyType":"HASH"},{"AttributeName":"GSI1SK","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`
	files, err := filepath.Glob("../../../internal/insights/testdata/*blog.*")
	require.NoError(t, err)
	n := 0
	for _, path := range files {
		file := filepath.Base(path)
		if strings.HasSuffix(file, ".txt") {
			continue
		}
		n++
		t.Run(file, func(t *testing.T) {
			traffic, create := blog, createBlog
			if strings.HasPrefix(file, "usersblog.") {
				traffic, create = users, createUsers
			}
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			f := newFixture(t, "memory", Options{})
			design, _ := json.Marshal(string(src))
			f.ok("design_set", `{"design":`+string(design)+`}`)
			f.ok("create_table", create)
			filed := 0
			for _, r := range traffic {
				var m struct {
					Matches []struct{ Pattern, Why string }
				}
				require.NoError(t, json.Unmarshal([]byte(f.ok("design_match", `{"operation":"`+r.op+`","request":`+r.args+`}`)), &m))
				require.Len(t, m.Matches, 1, r.args)
				before := patternCounts(t, f)
				f.ok(r.tool, r.args)
				got := ""
				for name, c := range patternCounts(t, f) {
					if c > before[name] {
						got = name
					}
				}
				require.Equal(t, got, m.Matches[0].Pattern, "%s %s: design_match says %q (%s), the report files it under %q", r.op, r.args, m.Matches[0].Pattern, m.Matches[0].Why, got)
				if got != "" {
					filed++
				}
			}
			require.Positive(t, filed)
		})
	}
	require.Equal(t, 13, n, "the blog in ten files and the users blog in three")
}

// patternCounts returns each pattern's requests in the report.
func patternCounts(t *testing.T, f *fixture) map[string]int64 {
	var rep struct {
		Design *struct {
			Patterns []struct {
				Table, Name string
				Requests    int64
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(f.ok("access_report", `{"format":"json"}`)), &rep))
	out := map[string]int64{}
	if rep.Design != nil {
		for _, p := range rep.Design.Patterns {
			out[p.Name] = p.Requests
		}
	}
	return out
}
