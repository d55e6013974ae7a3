package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// TestThrottleSDKHotKeyProvisioned: a hot key of a PROVISIONED table is
// refused as AWS refuses a provisioned table's requests, with
// ProvisionedThroughputExceededException, its reason naming the key range
// (AWS's developer guide, "Troubleshooting throttling": key range
// throttling happens in both modes; a provisioned table's throttling
// error is ProvisionedThroughputExceededException). With HotKeys alone
// the table's own capacity (5 WCU here) is not enforced; with Provisioned
// too it is, and it refuses first.
func TestThrottleSDKHotKeyProvisioned(t *testing.T) {
	ctx := context.Background()
	big := strings.Repeat("x", 300<<10) // 300 KB: 300 WCU a put
	tests := []struct {
		name       string
		th         emulator.Throttle
		wantAt     int
		wantReason string
	}{
		{"hot keys only", emulator.Throttle{HotKeys: true}, 5, "TableWriteKeyRangeThroughputExceeded"},
		{"capacity and hot keys", emulator.Throttle{HotKeys: true, Provisioned: true, Burst: time.Second}, 2, "TableWriteProvisionedThroughputExceeded"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, db := throttled(t, tc.th)
			faultTable(t, db, "tbl", 5, 5)
			put := func(pk, sk string) error {
				it := item(pk, sk)
				it["blob"] = &types.AttributeValueMemberS{Value: big}
				_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: it})
				return err
			}
			var err error
			n := 0
			for n = 1; n <= 10 && err == nil; n++ {
				err = put("hot", fmt.Sprint(n))
			}
			var pe *types.ProvisionedThroughputExceededException
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want ProvisionedThroughputExceededException", err)
			}
			if n-1 != tc.wantAt {
				t.Errorf("refused at put %d, want %d", n-1, tc.wantAt)
			}
			if len(pe.ThrottlingReasons) != 1 || aws.ToString(pe.ThrottlingReasons[0].Reason) != tc.wantReason ||
				!strings.HasSuffix(aws.ToString(pe.ThrottlingReasons[0].Resource), ":table/tbl") {
				t.Errorf("got reasons %+v, want one %s on the table", pe.ThrottlingReasons, tc.wantReason)
			}
			if !strings.HasPrefix(pe.ErrorMessage(), "The level of configured provisioned throughput for the table was exceeded") {
				t.Errorf("got message %q", pe.ErrorMessage())
			}
			if tc.th.Provisioned {
				return
			}
			if err := put("cold", "1"); err != nil {
				t.Errorf("another key: %v", err)
			}
			if _, err := e.Clock().Advance(time.Second); err != nil {
				t.Fatal(err)
			}
			if err := put("hot", "x"); err != nil {
				t.Errorf("a second later: %v", err)
			}
		})
	}
}
