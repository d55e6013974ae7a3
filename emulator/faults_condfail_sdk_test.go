package emulator_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestThrottleSDKConditionFailedCharged: a failed conditional write
// consumes write capacity on AWS ("Capacity units consumed by conditional
// writes" in the developer guide; pipeline_condfail.go). So an optimistic-locking
// loop whose condition keeps failing spends a PROVISIONED table's
// capacity: on a 5 WCU table with one second of burst, five failing
// PutItems answer ConditionalCheckFailedException and the sixth in the same
// second ProvisionedThroughputExceededException. The report counts the
// five writes and their units, and Contributor Insights the key.
// Emulator-only: DynamoDB Local never throttles.
func TestThrottleSDKConditionFailedCharged(t *testing.T) {
	ctx := context.Background()
	e, db := throttled(t, emulator.Throttle{Provisioned: true, Burst: time.Second})
	faultTable(t, db, "tbl", 5, 5)
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("a", "1")}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateContributorInsights(ctx, &dynamodb.UpdateContributorInsightsInput{TableName: aws.String("tbl"),
		ContributorInsightsAction: types.ContributorInsightsActionEnable}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Clock().Advance(time.Second); err != nil { // the bucket full again
		t.Fatal(err)
	}
	e.Reports().SetReporting(true)
	t.Cleanup(func() { e.Reports().SetReporting(false) })

	failed := 0
	for i := range 10 {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("a", "1"),
			ConditionExpression: aws.String("attribute_not_exists(pk)"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		var ce *types.ConditionalCheckFailedException
		if errors.As(err, &ce) {
			failed++
			continue
		}
		var pe *types.ProvisionedThroughputExceededException
		if !errors.As(err, &pe) {
			t.Fatalf("attempt %d: got %v, want ConditionalCheckFailed or ProvisionedThroughputExceeded", i+1, err)
		}
		break
	}
	if failed != 5 {
		t.Errorf("got %d ConditionalCheckFailed before ProvisionedThroughputExceeded, want 5 (one unit each)", failed)
	}

	// Six writes: the five refused by their condition (a unit each) and the
	// throttled one (none).
	var writes int64
	var units float64
	for _, ns := range e.Reports().Access() {
		for _, tb := range ns.Report.Tables {
			if tb.Table == "tbl" {
				writes, units = tb.Resources[0].Writes, tb.Resources[0].WriteUnits
			}
		}
	}
	if writes != 6 || units != 5 {
		t.Errorf("report: got %d writes of %v units, want 6 of 5", writes, units)
	}
	rules := e.Reports().Contributors(emulatortest.AccessKeyOf(t, db), emulatortest.Region, "tbl", "", 10)
	var pkc, pkt float64
	for _, r := range rules {
		if len(r.Contributors) == 0 || r.Contributors[0].Keys[0] != "a" {
			continue
		}
		switch {
		case strings.Contains(r.Rule, "-PKC-"):
			pkc = r.Contributors[0].Value
		case strings.Contains(r.Rule, "-PKT-"):
			pkt = r.Contributors[0].Value
		}
	}
	// Consumed throughput units: three per write unit, as AWS counts them.
	if pkc != 15 || pkt != 1 {
		t.Errorf("Contributor Insights: got key a %v units accessed, %v throttled; want 15 (the failed writes), 1", pkc, pkt)
	}
}
