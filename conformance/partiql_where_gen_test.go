package conformance

// A generated test of PartiQL's WHERE clause: random conditions written
// twice, as a PartiQL SELECT (a Scan: no key condition) and as a Scan's
// FilterExpression over :placeholders, run on the same random items: the
// same items, or both refused with the same message (PartiQL's has no
// "Invalid FilterExpression: " prefix). The seed is logged;
// PARTIQL_WHERE_SEED=<n> replays one.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// whereValue is a value both languages can write.
type whereValue struct {
	partiql string
	v       types.AttributeValue
}

var whereValues = []whereValue{
	{"1", n("1")}, {"2", n("2")}, {"-3.5", n("-3.5")}, {"'x'", s("x")}, {"'xy'", s("xy")},
	{"TRUE", bl(true)}, {"NULL", null()}, {"[1, 'x']", l(n("1"), s("x"))}, {"<<'x', 'z'>>", ss("x", "z")},
	{"{'k': 1}", m(item{"k": n("1")})},
}

var wherePaths = []string{"a", "b", "m1.k", "l1[0]", "l1[1]", "m1.k.j"}

type whereGen struct {
	r      *rand.Rand
	values map[string]types.AttributeValue
}

func (g *whereGen) value() (string, string) {
	v := whereValues[g.r.IntN(len(whereValues))]
	name := ":v" + strconv.Itoa(len(g.values))
	g.values[name] = v.v
	return v.partiql, name
}

// cond returns a condition as PartiQL and as a condition expression.
func (g *whereGen) cond(depth int) (string, string) {
	if depth > 0 {
		switch g.r.IntN(6) {
		case 0:
			p, e := g.cond(depth - 1)
			return "NOT (" + p + ")", "NOT (" + e + ")"
		case 1, 2:
			op := []string{"AND", "OR"}[g.r.IntN(2)]
			p1, e1 := g.cond(depth - 1)
			p2, e2 := g.cond(depth - 1)
			return "(" + p1 + ") " + op + " (" + p2 + ")", "(" + e1 + ") " + op + " (" + e2 + ")"
		}
	}
	p := wherePaths[g.r.IntN(len(wherePaths))]
	switch g.r.IntN(9) {
	case 0:
		pv1, ev1 := g.value()
		pv2, ev2 := g.value()
		return p + " BETWEEN " + pv1 + " AND " + pv2, p + " BETWEEN " + ev1 + " AND " + ev2
	case 1:
		pv1, ev1 := g.value()
		pv2, ev2 := g.value()
		return p + " IN [" + pv1 + ", " + pv2 + "]", p + " IN (" + ev1 + ", " + ev2 + ")"
	case 2:
		f := []string{"attribute_exists", "attribute_not_exists"}[g.r.IntN(2)]
		return f + "(" + p + ")", f + "(" + p + ")"
	case 3:
		pv, ev := g.value()
		f := []string{"begins_with", "contains"}[g.r.IntN(2)]
		return f + "(" + p + ", " + pv + ")", f + "(" + p + ", " + ev + ")"
	case 4:
		typ := []string{"S", "N", "L", "M", "NULL", "BOOL", "SS"}[g.r.IntN(7)]
		ev := ":t" + strconv.Itoa(len(g.values))
		g.values[ev] = s(typ)
		return "attribute_type(" + p + ", '" + typ + "')", "attribute_type(" + p + ", " + ev + ")"
	case 5:
		op := []string{"=", "<>", "<", ">="}[g.r.IntN(4)]
		pv, ev := g.value()
		return "size(" + p + ") " + op + " " + pv, "size(" + p + ") " + op + " " + ev
	}
	op := []string{"=", "<>", "<", "<=", ">", ">="}[g.r.IntN(6)]
	pv, ev := g.value()
	if g.r.IntN(4) == 0 {
		return pv + " " + op + " " + p, ev + " " + op + " " + p
	}
	return p + " " + op + " " + pv, p + " " + op + " " + ev
}

// item returns a random item over the generated paths.
func (g *whereGen) item(pk string) item {
	pick := func() types.AttributeValue { return whereValues[g.r.IntN(len(whereValues))].v }
	it := item{"pk": s(pk)}
	for _, name := range []string{"a", "b"} {
		if g.r.IntN(3) > 0 {
			it[name] = pick()
		}
	}
	if g.r.IntN(3) > 0 {
		k := item{}
		switch g.r.IntN(3) {
		case 0:
			k["k"] = pick()
		case 1:
			inner := item{}
			if g.r.IntN(2) == 0 {
				inner["j"] = pick()
			}
			k["k"] = m(inner)
		}
		it["m1"] = m(k)
	}
	if g.r.IntN(3) > 0 {
		vs := make([]types.AttributeValue, g.r.IntN(3))
		for i := range vs {
			vs[i] = pick()
		}
		it["l1"] = l(vs...)
	}
	return it
}

func TestPartiQLWhereGenerated(t *testing.T) {
	t.Parallel()
	seed := uint64(rand.Int64())
	if v := os.Getenv("PARTIQL_WHERE_SEED"); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("PARTIQL_WHERE_SEED=%d", seed)
	g := &whereGen{r: rand.New(rand.NewPCG(seed, 22))}
	c := newClient(t)
	tbl := hashTable(t, c)
	for i := 0; i < 12; i++ {
		mustPut(t, c, tbl, g.item("p"+strconv.Itoa(i)))
	}
	keys := func(its []item) string {
		var out []string
		for _, it := range its {
			out = append(out, it["pk"].(*types.AttributeValueMemberS).Value)
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	refused, matched := 0, 0
	defer func() { t.Logf("%d rounds refused by both, %d matching items", refused, matched) }()
	for round := 0; round < 60; round++ {
		g.values = map[string]types.AttributeValue{}
		pq, ex := g.cond(2)
		out, perr := c.ExecuteStatement(ctx(t), &dynamodb.ExecuteStatementInput{Statement: aws.String("SELECT * FROM " + quoted(tbl) + " WHERE " + pq)})
		scan := &dynamodb.ScanInput{TableName: aws.String(tbl), FilterExpression: aws.String(ex), ExpressionAttributeValues: g.values}
		if len(g.values) == 0 {
			scan.ExpressionAttributeValues = nil
		}
		sout, serr := c.Scan(ctx(t), scan)
		what := fmt.Sprintf("round %d (seed %d)\n  PartiQL: %s\n  filter:  %s", round, seed, pq, ex)
		switch {
		case perr != nil || serr != nil:
			pm, sm := errorMessage(perr), strings.Replace(errorMessage(serr), "Invalid FilterExpression: ", "", 1)
			refused++
			if pm != sm {
				t.Errorf("%s\n  PartiQL error %q\n  Scan error    %q", what, pm, sm)
			}
		case out.NextToken != nil || sout.LastEvaluatedKey != nil:
			t.Errorf("%s: a page of a 12-item table", what)
		case keys(out.Items) != keys(sout.Items):
			t.Errorf("%s\n  PartiQL items %q\n  Scan items    %q", what, keys(out.Items), keys(sout.Items))
		default:
			matched += len(out.Items)
		}
	}
}

// errorMessage is an API error's code and message ("" for no error).
func errorMessage(err error) string {
	if err == nil {
		return ""
	}
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return err.Error()
	}
	return ae.ErrorCode() + ": " + ae.ErrorMessage()
}
