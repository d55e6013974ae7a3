package service

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The proof that a namespace's DB and its commit hook hold the whole
// namespace (catalog_record.go): a random workload runs through the API
// against an emulator whose namespaces' hooks record every record, in
// their binary form (storage.AppendRecord); a second emulator then
// rebuilds each namespace from those records alone (Namespace.Apply) and
// must answer every read the same: ListTables, DescribeTable (byte for
// byte: counts, sizes, indexes and their states, billing and throughput
// histories, stream settings, SSE, class, protection), Scan of every
// table and index, a Query of every index, ListTagsOfResource,
// DescribeTimeToLive, and the streams (ListStreams, DescribeStream, and
// GetRecords but for ApproximateCreationDateTime, which is the replay's
// clock). The rebuilt namespaces' own hooks must see the same records
// again.
//
// The workload covers tables with LSIs and GSIs (created with the table
// and by UpdateTable, deleted), streams on and off, TTL with sweeps,
// tags (the conventions opt-in among them), billing and throughput
// changes, SSE, table class and deletion protection, DeleteTable and
// CreateTable again, and items through every write path
// (testkit.RandomWrite), in two namespaces. Its seed is logged;
// DYNAMOEMU_REPLAY_SEED=<seed> replays it. The facade's replay_test.go
// runs the same workload through the HTTP edge.

var replayTables = []string{"rt0", "rt1", "rt2"}

var replayAuths = []string{testkit.DefaultAuth, testkit.Auth("AKID2", "eu-west-1")}

// replayRegion is the region of one of replayAuths.
func replayRegion(auth string) string {
	if auth == testkit.DefaultAuth {
		return "us-east-1"
	}
	return "eu-west-1"
}

func TestReplay(t *testing.T) {
	seed := testkit.ReplaySeed(t)
	// Every record accepted; a hook that refuses one record in seven,
	// whose writers get 500 InternalServerError with nothing changed; one
	// that fails the wait of one record in five, whose writers get 500
	// with the change made. The records accepted rebuild the namespace.
	for _, failEvery := range []int{0, 7, -5} {
		t.Run("failEvery="+strconv.Itoa(failEvery), func(t *testing.T) { replayRun(t, seed, failEvery) })
	}
}

func replayRun(t *testing.T, seed uint64, failEvery int) {
	steps := 600
	if !testkit.FullSize() {
		steps = 250
	}

	// The real time, since the workload's TTL values are (testkit.TTLValue).
	clock := testkit.NewClock(time.Now().Truncate(time.Millisecond))
	opts := Config{Clock: clock.Now, TransientDelay: 2 * time.Second}
	hooks := &testkit.Recorder{FailEvery: failEvery}
	e := newTestService(t, withHooks(opts, hooks))

	r := rand.New(rand.NewPCG(seed, 0))
	outcomes := map[string]int{}
	send := func(auth, op, body string) {
		res, out := doService(t, e, "DynamoDB_20120810."+op, auth, body)
		typ := "OK"
		if res.StatusCode != http.StatusOK {
			typ = testkit.ErrorType(out)
		}
		if res.StatusCode >= 500 && (failEvery == 0 || typ != "InternalServerError") {
			t.Fatalf("%s %s: status %d, %s", op, body, res.StatusCode, out)
		}
		outcomes[op+": "+typ]++
	}
	for i := 0; i < steps; i++ {
		auth := testkit.Pick(r, replayAuths...)
		switch n := r.IntN(20); {
		case n < 11:
			op, body, _ := testkit.RandomWrite(r, replayTables)
			send(auth, op, body)
		case n < 18:
			op, body := testkit.RandomCatalogChange(r, replayTables, replayRegion(auth))
			send(auth, op, body)
		case n < 19:
			clock.Advance(time.Duration(r.IntN(3000)) * time.Millisecond)
		default:
			outcomes["SweepTTL"] += e.SweepTTL()
		}
	}
	// Every operation RandomCatalogChange sends changes the catalog; a
	// short run (250 steps under -race) can miss refusals on all of them
	// (seed 1795402894724821695: 16 catalog changes, none refused), so
	// the run goes on with catalog changes alone until the hook has
	// refused one, or 400 more were sent.
	refusedCatalog := func() int {
		n := 0
		for _, op := range []string{"CreateTable", "UpdateTable", "DeleteTable", "TagResource", "UntagResource", "UpdateTimeToLive"} {
			n += outcomes[op+": InternalServerError"]
		}
		return n
	}
	for extra := 0; failEvery != 0 && refusedCatalog() == 0 && extra < 400; extra++ {
		auth := testkit.Pick(r, replayAuths...)
		op, body := testkit.RandomCatalogChange(r, replayTables, replayRegion(auth))
		send(auth, op, body)
	}
	t.Logf("outcomes: %v", outcomes)
	if failEvery != 0 && refusedCatalog() == 0 {
		t.Errorf("no catalog change met a refusal of the hook")
	}

	// A table DELETING is kept in no record: let it go before the
	// catalogs are compared.
	clock.Advance(opts.TransientDelay)
	again := &testkit.Recorder{}
	e2 := newTestService(t, withHooks(opts, again))
	for _, id := range hooks.Namespaces() {
		recs := hooks.Records(id)
		ns := e2.Namespace(id)
		if ns == nil {
			t.Fatalf("namespace %q: not one of the emulator's", id)
		}
		for i, b := range recs {
			rec, err := storage.ParseRecord(b)
			if err != nil {
				t.Fatalf("namespace %q record %d: %v", id, i, err)
			}
			if err := ns.Apply(rec); err != nil {
				t.Fatalf("namespace %q record %d (%s): %v", id, i, rec.Kind, err)
			}
		}
		if got, want := len(again.Records(id)), len(recs); got != want {
			t.Errorf("namespace %q: the replay recorded %d records, want %d", id, got, want)
		}
		for i := range min(len(recs), len(again.Records(id))) {
			if !bytes.Equal(again.Records(id)[i], recs[i]) {
				t.Errorf("namespace %q: record %d recorded again differs", id, i)
				break
			}
		}
	}
	for _, auth := range replayAuths {
		testkit.CompareNamespaces(t, serviceHandler(e), serviceHandler(e2), auth, true)
	}
	if t.Failed() {
		t.Logf("seed %d (replay: %s=%d)", seed, testkit.ReplaySeedEnv, seed)
	}
}

// withHooks is cfg with every namespace's hook recording into h.
func withHooks(cfg Config, h *testkit.Recorder) Config {
	cfg.Hooks = h.Hook
	return cfg
}

// replayInto rebuilds every namespace hooks recorded in a new emulator
// with options opts and returns it.
func replayInto(t *testing.T, hooks *testkit.Recorder, opts Config) *Service {
	t.Helper()
	e2 := newTestService(t, opts)
	for _, id := range hooks.Namespaces() {
		recs := hooks.Records(id)
		ns := e2.Namespace(id)
		for i, b := range recs {
			rec, err := storage.ParseRecord(b)
			if err != nil {
				t.Fatalf("namespace %q record %d: %v", id, i, err)
			}
			if err := ns.Apply(rec); err != nil {
				t.Fatalf("namespace %q record %d (%s): %v", id, i, rec.Kind, err)
			}
		}
	}
	return e2
}

// TestReplayConcurrent is TestReplay's workload run by several goroutines
// at once, each with its own random sequence (the interleaving is the
// scheduler's): the hook's order of records, per table the order in
// which changes became visible, must rebuild the same tables, items,
// indexes and definitions. Stream records are not compared: a write that
// races with UpdateTable enabling a stream may reach the live stream and
// not the rebuilt one, or the other way round (catalog_record.go: they
// are volatile).
func TestReplayConcurrent(t *testing.T) {
	seed := testkit.ReplaySeed(t)
	const workers = 4
	steps := 150
	if !testkit.FullSize() {
		steps = 60
	}
	opts := Config{}
	hooks := &testkit.Recorder{}
	e := newTestService(t, withHooks(opts, hooks))
	var wg sync.WaitGroup
	for w := range uint64(workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, w))
			for i := 0; i < steps; i++ {
				auth := testkit.Pick(r, replayAuths...)
				var op, body string
				switch n := r.IntN(20); {
				case n < 12:
					op, body, _ = testkit.RandomWrite(r, replayTables)
				case n < 19:
					op, body = testkit.RandomCatalogChange(r, replayTables, replayRegion(auth))
				default:
					e.SweepTTL()
					continue
				}
				if res, out := doService(t, e, "DynamoDB_20120810."+op, auth, body); res.StatusCode >= 500 {
					t.Errorf("%s %s: status %d, %s", op, body, res.StatusCode, out)
				}
			}
		}()
	}
	testkit.WaitOrDump(t, &wg)
	e2 := replayInto(t, hooks, opts)
	for _, auth := range replayAuths {
		testkit.CompareNamespaces(t, serviceHandler(e), serviceHandler(e2), auth, false)
	}
	if t.Failed() {
		t.Logf("seed %d (replay: %s=%d)", seed, testkit.ReplaySeedEnv, seed)
	}
}
