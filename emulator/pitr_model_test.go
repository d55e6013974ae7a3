package emulator_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestPITRModel: random writes (PutItem, DeleteItem, UpdateItem,
// BatchWriteItem, TransactWriteItems) with the clock moved by random
// steps between them; a model keeps the table as it was after each
// step. Restores to random instants must hold exactly the model's items
// of that instant, and their index exactly the items with a color. The
// seed is logged.
func TestPITRModel(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 19))
	e, c := emulatortest.NewWith(t, emulator.Options{})
	ctx := context.Background()
	pitrTable(t, c, "src")
	if _, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("src"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	model := map[string]string{} // pk -> color ("" : no color, not in the index)
	type state struct {
		at    time.Time
		items map[string]string
	}
	var states []state
	item := func(pk, color string) map[string]types.AttributeValue {
		it := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}
		if color != "" {
			it["color"] = &types.AttributeValueMemberS{Value: color}
		}
		return it
	}
	key := func(pk string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}
	}
	pick := func() (string, string) {
		return fmt.Sprint("k", r.IntN(20)), []string{"", "red", "blue"}[r.IntN(3)]
	}
	for range 150 {
		var err error
		switch pk, color := pick(); r.IntN(5) {
		case 0:
			_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("src"), Item: item(pk, color)})
			model[pk] = color
		case 1:
			_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("src"), Key: key(pk)})
			delete(model, pk)
		case 2:
			in := &dynamodb.UpdateItemInput{TableName: aws.String("src"), Key: key(pk), UpdateExpression: aws.String("REMOVE color")}
			if color != "" {
				in.UpdateExpression = aws.String("SET color = :c")
				in.ExpressionAttributeValues = map[string]types.AttributeValue{":c": &types.AttributeValueMemberS{Value: color}}
			}
			_, err = c.UpdateItem(ctx, in)
			if _, ok := model[pk]; ok || color != "" {
				model[pk] = color // a REMOVE-only update leaves a missing item missing
			}
		case 3:
			seen := map[string]bool{}
			var reqs []types.WriteRequest
			for range 1 + r.IntN(5) {
				pk, color := pick()
				if seen[pk] {
					continue
				}
				seen[pk] = true
				if r.IntN(3) == 0 {
					reqs = append(reqs, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: key(pk)}})
					delete(model, pk)
				} else {
					reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item(pk, color)}})
					model[pk] = color
				}
			}
			_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"src": reqs}})
		default:
			pk2, _ := pick()
			if pk2 == pk {
				pk2 += "x"
			}
			_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("src"), Item: item(pk, color)}},
				{Delete: &types.Delete{TableName: aws.String("src"), Key: key(pk2)}},
			}})
			model[pk] = color
			delete(model, pk2)
		}
		if err != nil {
			t.Fatal(err)
		}
		// A RestoreDateTime travels in whole milliseconds (the SDK's
		// epoch seconds), so the instant of a state is one: a millisecond
		// before the clock's new time, cut to the millisecond, at least a
		// millisecond after the write for a step of 3 ms or more (a step of
		// 1 ms put the instant before its own write).
		now, err := e.Clock().Advance(time.Duration(3+r.IntN(2998)) * time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, state{at: now.Add(-time.Millisecond).Truncate(time.Millisecond), items: maps.Clone(model)})
	}
	render := func(items map[string]string, onlyColor string) string {
		var out []string
		for _, pk := range slices.Sorted(maps.Keys(items)) {
			switch {
			case onlyColor == "":
				out = append(out, pk+"="+items[pk])
			case items[pk] == onlyColor:
				out = append(out, pk)
			}
		}
		return strings.Join(out, " ")
	}
	for i := range 8 {
		st := states[r.IntN(len(states))]
		target := fmt.Sprint("model", i)
		if _, err := c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("src"),
			TargetTableName: &target, RestoreDateTime: aws.Time(st.at)}); err != nil {
			t.Fatal(err)
		}
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: &target})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, it := range out.Items {
			color := ""
			if v, ok := it["color"]; ok {
				color = v.(*types.AttributeValueMemberS).Value
			}
			got[it["pk"].(*types.AttributeValueMemberS).Value] = color
		}
		if g, w := render(got, ""), render(st.items, ""); g != w {
			t.Errorf("restore to %v: got items\n%s\nwant\n%s", st.at, g, w)
		}
		for _, color := range []string{"red", "blue"} {
			if g, w := indexRender(t, c, target, color), render(st.items, color); g != w {
				t.Errorf("restore to %v: got %s in the index %q, want %q", st.at, color, g, w)
			}
		}
	}
}
