package emulator

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/storage"
)

// The table catalog of a Namespace: its mu guards only the name -> table
// map (a leaf of the lock order in doc.go: nothing is locked while it is
// held); each table keeps its own definition (an immutable snapshot,
// changed under table.mu) and storage.Table guards its items, so a long
// Scan never blocks CreateTable.

// getTable returns the table called name, or nil.
func (ns *Namespace) getTable(name string) *table {
	ns.mu.RLock()
	defer ns.mu.RUnlock()
	return ns.tables[name]
}

// addTable inserts t unless a table of that name exists; it reports
// whether t was added.
func (ns *Namespace) addTable(t *table) bool {
	if ns.home != nil {
		// The first table of this access key and region: now the
		// namespace exists.
		return ns.home.get(ns.homeKey).addTable(t)
	}
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if _, ok := ns.tables[t.name]; ok {
		return false
	}
	if ns.tables == nil {
		ns.tables = make(map[string]*table)
	}
	ns.tables[t.name] = t
	return true
}

// removeTable deletes t from the catalog if it is still there (a
// concurrent DeleteTable + CreateTable must not remove the new table) and
// reports whether it did.
func (ns *Namespace) removeTable(t *table) bool {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if ns.tables[t.name] != t {
		return false
	}
	delete(ns.tables, t.name)
	return true
}

// tableNames returns the table names in ascending (UTF-8 byte) order.
func (ns *Namespace) tableNames() []string {
	ns.mu.RLock()
	names := make([]string, 0, len(ns.tables))
	for name := range ns.tables {
		names = append(names, name)
	}
	ns.mu.RUnlock()
	slices.Sort(names)
	return names
}

// table is one table: its key schema and items, plus everything
// DescribeTable reports. name, schema, keySchema, data, arn, id, created
// and clock never change after creation and may be read without a lock.
//
// Its definition (meta) is an immutable snapshot that readers load
// without any lock: the data-plane operations read it while they hold
// storage's lock on the table's items (the index key checks of an update,
// the capacity and item collection metrics of a batch), so reading it must
// not wait for anything. A change of the definition (UpdateTable,
// DeleteTable, UpdateTimeToLive, TagResource, UntagResource) holds mu,
// copies the snapshot, changes the copy, makes the storage changes it
// implies (an index added or dropped, the stream's observer attached or
// detached) and then publishes the copy. See "Locks" in doc.go for the
// order of every lock.
type table struct {
	name      string
	schema    storage.KeySchema
	keySchema []keyElem // as given, for DescribeTable
	data      *storage.Table
	arn       string // arn:aws:dynamodb:<region>:<account>:table/<name>
	id        string // TableId, a UUID
	created   time.Time
	clock     func() time.Time // the emulator's clock, for transient states
	// conv is the conventions policy; nil: not opted in (conventions.go).
	// Replaced under mu (tags), read without a lock.
	conv atomic.Pointer[tablePolicy]

	// meta is the table's definition; never nil once the table is
	// published. A *tableMeta, once stored, is never modified: load it
	// with meta.Load() (or snapshot) anywhere, holding any lock or none.
	meta atomic.Pointer[tableMeta]

	// mu serializes the changes of meta and guards liveStream. It comes
	// first in the lock order: a holder may take storage's table locks
	// (AddIndex, DropIndex, SetObserver, ItemCount), the namespace's
	// catalog and stream locks, and a stream's lock; nothing that holds
	// any of those, and nothing running inside a storage callback, takes
	// mu. Helpers named ...Locked expect it held.
	mu sync.Mutex
	// liveStream is the enabled stream (streams.go), the observer of data; nil without one.
	liveStream *stream
}

// tableMeta is the part of a table's definition that UpdateTable,
// UpdateTimeToLive, the tag operations or DeleteTable (for the status)
// may change. A published tableMeta is immutable: a change copies it
// (its slices are replaced, never modified in place) and stores the copy
// in table.meta.
type tableMeta struct {
	status             string // TableStatus: ACTIVE, DELETING
	attrDefs           []attrDef
	billingMode        string     // PROVISIONED or PAY_PER_REQUEST
	billingReported    bool       // BillingModeSummary is reported (mode given or changed)
	payPerRequestSince time.Time  // LastUpdateToPayPerRequestDateTime; zero if never
	throughput         throughput // zero while PAY_PER_REQUEST
	onDemand           *OnDemandThroughput
	stream             *StreamSpecification // nil or StreamEnabled false: no stream
	streamLabel        string               // LatestStreamLabel of the latest stream, even once disabled
	sse                *SSEDescription      // nil: AWS-owned key (not reported)
	tableClass         string               // "" means STANDARD (not reported)
	deletionProtection bool
	tags               []tagPair // in the order first added
	gsis               []*indexDef
	lsis               []*indexDef
	deleting           []*indexDef // GSIs being deleted, shown as DELETING until their goneAt
	ttl                ttlSpec     // TimeToLive (ttl.go)
}

// throughput is a table's (or GSI's) provisioned throughput with the
// history DescribeTable reports.
type throughput struct {
	read, write    int64
	lastIncrease   time.Time // zero if never
	lastDecrease   time.Time // zero if never
	decreasesToday int64
}

// indexDef is a secondary index definition as DescribeTable reports it.
// Its entries live in the table's storage under its name (indexes.go).
type indexDef struct {
	name       string
	arn        string // <table arn>/index/<name>
	local      bool   // a local secondary index
	keySchema  []keyElem
	schema     storage.KeySchema // the first HASH and RANGE attributes
	partAttrs  []storage.KeyAttr // every HASH attribute, in order
	sortAttrs  []storage.KeyAttr // every RANGE attribute, in order
	activeAt   time.Time         // a GSI added by UpdateTable is CREATING until then
	goneAt     time.Time         // a deleted GSI is DELETING until then
	projection projection
	throughput *throughput // GSI on a PROVISIONED table only
	onDemand   *OnDemandThroughput
}

// keyElem is one KeySchema element; keyType is HASH or RANGE.
type keyElem struct{ name, keyType string }

// attrDef is one AttributeDefinitions element; typ is S, N or B.
type attrDef struct{ name, typ string }

// projection is an index's Projection.
type projection struct {
	typ    string // ALL, KEYS_ONLY or INCLUDE
	nonKey []string
}

// snapshot returns the table's current definition, which the caller must
// not modify. It takes no lock, so it may be called anywhere, inside a
// storage callback included.
func (t *table) snapshot() *tableMeta { return t.meta.Load() }

// changeMeta applies fn to a copy of t's definition and publishes the
// copy, unless fn fails. It holds t.mu, so fn may make the storage
// changes the new definition implies and use the ...Locked helpers.
func (t *table) changeMeta(fn func(m *tableMeta) error) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := *t.meta.Load()
	if err := fn(&m); err != nil {
		return err
	}
	t.meta.Store(&m)
	return nil
}

// lookupTable resolves a TableName request parameter (a name, or a table
// ARN of this namespace) to the table, with AWS's validation and
// ResourceNotFoundException. Tables being deleted are not found.
func (c *call) lookupTable(name string) (*table, error) {
	return c.lookupTableMsg(name, msgResourceNotFound)
}

// lookupTableMsg is lookupTable with the ResourceNotFoundException message
// notFound (control-plane operations name the table in it).
func (c *call) lookupTableMsg(name, notFound string) (*table, error) {
	var cs constraints
	tableNameConstraints(&cs, name)
	if err := cs.err(); err != nil {
		return nil, err
	}
	if strings.HasPrefix(name, "arn:") {
		n, ok := c.tableNameFromARN(name)
		if !ok {
			return nil, errResourceNotFound(notFound)
		}
		name = n
	}
	t := c.ns.getTable(name)
	if t == nil {
		return nil, errResourceNotFound(notFound)
	}
	return t, nil
}

// tableNameConstraints checks a TableName parameter that names an existing
// table: a name of 3..255 characters from [a-zA-Z0-9_.-], or a table ARN.
// Since tables are addressable by ARN the parameter's model length is
// 1..1024, but AWS still reports a bad name at 'tableName' like this
// (observed on AWS for DescribeTable in 2026).
func tableNameConstraints(cs *constraints, name string) {
	if strings.HasPrefix(name, "arn:") && len(name) <= 1024 {
		return
	}
	if name == "" {
		// The model's minimum length (1, since ARNs are accepted) alone:
		// AWS reports no pattern error for "" (records of AWS's PutItem
		// and UpdateItem answers, e.g. moto's aws_verified tests).
		cs.add("''", "tableName", cLenGE(1))
		return
	}
	nameConstraints(cs, name, "tableName")
}

// tableARN returns the ARN of the table called name in this call's
// namespace.
func (c *call) tableARN(name string) string {
	return "arn:aws:dynamodb:" + c.region + ":" + c.account + ":table/" + name
}

// tableNameFromARN returns the table name in a table ARN if the ARN belongs
// to this call's region and account.
func (c *call) tableNameFromARN(arn string) (string, bool) {
	prefix := c.tableARN("")
	if !strings.HasPrefix(arn, prefix) {
		return "", false
	}
	name := arn[len(prefix):]
	if !validTableName(name) {
		return "", false
	}
	return name, true
}

// validTableName reports whether s follows DynamoDB's rules for table and
// index names: 3 to 255 characters from [a-zA-Z0-9_.-].
func validTableName(s string) bool {
	if len(s) < 3 || len(s) > 255 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !nameChar(s[i]) {
			return false
		}
	}
	return true
}

func nameChar(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' ||
		b == '_' || b == '.' || b == '-'
}
