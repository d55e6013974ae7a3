package service

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A table that CreateTable answered (and DescribeTable shows ACTIVE) is
// found by every later read, whatever the catalog does meanwhile: an
// UpdateTable creating or deleting a GSI (its backfill), a DeleteTable
// and a CreateTable of the same name (the old table's work after its
// drop), the same records applied by a namespace that follows them (a
// replay: persistence's load, a replica), with tables ACTIVE at once or
// after a transient delay. Readers run throughout; a read that began
// and ended while the table was live must find it.

// lookupRaceTable is tbl's CreateTable.
const lookupRaceTable = `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
	`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}`

// lookupRaceReads are the readers' requests, each on tbl.
var lookupRaceReads = [][2]string{
	{"GetItem", `{"TableName":"tbl","Key":{"pk":{"S":"a"}}}`},
	{"GetItem", `{"TableName":"tbl","ConsistentRead":true,"Key":{"pk":{"S":"a"}}}`},
	{"BatchGetItem", `{"RequestItems":{"tbl":{"Keys":[{"pk":{"S":"a"}}]}}}`},
	{"Query", `{"TableName":"tbl","KeyConditionExpression":"pk = :a","ExpressionAttributeValues":{":a":{"S":"a"}}}`},
	{"DescribeTable", `{"TableName":"tbl"}`},
	{"PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"r"}}}`},
}

func TestTableFoundAcrossCatalogChanges(t *testing.T) {
	for _, delay := range []time.Duration{0, time.Millisecond} {
		for _, follow := range []bool{false, true} {
			t.Run(fmt.Sprintf("delay %v, follower %v", delay, follow), func(t *testing.T) {
				lookupRace(t, delay, follow)
			})
		}
	}
}

func lookupRace(t *testing.T, delay time.Duration, follow bool) {
	rec := &testkit.Recorder{}
	s := newTestService(t, withHooks(Config{TransientDelay: delay}, rec))
	read := s // where the readers read: s, or the follower
	var applied int
	var follower *Namespace
	if follow {
		read = newTestService(t, Config{})
		follower = read.Namespace("k/us-east-1")
	}
	// catchUp applies the records s's namespace made since the last call to
	// the follower, in order, as a replica or a load does.
	catchUp := func() {
		if !follow {
			return
		}
		recs := rec.Records("k/us-east-1")
		for ; applied < len(recs); applied++ {
			r, err := storage.ParseRecord(recs[applied])
			require.NoError(t, err)
			require.NoError(t, follower.Apply(r), "record %d (%s)", applied, r.Kind)
		}
	}
	serve := func(op, body string) string {
		out, err := forkTry(s, "k", op, body)
		require.NoError(t, err, "%s %s", op, body)
		return out
	}
	// await polls DescribeTable until done says the answer (or error) is
	// the one awaited.
	await := func(what string, done func(out string, err error) bool) {
		deadline := time.Now().Add(testkit.Scaled(10 * time.Second))
		for {
			out, err := forkTry(s, "k", "DescribeTable", `{"TableName":"tbl"}`)
			if done(out, err) {
				return
			}
			require.True(t, time.Now().Before(deadline), "waiting for %s: %s %v", what, out, err)
			time.Sleep(delay / 4)
		}
	}
	active := func(out string, err error) bool {
		return err == nil && !strings.Contains(out, `"CREATING"`) && !strings.Contains(out, `"UPDATING"`) && !strings.Contains(out, `"DELETING"`)
	}
	create := func() {
		serve("CreateTable", lookupRaceTable)
		await("tbl ACTIVE", active)
		serve("PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"a"}}}`)
		catchUp()
	}
	create()

	// state is 2 × the number of changes begun + 1 while tbl is live
	// (found by the writer, and in the follower).
	var state atomic.Int64
	state.Store(1)
	var stop atomic.Bool
	var mu sync.Mutex
	var bad []string
	var reads, misses atomic.Int64
	var wg sync.WaitGroup
	for r := range 4 {
		wg.Go(func() {
			for n := r; !stop.Load(); n++ {
				req := lookupRaceReads[n%len(lookupRaceReads)]
				if follow && req[0] == "PutItem" {
					continue // the follower takes no writes
				}
				s0 := state.Load()
				_, err := forkTry(read, "k", req[0], req[1])
				s1 := state.Load()
				reads.Add(1)
				switch {
				case err == nil:
				case errors.Is(err, apierr.ErrResourceNotFound) && (s0 != s1 || s0%2 == 0):
					misses.Add(1) // tbl was dropped meanwhile: a miss is right
				default:
					mu.Lock()
					if len(bad) < 10 { // the first few say enough
						bad = append(bad, fmt.Sprintf("%s, begun and ended with tbl live (state %d): %v", req[0], s0, err))
					}
					mu.Unlock()
				}
			}
		})
	}
	cycles := 18
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		cycles = 360
	}
	gsi := `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],` +
		`"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]}`
	for i := range cycles {
		switch i % 3 {
		case 0, 1: // a GSI created and deleted: tbl live throughout
			serve("UpdateTable", gsi)
			catchUp()
			await("byG ACTIVE", active)
			serve("UpdateTable", `{"TableName":"tbl","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"byG"}}]}`)
			catchUp()
			await("byG gone", func(out string, err error) bool { return active(out, err) && !strings.Contains(out, "byG") })
		case 2: // DeleteTable, wait until gone, CreateTable of the same name
			state.Add(1)
			serve("DeleteTable", `{"TableName":"tbl"}`)
			catchUp()
			await("tbl gone", func(_ string, err error) bool { return errors.Is(err, apierr.ErrResourceNotFound) })
			create()
			state.Add(1)
		}
	}
	stop.Store(true)
	wg.Wait()
	require.Empty(t, bad)
	t.Logf("%d reads, %d missed tbl while it was dropped", reads.Load(), misses.Load())
	require.NotZero(t, reads.Load())
}
