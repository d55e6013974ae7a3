package conformance

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// DynamoDB Streams: records per view type, one per item change in commit
// order (transactions and batches included, cancelled transactions and
// writes that change nothing emit nothing), iterator types, disabling,
// ListStreams and DescribeStream, and the Streams API's errors.

// TestStreamsRecordsByViewType writes INSERT, a no-op put, MODIFY, REMOVE
// and a delete of nothing, and checks every record's shape per view type.
func TestStreamsRecordsByViewType(t *testing.T) {
	t.Parallel()
	v1 := item{"pk": s("a"), "sk": n("1"), "v": s("x")}
	v2 := item{"pk": s("a"), "sk": n("1"), "v": s("y")}
	keys := item{"pk": s("a"), "sk": n("1")}
	tests := []struct {
		view     types.StreamViewType
		newImage []item // per record, nil: absent
		oldImage []item
		size     []int32 // SizeBytes: keys 7 bytes, an image 9
	}{
		{types.StreamViewTypeKeysOnly, []item{nil, nil, nil}, []item{nil, nil, nil}, []int32{7, 7, 7}},
		{types.StreamViewTypeNewImage, []item{v1, v2, nil}, []item{nil, nil, nil}, []int32{16, 16, 7}},
		{types.StreamViewTypeOldImage, []item{nil, nil, nil}, []item{nil, v1, v2}, []int32{7, 16, 16}},
		{types.StreamViewTypeNewAndOldImages, []item{v1, v2, nil}, []item{nil, v1, v2}, []int32{16, 25, 16}},
	}
	for _, tc := range tests {
		t.Run(string(tc.view), func(t *testing.T) {
			t.Parallel()
			c, sc := clients(t)
			table := streamTable(t, c, tc.view)
			mustPut(t, c, table, v1)
			mustPut(t, c, table, v1) // changes nothing: no record
			mustPut(t, c, table, v2)
			for range 2 { // the second deletes nothing: no record
				_, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: keys})
				mustNoError(t, err)
			}
			arn := latestStream(t, c, table)
			recs, _ := readAll(t, sc, iterator(t, sc, arn, stypes.ShardIteratorTypeTrimHorizon, ""))
			if got, want := eventNames(recs), []string{"INSERT", "MODIFY", "REMOVE"}; !slices.Equal(got, want) {
				t.Fatalf("got events %v, want %v", got, want)
			}
			prev := ""
			for i, r := range recs {
				d := r.Dynamodb
				if got, want := aws.ToString(r.EventSource), "aws:dynamodb"; got != want {
					t.Errorf("record %d: got eventSource %q, want %q", i, got, want)
				}
				if got, want := aws.ToString(r.EventVersion), "1.1"; got != want {
					t.Errorf("record %d: got eventVersion %q, want %q", i, got, want)
				}
				if aws.ToString(r.EventID) == "" || aws.ToString(r.AwsRegion) == "" || d.ApproximateCreationDateTime == nil {
					t.Errorf("record %d: missing eventID, awsRegion or ApproximateCreationDateTime", i)
				}
				if r.UserIdentity != nil {
					t.Errorf("record %d: got userIdentity %+v for a client's write, want none", i, r.UserIdentity)
				}
				if string(d.StreamViewType) != string(tc.view) {
					t.Errorf("record %d: got StreamViewType %s, want %s", i, d.StreamViewType, tc.view)
				}
				requireItem(t, streamItem(d.Keys), keys)
				if got, want := renderItem(streamItem(d.NewImage)), renderItem(tc.newImage[i]); got != want {
					t.Errorf("record %d: got NewImage %s, want %s", i, got, want)
				}
				if got, want := renderItem(streamItem(d.OldImage)), renderItem(tc.oldImage[i]); got != want {
					t.Errorf("record %d: got OldImage %s, want %s", i, got, want)
				}
				if got, want := aws.ToInt64(d.SizeBytes), int64(tc.size[i]); got != want {
					t.Errorf("record %d: got SizeBytes %d, want %d", i, got, want)
				}
				seq := aws.ToString(d.SequenceNumber)
				if !seqLess(prev, seq) {
					t.Errorf("record %d: sequence number %q does not follow %q", i, seq, prev)
				}
				prev = seq
			}
		})
	}
}

// seqLess compares sequence numbers (decimal strings) numerically; "" is
// before everything.
func seqLess(a, b string) bool {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// TestStreamsTransactionsAndBatches: one record per item a transaction or
// batch changed, in request order; a cancelled transaction emits nothing.
func TestStreamsTransactionsAndBatches(t *testing.T) {
	t.Parallel()
	c, sc := clients(t)
	table := streamTable(t, c, types.StreamViewTypeNewAndOldImages)
	mustPut(t, c, table, item{"pk": s("c"), "sk": n("1")})
	put := func(pk string) types.TransactWriteItem {
		return types.TransactWriteItem{Put: &types.Put{TableName: &table, Item: item{"pk": s(pk), "sk": n("1"), "v": s("t")}}}
	}
	_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		put("b"), put("a"),
		{Delete: &types.Delete{TableName: &table, Key: item{"pk": s("c"), "sk": n("1")}}},
	}})
	mustNoError(t, err)
	_, err = c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		put("x"),
		{ConditionCheck: &types.ConditionCheck{TableName: &table, Key: item{"pk": s("a"), "sk": n("1")},
			ConditionExpression: aws.String("attribute_not_exists(pk)")}},
	}})
	var canceled *types.TransactionCanceledException
	if !errors.As(err, &canceled) {
		t.Fatalf("got %v, want TransactionCanceledException", err)
	}
	_, err = c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: {
		{PutRequest: &types.PutRequest{Item: item{"pk": s("d"), "sk": n("1")}}},
		{DeleteRequest: &types.DeleteRequest{Key: item{"pk": s("b"), "sk": n("1")}}},
	}}})
	mustNoError(t, err)

	recs, _ := readAll(t, sc, iterator(t, sc, latestStream(t, c, table), stypes.ShardIteratorTypeTrimHorizon, ""))
	var got []string
	for _, r := range recs {
		got = append(got, fmt.Sprintf("%s %s", r.EventName, renderItem(streamItem(r.Dynamodb.Keys))))
	}
	want := []string{
		`INSERT {pk: S:"c", sk: N:1}`,
		`INSERT {pk: S:"b", sk: N:1}`, `INSERT {pk: S:"a", sk: N:1}`, `REMOVE {pk: S:"c", sk: N:1}`,
	}
	// A batch's order among its items is not defined by AWS: compare as a set.
	batch := []string{`INSERT {pk: S:"d", sk: N:1}`, `REMOVE {pk: S:"b", sk: N:1}`}
	if len(got) != len(want)+len(batch) || !slices.Equal(got[:len(want)], want) {
		t.Fatalf("got records\n%s\nwant\n%s\nthen %s", strings.Join(got, "\n"), strings.Join(want, "\n"), batch)
	}
	rest := slices.Sorted(slices.Values(got[len(want):]))
	if !slices.Equal(rest, batch) {
		t.Fatalf("got batch records %q, want %q", rest, batch)
	}
}

// TestStreamsIteratorTypes: LATEST starts after the last record,
// AT_SEQUENCE_NUMBER at one, AFTER_SEQUENCE_NUMBER after it.
func TestStreamsIteratorTypes(t *testing.T) {
	t.Parallel()
	c, sc := clients(t)
	table := streamTable(t, c, types.StreamViewTypeKeysOnly)
	for i := 1; i <= 3; i++ {
		mustPut(t, c, table, item{"pk": s("a"), "sk": n(fmt.Sprint(i))})
	}
	arn := latestStream(t, c, table)
	latest := iterator(t, sc, arn, stypes.ShardIteratorTypeLatest, "")
	all, _ := readAll(t, sc, iterator(t, sc, arn, stypes.ShardIteratorTypeTrimHorizon, ""))
	if len(all) != 3 {
		t.Fatalf("got %d records, want 3", len(all))
	}
	second := aws.ToString(all[1].Dynamodb.SequenceNumber)
	sks := func(recs []stypes.Record) string {
		var out []string
		for _, r := range recs {
			out = append(out, render(streamValue(r.Dynamodb.Keys["sk"])))
		}
		return strings.Join(out, ",")
	}
	at, _ := readAll(t, sc, iterator(t, sc, arn, stypes.ShardIteratorTypeAtSequenceNumber, second))
	after, _ := readAll(t, sc, iterator(t, sc, arn, stypes.ShardIteratorTypeAfterSequenceNumber, second))
	mustPut(t, c, table, item{"pk": s("a"), "sk": n("4")})
	fromLatest, _ := readAll(t, sc, latest)
	for _, tc := range []struct{ name, got, want string }{
		{"AT_SEQUENCE_NUMBER", sks(at), "N:2,N:3"},
		{"AFTER_SEQUENCE_NUMBER", sks(after), "N:3"},
		{"LATEST", sks(fromLatest), "N:4"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got sort keys %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// TestStreamsGetRecordsLimit: Limit bounds a page; NextShardIterator goes on.
func TestStreamsGetRecordsLimit(t *testing.T) {
	t.Parallel()
	c, sc := clients(t)
	table := streamTable(t, c, types.StreamViewTypeKeysOnly)
	for i := 1; i <= 5; i++ {
		mustPut(t, c, table, item{"pk": s("a"), "sk": n(fmt.Sprint(i))})
	}
	it := iterator(t, sc, latestStream(t, c, table), stypes.ShardIteratorTypeTrimHorizon, "")
	var sizes []int
	for range 3 {
		out, err := sc.GetRecords(ctx(t), &dynamodbstreams.GetRecordsInput{ShardIterator: &it, Limit: aws.Int32(2)})
		mustNoError(t, err)
		sizes = append(sizes, len(out.Records))
		if out.NextShardIterator == nil {
			t.Fatal("got no NextShardIterator on an open shard")
		}
		it = *out.NextShardIterator
	}
	if got, want := sizes, []int{2, 2, 1}; !slices.Equal(got, want) {
		t.Errorf("got pages of %v records, want %v", got, want)
	}
}

// TestStreamsDisableAndEnable: a disabled stream stays in DescribeTable
// (LatestStreamArn, no StreamSpecification) and readable, its shard closed;
// enabling again makes a new stream with a new label.
func TestStreamsDisableAndEnable(t *testing.T) {
	t.Parallel()
	c, sc := clients(t)
	table := streamTable(t, c, types.StreamViewTypeNewImage)
	mustPut(t, c, table, item{"pk": s("a"), "sk": n("1")})
	first := latestStream(t, c, table)
	_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}})
	mustNoError(t, err)
	d := mustDescribe(t, c, table)
	if aws.ToString(d.LatestStreamArn) != first || d.StreamSpecification != nil {
		t.Fatalf("after disabling: got LatestStreamArn %q, StreamSpecification %+v; want %q and none",
			aws.ToString(d.LatestStreamArn), d.StreamSpecification, first)
	}
	ds, err := sc.DescribeStream(ctx(t), &dynamodbstreams.DescribeStreamInput{StreamArn: &first})
	mustNoError(t, err)
	if got := ds.StreamDescription.StreamStatus; got != stypes.StreamStatusDisabled && got != stypes.StreamStatusDisabling {
		t.Errorf("got StreamStatus %s, want DISABLED (or DISABLING)", got)
	}
	recs, next := readAll(t, sc, iterator(t, sc, first, stypes.ShardIteratorTypeTrimHorizon, ""))
	if got, want := eventNames(recs), []string{"INSERT"}; !slices.Equal(got, want) {
		t.Errorf("got events %v from the disabled stream, want %v", got, want)
	}
	if ds.StreamDescription.StreamStatus == stypes.StreamStatusDisabled && next != "" {
		t.Errorf("got a NextShardIterator at the end of a closed shard, want none")
	}

	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}})
	mustNoError(t, err)
	second := latestStream(t, c, table)
	if second == first {
		t.Fatalf("enabling again kept the stream ARN %q, want a new one", first)
	}
	mustPut(t, c, table, item{"pk": s("b"), "sk": n("1")})
	recs, _ = readAll(t, sc, iterator(t, sc, second, stypes.ShardIteratorTypeTrimHorizon, ""))
	if len(recs) != 1 || recs[0].Dynamodb.StreamViewType != stypes.StreamViewTypeKeysOnly {
		t.Errorf("got %d records (%v) from the new stream, want 1 KEYS_ONLY", len(recs), eventNames(recs))
	}
	ls, err := sc.ListStreams(ctx(t), &dynamodbstreams.ListStreamsInput{TableName: &table})
	mustNoError(t, err)
	var arns []string
	for _, st := range ls.Streams {
		arns = append(arns, aws.ToString(st.StreamArn))
		if aws.ToString(st.TableName) != table || !strings.HasSuffix(aws.ToString(st.StreamArn), "/stream/"+aws.ToString(st.StreamLabel)) {
			t.Errorf("got stream summary %+v, want table %s and the label ending the ARN", st, table)
		}
	}
	slices.Sort(arns)
	if want := slices.Sorted(slices.Values([]string{first, second})); !slices.Equal(arns, want) {
		t.Errorf("ListStreams: got %q, want %q", arns, want)
	}
}

// TestStreamsDescribeStream: the description of an enabled stream.
func TestStreamsDescribeStream(t *testing.T) {
	t.Parallel()
	c, sc := clients(t)
	table := streamTable(t, c, types.StreamViewTypeNewAndOldImages)
	arn := latestStream(t, c, table)
	out, err := sc.DescribeStream(ctx(t), &dynamodbstreams.DescribeStreamInput{StreamArn: &arn})
	mustNoError(t, err)
	d := out.StreamDescription
	label := mustDescribe(t, c, table).LatestStreamLabel
	if aws.ToString(d.StreamArn) != arn || aws.ToString(d.StreamLabel) != aws.ToString(label) ||
		d.StreamStatus != stypes.StreamStatusEnabled || d.StreamViewType != stypes.StreamViewTypeNewAndOldImages ||
		aws.ToString(d.TableName) != table || d.CreationRequestDateTime == nil {
		t.Errorf("got %+v", d)
	}
	var ks []string
	for _, k := range d.KeySchema {
		ks = append(ks, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
	}
	if got, want := strings.Join(ks, ", "), "pk HASH, sk RANGE"; got != want {
		t.Errorf("got KeySchema %s, want %s", got, want)
	}
	if len(d.Shards) != 1 {
		t.Fatalf("got %d shards, want 1", len(d.Shards))
	}
	sh := d.Shards[0]
	if !strings.HasPrefix(aws.ToString(sh.ShardId), "shardId-") || sh.SequenceNumberRange == nil ||
		sh.SequenceNumberRange.StartingSequenceNumber == nil || sh.SequenceNumberRange.EndingSequenceNumber != nil {
		t.Errorf("got shard %+v, want an open shardId-... with a starting sequence number", sh)
	}
}

// TestStreamsErrors: the Streams API's answers to bad requests.
func TestStreamsErrors(t *testing.T) {
	t.Parallel()
	c, sc := clients(t)
	table := streamTable(t, c, types.StreamViewTypeKeysOnly)
	arn := latestStream(t, c, table)
	shard := aws.ToString(onlyShard(t, sc, arn).ShardId)
	missingShard := shard[:len(shard)-1] + map[bool]string{true: "0", false: "1"}[!strings.HasSuffix(shard, "0")]
	tests := []struct {
		name string
		call func() error
		code string
		msg  string
	}{
		{"DescribeStream of a missing stream", func() error {
			_, err := sc.DescribeStream(ctx(t), &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn + "x")})
			return err
		}, "ResourceNotFoundException", "Requested resource not found: Stream: " + arn + "x not found"},
		{"GetShardIterator of a missing shard", func() error {
			_, err := sc.GetShardIterator(ctx(t), &dynamodbstreams.GetShardIteratorInput{StreamArn: &arn,
				ShardId: &missingShard, ShardIteratorType: stypes.ShardIteratorTypeLatest})
			return err
		}, "ResourceNotFoundException", ""},
		{"AT_SEQUENCE_NUMBER without one", func() error {
			_, err := sc.GetShardIterator(ctx(t), &dynamodbstreams.GetShardIteratorInput{StreamArn: &arn,
				ShardId: &shard, ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber})
			return err
		}, "ValidationException", "One or more parameter values were invalid: Invalid SequenceNumber"},
		{"TRIM_HORIZON with a sequence number", func() error {
			_, err := sc.GetShardIterator(ctx(t), &dynamodbstreams.GetShardIteratorInput{StreamArn: &arn,
				ShardId: &shard, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon, SequenceNumber: aws.String("000000000000000000001")})
			return err
		}, "ValidationException", "One or more parameter values were invalid: SequenceNumber should not be passed for this iterator type"},
		{"GetRecords with a made-up iterator", func() error {
			_, err := sc.GetRecords(ctx(t), &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(arn + "|1|AAAA")})
			return err
		}, "ValidationException", "Invalid ShardIterator"},
		{"GetRecords Limit over 1000", func() error {
			it := iterator(t, sc, arn, stypes.ShardIteratorTypeLatest, "")
			_, err := sc.GetRecords(ctx(t), &dynamodbstreams.GetRecordsInput{ShardIterator: &it, Limit: aws.Int32(1001)})
			return err
		}, "ValidationException", "One or more parameter values were invalid: Limit should be less than or equal to 1000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			requireAPIError(t, tc.call(), tc.code, tc.msg)
		})
	}
}

// TestStreamsARNAndRegion: stream ARNs and records name the request's
// region, as on AWS; DynamoDB Local writes "ddblocal".
func TestStreamsARNAndRegion(t *testing.T) {
	AWSDiffers(t, `DynamoDB Local puts region "ddblocal" in stream ARNs and awsRegion`)
	t.Parallel()
	c, sc := clients(t)
	table := streamTable(t, c, types.StreamViewTypeKeysOnly)
	mustPut(t, c, table, item{"pk": s("a"), "sk": n("1")})
	arn := latestStream(t, c, table)
	d := mustDescribe(t, c, table)
	if want := aws.ToString(d.TableArn) + "/stream/" + aws.ToString(d.LatestStreamLabel); arn != want {
		t.Errorf("got LatestStreamArn %q, want %q", arn, want)
	}
	if !strings.HasPrefix(arn, "arn:aws:dynamodb:"+defaultRegion+":") {
		t.Errorf("got LatestStreamArn %q, want region %s", arn, defaultRegion)
	}
	recs, _ := readAll(t, sc, iterator(t, sc, arn, stypes.ShardIteratorTypeTrimHorizon, ""))
	if len(recs) != 1 || aws.ToString(recs[0].AwsRegion) != defaultRegion {
		t.Errorf("got %d records, awsRegion %q; want 1 in %s", len(recs), aws.ToString(recs[0].AwsRegion), defaultRegion)
	}
}

// TestStreamsListPaging: ListStreams pages with Limit and
// ExclusiveStartStreamArn through every stream of the database.
func TestStreamsListPaging(t *testing.T) {
	t.Parallel()
	c, sc := clients(t)
	want := map[string]bool{}
	for range 3 {
		want[latestStream(t, c, streamTable(t, c, types.StreamViewTypeKeysOnly))] = true
	}
	got := map[string]bool{}
	var start *string
	for page := 0; ; page++ {
		if page > 5 {
			t.Fatal("ListStreams did not end")
		}
		out, err := sc.ListStreams(ctx(t), &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(2), ExclusiveStartStreamArn: start})
		mustNoError(t, err)
		if len(out.Streams) > 2 {
			t.Fatalf("got %d streams on a page of Limit 2", len(out.Streams))
		}
		for _, st := range out.Streams {
			got[aws.ToString(st.StreamArn)] = true
		}
		if out.LastEvaluatedStreamArn == nil {
			break
		}
		start = out.LastEvaluatedStreamArn
	}
	for arn := range want {
		if !got[arn] {
			t.Errorf("ListStreams never listed %s", arn)
		}
	}
}

// TestStreamsShardFilter: a new stream's shard has no children, and
// listing after it lists nothing.
func TestStreamsShardFilter(t *testing.T) {
	t.Parallel()
	c, sc := clients(t)
	arn := latestStream(t, c, streamTable(t, c, types.StreamViewTypeKeysOnly))
	shard := onlyShard(t, sc, arn).ShardId
	for _, in := range []*dynamodbstreams.DescribeStreamInput{
		{StreamArn: &arn, ShardFilter: &stypes.ShardFilter{Type: stypes.ShardFilterTypeChildShards, ShardId: shard}},
		{StreamArn: &arn, ExclusiveStartShardId: shard},
	} {
		out, err := sc.DescribeStream(ctx(t), in)
		mustNoError(t, err)
		if n := len(out.StreamDescription.Shards); n != 0 {
			t.Errorf("got %d shards, want none", n)
		}
	}
}

// TestStreamsShardFilterRequiresMembers: a ShardFilter without its Type
// or its ShardId is a ValidationException (scylladb's AWS-verified
// test/alternator/test_streams.py, test_stream_shard_filtering_missing_type
// and test_stream_shard_filtering_missing_shard_id, PR 28189, April 2026).
// The records check the type only; the words are AWS's standard form for a
// missing required member, inferred.
func TestStreamsShardFilterRequiresMembers(t *testing.T) {
	t.Parallel()
	c, sc := clients(t)
	arn := latestStream(t, c, streamTable(t, c, types.StreamViewTypeKeysOnly))
	shard := onlyShard(t, sc, arn).ShardId
	const null = "failed to satisfy constraint: Member must not be null"
	// DynamoDB Local accepts a filter without a ShardId, and words a
	// missing Type as it words every Type it does not know ("Value 'null'
	// at 'shardFilter.type' failed to satisfy constraint: Member must be
	// CHILD_SHARDS", its own check after reading an unknown enum as null).
	const local = "AWS refuses a ShardFilter without Type or ShardId (scylladb test_streams.py, " +
		"test_stream_shard_filtering_missing_type/_missing_shard_id); DynamoDB Local accepts a missing " +
		"ShardId and words a missing Type as 'Member must be CHILD_SHARDS'"
	tests := []struct {
		name    string
		filter  *stypes.ShardFilter
		want    string
		differs bool
	}{
		{"no type", &stypes.ShardFilter{ShardId: shard},
			"1 validation error detected: Value null at 'shardFilter.type' " + null, true},
		{"no shard id", &stypes.ShardFilter{Type: stypes.ShardFilterTypeChildShards},
			"1 validation error detected: Value null at 'shardFilter.shardId' " + null, true},
		{"neither", &stypes.ShardFilter{},
			"2 validation errors detected: Value null at 'shardFilter.type' " + null +
				"; Value null at 'shardFilter.shardId' " + null, true},
		{"short shard id", &stypes.ShardFilter{Type: stypes.ShardFilterTypeChildShards, ShardId: aws.String("qwerty")},
			"1 validation error detected: Value 'qwerty' at 'shardFilter.shardId' failed to satisfy constraint: " +
				"Member must have length greater than or equal to 28", false},
		{"unknown type, no shard id", &stypes.ShardFilter{Type: "foo"},
			"2 validation errors detected: Value 'foo' at 'shardFilter.type' failed to satisfy constraint: " +
				"Member must satisfy enum value set: [CHILD_SHARDS]; Value null at 'shardFilter.shardId' " + null, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.differs {
				AWSDiffers(t, local)
			}
			_, err := sc.DescribeStream(ctx(t), &dynamodbstreams.DescribeStreamInput{StreamArn: &arn, ShardFilter: tc.filter})
			requireValidation(t, err, tc.want)
		})
	}
}

// TestStreamsNoChangeNoRecord: writes that leave the item as it was (the
// same put, the same values written differently, an update to the same value, a failed condition, a delete of
// nothing) emit no record.
func TestStreamsNoChangeNoRecord(t *testing.T) {
	t.Parallel()
	c, sc := clients(t)
	table := streamTable(t, c, types.StreamViewTypeNewAndOldImages)
	v := item{"pk": s("a"), "sk": n("1"), "v": s("x"), "set": ss("m", "n"), "num": n("1")}
	key := item{"pk": s("a"), "sk": n("1")}
	mustPut(t, c, table, v)
	mustPut(t, c, table, v)
	// Set members in another order and a number written another way are the same item.
	mustPut(t, c, table, item{"pk": s("a"), "sk": n("1"), "v": s("x"), "set": ss("n", "m"), "num": n("1.0")})
	_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key,
		UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": s("x")}})
	mustNoError(t, err)
	_, err = c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("a"), "sk": n("1"), "v": s("y")},
		ConditionExpression: aws.String("attribute_not_exists(pk)")})
	requireAPIError(t, err, "ConditionalCheckFailedException", "")
	_, err = c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: item{"pk": s("b"), "sk": n("1")}})
	mustNoError(t, err)
	recs, _ := readAll(t, sc, iterator(t, sc, latestStream(t, c, table), stypes.ShardIteratorTypeTrimHorizon, ""))
	if got, want := eventNames(recs), []string{"INSERT"}; !slices.Equal(got, want) {
		t.Errorf("got events %v, want %v", got, want)
	}
}
