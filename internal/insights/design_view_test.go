package insights

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDesignView: the blog design for reading.
func TestDesignView(t *testing.T) {
	v := loadDesign(t, "blog.design").View()
	require.Equal(t, FormatText, v.Format)
	require.Empty(t, v.Findings)
	require.Len(t, v.Tables, 1)
	blog := v.Tables[0]
	require.Equal(t, "PK", blog.PartitionKey)
	require.Equal(t, IndexView{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI1SK_GSI2SK_GSI3SK"}, blog.Indexes[1])
	require.Equal(t, EntityView{Name: "Comment", Templates: map[string]string{"PK": "{id}", "SK_GSI1PK": "{post_id}", "GSI1SK_GSI2SK_GSI3SK": "Comment_{created_at}"}}, blog.Entities[1])
	require.Equal(t, PatternView{Name: "posts-newest", Description: "投稿一覧を新しい順で取得する", Access: "query", Entities: []string{"Post"},
		ServedBy: "index GSI1", Condition: "pk = post and sk begins_with Post_", Order: "desc"}, blog.Patterns[0])
}

// TestDesignMatch: the pattern a request counts for, and why the others
// do not fit.
func TestDesignMatch(t *testing.T) {
	d := loadDesign(t, "blog.design")
	verdict := func(mv MatchView, pattern string) string {
		for _, c := range mv.Candidates {
			if c.Pattern == pattern {
				return c.Why
			}
		}
		return "no candidate " + pattern
	}
	tests := []struct {
		name    string
		q       Request
		pattern string
		why     string
		reasons map[string]string
	}{
		{"comments of a post", Request{Access: Query, Table: "Blog", Index: "GSI1", Key: KeyCondition{Partition: s("77fcab6b"), SortOp: SortBeginsWith, Sort: s("Comment_")}},
			"comments-of-post", "a query on index GSI1 whose key fits pk = {post_id} and sk begins_with Comment_",
			map[string]string{
				"likes-of-post":   `the sort key "Comment_" does not fit sk begins_with Like_`,
				"posts-newest":    `the partition key "77fcab6b" does not fit pk = post`,
				"post-by-id":      "a get pattern; the request is a query",
				"posts-by-author": "on index GSI2; the request uses index GSI1",
			}},
		{"a post by id", Request{Access: Get, Table: "Blog", Key: KeyCondition{Partition: s("77fcab6b"), SortOp: SortEQ, Sort: s("post")}},
			"post-by-id", "a get on table key whose key fits pk = {id} and sk = post", nil},
		{"a query without the prefix", Request{Access: Query, Table: "Blog", Index: "GSI1", Key: KeyCondition{Partition: s("77fcab6b")}},
			"", "no pattern fits: see each pattern's reason",
			map[string]string{"comments-of-post": "the pattern takes sk begins_with Comment_; the request has no sort key condition"}},
		{"a scan", Request{Access: Scan, Table: "Blog"}, "", "no pattern declares this Scan: it reads the whole table", nil},
		{"another table", Request{Access: Get, Table: "Orders"}, "", `the design declares no table "Orders"`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mv := d.Match(&tc.q)
			require.Equal(t, tc.pattern, mv.Pattern)
			require.Equal(t, tc.why, mv.Why)
			for p, why := range tc.reasons {
				require.Equal(t, why, verdict(mv, p), p)
			}
			if tc.pattern != "" {
				require.Equal(t, "fits", verdict(mv, tc.pattern))
			}
		})
	}
}
