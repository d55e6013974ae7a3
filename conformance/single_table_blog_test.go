package conformance

// The single-table blog design, after a Japanese
// walkthrough of single-table design for a Qiita-like service. Posts,
// comments and likes share one table; attribute names are overloaded and
// three GSIs serve the access patterns the primary key cannot:
//
//	table  PK (id)              SK_GSI1PK ("post", or the post id of a comment/like)
//	GSI1   SK_GSI1PK            GSI1SK_GSI2SK_GSI3SK ("Post_"/"Comment_"/"Like_" + created_at)
//	GSI2   GSI2PK (post author) GSI1SK_GSI2SK_GSI3SK
//	GSI3   GSI3PK (post genre)  GSI1SK_GSI2SK_GSI3SK
//
// Comments and likes carry comment_author / like_author rather than GSI2PK,
// so they stay out of GSI2 (the seed's fix (c)); they share GSI1 partitions
// with a type prefix on the sort key (its fix for (a) and (b)). Each access
// pattern the seed lists is answered by one Query.

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const (
	blogSK    = "SK_GSI1PK"
	blogSort  = "GSI1SK_GSI2SK_GSI3SK"
	blogPosts = "post"
)

func blogPost(id, author, genre, title, content, created string) item {
	return item{"PK": s(id), blogSK: s(blogPosts), blogSort: s("Post_" + created), "GSI2PK": s(author), "GSI3PK": s(genre),
		"title": s(title), "content": s(content), "updated_at": s(created)}
}

func blogComment(id, post, author, content, created string) item {
	return item{"PK": s(id), blogSK: s(post), blogSort: s("Comment_" + created), "comment_author": s(author),
		"content": s(content), "updated_at": s(created)}
}

func blogLike(id, post, author, created string) item {
	return item{"PK": s(id), blogSK: s(post), blogSort: s("Like_" + created), "like_author": s(author)}
}

func TestSingleTableBlog(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"PK", "S"}, keyDef{blogSK, "S"})
	in.AttributeDefinitions = append(in.AttributeDefinitions, ads(blogSort, "S", "GSI2PK", "S", "GSI3PK", "S")...)
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{
		gsiDef("GSI1", blogSK, blogSort, types.ProjectionTypeAll),
		gsiDef("GSI2", "GSI2PK", blogSort, types.ProjectionTypeAll),
		gsiDef("GSI3", "GSI3PK", blogSort, types.ProjectionTypeAll),
	}
	table := createTable(t, c, in)

	const wada, yamada, sato = "和田哲也", "山田太郎", "佐藤花子"
	const db, front, infra = "データベース", "フロントエンド", "インフラ"
	design := blogPost("77fcab6b", wada, db, "DynamoDBのテーブル設計", "この記事の目的は…", "2021-12-03T10:06:57.650Z")
	data := []item{
		design,
		blogPost("a1b2c3d4", yamada, db, "RDBとの違い", "RDBでは…", "2021-12-01T09:00:00.000Z"),
		blogPost("e5f6a7b8", wada, front, "Reactの状態管理", "状態管理とは…", "2021-12-05T15:30:00.000Z"),
		blogPost("c9d0e1f2", sato, front, "CSSの小技", "今日は…", "2021-11-28T08:15:00.000Z"),
		blogPost("0a1b2c3d", yamada, infra, "Terraform入門", "まずは…", "2021-12-04T12:00:00.000Z"),
		blogComment("81fcab6a", "77fcab6b", yamada, "面白いですね", "2021-12-03T10:11:44.137Z"),
		blogComment("82aaaa01", "77fcab6b", sato, "参考になりました", "2021-12-03T11:00:00.000Z"),
		blogComment("83bbbb02", "77fcab6b", wada, "ありがとうございます", "2021-12-03T10:30:00.000Z"),
		blogComment("84cccc03", "a1b2c3d4", wada, "なるほど", "2021-12-02T08:00:00.000Z"),
		blogLike("6b9b9319", "77fcab6b", yamada, "2021-12-03T10:12:45.033Z"),
		blogLike("6c000001", "77fcab6b", sato, "2021-12-03T12:00:00.000Z"),
		blogLike("6d000002", "e5f6a7b8", yamada, "2021-12-05T16:00:00.000Z"),
	}
	var reqs []types.WriteRequest
	for _, it := range data {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
	}
	mustBatchWrite(t, c, table, reqs)

	query := func(index, cond string, values item, forward bool) *dynamodb.QueryInput {
		in := &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String(cond),
			ExpressionAttributeValues: values, ScanIndexForward: aws.Bool(forward)}
		if index != "" {
			in.IndexName = aws.String(index)
		}
		return in
	}
	tests := []struct {
		name string
		in   *dynamodb.QueryInput
		want string // PK of the items, in order
	}{
		{"投稿一覧を新しい順で取得する (posts, newest first)",
			query("GSI1", "SK_GSI1PK = :post", item{":post": s(blogPosts)}, false),
			"e5f6a7b8 0a1b2c3d 77fcab6b a1b2c3d4 c9d0e1f2"},
		{"指定されたidの投稿を一件取得する (one post by id)",
			query("", "PK = :id AND SK_GSI1PK = :post", item{":id": s("77fcab6b"), ":post": s(blogPosts)}, true),
			"77fcab6b"},
		{"指定されたidの投稿に紐づくコメントを古い順で全て取得する (a post's comments, oldest first)",
			query("GSI1", "SK_GSI1PK = :id AND begins_with(GSI1SK_GSI2SK_GSI3SK, :type)", item{":id": s("77fcab6b"), ":type": s("Comment_")}, true),
			"81fcab6a 83bbbb02 82aaaa01"},
		{"指定されたidの投稿に紐づくいいねを全て取得する (a post's likes)",
			query("GSI1", "SK_GSI1PK = :id AND begins_with(GSI1SK_GSI2SK_GSI3SK, :type)", item{":id": s("77fcab6b"), ":type": s("Like_")}, true),
			"6b9b9319 6c000001"},
		{"指定されたユーザーが作成した投稿一覧を新しい順で取得する (a user's posts, newest first)",
			query("GSI2", "GSI2PK = :author", item{":author": s(wada)}, false),
			"e5f6a7b8 77fcab6b"},
		{"指定されたユーザーが作成した投稿一覧 (a user with comments and likes but one post)",
			query("GSI2", "GSI2PK = :author", item{":author": s(sato)}, false),
			"c9d0e1f2"},
		{"指定されたジャンルの投稿一覧を新しい順で取得する (a genre's posts, newest first)",
			query("GSI3", "GSI3PK = :genre", item{":genre": s(db)}, false),
			"77fcab6b a1b2c3d4"},
		{"ジャンル: フロントエンド",
			query("GSI3", "GSI3PK = :genre", item{":genre": s(front)}, false),
			"e5f6a7b8 c9d0e1f2"},
		{"a post without comments or likes",
			query("GSI1", "SK_GSI1PK = :id AND begins_with(GSI1SK_GSI2SK_GSI3SK, :type)", item{":id": s("c9d0e1f2"), ":type": s("Comment_")}, true),
			""},
		{"everything hanging off a post, by type then time",
			query("GSI1", "SK_GSI1PK = :id", item{":id": s("77fcab6b")}, true),
			"81fcab6a 83bbbb02 82aaaa01 6b9b9319 6c000001"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := c.Query(ctx(t), tc.in)
			mustNoError(t, err)
			if got := fields(out.Items, "PK"); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if len(out.LastEvaluatedKey) != 0 {
				t.Fatalf("one page expected, got LastEvaluatedKey %s", renderItem(out.LastEvaluatedKey))
			}
		})
	}
	t.Run("the post read by id is the whole item", func(t *testing.T) {
		t.Parallel()
		out, err := c.Query(ctx(t), query("", "PK = :id AND SK_GSI1PK = :post", item{":id": s("77fcab6b"), ":post": s(blogPosts)}, true))
		mustNoError(t, err)
		requireItems(t, out.Items, []item{design})
	})
	t.Run("an index item carries the whole item (ALL)", func(t *testing.T) {
		t.Parallel()
		out, err := c.Query(ctx(t), query("GSI3", "GSI3PK = :genre AND GSI1SK_GSI2SK_GSI3SK = :sort",
			item{":genre": s(db), ":sort": s("Post_2021-12-03T10:06:57.650Z")}, true))
		mustNoError(t, err)
		requireItems(t, out.Items, []item{design})
	})
}
