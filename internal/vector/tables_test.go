package vector

import (
	"os"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The storage tables and DBs of this package's tests, each checked when
// its test ends (storage.Table.Check: the table's invariants and every
// vector index's entries against its items, as storage's own tests check
// their stores): every test makes them with newTable and newDB
// (internal/lint's TestStoresCheckedAtEnd keeps it so).

var (
	schemaS  = storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}}
	schemaSN = storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}, Sort: storage.KeyAttr{Name: "sk", Kind: storage.KindN}}
)

// newTable returns a table of key schema ks whose vector indexes opts
// builds, checked when tb ends.
func newTable(tb testing.TB, ks storage.KeySchema, opts Options) *storage.Table {
	tb.Helper()
	t := storage.NewTable(ks)
	t.SetVectorIndexer(opts)
	checkAtEnd(tb, t.Check)
	return t
}

// newDB returns a DB with hook whose tables' vector indexes opts builds,
// every table it holds checked when tb ends.
func newDB(tb testing.TB, hook storage.Hook, opts Options) *storage.DB {
	tb.Helper()
	db := storage.NewDB(hook)
	db.SetVectorIndexer(opts)
	checkAtEnd(tb, db.Check)
	return db
}

// checkAtEnd runs check when tb ends and fails it on an error; not for
// benchmarks, whose tests check the same code.
func checkAtEnd(tb testing.TB, check func() error) {
	if _, bench := tb.(*testing.B); bench {
		return
	}
	tb.Cleanup(func() {
		if err := check(); err != nil {
			tb.Errorf("a table of the test is inconsistent at its end: %v", err)
		}
	})
}

// check fails tb at once if tbl's invariants do not hold.
func check(tb testing.TB, tbl *storage.Table) {
	tb.Helper()
	if err := tbl.Check(); err != nil {
		tb.Fatal(err)
	}
}

// put stores item, failing the test on error.
func put(tb testing.TB, tbl *storage.Table, item storage.Item) {
	tb.Helper()
	if _, err := tbl.Put(tbl.KeySchema().KeyOf(item), item); err != nil {
		tb.Fatalf("put %v: %v", item, err)
	}
}

// heavyTests reports whether the long versions of the randomized tests
// run (DYNAMOEMU_HEAVY_TESTS, as in CI).
func heavyTests() bool { return os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" }

// logHook keeps the binary form of every record its DB commits.
type logHook struct {
	mu  sync.Mutex
	log [][]byte
}

func (h *logHook) Commit(r *storage.Record) (uint64, error) {
	b, err := storage.AppendRecord(nil, r)
	if err != nil {
		return 0, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.log = append(h.log, b)
	return 0, nil
}

func (h *logHook) Wait(uint64) error { return nil }

// records returns how many records h has kept.
func (h *logHook) records() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.log)
}

// scanRanks returns the position of each of tbl's items in its scan
// order, by keyString: the order equal scores come in.
func scanRanks(tbl *storage.Table) map[string]int {
	ranks := map[string]int{}
	tbl.ScanEncoded(storage.ScanRange{}, func(e storage.EncodedItem) bool {
		ranks[keyString(e.Key())] = len(ranks)
		return true
	})
	return ranks
}

// keyString names a key of a table: its attributes' text.
func keyString(k storage.Key) string {
	return k.Partition.Str() + "\x00" + k.Sort.Str()
}
