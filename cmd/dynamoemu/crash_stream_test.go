package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// The crash test's stream check: the table "streamed" has a stream
// (NEW_AND_OLD_IMAGES) written by one worker (streamWorker: puts,
// updates, deletes, batches and transactions, one at a time, each write
// of an item with a version v never used before), and after each restart
// streamModel.check reads the whole stream and checks that its records
// are continuous: the same stream (ARN), sequence numbers strictly
// increasing, the records read before the restart still there with the
// same numbers, every acknowledged write's record there in commit order,
// the unanswered change's records there whole or not at all, and no
// record for a change that is not in the table (the last record of each
// key says what the table holds). The clock is moved only within the
// stream retention (ttlWorker sets it back), so nothing is trimmed.

const streamedTable = "streamed"

// streamModel is what the stream must hold.
type streamModel struct {
	mu  sync.Mutex // guards everything below
	arn string
	// acked are the acknowledged changes' records, one group per change
	// (a batch or a transaction: its writes' records in any order).
	acked [][]string
	// pending is the unanswered change's records, nil for none.
	pending []string
	// seen are the records read at the last check: each "seq id".
	seen []string
	v    int // the last version written
}

// nextV returns a version never used before.
func (sm *streamModel) nextV() int {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	sm.v++
	return sm.v
}

// streamSetup creates the streamed table and notes its stream's ARN.
func streamSetup(ctx context.Context, cl *client, m *crashModel, sm *streamModel) error {
	var out struct {
		TableDescription struct{ LatestStreamArn string }
	}
	err := cl.call(ctx, "CreateTable", `{"TableName":"`+streamedTable+`","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`, &out)
	if err != nil {
		return err
	}
	m.tables[streamedTable] = true
	sm.arn = out.TableDescription.LatestStreamArn
	return nil
}

// streamWorker writes the keys s-<i> of the streamed table, one change
// at a time, until the server is gone.
func streamWorker(ctx context.Context, cl *client, m *crashModel, sm *streamModel, r *rand.Rand) error {
	for ctx.Err() == nil {
		p := pendingChange{writes: map[string]string{}}
		var ids []string
		put := func(pk string) string {
			v := sm.nextV()
			item, fp := itemJSON(pk, v, "g0", 0)
			p.writes[itemKey(streamedTable, pk)] = fp
			ids = append(ids, fmt.Sprintf("%s=%d", pk, v))
			return item
		}
		pick := func() string { return fmt.Sprintf("s-%d", r.IntN(8)) }
		var op, body string
		switch n := r.IntN(10); {
		case n < 4:
			op, body = "PutItem", `{"TableName":"`+streamedTable+`","Item":`+put(pick())+`}`
		case n < 6:
			pk := pick()
			v := sm.nextV()
			_, fp := itemJSON(pk, v, "g1", 0)
			p.writes[itemKey(streamedTable, pk)] = fp
			ids = append(ids, fmt.Sprintf("%s=%d", pk, v))
			op, body = "UpdateItem", fmt.Sprintf(`{"TableName":%q,"Key":{"pk":{"S":%q}},"UpdateExpression":"SET v = :v, g = :g","ExpressionAttributeValues":{":v":{"N":"%d"},":g":{"S":"g1"}}}`, streamedTable, pk, v)
		case n < 8:
			pk := pick()
			cur := m.get(itemKey(streamedTable, pk))
			if cur == "" {
				continue // a delete of nothing makes no record
			}
			p.writes[itemKey(streamedTable, pk)] = ""
			ids = append(ids, fmt.Sprintf("%s-%d", pk, version(cur)))
			op, body = "DeleteItem", fmt.Sprintf(`{"TableName":%q,"Key":{"pk":{"S":%q}}}`, streamedTable, pk)
		default:
			a, b := pick(), pick()
			if a == b {
				continue
			}
			p.atomic = true
			if n == 8 {
				op, body = "BatchWriteItem", `{"RequestItems":{"`+streamedTable+`":[{"PutRequest":{"Item":`+put(a)+`}},{"PutRequest":{"Item":`+put(b)+`}}]}}`
			} else {
				op, body = "TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"`+streamedTable+`","Item":`+put(a)+`}},{"Put":{"TableName":"`+streamedTable+`","Item":`+put(b)+`}}]}`
			}
		}
		p.desc = op + " " + body
		var out struct{ UnprocessedItems map[string]any }
		err := cl.call(ctx, op, body, &out)
		if err == nil && len(out.UnprocessedItems) > 0 {
			return fmt.Errorf("%s: unprocessed items %v", p.desc, out.UnprocessedItems)
		}
		sm.mu.Lock()
		switch {
		case err == nil:
			sm.acked = append(sm.acked, ids)
		case isTransport(err):
			sm.pending = ids
		}
		sm.mu.Unlock()
		if stop, err := settle(m, err, p); stop {
			return err
		}
	}
	return nil
}

// streamRecord is a record as the check reads it.
type streamRecord struct {
	seq, event, id, pk string
}

// callStreams sends a Streams API request.
func (c *client) callStreams(ctx context.Context, op, body string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"/", strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("X-Amz-Target", "DynamoDBStreams_20120810."+op)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", crashAuth)
	return c.do(req, out)
}

// readStream returns the streamed table's stream ARN and every record
// of its stream.
func readStream(ctx context.Context, cl *client) (string, []streamRecord, error) {
	var ls struct{ Streams []struct{ StreamArn string } }
	if err := cl.callStreams(ctx, "ListStreams", `{"TableName":"`+streamedTable+`"}`, &ls); err != nil {
		return "", nil, err
	}
	if len(ls.Streams) != 1 {
		return "", nil, fmt.Errorf("ListStreams of %s: got %d streams, want 1", streamedTable, len(ls.Streams))
	}
	arn := ls.Streams[0].StreamArn
	var ds struct {
		StreamDescription struct{ Shards []struct{ ShardId string } }
	}
	if err := cl.callStreams(ctx, "DescribeStream", `{"StreamArn":"`+arn+`"}`, &ds); err != nil {
		return "", nil, err
	}
	var recs []streamRecord
	for _, sh := range ds.StreamDescription.Shards {
		var it struct{ ShardIterator string }
		if err := cl.callStreams(ctx, "GetShardIterator", `{"StreamArn":"`+arn+`","ShardId":"`+sh.ShardId+`","ShardIteratorType":"TRIM_HORIZON"}`, &it); err != nil {
			return "", nil, err
		}
		for it.ShardIterator != "" {
			var out struct {
				Records []struct {
					EventName string `json:"eventName"`
					Dynamodb  struct {
						SequenceNumber      string
						Keys                map[string]map[string]string
						NewImage, OldImage  map[string]map[string]any
						ApproximateCreation float64 `json:"ApproximateCreationDateTime"`
					} `json:"dynamodb"`
				}
				NextShardIterator string
			}
			if err := cl.callStreams(ctx, "GetRecords", `{"ShardIterator":"`+it.ShardIterator+`"}`, &out); err != nil {
				return "", nil, err
			}
			if len(out.Records) == 0 {
				break
			}
			for _, r := range out.Records {
				d := r.Dynamodb
				sr := streamRecord{seq: d.SequenceNumber, event: r.EventName, pk: d.Keys["pk"]["S"]}
				if r.EventName == "REMOVE" {
					sr.id = fmt.Sprintf("%s-%v", sr.pk, d.OldImage["v"]["N"])
				} else {
					sr.id = fmt.Sprintf("%s=%v", sr.pk, d.NewImage["v"]["N"])
				}
				recs = append(recs, sr)
			}
			it.ShardIterator = out.NextShardIterator
		}
	}
	return arn, recs, nil
}

// check reads the stream after a restart and compares it with the
// model and with got, what the table holds (see above). It then makes
// the model what the stream holds.
func (sm *streamModel) check(ctx context.Context, cl *client, got serverState) []string {
	arn, recs, err := readStream(ctx, cl)
	if err != nil {
		return []string{"reading the stream: " + err.Error()}
	}
	sm.mu.Lock()
	defer sm.mu.Unlock()
	var bad []string
	if arn != sm.arn {
		bad = append(bad, fmt.Sprintf("stream ARN after the restart: got %s, want %s", arn, sm.arn))
	}
	seen := make([]string, len(recs))
	for i, r := range recs {
		seen[i] = r.seq + " " + r.id
		if len(r.seq) != 21 || i > 0 && r.seq <= recs[i-1].seq {
			bad = append(bad, fmt.Sprintf("record %d: sequence number %s after %s", i, r.seq, recs[max(i-1, 0)].seq))
		}
	}
	for i, s := range sm.seen {
		if i >= len(seen) || seen[i] != s {
			g := "nothing"
			if i < len(seen) {
				g = seen[i]
			}
			bad = append(bad, fmt.Sprintf("record %d: read %q before the restart, %s after it", i, s, g))
			break
		}
	}
	// Every acknowledged change's records, in commit order, then the
	// unanswered change's, whole or not at all, then nothing.
	i := 0
	for _, g := range sm.acked {
		if i+len(g) > len(recs) {
			bad = append(bad, fmt.Sprintf("acknowledged change %v: no record (the stream has %d records)", g, len(recs)))
			break
		}
		var ids []string
		for _, r := range recs[i : i+len(g)] {
			ids = append(ids, r.id)
		}
		if !sameSet(ids, g) {
			bad = append(bad, fmt.Sprintf("records %d-%d: got %v, want the acknowledged change %v", i, i+len(g)-1, ids, g))
			break
		}
		i += len(g)
	}
	if rest := recs[min(i, len(recs)):]; len(rest) > 0 {
		var ids []string
		for _, r := range rest {
			ids = append(ids, r.id)
		}
		if !sameSet(ids, sm.pending) {
			bad = append(bad, fmt.Sprintf("records %d on: got %v, want nothing or the unanswered change %v", i, ids, sm.pending))
		}
	}
	// The last record of each key is what the table holds.
	last := map[string]streamRecord{}
	for _, r := range recs {
		last[r.pk] = r
	}
	for pk, r := range last {
		want := ""
		if r.event != "REMOVE" {
			want = r.id[strings.IndexByte(r.id, '=')+1:]
		}
		have := ""
		if fp := got.items[itemKey(streamedTable, pk)]; fp != "" {
			have = fmt.Sprint(version(fp))
		}
		if have != want {
			bad = append(bad, fmt.Sprintf("%s: the stream's last record is %s %s, the table holds version %q", pk, r.event, r.id, have))
		}
	}
	for k := range got.items {
		if pk, ok := strings.CutPrefix(k, streamedTable+"|"); ok {
			if _, ok := last[pk]; !ok {
				bad = append(bad, fmt.Sprintf("%s: in the table, never in the stream", pk))
			}
		}
	}
	sm.seen = seen
	sm.acked = nil
	for _, r := range recs {
		sm.acked = append(sm.acked, []string{r.id})
	}
	sm.pending = nil
	return bad
}

func sameSet(a, b []string) bool {
	return len(a) == len(b) && slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}
