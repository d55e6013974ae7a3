package insights

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files in testdata")

// loadDesign parses a design file of testdata.
func loadDesign(t *testing.T, name string) *Design {
	t.Helper()
	src, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseDesign(src)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// s is an S value.
func s(text string) storage.Value { return storage.S(text) }

const headerDesign = `table Blog
key PK SK_GSI1PK
index GSI1 SK_GSI1PK GSI1SK_GSI2SK_GSI3SK
index GSI2 GSI2PK GSI1SK_GSI2SK_GSI3SK
entity Post    PK={id} SK_GSI1PK=post      GSI1SK_GSI2SK_GSI3SK=Post_{created_at} GSI2PK={author}
entity Comment PK={id} SK_GSI1PK={post_id} GSI1SK_GSI2SK_GSI3SK=Comment_{created_at}
entity Like    PK={id} SK_GSI1PK={post_id} GSI1SK_GSI2SK_GSI3SK=Like_{created_at}
`

func TestParseDesign(t *testing.T) {
	d := loadDesign(t, "blog.design")
	blog := d.Tables[0]
	if blog.Name != "Blog" || blog.Key != (KeyDef{"PK", "SK_GSI1PK"}) || len(blog.Indexes) != 3 || len(blog.Entities) != 3 || len(blog.Patterns) != 8 {
		t.Fatalf("table %+v", blog)
	}
	p := blog.Patterns[0]
	if p.Name != "posts-newest" || p.Access != Query || p.Index != "GSI1" || p.PK.String() != "post" || p.SortOp != SortBeginsWith ||
		p.SK.String() != "Post_" || p.Order != "desc" || p.Description != "投稿一覧を新しい順で取得する" || p.Line != 18 {
		t.Errorf("pattern %+v", p)
	}
	if got := blog.Patterns[7].Entities; strings.Join(got, ",") != "Comment,Like" {
		t.Errorf("entities %q", got)
	}
	// Quoting, comments and between.
	d2, err := ParseDesign([]byte(`table "My Table"  # a comment
key pk sk
entity E pk="A B{x}" sk={d}
pattern p query E where pk = "A Bx" and sk between 2021 and "2022 #1" "the #description"`))
	if err != nil {
		t.Fatal(err)
	}
	p2 := d2.Tables[0].Patterns[0]
	if d2.Tables[0].Name != "My Table" || d2.Tables[0].Entities[0].Attrs["pk"].String() != "A B{x}" ||
		p2.SortOp != SortBetween || p2.SK.String() != "2021" || p2.SK2.String() != "2022 #1" || p2.Description != "the #description" {
		t.Errorf("parsed %+v %+v", d2.Tables[0], p2)
	}
}

func TestParseDesignErrors(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"", "design:1: the design declares no table"},
		{"key a", `design:1:1: "key" before any table line`},
		{"table", "design:1:1: table takes one name"},
		{"table T\ntable T", `design:2:7: table "T" twice`},
		{"table T\nkey a\nkey b", `design:3:1: table "T" has a key line already`},
		{"table T\nkey a a", `design:2:7: the sort key attribute is the partition key attribute "a"`},
		{"table T\nkey a b c", "design:2:1: a key is a partition key attribute"},
		{"table T\nfoo", `design:2:1: unknown line "foo"`},
		{"table T\n\"key\" a", "design:2:1: a line starts with table"},
		{"table T\nkey a\nentity E", "design:3:1: entity takes a name and ATTR=TEMPLATE"},
		{"table T\nkey a\nentity E a", `design:3:10: "a" is not ATTR=TEMPLATE`},
		{"table T\nkey a\nentity E a={x", "design:3:10: template \"{x\": { without }"},
		{"table T\nkey a\nentity E a=x a=y", `design:3:14: attribute "a" twice`},
		{"table T\nkey a\nentity E a=\"x", "design:3:10: a quoted string without its closing quote"},
		{"table T\nkey a\nentity E b=x", `design:3: entity "E": "b" is no key attribute of table "T" or its indexes`},
		{"table T\nkey a b\nentity E a=x", `design:3: entity "E" has no template for the table's key attribute "b"`},
		{"table T\nentity E a=x", `design:1: table "T" has no key line`},
		{"table T\nkey a\nentity E a=x\npattern p fetch E", `design:4:11: access "fetch" is not get`},
		{"table T\nkey a\nentity E a=x\npattern p get E,E", `design:4:15: entities "E,E"`},
		{"table T\nkey a\nentity E a=x\npattern p get F where pk = x", `design:4: pattern "p": no entity "F"`},
		{"table T\nkey a\nentity E a=x\npattern p query E on X where pk = x", `design:4: pattern "p": no index "X"`},
		{"table T\nkey a\nentity E a=x\npattern p query E where pk x", "design:4:25: a condition is pk = TEMPLATE"},
		{"table T\nkey a\nentity E a=x\npattern p query E where pk < x", "design:4:28: the partition key condition is one pk = TEMPLATE"},
		{"table T\nkey a\nentity E a=x\npattern p query E where id = x", `design:4:25: a condition starts with pk or sk, not "id"`},
		{"table T\nkey a s\nentity E a=x s=y\npattern p query E where pk = x and sk ~ y", "design:4:39: the sort key condition is one sk"},
		{"table T\nkey a s\nentity E a=x s=y\npattern p query E where pk = x and sk between y", "design:4:39: between takes TEMPLATE and TEMPLATE"},
		{"table T\nkey a\nentity E a=x\npattern p query E where pk = x desc asc", "design:4:37: one order per pattern"},
		{"table T\nkey a\nentity E a=x\npattern p query E where pk = x soon", `design:4:32: unexpected "soon"`},
		{"table T\nkey a\nentity E a=x\npattern p scan E where pk = x", `design:4: pattern "p": a scan has no key condition`},
		{"table T\nkey a s\nentity E a=x s=y\npattern p get E where pk = x", `design:4: pattern "p": get needs the full key: pk = TEMPLATE and sk = TEMPLATE`},
		{"table T\nkey a\nindex I a\nentity E a=x\npattern p get E on I where pk = x", `design:5: pattern "p": get reads or writes the table's items by their key: no index`},
		{"table T\nkey a\nentity E a=x\npattern p query E", `design:4: pattern "p": a query needs pk = TEMPLATE`},
		{"table T\nkey a\nentity E a=x\npattern p query E where pk = x and sk = y", `design:4: pattern "p": a sort key condition on a key without a sort key`},
		{"table T\nkey a\nentity E a=x\npattern p scan E\npattern p scan E", `design:5:9: pattern "p" twice`},
		{"table T\nkey a\nindex I b\nindex I c", `design:4:7: index "I" twice`},
		{"table " + strings.Repeat("x", 256), "design:1:7: table name"},
		{strings.Repeat("#", maxDesignBytes+1), "design:1: the design is 1048577 bytes, more than 1048576"},
	}
	for _, tc := range tests {
		_, err := ParseDesign([]byte(tc.src))
		var de *DesignError
		if err == nil || !errors.As(err, &de) || !errors.Is(err, ErrDesign) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ParseDesign(%.40q) = %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name     string
		patterns string
		want     []string // kind pattern/index entity
	}{
		{"clean", `pattern a query Comment on GSI1 where pk = {post_id} and sk begins_with Comment_
pattern b query Post on GSI2 where pk = {author}`, nil},
		{"comments without their prefix mix with likes", `pattern a query Comment on GSI1 where pk = {post_id}
pattern b query Post on GSI2 where pk = {author}`, []string{"mixed-entities a Like"}},
		{"a query of the table by id alone mixes", `pattern a query Post where pk = {id}
pattern b query Post on GSI1 where pk = post
pattern c query Post on GSI2 where pk = {author}`, []string{"mixed-entities a Comment", "mixed-entities a Like"}},
		{"a scan", `pattern a scan Post,Comment,Like
pattern b query Post on GSI1 where pk = post
pattern c query Post on GSI2 where pk = {author}`, []string{"scan-pattern a "}},
		{"a scan of an index mixes", `pattern a scan Post on GSI1
pattern c query Post on GSI2 where pk = {author}`, []string{"scan-pattern a ", "mixed-entities a Comment", "mixed-entities a Like"}},
		{"an entity not in the index", `pattern a query Comment on GSI2 where pk = {author}
pattern b query Post on GSI1 where pk = post`, []string{"entity-not-in-index a Comment", "mixed-entities a Post"}},
		{"a condition that misses its entity", `pattern a query Comment on GSI1 where pk = {post_id} and sk begins_with Like_
pattern b query Post on GSI2 where pk = {author}`, []string{"pattern-misses-entity a Comment", "mixed-entities a Like"}},
		{"a range of one entity", `pattern a query Post on GSI1 where pk = post and sk between Post_2021 and Post_2022
pattern b query Post on GSI2 where pk = {author}`, nil},
		{"unused index and same conditions", `pattern a query Post on GSI1 where pk = post
pattern b query Post on GSI1 where pk = post`, []string{"ambiguous-patterns b ", "unused-index GSI2 "}},
		{"writes are not checked for mixing", `pattern a put Comment where pk = {id} and sk = {post_id}
pattern b query Post on GSI1 where pk = post
pattern c query Post on GSI2 where pk = {author}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ParseDesign([]byte(headerDesign + tc.patterns))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range d.Check() {
				who := f.Pattern
				if f.Kind == FindingUnusedIndex {
					who = f.Index
				}
				got = append(got, fmt.Sprintf("%s %s %s", f.Kind, who, f.Entity))
				if f.Detail == "" {
					t.Errorf("finding without detail: %+v", f)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestMatch(t *testing.T) {
	d, err := ParseDesign([]byte(headerDesign + `pattern any-of-post query Comment,Like on GSI1 where pk = {post_id}
pattern comments query Comment on GSI1 where pk = {post_id} and sk begins_with Comment_
pattern posts query Post on GSI1 where pk = post and sk begins_with Post_
pattern range query Post on GSI1 where pk = post and sk between Post_{a} and Post_{b}
pattern by-author query Post on GSI2 where pk = {author}
pattern get-post get Post where pk = {id} and sk = post
pattern scan scan Post`))
	if err != nil {
		t.Fatal(err)
	}
	blog := d.Tables[0]
	tests := []struct {
		q    Request
		want string
	}{
		{Request{Access: Query, Index: "GSI1", Key: KeyCondition{Partition: s("p1"), SortOp: SortBeginsWith, Sort: s("Comment_")}}, "comments"},
		{Request{Access: Query, Index: "GSI1", Key: KeyCondition{Partition: s("p1"), SortOp: SortBeginsWith, Sort: s("Comment_2021")}}, "comments"},
		{Request{Access: Query, Index: "GSI1", Key: KeyCondition{Partition: s("p1"), SortOp: SortBeginsWith, Sort: s("Like_")}}, "any-of-post"},
		{Request{Access: Query, Index: "GSI1", Key: KeyCondition{Partition: s("p1")}}, "any-of-post"},
		{Request{Access: Query, Index: "GSI1", Key: KeyCondition{Partition: s("post"), SortOp: SortBeginsWith, Sort: s("Post_")}}, "posts"},
		{Request{Access: Query, Index: "GSI1", Key: KeyCondition{Partition: s("post"), SortOp: SortBetween, Sort: s("Post_1"), Sort2: s("Post_2")}}, "range"},
		{Request{Access: Query, Index: "GSI1", Key: KeyCondition{Partition: s("post"), SortOp: SortBetween, Sort: s("A"), Sort2: s("Post_2")}}, "any-of-post"},
		{Request{Access: Query, Index: "GSI2", Key: KeyCondition{Partition: s("ann")}}, "by-author"},
		{Request{Access: Query, Index: "GSI3", Key: KeyCondition{Partition: s("ann")}}, ""},
		{Request{Access: Get, Key: KeyCondition{Partition: s("p1"), SortOp: SortEQ, Sort: s("post")}}, "get-post"},
		{Request{Access: Get, Key: KeyCondition{Partition: s("p1"), SortOp: SortEQ, Sort: s("p2")}}, ""},
		{Request{Access: Query, Key: KeyCondition{Partition: s("p1")}}, ""},
		{Request{Access: Scan}, "scan"},
		{Request{Access: Scan, Index: "GSI1"}, ""},
	}
	for i, tc := range tests {
		got := ""
		if j := blog.match(&tc.q); j >= 0 {
			got = blog.Patterns[j].Name
		}
		if got != tc.want {
			t.Errorf("request %d %+v matched %q, want %q", i, tc.q, got, tc.want)
		}
	}
}

// FuzzParseDesign: any input is a design or a *DesignError; a design
// checks and renders without trouble.
func FuzzParseDesign(f *testing.F) {
	seed, err := os.ReadFile("testdata/blog.design")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(headerDesign + "pattern a query Comment on GSI1 where pk = {post_id} and sk between \"a\\\"b\" and {x}z \"d\""))
	f.Add([]byte("table T\nkey a b\nentity E a={x}#{y} b=\"{z}\"\npattern p get E where pk = 1#{y} and sk = z"))
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ParseDesign(src)
		if err != nil {
			var de *DesignError
			if !errors.As(err, &de) || de.Line < 1 && de.Format == "" {
				t.Fatalf("error %v is not a *DesignError with a line or a format", err)
			}
			return
		}
		for _, f := range d.Check() {
			if f.Kind == "" || f.Detail == "" {
				t.Fatalf("empty finding %+v", f)
			}
		}
		for _, tb := range d.Tables {
			for _, p := range tb.Patterns {
				_ = p.conditionText()
				q := Request{Access: p.Access, Table: tb.Name, Index: p.Index,
					Key: KeyCondition{Partition: s(p.PK.String()), SortOp: p.SortOp, Sort: s(p.SK.String()), Sort2: s(p.SK2.String())}}
				tb.match(&q)
			}
		}
	})
}
