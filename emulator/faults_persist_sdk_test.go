package emulator_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestPersistFaultsSDK: with a data directory, the fault rules (with
// their seed) and Contributor Insights' configuration (status, mode,
// LastUpdateDateTime, of a table and a GSI) survive a restart; a deleted
// table's is not back. Rules given at start replace the saved ones, and a
// Clear is kept too.
func TestPersistFaultsSDK(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const ak = "AKIDPERSISTFX"
	open := func(opts emulator.Options) (*emulator.Emulator, *dynamodb.Client) {
		t.Helper()
		opts.DataDir, opts.Clock = dir, stillClock
		e, err := emulator.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e, emulatortest.Client(t, e, ak)
	}
	closeE := func(e *emulator.Emulator) {
		t.Helper()
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	e, db := open(emulator.Options{})
	for _, name := range []string{"tbl", "gone"} {
		multiKeyTable(t, db, name, false) // a GSI, byMatch
	}
	rules := []emulator.FaultRule{{Name: "hot-b", Table: "tbl", PartitionKey: "b", Fault: emulator.FaultThrottling},
		{Name: "half", Table: "other", Probability: 0.5, Fault: emulator.FaultInternalServerError}}
	if err := e.Faults().SetRules(7, rules); err != nil {
		t.Fatal(err)
	}
	enable := func(table, index string, mode types.ContributorInsightsMode) {
		t.Helper()
		in := &dynamodb.UpdateContributorInsightsInput{TableName: aws.String(table), ContributorInsightsAction: types.ContributorInsightsActionEnable,
			ContributorInsightsMode: mode}
		if index != "" {
			in.IndexName = aws.String(index)
		}
		if _, err := db.UpdateContributorInsights(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	enable("tbl", "", "")
	enable("tbl", "byMatch", types.ContributorInsightsModeThrottledKeys)
	enable("gone", "", "")
	if _, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("gone")}); err != nil {
		t.Fatal(err)
	}
	describe := func(db *dynamodb.Client, index string) *dynamodb.DescribeContributorInsightsOutput {
		t.Helper()
		in := &dynamodb.DescribeContributorInsightsInput{TableName: aws.String("tbl")}
		if index != "" {
			in.IndexName = aws.String(index)
		}
		out, err := db.DescribeContributorInsights(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		out.ResultMetadata = middleware.Metadata{} // the request's, not the answer's
		return out
	}
	wantTable, wantIndex := describe(db, ""), describe(db, "byMatch")
	closeE(e)

	e, db = open(emulator.Options{})
	seed, got := e.Faults().Rules()
	if seed != 7 || !reflect.DeepEqual(got, rules) {
		t.Errorf("rules after a restart: got seed %d %+v, want 7 %+v", seed, got, rules)
	}
	put := func(pk string) error {
		it := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: it})
		return err
	}
	var te *types.ThrottlingException
	if err := put("b"); !errors.As(err, &te) {
		t.Errorf("PutItem of b after a restart: got %v, want the rule's ThrottlingException", err)
	}
	if err := put("a"); err != nil {
		t.Errorf("PutItem of a: %v", err)
	}
	for _, c := range []struct {
		index string
		want  *dynamodb.DescribeContributorInsightsOutput
	}{{"", wantTable}, {"byMatch", wantIndex}} {
		if got := describe(db, c.index); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Contributor Insights of tbl %q after a restart: got %+v, want %+v", c.index, got, c.want)
		}
	}
	list, err := db.ListContributorInsights(ctx, &dynamodb.ListContributorInsightsInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.ContributorInsightsSummaries) != 2 {
		t.Errorf("ListContributorInsights after a restart: got %d summaries, want tbl's 2 (not the deleted table's)", len(list.ContributorInsightsSummaries))
	}
	if cs := e.Reports().Contributors(ak, "us-east-1", "tbl", "", 10); len(cs) == 0 || len(cs[0].Contributors) == 0 {
		t.Errorf("tbl's Contributor Insights collect nothing after a restart: %+v", cs)
	}
	e.Faults().Clear()
	closeE(e)

	e, _ = open(emulator.Options{})
	if e.Faults().Active() {
		t.Error("rules after Clear and a restart")
	}
	if err := e.Faults().SetRules(1, rules); err != nil {
		t.Fatal(err)
	}
	closeE(e)
	start := []emulator.FaultRule{{Name: "start", Fault: emulator.FaultDelay, Delay: 1}}
	e, _ = open(emulator.Options{Faults: emulator.FaultOptions{Rules: start}})
	if _, got := e.Faults().Rules(); len(got) != 1 || got[0].Name != "start" {
		t.Errorf("rules given at start: got %+v, want them in place of the saved ones", got)
	}
}

// TestContributorInsightsGSIDeletedSDK: a GSI deleted takes its
// Contributor Insights with it: ListContributorInsights no longer lists
// it (the recorder forgets it, and the saved configuration with it).
func TestContributorInsightsGSIDeletedSDK(t *testing.T) {
	ctx := context.Background()
	_, db := emulatortest.NewWith(t, emulator.Options{})
	multiKeyTable(t, db, "tbl", false)
	if _, err := db.UpdateContributorInsights(ctx, &dynamodb.UpdateContributorInsightsInput{TableName: aws.String("tbl"),
		IndexName: aws.String("byMatch"), ContributorInsightsAction: types.ContributorInsightsActionEnable}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("byMatch")}}}}); err != nil {
		t.Fatal(err)
	}
	list, err := db.ListContributorInsights(ctx, &dynamodb.ListContributorInsightsInput{TableName: aws.String("tbl")})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.ContributorInsightsSummaries) != 0 {
		t.Errorf("after the GSI's deletion: got %d summaries, want none", len(list.ContributorInsightsSummaries))
	}
}
