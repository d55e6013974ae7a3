package conformance

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// Time to Live: UpdateTimeToLive and DescribeTimeToLive with AWS's
// validation, and real expiry (AWS and the emulator; DynamoDB Local never
// deletes expired items).

func updateTTL(t testing.TB, c *dynamodb.Client, table, attr string, enabled bool) (*dynamodb.UpdateTimeToLiveOutput, error) {
	t.Helper()
	return c.UpdateTimeToLive(ctx(t), &dynamodb.UpdateTimeToLiveInput{TableName: &table,
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: &attr, Enabled: &enabled}})
}

func describeTTL(t testing.TB, c *dynamodb.Client, table string) string {
	t.Helper()
	out, err := c.DescribeTimeToLive(ctx(t), &dynamodb.DescribeTimeToLiveInput{TableName: &table})
	mustNoError(t, err)
	d := out.TimeToLiveDescription
	return strings.TrimSpace(string(d.TimeToLiveStatus) + " " + aws.ToString(d.AttributeName))
}

// TestTTLUpdateAndDescribe walks the TTL settings of a table through
// AWS's rules: enable once, on one attribute; disable only what is enabled.
func TestTTLUpdateAndDescribe(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	steps := []struct {
		attr     string
		enabled  bool
		wantErr  string // ValidationException message, or "" for success
		describe string
	}{
		{"exp", false, "TimeToLive is already disabled", "DISABLED"},
		{"exp", true, "", "ENABLED exp"},
		{"exp", true, "TimeToLive is already enabled", "ENABLED exp"},
		{"other", true, "TimeToLive is active on a different AttributeName", "ENABLED exp"},
		{"other", false, "TimeToLive is active on a different AttributeName", "ENABLED exp"},
		{"exp", false, "", "DISABLED"},
	}
	if got := describeTTL(t, c, table); got != "DISABLED" {
		t.Fatalf("new table: got %q, want DISABLED", got)
	}
	for i, st := range steps {
		out, err := updateTTL(t, c, table, st.attr, st.enabled)
		if st.wantErr != "" {
			requireValidation(t, err, st.wantErr)
		} else {
			mustNoError(t, err)
			spec := out.TimeToLiveSpecification
			if aws.ToString(spec.AttributeName) != st.attr || aws.ToBool(spec.Enabled) != st.enabled {
				t.Errorf("step %d: got specification %s %v, want %s %v", i, aws.ToString(spec.AttributeName), aws.ToBool(spec.Enabled), st.attr, st.enabled)
			}
		}
		if got := describeTTL(t, c, table); got != st.describe {
			t.Errorf("step %d: got DescribeTimeToLive %q, want %q", i, got, st.describe)
		}
	}
}

// TestTTLMissingTable: both operations answer ResourceNotFoundException.
func TestTTLMissingTable(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	missing := uniqueName(t)
	_, err := c.DescribeTimeToLive(ctx(t), &dynamodb.DescribeTimeToLiveInput{TableName: &missing})
	requireAPIError(t, err, "ResourceNotFoundException", "")
	_, err = updateTTL(t, c, missing, "exp", true)
	requireAPIError(t, err, "ResourceNotFoundException", "")
}

// sweepTTL makes the endpoint delete expired items now: the emulator's
// admin endpoint. Against AWS, which deletes within days, the test skips.
func sweepTTL(t testing.TB) {
	t.Helper()
	tg := target(t)
	if tg.Oracle == OracleAWS {
		t.Skip("AWS deletes expired items within days: too slow for a test")
	}
	res, err := http.Post(tg.URL+"/dynamoemu/ttl/sweep", "application/json", nil)
	if err != nil {
		t.Fatalf("POST /dynamoemu/ttl/sweep: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("POST /dynamoemu/ttl/sweep: status %d", res.StatusCode)
	}
}

// TestTTLExpiry: expired items are deleted, each with a REMOVE stream
// record whose userIdentity is the DynamoDB service; items whose TTL is in
// the future, not a Number (a string, NULL), more than five years old or
// absent stay.
func TestTTLExpiry(t *testing.T) {
	AWSDiffers(t, "DynamoDB Local never deletes expired items")
	t.Parallel()
	c, sc := clients(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}
	table := createTable(t, c, in)
	_, err := updateTTL(t, c, table, "exp", true)
	mustNoError(t, err)
	now := time.Now().Unix()
	epoch := func(sec int64) types.AttributeValue { return n(strconv.FormatInt(sec, 10)) }
	items := []item{
		{"pk": s("expired"), "exp": epoch(now - 3600)},
		{"pk": s("future"), "exp": epoch(now + 3600)},
		{"pk": s("string"), "exp": s(fmt.Sprint(now - 3600))},
		{"pk": s("ancient"), "exp": epoch(now - 6*366*24*3600)},
		{"pk": s("none")},
		{"pk": s("null"), "exp": null()}, // mbc-cqrs-serverless writes ttl NULL when no TTL is configured
	}
	for _, it := range items {
		mustPut(t, c, table, it)
	}
	sweepTTL(t)

	out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ConsistentRead: aws.Bool(true)})
	mustNoError(t, err)
	var left []string
	for _, it := range out.Items {
		left = append(left, it["pk"].(*types.AttributeValueMemberS).Value)
	}
	slices.Sort(left)
	if want := []string{"ancient", "future", "none", "null", "string"}; !slices.Equal(left, want) {
		t.Errorf("got items %q after the sweep, want %q", left, want)
	}
	recs, _ := readAll(t, sc, iterator(t, sc, latestStream(t, c, table), stypes.ShardIteratorTypeTrimHorizon, ""))
	var removes []stypes.Record
	for _, r := range recs {
		if r.EventName == stypes.OperationTypeRemove {
			removes = append(removes, r)
		}
	}
	if len(removes) != 1 {
		t.Fatalf("got %d REMOVE records, want 1", len(removes))
	}
	r := removes[0]
	if u := r.UserIdentity; u == nil || aws.ToString(u.Type) != "Service" || aws.ToString(u.PrincipalId) != "dynamodb.amazonaws.com" {
		t.Errorf("got userIdentity %+v, want Service dynamodb.amazonaws.com", u)
	}
	requireItem(t, streamItem(r.Dynamodb.OldImage), items[0])
}
