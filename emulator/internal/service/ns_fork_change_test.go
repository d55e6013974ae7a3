package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// forkTry runs operation op in the namespace of access key key
// (us-east-1) and returns its answer or its error.
func forkTry(s *Service, key, op, body string) (string, error) {
	o, err := s.Lookup(TargetPrefix + op)
	if err != nil {
		return "", err
	}
	out, err := s.Serve(o, &Request{Ctx: context.Background(), AccessKey: key, Region: "us-east-1", Body: []byte(body)})
	return string(out), err
}

// forkFirstChanges are the first changes TestForkFirstChangeReads makes
// a fork with, while its readers run: each a list of requests, and
// whether tbl is there throughout (false: it is gone for a while, as
// between a DeleteTable and the CreateTable of the same name).
var forkFirstChanges = []forkFirstChange{
	{"UpdateTable creating a GSI", [][2]string{{"UpdateTable", `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],` +
		`"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]}`}}, true},
	{"PutItem", [][2]string{{"PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"mine"}}}`}}, true},
	{"CreateTable of another table", [][2]string{{"CreateTable", `{"TableName":"other","BillingMode":"PAY_PER_REQUEST",` +
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`}}, true},
	{"TagResource", [][2]string{{"TagResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/tbl","Tags":[{"Key":"k","Value":"v"}]}`}}, true},
	{"UpdateTimeToLive", [][2]string{{"UpdateTimeToLive", `{"TableName":"tbl","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`}}, true},
	{"UpdateTable turning the stream off", [][2]string{{"UpdateTable", `{"TableName":"tbl","StreamSpecification":{"StreamEnabled":false}}`}}, true},
	{"DeleteTable, then CreateTable of the same name", [][2]string{
		{"DeleteTable", `{"TableName":"tbl"}`},
		{"CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",` +
			`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`}}, false},
}

type forkFirstChange struct {
	name  string
	steps [][2]string
	kept  bool
}

// forkReads are the reads TestForkFirstChangeReads's readers make of
// tbl (and "untouched", which no change touches).
var forkReads = [][2]string{
	{"GetItem", `{"TableName":"tbl","Key":{"pk":{"S":"a"}}}`},
	{"GetItem", `{"TableName":"tbl","ConsistentRead":true,"Key":{"pk":{"S":"a"}}}`},
	{"GetItem", `{"TableName":"arn:aws:dynamodb:us-east-1:000000000000:table/tbl","Key":{"pk":{"S":"a"}}}`},
	{"BatchGetItem", `{"RequestItems":{"tbl":{"Keys":[{"pk":{"S":"a"}}]},"untouched":{"Keys":[{"pk":{"S":"a"}}]}}}`},
	{"Query", `{"TableName":"tbl","KeyConditionExpression":"pk = :a","ExpressionAttributeValues":{":a":{"S":"a"}}}`},
	{"Scan", `{"TableName":"tbl"}`},
	{"DescribeTable", `{"TableName":"tbl"}`},
	{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"tbl","Key":{"pk":{"S":"a"}}}}]}`},
	{"ExecuteStatement", `{"Statement":"SELECT * FROM tbl WHERE pk = 'a'"}`},
}

// TestForkFirstChangeReads: readers of a fork not made yet race the
// request that makes it (the fork's first write: an UpdateTable creating
// a GSI, a PutItem, a DeleteTable and a CreateTable of the same name,
// ...). The table is there before that request, while it runs and after
// it: no read may answer ResourceNotFoundException, but for the
// DeleteTable + CreateTable, whose reads between the two may, and whose
// reads after the CreateTable answered may not. The forks are of forks
// not made (sharing one snapshot and its view) or of made ones, and
// siblings are dropped meanwhile. Run under -race;
// DYNAMOEMU_HEAVY_TESTS runs ten times as many forks. It runs with
// tables ACTIVE at once, and with transient states (then without the
// DeleteTable + CreateTable, which waits out DELETING).
func TestForkFirstChangeReads(t *testing.T) {
	t.Run("instant", func(t *testing.T) { forkFirstChangeReads(t, Config{}) })
	t.Run("transient", func(t *testing.T) { forkFirstChangeReads(t, Config{TransientDelay: time.Millisecond}) })
}

func forkFirstChangeReads(t *testing.T, cfg Config) {
	s := newTestService(t, cfg)
	forkServe(t, s, "base", "CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],`+
		`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}`)
	time.Sleep(2 * cfg.TransientDelay) // tbl ACTIVE
	forkServe(t, s, "base", "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"a"},"note":{"S":"base"}}}`)
	forkServe(t, s, "base", "CreateTable", `{"TableName":"untouched","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	forks := 40
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		forks = 400
	}
	changes := forkFirstChanges
	if cfg.TransientDelay > 0 {
		changes = slices.DeleteFunc(slices.Clone(changes), func(c forkFirstChange) bool { return !c.kept })
		time.Sleep(2 * cfg.TransientDelay) // the tables ACTIVE
	}
	const readers = 4
	snap := s.Namespace("base/us-east-1").DB().Snapshot(nil)
	for i := range forks {
		change := changes[i%len(changes)]
		key, sib := fmt.Sprintf("f%d", i), fmt.Sprintf("s%d", i)
		if i%2 == 0 {
			require.NoError(t, s.Fork(key+"/us-east-1", snap)) // the view of snap is shared by every even fork
		} else {
			require.NoError(t, s.Fork(key+"/us-east-1", s.Namespace("base/us-east-1").DB().Snapshot(nil)))
		}
		// A sibling forked from the fork not made yet: the same snapshot
		// and view. It is written (made) or dropped while the readers run.
		require.NoError(t, s.Fork(sib+"/us-east-1", s.Forked(key+"/us-east-1")))
		// 0: before the change, 1: under way, 2: answered.
		var phase atomic.Int32
		var stop atomic.Bool
		var after atomic.Int32 // reads begun after the change answered
		var wg sync.WaitGroup
		var mu sync.Mutex
		var bad []string
		for r := range readers {
			wg.Go(func() {
				for n := 0; !stop.Load(); n++ {
					read := forkReads[(n+r)%len(forkReads)]
					p := phase.Load()
					_, err := forkTry(s, key, read[0], read[1])
					if errors.Is(err, apierr.ErrResourceNotFound) && (change.kept || p == 2 || p == 0 && phase.Load() == 0) {
						mu.Lock()
						if len(bad) < 10 { // the first few say enough
							bad = append(bad, fmt.Sprintf("%s in %s, begun in phase %d of %s: %v", read[0], key, p, change.name, err))
						}
						mu.Unlock()
					} else if err != nil && !errors.Is(err, apierr.ErrResourceNotFound) {
						mu.Lock()
						if len(bad) < 10 { // the first few say enough
							bad = append(bad, fmt.Sprintf("%s in %s: %v", read[0], key, err))
						}
						mu.Unlock()
					}
					if p == 2 && after.Add(1) >= 3*readers {
						stop.Store(true)
					}
				}
			})
		}
		wg.Go(func() {
			var err error
			switch i % 3 {
			case 0:
				_, err = forkTry(s, sib, "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"sib"}}}`)
			case 1:
				err = s.Fork(sib+"/us-east-1", nil)
			}
			if err != nil {
				mu.Lock()
				if len(bad) < 10 { // the first few say enough
					bad = append(bad, fmt.Sprintf("the sibling %s: %v", sib, err))
				}
				mu.Unlock()
			}
		})
		phase.Store(1)
		for _, step := range change.steps {
			_, err := forkTry(s, key, step[0], step[1])
			require.NoError(t, err, "%s in %s", step[0], key)
		}
		phase.Store(2)
		wg.Wait()
		require.Empty(t, bad)
		_, err := forkTry(s, key, "GetItem", `{"TableName":"tbl","Key":{"pk":{"S":"a"}}}`)
		require.NoError(t, err)
		require.NoError(t, s.Fork(key+"/us-east-1", nil))
		require.NoError(t, s.Fork(sib+"/us-east-1", nil))
	}
}
