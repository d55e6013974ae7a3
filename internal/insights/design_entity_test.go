package insights

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestMatchItem: seed 001's items against its design (testdata/blog.design):
// each model's shapes match their entity; a like without its Like_
// prefix, or a comment that would land in the authors' index, match none.
func TestMatchItem(t *testing.T) {
	src, err := os.ReadFile("testdata/blog.design")
	require.NoError(t, err)
	d, err := ParseDesign(src)
	require.NoError(t, err)
	s := storage.S
	item := func(kv ...string) storage.Item {
		it := storage.Item{}
		for i := 0; i+1 < len(kv); i += 2 {
			it[kv[i]] = s(kv[i+1])
		}
		return it
	}
	for _, tt := range []struct {
		name string
		item storage.Item
		want string
	}{
		{"post", item("PK", "77fcab6b", "SK_GSI1PK", "post", "GSI1SK_GSI2SK_GSI3SK", "Post_2021-12-03T10:06:57.650Z", "GSI2PK", "和田哲也", "GSI3PK", "データベース", "content", "x"), "Post"},
		{"comment", item("PK", "81fcab6a", "SK_GSI1PK", "77fcab6b", "GSI1SK_GSI2SK_GSI3SK", "Comment_2021-12-03T10:11:44.137Z", "comment_author", "山田太郎"), "Comment"},
		{"like", item("PK", "6b9b9319", "SK_GSI1PK", "77fcab6b", "GSI1SK_GSI2SK_GSI3SK", "Like_2021-12-03T10:12:45.033Z"), "Like"},
		{"like without its prefix", item("PK", "6b9b9319", "SK_GSI1PK", "77fcab6b", "GSI1SK_GSI2SK_GSI3SK", "2021-12-03T10:12:45.033Z"), ""},
		{"comment in the authors' index", item("PK", "81fcab6a", "SK_GSI1PK", "77fcab6b", "GSI1SK_GSI2SK_GSI3SK", "Comment_2021", "GSI2PK", "山田太郎"), ""},
		{"post without its genre", item("PK", "77fcab6b", "SK_GSI1PK", "post", "GSI1SK_GSI2SK_GSI3SK", "Post_2021", "GSI2PK", "和田哲也"), ""},
	} {
		got, compared := d.MatchItem("Blog", tt.item)
		require.Equal(t, tt.want, got, tt.name)
		if tt.want == "" {
			require.Equal(t, []string{
				"Post (PK={id} SK_GSI1PK=post GSI1SK_GSI2SK_GSI3SK=Post_{created_at} GSI2PK={author} GSI3PK={genre})",
				"Comment (PK={id} SK_GSI1PK={post_id} GSI1SK_GSI2SK_GSI3SK=Comment_{created_at})",
				"Like (PK={id} SK_GSI1PK={post_id} GSI1SK_GSI2SK_GSI3SK=Like_{created_at})",
			}, compared, tt.name)
		}
	}
	require.True(t, d.Declares("Blog"))
	require.False(t, d.Declares("Other"))
	got, compared := d.MatchItem("Other", item("PK", "x"))
	require.Empty(t, got)
	require.Nil(t, compared)
}
