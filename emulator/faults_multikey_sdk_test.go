package emulator_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// multiKeyTable creates table name (pk S) with the GSI byMatch keyed on
// two partition attributes (t, r) and one sort attribute (rd), PROVISIONED
// with 1 RCU and 5 WCU (table and GSI) when provisioned, and puts three
// matches.
func multiKeyTable(t *testing.T, db *dynamodb.Client, name string, provisioned bool) {
	t.Helper()
	ctx := context.Background()
	str := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	gsi := types.GlobalSecondaryIndex{
		IndexName: aws.String("byMatch"),
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("t"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("r"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("rd"), KeyType: types.KeyTypeRange},
		},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}
	in := &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{str("pk"), str("t"), str("r"), str("rd")},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	}
	if provisioned {
		tp := &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(5)}
		in.BillingMode, in.ProvisionedThroughput, gsi.ProvisionedThroughput = types.BillingModeProvisioned, tp, tp
	}
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi}
	if _, err := db.CreateTable(ctx, in); err != nil {
		t.Fatal(err)
	}
	for _, m := range [][4]string{{"m1", "W24", "NA", "1"}, {"m2", "W24", "NA", "2"}, {"m3", "S25", "EU", "1"}} {
		it := map[string]types.AttributeValue{}
		for i, a := range []string{"pk", "t", "r", "rd"} {
			it[a] = &types.AttributeValueMemberS{Value: m[i]}
		}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}

// queryMatch queries byMatch for tournament tn and region rg.
func queryMatch(db *dynamodb.Client, table, tn, rg string) (*dynamodb.QueryOutput, error) {
	return db.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String("byMatch"),
		KeyConditionExpression: aws.String("t = :t AND r = :r"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":t": &types.AttributeValueMemberS{Value: tn}, ":r": &types.AttributeValueMemberS{Value: rg},
		}})
}

// TestFaultsSDKMultiKeyQuery: a Query of a multi-attribute GSI goes
// through the hooks every Query does: a rule on the index by partition
// key prefix (the partition's values joined by "#") fails it, the report
// counts it against the index, and the GSI's provisioned read capacity
// throttles it.
func TestFaultsSDKMultiKeyQuery(t *testing.T) {
	t.Run("rules and report", func(t *testing.T) {
		e, db := emulatortest.NewWith(t, emulator.Options{})
		multiKeyTable(t, db, "tbl", false)
		e.Reports().SetReporting(true)
		emulatortest.Inject(t, e, emulator.FaultRule{Table: "tbl", Index: "byMatch", PartitionKeyPrefix: "W24#",
			Operations: []string{"Query"}, Fault: emulator.FaultConditionalCheckFailed})
		var ce *types.ConditionalCheckFailedException
		if _, err := queryMatch(db, "tbl", "W24", "NA"); !errors.As(err, &ce) {
			t.Errorf("W24/NA: got %v, want the injected fault", err)
		}
		out, err := queryMatch(db, "tbl", "S25", "EU")
		if err != nil || out.Count != 1 {
			t.Fatalf("S25/EU: got %v (%v), want 1 item", out, err)
		}
		reps := e.Reports().Access()
		if len(reps) != 1 {
			t.Fatalf("got %d reports", len(reps))
		}
		var queries int64
		for _, tr := range reps[0].Report.Tables {
			for _, r := range tr.Resources {
				if tr.Table == "tbl" && r.Index == "byMatch" {
					queries = r.Queries
				}
			}
		}
		if queries != 1 {
			t.Errorf("report: got %d queries of byMatch, want 1 (the one that ran)", queries)
		}
	})
	t.Run("throttled", func(t *testing.T) {
		_, db := throttled(t, emulator.Throttle{Provisioned: true, Burst: time.Second})
		multiKeyTable(t, db, "tbl", true)
		var err error
		for i := 0; i < 10 && err == nil; i++ {
			_, err = queryMatch(db, "tbl", "W24", "NA")
		}
		var pe *types.ProvisionedThroughputExceededException
		if !errors.As(err, &pe) {
			t.Fatalf("got %v, want ProvisionedThroughputExceededException", err)
		}
		if len(pe.ThrottlingReasons) != 1 || aws.ToString(pe.ThrottlingReasons[0].Reason) != "IndexReadProvisionedThroughputExceeded" {
			t.Errorf("got reasons %+v, want IndexReadProvisionedThroughputExceeded", pe.ThrottlingReasons)
		}
	})
}
