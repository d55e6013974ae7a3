package conformance

// Updates of list elements and map paths: every action of an
// update is resolved against the item as it was before the update. A
// named case from the issue through the three ways to update an item, and
// a generated test that checks random updates against the reference model
// of update_model_test.go.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// TestUpdateListPathsPastTheEnd: SET l[3] = :v REMOVE l[1] on l = [1] gives
// [1, 6]: l[3] is past the end and appends, l[1] is past the end of the
// original list and removes nothing. Also the developer guide's REMOVE
// example (original positions) and its appends in element order.
func TestUpdateListPathsPastTheEnd(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	tests := []struct {
		name    string
		start   types.AttributeValue
		expr    string // UpdateExpression
		partiql string // the same as PartiQL UPDATE actions, the values as parameters
		values  []types.AttributeValue
		want    types.AttributeValue
	}{
		{"set past the end, remove before", l(n("1")), "SET l[3] = :v0 REMOVE l[1]", "SET l[3] = ? REMOVE l[1]", []types.AttributeValue{n("6")}, l(n("1"), n("6"))},
		{"remove names original positions", l(s("Chisel"), s("Hammer"), s("Nails"), s("Screwdriver"), s("Hacksaw")),
			"REMOVE l[1], l[2]", "REMOVE l[1] REMOVE l[2]", nil, l(s("Chisel"), s("Screwdriver"), s("Hacksaw"))},
		{"appends in element order", l(s("a")), "SET l[7] = :v0, l[4] = :v1", "SET l[7] = ?, l[4] = ?", []types.AttributeValue{s("seven"), s("four")},
			l(s("a"), s("four"), s("seven"))},
		{"append and remove the first", l(n("1"), n("2")), "SET l[2] = :v0 REMOVE l[0]", "SET l[2] = ? REMOVE l[0]", []types.AttributeValue{n("3")}, l(n("2"), n("3"))},
	}
	for _, tc := range tests {
		vals := item{}
		for i, v := range tc.values {
			vals[":v"+strconv.Itoa(i)] = v
		}
		if len(vals) == 0 {
			vals = nil
		}
		start := func(t *testing.T, pk string) item {
			key := item{"pk": s(pk)}
			mustPut(t, c, table, item{"pk": s(pk), "l": tc.start})
			return key
		}
		want := func(pk string) item { return item{"pk": s(pk), "l": tc.want} }
		t.Run(tc.name+"/UpdateItem", func(t *testing.T) {
			key := start(t, tc.name+"/u")
			out, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key,
				UpdateExpression: aws.String(tc.expr), ExpressionAttributeValues: vals, ReturnValues: types.ReturnValueAllNew})
			mustNoError(t, err)
			requireItem(t, out.Attributes, want(tc.name+"/u"))
			requireItem(t, mustGet(t, c, table, key), want(tc.name+"/u"))
		})
		t.Run(tc.name+"/TransactWriteItems", func(t *testing.T) {
			key := start(t, tc.name+"/t")
			_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Update: &types.Update{TableName: &table, Key: key, UpdateExpression: aws.String(tc.expr), ExpressionAttributeValues: vals}}}})
			mustNoError(t, err)
			requireItem(t, mustGet(t, c, table, key), want(tc.name+"/t"))
		})
		t.Run(tc.name+"/PartiQL", func(t *testing.T) {
			key := start(t, tc.name+"/p")
			params := append(append([]types.AttributeValue{}, tc.values...), s(tc.name+"/p"))
			got := mustExec(t, c, "UPDATE "+quoted(table)+" "+tc.partiql+" WHERE pk = ? RETURNING ALL NEW *", params...)
			requireItems(t, got, []item{want(tc.name + "/p")})
			requireItem(t, mustGet(t, c, table, key), want(tc.name+"/p"))
		})
	}
}

// TestUpdateListPathsGenerated applies random updates (SET, REMOVE, ADD and
// DELETE of list indexes in range, at and past the end, repeated, nested
// lists in maps and maps in lists, map paths) to random items through
// UpdateItem, TransactWriteItems and PartiQL UPDATE, and checks the item
// afterwards (ReturnValues ALL_NEW or RETURNING ALL NEW *, and a GetItem)
// or the error against the reference model. LISTPATH_SEED replays a run;
// LISTPATH_ITERATIONS sets its length (the model was proved against
// DynamoDB Local with thousands).
func TestUpdateListPathsGenerated(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("LISTPATH_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	iterations := 150
	if v := os.Getenv("LISTPATH_ITERATIONS"); v != "" {
		iterations, _ = strconv.Atoi(v)
	}
	t.Logf("seed %d, %d iterations (rerun with LISTPATH_SEED=%d)", seed, iterations, seed)
	c := newClient(t)
	table := hashTable(t, c)
	g := &updateGen{r: rand.New(rand.NewPCG(seed, 16))}
	run := listPathRun{t: t, c: c, table: table, seed: seed}
	for i := 0; i < iterations && run.failures < 10; i++ {
		api := []string{"UpdateItem", "TransactWriteItems", "PartiQL"}[i%3]
		pk := "it" + strconv.Itoa(i)
		start := g.item()
		acts := g.update(start, api == "PartiQL")
		if len(acts) == 0 {
			continue
		}
		start["pk"] = s(pk)
		lc := listPathCase{iteration: i, api: api, pk: pk, start: start, acts: acts}
		run.check(lc)
	}
	t.Logf("%d cases: %d updated (%d of them with actions past the end of a list and removals or other appends), %d errors (%d with one possible message), %d transaction evaluation errors checked below",
		run.cases, run.updated, run.mixed, run.errored, run.exact, len(run.deferred))
	t.Run("TransactWriteItems evaluation errors", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local answers an evaluation error in a transaction with a top-level ValidationException; AWS cancels with a ValidationError reason")
		sub := listPathRun{t: t, c: c, table: table, seed: seed}
		for _, lc := range run.deferred {
			sub.checkCanceled(lc)
		}
	})
}

// listPathCase is one generated update.
type listPathCase struct {
	iteration int
	api       string
	pk        string
	start     item
	acts      []updAction
}

func (lc listPathCase) String() string {
	text, vals := expression(lc.acts)
	if lc.api == "PartiQL" {
		var params []types.AttributeValue
		text, params = partiqlUpdate("TABLE", lc.pk, lc.acts)
		parts := make([]string, len(params))
		for i, p := range params {
			parts[i] = render(p)
		}
		return fmt.Sprintf("iteration %d %s on %s:\n  %s\n  parameters %s", lc.iteration, lc.api, renderItem(lc.start), text, strings.Join(parts, ", "))
	}
	return fmt.Sprintf("iteration %d %s on %s:\n  %s\n  values %s", lc.iteration, lc.api, renderItem(lc.start), text, renderItem(vals))
}

// listPathRun runs generated cases against the endpoint and counts them.
type listPathRun struct {
	t                       *testing.T
	c                       *dynamodb.Client
	table                   string
	seed                    uint64
	cases, updated, errored int
	exact                   int // errors the model names exactly
	mixed                   int // updated cases where a list had actions past its end and removals or other appends
	failures                int
	deferred                []listPathCase // transaction evaluation errors (AWS and DynamoDB Local differ)
}

func (r *listPathRun) fail(lc listPathCase, format string, args ...any) {
	r.t.Helper()
	r.failures++
	r.t.Errorf("seed %d %s\n%s", r.seed, lc, fmt.Sprintf(format, args...))
}

// check runs one case and compares the endpoint with the model.
func (r *listPathRun) check(lc listPathCase) {
	r.t.Helper()
	want := modelUpdate(lc.start, lc.acts, lc.api == "PartiQL")
	if lc.api == "TransactWriteItems" && len(want.messages) > 0 && !want.before {
		r.deferred = append(r.deferred, lc)
		return
	}
	r.cases++
	mustPut(r.t, r.c, r.table, lc.start)
	key := item{"pk": lc.start["pk"]}
	var returned []item // the item the call returned, if it returns one
	var err error
	switch lc.api {
	case "UpdateItem":
		text, vals := expression(lc.acts)
		var out *dynamodb.UpdateItemOutput
		out, err = r.c.UpdateItem(ctx(r.t), &dynamodb.UpdateItemInput{TableName: &r.table, Key: key,
			UpdateExpression: &text, ExpressionAttributeValues: vals, ReturnValues: types.ReturnValueAllNew})
		if err == nil {
			returned = []item{out.Attributes}
		}
	case "TransactWriteItems":
		text, vals := expression(lc.acts)
		_, err = r.c.TransactWriteItems(ctx(r.t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: &r.table, Key: key, UpdateExpression: &text, ExpressionAttributeValues: vals}}}})
	case "PartiQL":
		stmt, params := partiqlUpdate(r.table, lc.pk, lc.acts)
		var out *dynamodb.ExecuteStatementOutput
		out, err = exec(r.t, r.c, stmt+" RETURNING ALL NEW *", params...)
		if err == nil {
			returned = out.Items
		}
	}
	after := mustGet(r.t, r.c, r.table, key)
	if len(want.messages) > 0 {
		r.errored++
		if len(want.messages) == 1 {
			r.exact++
		}
		if problem := oneOfErrors(err, "ValidationException", want.messages); problem != "" {
			r.fail(lc, "%s\nwant %s", problem, want)
		}
		if renderItem(after) != renderItem(lc.start) {
			r.fail(lc, "a failed update changed the item:\n got %s", renderItem(after))
		}
		return
	}
	r.updated++
	if want.mixed {
		r.mixed++
	}
	if err != nil {
		r.fail(lc, "got error %v\nwant %s", err, want)
		return
	}
	for _, it := range returned {
		if renderItem(it) != renderItem(want.item) {
			r.fail(lc, "returned:\n got %s\nwant %s", renderItem(it), want)
		}
	}
	if renderItem(after) != renderItem(want.item) {
		r.fail(lc, "GetItem afterwards:\n got %s\nwant %s", renderItem(after), want)
	}
}

// checkCanceled runs a transaction whose update fails on the item and
// expects AWS's answer: TransactionCanceledException, reason
// ValidationError with one of the model's messages, nothing written.
func (r *listPathRun) checkCanceled(lc listPathCase) {
	r.t.Helper()
	want := modelUpdate(lc.start, lc.acts, false)
	mustPut(r.t, r.c, r.table, lc.start)
	key := item{"pk": lc.start["pk"]}
	text, vals := expression(lc.acts)
	_, err := r.c.TransactWriteItems(ctx(r.t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Update: &types.Update{TableName: &r.table, Key: key, UpdateExpression: &text, ExpressionAttributeValues: vals}}}})
	var tce *types.TransactionCanceledException
	switch {
	case !errors.As(err, &tce):
		r.fail(lc, "got %v, want TransactionCanceledException\nwant %s", err, want)
	case len(tce.CancellationReasons) != 1 || aws.ToString(tce.CancellationReasons[0].Code) != "ValidationError" ||
		!contains(want.messages, aws.ToString(tce.CancellationReasons[0].Message)):
		r.fail(lc, "got reasons %s\nwant ValidationError, %s", renderReasons(tce.CancellationReasons), want)
	}
	if after := mustGet(r.t, r.c, r.table, key); renderItem(after) != renderItem(lc.start) {
		r.fail(lc, "a canceled transaction changed the item:\n got %s", renderItem(after))
	}
}

func renderReasons(rs []types.CancellationReason) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = aws.ToString(r.Code) + ": " + aws.ToString(r.Message)
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// oneOfErrors returns "" when err is an API error with this code and one of
// these messages, and what is wrong otherwise.
func oneOfErrors(err error, code string, messages []string) string {
	if err == nil {
		return "got no error"
	}
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return fmt.Sprintf("got error %v (%T)", err, err)
	}
	if ae.ErrorCode() != code || !contains(messages, ae.ErrorMessage()) {
		return fmt.Sprintf("got %s: %q", ae.ErrorCode(), ae.ErrorMessage())
	}
	return ""
}

// TestUpdateListPathsOverlap: two actions on overlapping or conflicting
// paths are refused before the item is read, in an UpdateExpression and a
// PartiQL UPDATE (which names the two paths the other way round).
func TestUpdateListPathsOverlap(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	start := item{"pk": s("k"), "l": l(l(n("1"), n("2")))}
	mustPut(t, c, table, start)
	const (
		overlap  = "Two document paths overlap with each other; must remove or rewrite one of these paths; "
		conflict = "Two document paths conflict with each other; must remove or rewrite one of these paths; "
	)
	tests := []struct {
		expr, partiql string
		values        []types.AttributeValue
		want          string // the UpdateExpression's message without "Invalid UpdateExpression: "
		wantPartiQL   string
	}{
		{"SET l[0] = :v0 REMOVE l[0]", "SET l[0] = ? REMOVE l[0]", []types.AttributeValue{n("6")},
			overlap + "path one: [l, [0]], path two: [l, [0]]", overlap + "path one: [l, [0]], path two: [l, [0]]"},
		{"SET l[0][5] = :v0 REMOVE l[0]", "SET l[0][5] = ? REMOVE l[0]", []types.AttributeValue{n("6")},
			overlap + "path one: [l, [0], [5]], path two: [l, [0]]", overlap + "path one: [l, [0]], path two: [l, [0], [5]]"},
		{"REMOVE l[0] SET l[0][5] = :v0", "REMOVE l[0] SET l[0][5] = ?", []types.AttributeValue{n("6")},
			overlap + "path one: [l, [0]], path two: [l, [0], [5]]", overlap + "path one: [l, [0], [5]], path two: [l, [0]]"},
		{"SET l[0].a = :v0 REMOVE l[0][1]", "SET l[0].a = ? REMOVE l[0][1]", []types.AttributeValue{n("6")},
			conflict + "path one: [l, [0], a], path two: [l, [0], [1]]", conflict + "path one: [l, [0], [1]], path two: [l, [0], a]"},
		{"REMOVE l[0][1] SET l[0].a = :v0", "REMOVE l[0][1] SET l[0].a = ?", []types.AttributeValue{n("6")},
			conflict + "path one: [l, [0], [1]], path two: [l, [0], a]", conflict + "path one: [l, [0], a], path two: [l, [0], [1]]"},
		{"ADD l[3] :v0 SET l[3] = :v1", "", []types.AttributeValue{n("1"), n("2")},
			overlap + "path one: [l, [3]], path two: [l, [3]]", ""},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			vals := item{}
			for i, v := range tc.values {
				vals[":v"+strconv.Itoa(i)] = v
			}
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: item{"pk": s("k")},
				UpdateExpression: aws.String(tc.expr), ExpressionAttributeValues: vals})
			requireValidation(t, err, "Invalid UpdateExpression: "+tc.want)
			_, err = c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Update: &types.Update{TableName: aws.String(table), Key: item{"pk": s("k")}, UpdateExpression: aws.String(tc.expr), ExpressionAttributeValues: vals}}}})
			requireValidation(t, err, "Invalid UpdateExpression: "+tc.want)
			if tc.partiql != "" {
				params := append(append([]types.AttributeValue{}, tc.values...), s("k"))
				_, err = exec(t, c, "UPDATE "+quoted(table)+" "+tc.partiql+" WHERE pk = ?", params...)
				requireValidation(t, err, tc.wantPartiQL)
			}
			requireItem(t, mustGet(t, c, table, item{"pk": s("k")}), start)
		})
	}
}
