package insights

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// usersBlogTraffic is the requests the users blog's access patterns make
// against its table BlogApp (testdata/usersblog.design), one or two per
// pattern, and a Scan that serves none (a user's posts by filter).
func usersBlogTraffic() []Request {
	q := func(op string, acc Access, index, pk string, so SortOp, sk string, read int) Request {
		r := Request{Op: op, Access: acc, Table: "BlogApp", Index: index, Key: KeyCondition{Partition: s(pk), SortOp: so}, Read: read, Returned: read, ReadUnits: 0.5}
		if so != SortNone {
			r.Key.Sort = s(sk)
		}
		if acc.IsWrite() {
			r.ReadUnits, r.WriteUnits, r.Read, r.Returned = 0, 1, 0, 0
		}
		return r
	}
	return []Request{
		q("PutItem", Put, "", "USER#u9", SortEQ, "PROFILE", 0),
		q("PutItem", Put, "", "POST#p9", SortEQ, "POST#p9", 0),
		q("PutItem", Put, "", "POST#p1", SortEQ, "COMMENT#c9", 0),
		q("TransactWriteItems", Put, "", "POST#p9", SortEQ, "TAG#streams", 0),
		q("BatchWriteItem", Put, "", "POST#p9", SortEQ, "TAG#go", 0),
		q("GetItem", Get, "", "USER#u7", SortEQ, "PROFILE", 1),
		q("Query", Query, "GSI1", "EMAIL#ann@example.com", SortNone, "", 1),
		q("GetItem", Get, "", "POST#p1", SortEQ, "POST#p1", 1),
		q("BatchGetItem", Get, "", "POST#p2", SortEQ, "POST#p2", 1),
		q("Query", Query, "GSI1", "USER#u7", SortBeginsWith, "POST#", 2),
		q("Query", Query, "", "POST#p1", SortBeginsWith, "COMMENT#", 2),
		q("Query", Query, "", "POST#p1", SortBeginsWith, "TAG#", 1),
		q("Query", Query, "GSI1", "TAG#dynamodb", SortBeginsWith, "POST#", 2),
		{Op: "Scan", Access: Scan, Table: "BlogApp", Filter: true, Read: 12, Returned: 2, ReadUnits: 1.5},
	}
}

// TestUsersBlogEveryFormat: the users blog as NoSQL Workbench exports it
// (no dynamoemu member) and as AWS's DynamoDB MCP server writes it gives
// each pattern the template its design file declares: the data model's
// patterns are the design file's, key conditions and all; the Workbench
// model's entities are the design file's, template for template, and
// each request of a declared pattern counts for a pattern of the same
// access, index and partition key template. Each format's report on the
// traffic is its golden (-rewrite writes them).
func TestUsersBlogEveryFormat(t *testing.T) {
	want := loadDesign(t, "usersblog.design").Tables[0]
	dm := loadDesign(t, "usersblog.dynamodb_data_model.json").Tables[0]
	require.Len(t, dm.Patterns, len(want.Patterns))
	for i, wp := range want.Patterns {
		gp := dm.Patterns[i]
		require.Equal(t, wp.Name, gp.Name)
		require.Equal(t, wp.Access, gp.Access, wp.Name)
		require.Equal(t, wp.ServedBy(), gp.ServedBy(), wp.Name)
		require.Equal(t, wp.conditionText(), gp.conditionText(), "data model: pattern %s", wp.Name)
	}
	wb := loadDesign(t, "usersblog.workbench-plain.json").Tables[0]
	require.Len(t, wb.Entities, len(want.Entities))
	for i, we := range want.Entities {
		ge := wb.Entities[i]
		require.Equal(t, we.Name, ge.Name)
		require.Equal(t, templatesOf(we), templatesOf(ge), "workbench: entity %s", we.Name)
	}
	for _, q := range usersBlogTraffic() {
		wi, gi := want.match(&q), wb.match(&q)
		if wi < 0 {
			continue
		}
		wp := want.Patterns[wi]
		if wp.Access.IsWrite() {
			continue // Workbench says no write patterns: writes are not checked
		}
		require.GreaterOrEqual(t, gi, 0, "workbench: no pattern serves %s's request %s", wp.Name, conditionText(q.Key))
		gp := wb.Patterns[gi]
		require.Equal(t, wp.Access, gp.Access, "%s and %s", wp.Name, gp.Name)
		require.Equal(t, wp.Index, gp.Index, "%s and %s", wp.Name, gp.Name)
		require.Equal(t, wp.PK.String(), gp.PK.String(), "%s and %s", wp.Name, gp.Name)
	}

}

// templatesOf renders an entity's templates.
func templatesOf(e *Entity) []string {
	var out []string
	for _, a := range sortedKeys(e.Attrs) {
		out = append(out, a+"="+e.Attrs[a].String())
	}
	return out
}
