package emulator

import (
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// TestReplayThroughEdge is the service's TestReplay through the whole
// emulator: a random workload (testkit's: tables with LSIs and GSIs,
// tags, TTL with sweeps, streams, every write path, UpdateTable of every
// setting, DeleteTable and CreateTable again, in two namespaces) is sent
// to the emulator's HTTP handler, every record its namespaces' commit
// hooks see is recorded, and a second emulator rebuilds each namespace
// from those records alone (Namespace.Apply). Both must answer the same
// ListTables, DescribeTable, Scan and Query of every table and index,
// ListTagsOfResource, DescribeTimeToLive and streams (records but for
// their times). Its seed is logged; DYNAMOEMU_REPLAY_SEED=<seed> replays
// it.
func TestReplayThroughEdge(t *testing.T) {
	seed := testkit.ReplaySeed(t)
	steps := 400
	if !testkit.FullSize() {
		steps = 150
	}
	tables := []string{"et0", "et1"}
	auths := []string{testkit.DefaultAuth, testkit.Auth("AKID2", "eu-west-1")}
	regions := []string{"us-east-1", "eu-west-1"}

	// One base clock for both emulators, moved by the test, not by
	// Advance (which would move only the first): the real time, since
	// the workload's TTL values are (testkit.TTLValue).
	clock := testkit.NewClock(time.Now().Truncate(time.Millisecond))
	opts := Options{Clock: clock.Now, DelayTransientStatuses: true, TransientStatusDelay: 2 * time.Second}
	rec := &testkit.Recorder{}
	e := newRecordedEmulator(t, opts, rec)

	r := rand.New(rand.NewPCG(seed, 1))
	outcomes := map[string]int{}
	// Every namespace starts with a table, so that each has records to
	// replay whatever the seed: in 150 random steps, one seed's creates
	// all fell in the second namespace.
	for _, auth := range auths {
		res, out := do(t, e, "DynamoDB_20120810.CreateTable", auth, testkit.RandomCreateTable(r, tables[0]))
		require.Equal(t, http.StatusOK, res.StatusCode, "%s", out)
	}
	for range steps {
		k := r.IntN(len(auths))
		var op, body string
		switch n := r.IntN(20); {
		case n < 11:
			op, body, _ = testkit.RandomWrite(r, tables)
		case n < 18:
			op, body = testkit.RandomCatalogChange(r, tables, regions[k])
		case n < 19:
			clock.Advance(time.Duration(r.IntN(3000)) * time.Millisecond)
			continue
		default:
			outcomes["SweepTTL"] += e.Clock().SweepTTL()
			continue
		}
		res, out := do(t, e, "DynamoDB_20120810."+op, auths[k], body)
		if res.StatusCode >= 500 {
			t.Fatalf("%s %s: status %d, %s", op, body, res.StatusCode, out)
		}
		typ := "OK"
		if res.StatusCode != http.StatusOK {
			typ = testkit.ErrorType(out)
		}
		outcomes[op+": "+typ]++
	}
	t.Logf("outcomes: %v", outcomes)
	// A table DELETING is kept in no record: let it go before the
	// namespaces are compared.
	clock.Advance(opts.TransientStatusDelay)

	again := &testkit.Recorder{}
	e2 := newRecordedEmulator(t, opts, again)
	ids := rec.Namespaces()
	if len(ids) != len(auths) {
		t.Errorf("records of %d namespaces (%v), want %d", len(ids), ids, len(auths))
	}
	for _, id := range ids {
		ns := e2.svc.Namespace(id)
		if ns == nil {
			t.Fatalf("namespace %q: not one of the emulator's", id)
		}
		recs := rec.Records(id)
		kinds := map[string]int{}
		for i, b := range recs {
			r, err := storage.ParseRecord(b)
			if err != nil {
				t.Fatalf("namespace %q record %d: %v", id, i, err)
			}
			kinds[r.Kind.String()]++
			if err := ns.Apply(r); err != nil {
				t.Fatalf("namespace %q record %d (%s): %v", id, i, r.Kind, err)
			}
		}
		if got, want := len(again.Records(id)), len(recs); got != want {
			t.Errorf("namespace %q: the replay recorded %d records, want %d", id, got, want)
		}
		t.Logf("namespace %s: %d records replayed: %v", id, len(recs), kinds)
	}
	for _, auth := range auths {
		testkit.CompareNamespaces(t, e.Handler(), e2.Handler(), auth, true)
	}
	if t.Failed() {
		t.Logf("seed %d (replay: %s=%d)", seed, testkit.ReplaySeedEnv, seed)
	}
}
