package emulator_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestAPIModel: a randomized test of the whole API surface against a small
// reference model of DynamoDB's semantics (the developer guide's, and the
// emulator's documented choices where AWS leaves one: op_tables.go). A
// controller goroutine creates, updates (GSIs added and deleted, streams
// on and off), tags, sets Time to Live on and deletes a few tables, and
// re-creates them under the same names; workers run data-plane operations
// on them meanwhile, every one over HTTP with the SDK. Every answer is
// checked against the model:
//
//   - which tables exist at each moment: a table the controller saw
//     created (and, with transient states, saw ACTIVE) and has not started
//     to delete is found by every request that starts after that, until
//     the controller starts deleting it; one it saw gone is found by none
//     (a request that overlaps a change may answer either way);
//   - items: each worker writes only its own keys, so it knows each of
//     them exactly (a write that overlapped a table's deletion or
//     creation makes its key unknown until the next consistent read);
//     conditional writes fail exactly when the model says, transactions
//     all or nothing, queries, scans and GSI queries answer exactly the
//     model's items;
//   - the definitions: DescribeTable's GSIs, stream and status,
//     DescribeTimeToLive, ListTagsOfResource and ListTables;
//   - streams: each worker's writes appear in a shard in the order it made
//     them.
//
// It runs three ways: tables ACTIVE and gone at once (DynamoDB Local's
// way, the default), with transient states (CREATING, DELETING and index
// states for a short while, -delayTransientStatuses), and persisted
// (-dbPath) with restarts between rounds. The seed is logged;
// DYNAMOEMU_MODEL_SEED replays one (the interleaving of the goroutines
// still differs from run to run), DYNAMOEMU_MODEL_OPS sets how many
// operations it runs in all (docs/contributing.md: the long run) and
// DYNAMOEMU_MODEL_DELAY the transient states' length (15ms; the
// server's -delayTransientStatuses keeps them 500ms).
func TestAPIModel(t *testing.T) {
	total := 3000
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		total = 10000
	}
	if v := os.Getenv("DYNAMOEMU_MODEL_OPS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err, "DYNAMOEMU_MODEL_OPS")
		total = n
	}
	if testing.Short() {
		total = min(total, 1000)
	}
	seed := rand.Uint64()
	if v := os.Getenv("DYNAMOEMU_MODEL_SEED"); v != "" {
		var err error
		seed, err = strconv.ParseUint(v, 10, 64)
		require.NoError(t, err, "DYNAMOEMU_MODEL_SEED")
	}
	t.Logf("seed %d (DYNAMOEMU_MODEL_SEED=%d replays it), %d operations", seed, seed, total)
	delay := 15 * time.Millisecond
	if v := os.Getenv("DYNAMOEMU_MODEL_DELAY"); v != "" { // cmd/dynamoemu's is 500ms
		var err error
		delay, err = time.ParseDuration(v)
		require.NoError(t, err, "DYNAMOEMU_MODEL_DELAY")
	}
	modes := []amMode{
		{name: "instant", rounds: 1},
		{name: "transient", delay: delay, rounds: 1},
		{name: "persisted", delay: delay, persist: true, rounds: 4},
	}
	for i, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			m.seed = seed + uint64(i)
			m.ops = total / len(modes)
			runAPIModel(t, m)
		})
	}
}

// amMode is one way TestAPIModel runs the emulator.
type amMode struct {
	name    string
	delay   time.Duration // the transient states' length; 0: none
	persist bool          // DataDir, restarted between rounds
	rounds  int
	seed    uint64
	ops     int
}

const (
	amWorkers = 4
	amSlots   = 4 // table names
)

// The existence phases of a table name, as the controller knows them.
const (
	amAbsent   = iota // no table of that name (it saw it gone)
	amChanging        // a CreateTable or DeleteTable under way
	amCreating        // created, not seen ACTIVE yet (transient states)
	amActive          // seen ACTIVE: every request must find it
	amDeleting        // deleted, not seen gone yet (transient states)
)

var amPhaseNames = [...]string{"absent", "changing", "creating", "active", "deleting"}

// amExist is one state of a table name: a new value at every change, so
// that a worker that loads the same pointer before and after a request
// knows nothing changed meanwhile.
type amExist struct {
	phase int
	gen   int // the table's generation: one per CreateTable
}

// amDef is the controller's model of a table's definition; published
// whole (never modified) in amSlot.def.
type amDef struct {
	gen      int
	sort     bool              // the table has the sort key sk (N)
	gsis     map[string]bool   // name -> seen ACTIVE (false: a change under way)
	stream   string            // the enabled stream's ARN; "": none
	ttl      string            // the TTL attribute while enabled
	tags     map[string]string // the table's tags
	changing bool              // an index change under way
	lsi      bool              // the LSI byNL (pk, n): tables with a sort key only
	restored bool              // restored from a backup: its items are unknown to the workers
	pitr     bool              // point-in-time recovery enabled
	insights bool              // contributor insights enabled
}

// The GSIs the controller adds and deletes: byG on g, byGN on g and n.
var amGSIs = []string{"byG", "byGN"}

// amSlot is one table name.
type amSlot struct {
	name  string
	exist atomic.Pointer[amExist]
	def   atomic.Pointer[amDef]
}

// amKey is one of a worker's item keys in its model.
type amItem struct {
	known   bool // false: a write overlapped a change of the table; the next read tells
	present bool
	g       string // "" when absent
	n       int
	ver     int
	data    string
}

// amWorkerTable is a worker's model of its items in one table.
type amWorkerTable struct {
	gen   int
	rest  bool                // keys not in items are unknown (a restored table), not absent
	items map[string]*amItem  // by key (pk + "|" + sk)
	trail map[string][]string // by key: the last changes of its model, for failure reports
}

// set makes k's model it, by the change why.
func (m *amWorkerTable) set(k string, it *amItem, why string) {
	m.items[k] = it
	t := append(m.trail[k], why+" -> "+it.String())
	if len(t) > 6 {
		t = t[len(t)-6:]
	}
	m.trail[k] = t
}

// amEvent is one line of the history kept for failure reports.
type amEvent struct {
	at  time.Time
	who string
	msg string
}

// amRun is one run of the model against one emulator.
type amRun struct {
	t      *testing.T
	mode   amMode
	slots  [amSlots]*amSlot
	ctx    context.Context
	left   atomic.Int64  // operations left
	done   atomic.Int64  // operations answered
	fails  *atomic.Int32 // the failures of every namespace of the run
	key    string        // the access key: the namespace
	client atomic.Pointer[amClients]

	restored sync.Map // generation -> true: a table restored from a backup

	histMu sync.Mutex
	hist   []amEvent // the last events, a ring
	histAt int
}

type amClients struct {
	db      *dynamodb.Client   // the controller's
	workers []*dynamodb.Client // each worker's, with its own connections
	streams *dynamodbstreams.Client
}

// amServer is one emulator served over HTTP, with its TTL sweeper
// running as cmd/dynamoemu runs it (every item's exp is in 2100: it
// deletes none, it only reads the tables meanwhile).
type amServer struct {
	e    *emulator.Emulator
	srv  *emulator.Server
	url  string
	stop context.CancelFunc
	done chan struct{}
}

// amSpaces is how many namespaces (access keys) each run uses at once,
// each with its own controller, workers and tables of the same names.
const amSpaces = 2

// amSpace is one namespace's model in a run.
type amSpace struct {
	r       *amRun
	ctl     *amController
	workers []*amWorker
}

func runAPIModel(t *testing.T, m amMode) {
	var fails atomic.Int32
	spaces := make([]*amSpace, amSpaces)
	for i := range spaces {
		r := &amRun{t: t, mode: m, ctx: context.Background(), hist: make([]amEvent, 2000), key: fmt.Sprintf("AKIAMODEL%d", i), fails: &fails}
		for j := range r.slots {
			s := &amSlot{name: fmt.Sprintf("model%d", j)}
			s.exist.Store(&amExist{phase: amAbsent})
			s.def.Store(&amDef{})
			r.slots[j] = s
		}
		seed := m.seed + uint64(i)<<40
		sp := &amSpace{r: r, ctl: &amController{r: r, rng: rand.New(rand.NewPCG(seed, 0))}}
		for w := range amWorkers {
			sp.workers = append(sp.workers, &amWorker{r: r, id: w, rng: rand.New(rand.NewPCG(seed, uint64(w)+1)), tables: map[string]*amWorkerTable{}})
		}
		spaces[i] = sp
	}
	var dir string
	if m.persist {
		dir = t.TempDir()
	}
	opts := emulator.Options{DataDir: dir, DelayTransientStatuses: m.delay > 0, TransientStatusDelay: m.delay}
	if m.persist {
		opts.Persist.Durability = emulator.DurabilityNone // the restarts close the store: nothing is lost
		opts.Persist.CompactBytes = 64 << 10              // the log folded often, while requests run
	}
	perRound := int64(m.ops / m.rounds / amSpaces)
	for round := range m.rounds {
		srv := amStart(t, opts)
		var wg sync.WaitGroup
		for _, sp := range spaces {
			r := sp.r
			r.client.Store(amClientsFor(srv.url, m.seed+uint64(round), r.key))
			r.left.Store(perRound)
			wg.Go(func() {
				if round > 0 {
					sp.ctl.verifyAll(sp.workers) // what the restart kept: all of it
				}
				var inner sync.WaitGroup
				for _, w := range sp.workers {
					inner.Go(w.run)
				}
				inner.Go(sp.ctl.run)
				inner.Wait()
			})
		}
		wg.Wait()
		for _, sp := range spaces {
			sp.ctl.settle()
			sp.ctl.verifyAll(sp.workers)
		}
		amStop(t, srv)
		if fails.Load() > 0 {
			break
		}
	}
	for _, sp := range spaces {
		t.Logf("%s, %s: %d operations answered, %d tables created", m.name, sp.r.key, sp.r.done.Load(), sp.ctl.created)
	}
}

func amStart(t *testing.T, opts emulator.Options) *amServer {
	t.Helper()
	e, err := emulator.New(opts)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := e.NewServer(emulator.ServerOptions{Loop: emulator.HTTPLoop(os.Getenv("DYNAMOEMU_HTTP_LOOP"))})
	go func() { _ = srv.Serve(ln) }()
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.Clock().RunTTLSweeper(ctx, 2*time.Millisecond)
	}()
	return &amServer{e: e, srv: srv, url: "http://" + ln.Addr().String(), stop: stop, done: done}
}

func amStop(t *testing.T, s *amServer) {
	t.Helper()
	s.stop()
	<-s.done
	require.NoError(t, s.srv.Close())
	s.e.Close()
}

func amClientsFor(url string, seed uint64, key string) *amClients {
	creds := credentials.NewStaticCredentialsProvider(key, "secret", "")
	client := func(split bool, i uint64) (*dynamodb.Client, *http.Client) {
		tr := &http.Transport{MaxIdleConnsPerHost: 2}
		if split {
			var conns atomic.Uint64
			d := &net.Dialer{}
			tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := d.DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return &amSplitConn{Conn: c, rng: rand.New(rand.NewPCG(seed, i<<32|conns.Add(1)))}, nil
			}
		}
		hc := &http.Client{Transport: tr}
		return dynamodb.New(dynamodb.Options{Region: emulatortest.Region, BaseEndpoint: aws.String(url), Credentials: creds,
			HTTPClient: hc, Retryer: emulatortest.ConnectionRetryer()}), hc
	}
	db, hc := client(false, 0)
	out := &amClients{db: db, streams: dynamodbstreams.New(dynamodbstreams.Options{Region: emulatortest.Region, BaseEndpoint: aws.String(url),
		Credentials: creds, HTTPClient: hc, Retryer: emulatortest.ConnectionRetryer()})}
	for w := range amWorkers {
		c, _ := client(w%2 == 1, uint64(w)+1)
		out.workers = append(out.workers, c)
	}
	return out
}

// amSplitConn writes some requests in pieces, a little apart, as clients
// whose HTTP layer writes the head and the body, or parts of the head,
// separately do: the server then reads a head over several reads.
type amSplitConn struct {
	net.Conn
	rng *rand.Rand
}

func (c *amSplitConn) Write(b []byte) (int, error) {
	if len(b) < 2 || c.rng.IntN(3) > 0 {
		return c.Conn.Write(b)
	}
	n := 0
	for len(b) > 0 {
		cut := 1 + c.rng.IntN(len(b))
		m, err := c.Conn.Write(b[:cut])
		n += m
		if err != nil {
			return n, err
		}
		b = b[cut:]
		time.Sleep(time.Duration(c.rng.IntN(50)) * time.Microsecond)
	}
	return n, nil
}

func (r *amRun) db() *dynamodb.Client { return r.client.Load().db }

// isRestored reports whether generation gen is a table restored from a
// backup (the controller says so before it asks for it).
func (r *amRun) isRestored(gen int) bool {
	_, ok := r.restored.Load(gen)
	return ok
}

// take claims one operation of the budget.
func (r *amRun) take() bool { return r.left.Add(-1) >= 0 && r.fails.Load() == 0 }

// note records an event for the failure reports.
func (r *amRun) note(who, format string, args ...any) {
	r.histMu.Lock()
	r.hist[r.histAt%len(r.hist)] = amEvent{at: time.Now(), who: who, msg: fmt.Sprintf(format, args...)}
	r.histAt++
	r.histMu.Unlock()
}

// fail reports an answer the model does not explain, with the events
// before it that name a table the message names.
func (r *amRun) fail(who, format string, args ...any) {
	if r.fails.Add(1) > 3 {
		return
	}
	msg := fmt.Sprintf(format, args...)
	r.histMu.Lock()
	var lines []string
	for i := range len(r.hist) {
		e := r.hist[(r.histAt+i)%len(r.hist)]
		if e.who == "" || !slices.ContainsFunc(r.slots[:], func(s *amSlot) bool {
			return strings.Contains(msg, s.name) && strings.Contains(e.msg, s.name+" ")
		}) {
			continue
		}
		lines = append(lines, fmt.Sprintf("  %s %-8s %s\n", e.at.Format("15:04:05.000000"), e.who, e.msg))
	}
	r.histMu.Unlock()
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	r.t.Errorf("%s, %s: %s: %s\nthe events on its table before it:\n%s", r.mode.name, r.key, who, msg, strings.Join(lines, ""))
}

// amCode is the error code of err ("" for none).
func amCode(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	if err != nil {
		return "error: " + err.Error()
	}
	return ""
}

const amNotFound = "ResourceNotFoundException"

// ---- the controller ----

// amController runs the control plane and keeps the tables' model.
type amController struct {
	r       *amRun
	rng     *rand.Rand
	created int
	gen     int
}

func (c *amController) run() {
	r := c.r
	for r.take() {
		s := r.slots[c.rng.IntN(amSlots)]
		c.step(s)
		r.done.Add(1)
		// The workers run meanwhile: about one control operation for
		// every few data-plane ones.
		time.Sleep(time.Duration(c.rng.IntN(400)) * time.Microsecond)
	}
}

func (c *amController) step(s *amSlot) {
	e := s.exist.Load()
	switch e.phase {
	case amAbsent:
		switch c.rng.IntN(4) {
		case 0:
			c.describeGone(s)
		case 1:
			c.listTables()
		default:
			c.create(s)
		}
	case amActive:
		switch k := c.rng.IntN(22); {
		case k < 3:
			c.delete(s)
		case k < 7:
			c.gsiChange(s)
		case k < 9:
			c.streamChange(s)
		case k < 11:
			c.ttlChange(s)
		case k < 13:
			c.tagChange(s)
		case k < 14:
			c.createExisting(s)
		case k < 15:
			c.listTables()
		case k < 16:
			c.readStream(s)
		case k < 17:
			c.backupRestore(s)
		case k < 18:
			c.pitrChange(s)
		case k < 19:
			c.insightsChange(s)
		default:
			c.describe(s)
		}
	}
}

// setExist publishes a new existence state of s.
func (c *amController) setExist(s *amSlot, phase, gen int) {
	s.exist.Store(&amExist{phase: phase, gen: gen})
	c.r.note("control", "%s %s (generation %d)", s.name, amPhaseNames[phase], gen)
}

// editDef publishes a copy of s's definition changed by fn.
func editDef(s *amSlot, fn func(d *amDef)) {
	old := s.def.Load()
	d := *old
	d.gsis = cloneMap(old.gsis)
	d.tags = cloneMap(old.tags)
	fn(&d)
	s.def.Store(&d)
}

func cloneMap[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (c *amController) create(s *amSlot) {
	r := c.r
	c.gen++
	gen := c.gen
	sortKey := c.rng.IntN(3) > 0
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(s.name),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema:   []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
		},
		Tags: []types.Tag{{Key: aws.String("gen"), Value: aws.String(strconv.Itoa(gen))}},
	}
	if sortKey {
		in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange})
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN})
	}
	def := &amDef{gen: gen, sort: sortKey, gsis: map[string]bool{}, tags: map[string]string{"gen": strconv.Itoa(gen)}}
	if sortKey && c.rng.IntN(3) == 0 { // an LSI: only at creation
		in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{IndexName: aws.String("byNL"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("n"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("n"), AttributeType: types.ScalarAttributeTypeN})
		def.lsi = true
	}
	if c.rng.IntN(3) == 0 { // a GSI from the start
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{amGSI("byG")}
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS})
		def.gsis["byG"] = true
	}
	if c.rng.IntN(3) == 0 {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}
	}
	c.setExist(s, amChanging, gen)
	start := time.Now()
	out, err := r.db().CreateTable(r.ctx, in)
	took := time.Since(start)
	if err != nil {
		r.fail("control", "CreateTable %s of a name the model has free: %v", s.name, err)
		return
	}
	c.created++
	if in.StreamSpecification != nil {
		def.stream = aws.ToString(out.TableDescription.LatestStreamArn)
		if def.stream == "" {
			r.fail("control", "CreateTable %s with a stream: no LatestStreamArn", s.name)
		}
	}
	s.def.Store(def)
	// CreateTable's answer says CREATING, as AWS's does, with a delay or
	// without (then the table is ACTIVE from the next request on).
	want := types.TableStatusCreating
	if out.TableDescription.TableStatus != want && (r.mode.delay == 0 || took < r.mode.delay/2) { // CREATING for the delay from the request's arrival

		r.fail("control", "CreateTable %s answered %s, want %s", s.name, out.TableDescription.TableStatus, want)
	}
	if r.mode.delay == 0 {
		c.setExist(s, amActive, gen)
		return
	}
	c.setExist(s, amCreating, gen)
	c.waitActive(s)
	c.setExist(s, amActive, gen)
}

// amGSI is the definition of one of amGSIs.
func amGSI(name string) types.GlobalSecondaryIndex {
	x := types.GlobalSecondaryIndex{IndexName: aws.String(name),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
	if name == "byGN" {
		x.KeySchema = append(x.KeySchema, types.KeySchemaElement{AttributeName: aws.String("n"), KeyType: types.KeyTypeRange})
	}
	return x
}

// waitActive polls DescribeTable until s and its indexes are ACTIVE, and
// checks the definition.
func (c *amController) waitActive(s *amSlot) {
	r := c.r
	for try := 0; ; try++ {
		out, err := r.db().DescribeTable(r.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.name)})
		if err != nil {
			r.fail("control", "DescribeTable %s while it settles: %v", s.name, err)
			return
		}
		d := out.Table
		settled := d.TableStatus == types.TableStatusActive
		for _, g := range d.GlobalSecondaryIndexes {
			settled = settled && g.IndexStatus == types.IndexStatusActive
		}
		if settled {
			c.checkDescription(s, d)
			return
		}
		if try > 2000 {
			r.fail("control", "%s not ACTIVE after %d DescribeTable: %s", s.name, try, d.TableStatus)
			return
		}
		time.Sleep(r.mode.delay / 5)
	}
}

// checkDescription compares DescribeTable's answer with the model.
func (c *amController) checkDescription(s *amSlot, d *types.TableDescription) {
	r := c.r
	def := s.def.Load()
	var gsis []string
	for _, g := range d.GlobalSecondaryIndexes {
		gsis = append(gsis, aws.ToString(g.IndexName))
	}
	slices.Sort(gsis)
	var want []string
	for g := range def.gsis {
		want = append(want, g)
	}
	slices.Sort(want)
	if !slices.Equal(gsis, want) {
		r.fail("control", "DescribeTable %s: GSIs %v, the model has %v", s.name, gsis, want)
	}
	if got := len(d.LocalSecondaryIndexes) == 1; got != def.lsi {
		r.fail("control", "DescribeTable %s: LSI %v, the model %v", s.name, got, def.lsi)
	}
	if got := len(d.KeySchema) == 2; got != def.sort {
		r.fail("control", "DescribeTable %s: sort key %v, the model %v", s.name, got, def.sort)
	}
	on := d.StreamSpecification != nil && aws.ToBool(d.StreamSpecification.StreamEnabled)
	if on != (def.stream != "") || on && aws.ToString(d.LatestStreamArn) != def.stream {
		r.fail("control", "DescribeTable %s: stream %v %s, the model %q", s.name, on, aws.ToString(d.LatestStreamArn), def.stream)
	}
}

func (c *amController) describe(s *amSlot) {
	r := c.r
	out, err := r.db().DescribeTable(r.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.name)})
	if err != nil {
		r.fail("control", "DescribeTable %s, ACTIVE in the model: %v", s.name, err)
		return
	}
	if out.Table.TableStatus != types.TableStatusActive {
		r.fail("control", "DescribeTable %s: %s, ACTIVE in the model", s.name, out.Table.TableStatus)
	}
	c.checkDescription(s, out.Table)
	tl, err := r.db().DescribeTimeToLive(r.ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(s.name)})
	if err != nil {
		r.fail("control", "DescribeTimeToLive %s: %v", s.name, err)
		return
	}
	def := s.def.Load()
	got := ""
	if tl.TimeToLiveDescription.TimeToLiveStatus == types.TimeToLiveStatusEnabled {
		got = aws.ToString(tl.TimeToLiveDescription.AttributeName)
	}
	if got != def.ttl {
		r.fail("control", "DescribeTimeToLive %s: %q, the model %q", s.name, got, def.ttl)
	}
	cb, err := r.db().DescribeContinuousBackups(r.ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String(s.name)})
	if err != nil {
		r.fail("control", "DescribeContinuousBackups %s: %v", s.name, err)
		return
	}
	if got := cb.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus == types.PointInTimeRecoveryStatusEnabled; got != def.pitr {
		r.fail("control", "DescribeContinuousBackups %s: point-in-time recovery %v, the model %v", s.name, got, def.pitr)
	}
	ci, err := r.db().DescribeContributorInsights(r.ctx, &dynamodb.DescribeContributorInsightsInput{TableName: aws.String(s.name)})
	if err != nil {
		r.fail("control", "DescribeContributorInsights %s: %v", s.name, err)
		return
	}
	if got := ci.ContributorInsightsStatus == types.ContributorInsightsStatusEnabled; got != def.insights {
		r.fail("control", "DescribeContributorInsights %s: %s, the model %v", s.name, ci.ContributorInsightsStatus, def.insights)
	}
	tags, err := r.db().ListTagsOfResource(r.ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: out.Table.TableArn})
	if err != nil {
		r.fail("control", "ListTagsOfResource %s: %v", s.name, err)
		return
	}
	gotTags := map[string]string{}
	for _, tg := range tags.Tags {
		gotTags[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	if fmt.Sprint(gotTags) != fmt.Sprint(def.tags) {
		r.fail("control", "ListTagsOfResource %s: %v, the model %v", s.name, gotTags, def.tags)
	}
}

// describeGone checks that a table the model has gone is not found.
func (c *amController) describeGone(s *amSlot) {
	r := c.r
	_, err := r.db().DescribeTable(r.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.name)})
	if amCode(err) != amNotFound {
		r.fail("control", "DescribeTable %s, gone in the model: %v", s.name, err)
	}
	_, err = r.db().DeleteTable(r.ctx, &dynamodb.DeleteTableInput{TableName: aws.String(s.name)})
	if amCode(err) != amNotFound {
		r.fail("control", "DeleteTable %s, gone in the model: %v", s.name, err)
	}
}

func (c *amController) createExisting(s *amSlot) {
	_, err := c.r.db().CreateTable(c.r.ctx, amPlainTable(s.name))
	if amCode(err) != "ResourceInUseException" {
		c.r.fail("control", "CreateTable %s, which exists: %v", s.name, err)
	}
}

// amPlainTable is a CreateTable of a table keyed by pk alone, nothing more.
func amPlainTable(name string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}}}
}

// listTables checks that ListTables lists exactly the model's tables
// among its names (a table DELETING is still listed).
func (c *amController) listTables() {
	r := c.r
	var names []string
	p := dynamodb.NewListTablesPaginator(r.db(), &dynamodb.ListTablesInput{Limit: aws.Int32(3)})
	for p.HasMorePages() {
		out, err := p.NextPage(r.ctx)
		if err != nil {
			r.fail("control", "ListTables: %v", err)
			return
		}
		names = append(names, out.TableNames...)
	}
	var want []string
	for _, s := range r.slots {
		if s.exist.Load().phase != amAbsent {
			want = append(want, s.name)
		}
	}
	if !slices.Equal(names, want) {
		r.fail("control", "ListTables: %v, the model %v", names, want)
	}
}

func (c *amController) delete(s *amSlot) {
	r := c.r
	gen := s.exist.Load().gen
	c.setExist(s, amChanging, gen)
	start := time.Now()
	out, err := r.db().DeleteTable(r.ctx, &dynamodb.DeleteTableInput{TableName: aws.String(s.name)})
	if err != nil {
		r.fail("control", "DeleteTable %s, ACTIVE in the model: %v", s.name, err)
		return
	}
	if out.TableDescription.TableStatus != types.TableStatusDeleting {
		r.fail("control", "DeleteTable %s answered %s", s.name, out.TableDescription.TableStatus)
	}
	if r.mode.delay == 0 {
		c.setExist(s, amAbsent, gen)
		return
	}
	c.setExist(s, amDeleting, gen)
	if c.waitGone(s, start) {
		return
	}
	c.setExist(s, amAbsent, gen)
}

// waitGone polls DescribeTable until s is gone; meanwhile it must be
// DELETING and a CreateTable of its name refused. The deletion ends the
// transient delay after DeleteTable's request arrived, some time after
// start: a CreateTable that ends before start plus the delay must be
// refused, a later one may be served. It returns true when one was, the
// table created again (with createExisting's definition) and ACTIVE.
func (c *amController) waitGone(s *amSlot, start time.Time) bool {
	r := c.r
	for try := 0; ; try++ {
		out, err := r.db().DescribeTable(r.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.name)})
		if amCode(err) == amNotFound {
			return false
		}
		if err != nil || out.Table.TableStatus != types.TableStatusDeleting {
			r.fail("control", "DescribeTable %s while DELETING: %v %v", s.name, err, out)
			return false
		}
		if try%4 == 0 {
			c.gen++
			gen := c.gen
			c.setExist(s, amChanging, gen)
			out, err := r.db().CreateTable(r.ctx, amPlainTable(s.name))
			switch {
			case amCode(err) == "ResourceInUseException":
				c.setExist(s, amDeleting, s.def.Load().gen)
			case err == nil && time.Since(start) >= r.mode.delay:
				// Served after the deletion ended: a new table.
				c.created++
				s.def.Store(&amDef{gen: gen, gsis: map[string]bool{}, tags: map[string]string{}})
				c.setExist(s, amCreating, gen)
				if out.TableDescription.TableStatus == types.TableStatusActive {
					c.setExist(s, amActive, gen)
				}
				c.waitActive(s)
				c.setExist(s, amActive, gen)
				return true
			default:
				r.fail("control", "CreateTable %s while DELETING (%v after DeleteTable): %v", s.name, time.Since(start), err)
				return false
			}
		}
		if try > 2000 {
			r.fail("control", "%s still DELETING after %d DescribeTable", s.name, try)
			return false
		}
		time.Sleep(r.mode.delay / 5)
	}
}

// gsiChange adds a GSI the table lacks or deletes one it has.
func (c *amController) gsiChange(s *amSlot) {
	r := c.r
	def := s.def.Load()
	name := amGSIs[c.rng.IntN(len(amGSIs))]
	in := &dynamodb.UpdateTableInput{TableName: aws.String(s.name)}
	_, has := def.gsis[name]
	if has {
		in.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String(name)}}}
	} else {
		x := amGSI(name)
		in.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: x.IndexName, KeySchema: x.KeySchema, Projection: x.Projection}}}
		in.AttributeDefinitions = []types.AttributeDefinition{{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}}
		if name == "byGN" {
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("n"), AttributeType: types.ScalarAttributeTypeN})
		}
	}
	editDef(s, func(d *amDef) {
		d.changing = true
		if _, ok := d.gsis[name]; ok || !has {
			d.gsis[name] = false
		}
	})
	r.note("control", "UpdateTable %s: %s GSI %s", s.name, map[bool]string{true: "delete", false: "create"}[has], name)
	_, err := r.db().UpdateTable(r.ctx, in)
	if err != nil {
		r.fail("control", "UpdateTable %s (GSI %s): %v", s.name, name, err)
		return
	}
	if r.mode.delay > 0 {
		editDef(s, func(d *amDef) {
			if has {
				delete(d.gsis, name) // DELETING: described until gone
			}
		})
		c.waitIndexes(s, name, has)
	}
	editDef(s, func(d *amDef) {
		d.changing = false
		if has {
			delete(d.gsis, name)
		} else {
			d.gsis[name] = true
		}
	})
	r.note("control", "UpdateTable %s: GSI %s settled", s.name, name)
}

// waitIndexes polls DescribeTable until the index change on name is over.
func (c *amController) waitIndexes(s *amSlot, name string, deleted bool) {
	r := c.r
	for try := 0; ; try++ {
		out, err := r.db().DescribeTable(r.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.name)})
		if err != nil {
			r.fail("control", "DescribeTable %s while its GSI %s changes: %v", s.name, name, err)
			return
		}
		i := slices.IndexFunc(out.Table.GlobalSecondaryIndexes, func(g types.GlobalSecondaryIndexDescription) bool { return aws.ToString(g.IndexName) == name })
		if deleted && i < 0 || !deleted && i >= 0 && out.Table.GlobalSecondaryIndexes[i].IndexStatus == types.IndexStatusActive {
			return
		}
		if try > 2000 {
			r.fail("control", "%s: GSI %s still changing after %d DescribeTable", s.name, name, try)
			return
		}
		time.Sleep(r.mode.delay / 5)
	}
}

// streamChange turns the table's stream on or off; turning on one that
// is on is refused.
func (c *amController) streamChange(s *amSlot) {
	r := c.r
	def := s.def.Load()
	on := def.stream != ""
	enable := !on || c.rng.IntN(4) == 0
	spec := &types.StreamSpecification{StreamEnabled: aws.Bool(enable)}
	if enable {
		spec.StreamViewType = types.StreamViewTypeNewAndOldImages
	}
	out, err := r.db().UpdateTable(r.ctx, &dynamodb.UpdateTableInput{TableName: aws.String(s.name), StreamSpecification: spec})
	if enable && on {
		if amCode(err) != "ValidationException" {
			r.fail("control", "UpdateTable %s enabling a stream that is on: %v", s.name, err)
		}
		return
	}
	if err != nil {
		r.fail("control", "UpdateTable %s stream %v: %v", s.name, enable, err)
		return
	}
	arn := ""
	if enable {
		arn = aws.ToString(out.TableDescription.LatestStreamArn)
		if arn == "" || arn == def.stream {
			r.fail("control", "UpdateTable %s enabled a stream: LatestStreamArn %q", s.name, arn)
		}
	}
	editDef(s, func(d *amDef) { d.stream = arn })
	r.note("control", "UpdateTable %s: stream %v", s.name, enable)
}

// ttlChange enables TTL on exp or disables it, as the emulator takes it
// (AWS also refuses a second change within an hour, which the emulator
// does not model).
func (c *amController) ttlChange(s *amSlot) {
	r := c.r
	def := s.def.Load()
	enable := def.ttl == "" || c.rng.IntN(5) == 0
	_, err := r.db().UpdateTimeToLive(r.ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(s.name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(enable), AttributeName: aws.String("exp")}})
	if enable && def.ttl != "" {
		if amCode(err) != "ValidationException" {
			r.fail("control", "UpdateTimeToLive %s enabling it again: %v", s.name, err)
		}
		return
	}
	if err != nil {
		r.fail("control", "UpdateTimeToLive %s %v: %v", s.name, enable, err)
		return
	}
	editDef(s, func(d *amDef) {
		d.ttl = ""
		if enable {
			d.ttl = "exp"
		}
	})
}

// tagChange tags or untags the table.
func (c *amController) tagChange(s *amSlot) {
	r := c.r
	arn := "arn:aws:dynamodb:" + emulatortest.Region + ":000000000000:table/" + s.name
	key := "k" + strconv.Itoa(c.rng.IntN(3))
	if c.rng.IntN(2) == 0 {
		val := "v" + strconv.Itoa(c.rng.IntN(100))
		_, err := r.db().TagResource(r.ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: []types.Tag{{Key: aws.String(key), Value: aws.String(val)}}})
		if err != nil {
			r.fail("control", "TagResource %s: %v", s.name, err)
			return
		}
		editDef(s, func(d *amDef) { d.tags[key] = val })
		return
	}
	_, err := r.db().UntagResource(r.ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: []string{key}})
	if err != nil {
		r.fail("control", "UntagResource %s: %v", s.name, err)
		return
	}
	editDef(s, func(d *amDef) { delete(d.tags, key) })
}

// readStream reads the table's stream from its trim horizon and checks
// that each worker's writes appear in each shard in the order it made
// them (its writes carry a version that only grows).
func (c *amController) readStream(s *amSlot) {
	r := c.r
	arn := s.def.Load().stream
	if arn == "" {
		return
	}
	sc := r.client.Load().streams
	d, err := sc.DescribeStream(r.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		r.fail("control", "DescribeStream %s: %v", s.name, err)
		return
	}
	for _, sh := range d.StreamDescription.Shards {
		it, err := sc.GetShardIterator(r.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: sh.ShardId,
			ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
		if err != nil {
			r.fail("control", "GetShardIterator %s: %v", s.name, err)
			return
		}
		last := map[string]int{}
		iter := it.ShardIterator
		for range 50 {
			if iter == nil {
				break
			}
			out, err := sc.GetRecords(r.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
			if err != nil {
				r.fail("control", "GetRecords %s: %v", s.name, err)
				return
			}
			for _, rec := range out.Records {
				img := rec.Dynamodb.NewImage
				if img == nil {
					continue
				}
				w, _ := img["w"].(*stypes.AttributeValueMemberS)
				v, _ := img["ver"].(*stypes.AttributeValueMemberN)
				if w == nil || v == nil {
					r.fail("control", "%s: a stream record without w or ver: %v", s.name, img)
					return
				}
				ver, _ := strconv.Atoi(v.Value)
				if ver < last[w.Value] {
					r.fail("control", "%s: stream shard %s: worker %s's version %d after %d", s.name, aws.ToString(sh.ShardId), w.Value, ver, last[w.Value])
					return
				}
				last[w.Value] = ver
			}
			if len(out.Records) == 0 {
				break
			}
			iter = out.NextShardIterator
		}
	}
}

// backupRestore backs s up and restores the backup under the name of a
// slot with no table: the restored table has s's keys and indexes, no
// stream, TTL, tags, point-in-time recovery or contributor insights
// (API_RestoreTableFromBackup; the developer guide's "Restoring a
// DynamoDB table from a backup": those are set up again by hand), and
// items no worker knows yet.
func (c *amController) backupRestore(s *amSlot) {
	r := c.r
	src := s.def.Load()
	b, err := r.db().CreateBackup(r.ctx, &dynamodb.CreateBackupInput{TableName: aws.String(s.name), BackupName: aws.String("backup" + strconv.Itoa(c.gen))})
	if err != nil {
		r.fail("control", "CreateBackup %s: %v", s.name, err)
		return
	}
	arn := b.BackupDetails.BackupArn
	for try := 0; b.BackupDetails.BackupStatus != types.BackupStatusAvailable; try++ {
		d, err := r.db().DescribeBackup(r.ctx, &dynamodb.DescribeBackupInput{BackupArn: arn})
		if err != nil || try > 2000 {
			r.fail("control", "DescribeBackup of %s: %v", s.name, err)
			return
		}
		b.BackupDetails.BackupStatus = d.BackupDescription.BackupDetails.BackupStatus
		time.Sleep(time.Millisecond)
	}
	defer func() {
		if _, err := r.db().DeleteBackup(r.ctx, &dynamodb.DeleteBackupInput{BackupArn: arn}); err != nil {
			r.fail("control", "DeleteBackup of %s: %v", s.name, err)
		}
	}()
	var to *amSlot
	for _, d := range r.slots {
		if d.exist.Load().phase == amAbsent {
			to = d
			break
		}
	}
	if to == nil {
		return
	}
	c.gen++
	gen := c.gen
	r.restored.Store(gen, true)
	c.setExist(to, amChanging, gen)
	out, err := r.db().RestoreTableFromBackup(r.ctx, &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String(to.name), BackupArn: arn})
	if err != nil {
		r.fail("control", "RestoreTableFromBackup of %s to %s: %v", s.name, to.name, err)
		return
	}
	c.created++
	gsis := map[string]bool{}
	for g := range src.gsis {
		gsis[g] = true
	}
	to.def.Store(&amDef{gen: gen, sort: src.sort, lsi: src.lsi, gsis: gsis, tags: map[string]string{}, restored: true})
	r.note("control", "%s restored from a backup of %s (generation %d)", to.name, s.name, gen)
	if r.mode.delay == 0 && out.TableDescription.TableStatus == types.TableStatusActive {
		c.setExist(to, amActive, gen)
		return
	}
	c.setExist(to, amCreating, gen)
	c.waitActive(to)
	c.setExist(to, amActive, gen)
}

// pitrChange turns point-in-time recovery on or off.
func (c *amController) pitrChange(s *amSlot) {
	r := c.r
	on := !s.def.Load().pitr
	out, err := r.db().UpdateContinuousBackups(r.ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String(s.name),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(on)}})
	if err != nil {
		r.fail("control", "UpdateContinuousBackups %s %v: %v", s.name, on, err)
		return
	}
	want := map[bool]types.PointInTimeRecoveryStatus{true: types.PointInTimeRecoveryStatusEnabled, false: types.PointInTimeRecoveryStatusDisabled}[on]
	if got := out.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus; got != want {
		r.fail("control", "UpdateContinuousBackups %s %v: %s", s.name, on, got)
	}
	editDef(s, func(d *amDef) { d.pitr = on })
}

// insightsChange turns contributor insights on or off (ENABLING or
// DISABLING for the transient delay).
func (c *amController) insightsChange(s *amSlot) {
	r := c.r
	on := !s.def.Load().insights
	action := map[bool]types.ContributorInsightsAction{true: types.ContributorInsightsActionEnable, false: types.ContributorInsightsActionDisable}[on]
	if _, err := r.db().UpdateContributorInsights(r.ctx, &dynamodb.UpdateContributorInsightsInput{TableName: aws.String(s.name), ContributorInsightsAction: action}); err != nil {
		r.fail("control", "UpdateContributorInsights %s %v: %v", s.name, on, err)
		return
	}
	editDef(s, func(d *amDef) { d.insights = on })
	for try := 0; ; try++ {
		out, err := r.db().DescribeContributorInsights(r.ctx, &dynamodb.DescribeContributorInsightsInput{TableName: aws.String(s.name)})
		if err != nil {
			r.fail("control", "DescribeContributorInsights %s: %v", s.name, err)
			return
		}
		st := out.ContributorInsightsStatus
		if on && st == types.ContributorInsightsStatusEnabled || !on && st == types.ContributorInsightsStatusDisabled {
			return
		}
		if st != types.ContributorInsightsStatusEnabling && st != types.ContributorInsightsStatusDisabling || try > 2000 {
			r.fail("control", "DescribeContributorInsights %s after turning it %v: %s", s.name, on, st)
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// settle waits for nothing under way: the controller leaves every
// change settled when it stops, so this only checks it.
func (c *amController) settle() {
	for _, s := range c.r.slots {
		if p := s.exist.Load().phase; p != amAbsent && p != amActive {
			c.r.fail("control", "%s left %s", s.name, amPhaseNames[p])
		}
	}
}

// verifyAll checks every table and every worker's known items, with no
// other request running: after a round, and after a restart.
func (c *amController) verifyAll(workers []*amWorker) {
	r := c.r
	c.listTables()
	for _, s := range r.slots {
		if s.exist.Load().phase != amActive {
			c.describeGone(s)
			continue
		}
		c.describe(s)
		for _, w := range workers {
			w.verifyTable(s)
		}
	}
}

// ---- the workers ----

// amWorker runs data-plane operations on its own keys.
type amWorker struct {
	r      *amRun
	id     int
	rng    *rand.Rand
	ver    int
	tables map[string]*amWorkerTable // by table name
}

func (w *amWorker) who() string { return "worker" + strconv.Itoa(w.id) }

// db is the worker's client.
func (w *amWorker) db() *dynamodb.Client { return w.r.client.Load().workers[w.id] }

// consistent is a read's ConsistentRead: true, false or absent. The
// emulator's eventually consistent reads see every write at once (no lag
// configured), so the model checks them as strongly consistent ones.
func (w *amWorker) consistent() *bool {
	switch w.rng.IntN(3) {
	case 0:
		return aws.Bool(true)
	case 1:
		return aws.Bool(false)
	}
	return nil
}

// tableName is a request's TableName for s: its name, or its ARN.
func (w *amWorker) tableName(s *amSlot) *string {
	if w.rng.IntN(5) == 0 {
		return aws.String("arn:aws:dynamodb:" + emulatortest.Region + ":000000000000:table/" + s.name)
	}
	return aws.String(s.name)
}

// trace names a change of the model by the operation that made it.
func (w *amWorker) trace(op string) string { return fmt.Sprintf("%s (ver %d)", op, w.ver) }

func (w *amWorker) run() {
	r := w.r
	for r.take() {
		s := r.slots[w.rng.IntN(amSlots)]
		if s.def.Load().gen == 0 { // never created: nothing to ask yet
			r.left.Add(1)
			time.Sleep(100 * time.Microsecond)
			continue
		}
		w.step(s)
		r.done.Add(1)
	}
}

// model returns the worker's model of s for generation gen: a new,
// empty one when the table was created again since.
func (w *amWorker) model(s *amSlot, gen int) *amWorkerTable {
	m := w.tables[s.name]
	if m != nil && m.gen != gen {
		w.r.note(w.who(), "%s model from generation %d to %d", s.name, m.gen, gen)
	}
	if m == nil || m.gen != gen {
		m = &amWorkerTable{gen: gen, items: map[string]*amItem{}, trail: map[string][]string{}, rest: w.r.isRestored(gen)}
		w.tables[s.name] = m
	}
	return m
}

// key returns one of the worker's keys in a table of definition def:
// pk, sk (sk -1 without a sort key), and the model's key.
func (w *amWorker) key(def *amDef) (string, int, string) {
	if def.sort {
		pk := fmt.Sprintf("w%d-p%d", w.id, w.rng.IntN(3))
		sk := w.rng.IntN(5)
		return pk, sk, pk + "|" + strconv.Itoa(sk)
	}
	pk := fmt.Sprintf("w%d-p%d", w.id, w.rng.IntN(8))
	return pk, -1, pk + "|"
}

func amKeyAV(pk string, sk int) map[string]types.AttributeValue {
	k := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}
	if sk >= 0 {
		k["sk"] = &types.AttributeValueMemberN{Value: strconv.Itoa(sk)}
	}
	return k
}

// amOp is what a worker knows around one request to one table.
type amOp struct {
	key    string // the item's key, for the history
	s      *amSlot
	e0, e1 *amExist
	def    *amDef
}

// stable reports whether the table's existence did not change during the
// request, and in which phase it was.
func (o *amOp) stable() (int, bool) { return o.e0.phase, o.e0 == o.e1 }

// checkFound checks err's ResourceNotFoundException against the table's
// existence; it returns whether the answer is to be checked further
// (the table surely there and the request answered).
func (w *amWorker) checkFound(o *amOp, op string, err error) bool {
	phase, stable := o.stable()
	code := amCode(err)
	w.r.note(w.who(), "%s %s %s (%s, generation %d, stable %v): %s", op, o.s.name, o.key, amPhaseNames[phase], o.e0.gen, stable, cmp.Or(code, "200"))
	switch {
	case !stable || phase == amChanging || phase == amCreating:
		return false // either answer
	case phase == amActive && code == amNotFound:
		w.r.fail(w.who(), "%s on %s answered ResourceNotFoundException, though the table was ACTIVE (generation %d) before the request and after it", op, o.s.name, o.e0.gen)
		return false
	case (phase == amAbsent || phase == amDeleting) && code != amNotFound:
		w.r.fail(w.who(), "%s on %s answered %v, though the table was %s before the request and after it", op, o.s.name, cmp.Or(code, "200"), amPhaseNames[phase])
		return false
	}
	return phase == amActive
}

func (w *amWorker) begin(s *amSlot) *amOp {
	return &amOp{s: s, e0: s.exist.Load(), def: s.def.Load()}
}

func (w *amWorker) end(o *amOp) { o.e1 = o.s.exist.Load() }

// written notes a write the model cannot tell the outcome of (the table
// was not surely there, or changed meanwhile): unless it was refused as
// ResourceNotFoundException, every key of its partitions is unknown. The
// key was made for the definition the worker saw; a table created
// meanwhile may have the other key schema, and take sk as a plain
// attribute.
func (w *amWorker) written(o *amOp, keys []string, err error) {
	if o.e1.phase == amAbsent || o.e1.phase == amDeleting || amCode(err) == amNotFound {
		return // whatever it did went with the table, or it did nothing
	}
	m := w.model(o.s, o.e1.gen)
	for _, k := range keys {
		pk, _, _ := strings.Cut(k, "|")
		m.set(pk+"|", &amItem{known: false}, w.trace("written"))
		for sk := range 5 {
			m.set(pk+"|"+strconv.Itoa(sk), &amItem{known: false}, w.trace("written"))
		}
	}
}

func (w *amWorker) step(s *amSlot) {
	switch k := w.rng.IntN(23); {
	case k < 4:
		w.put(s)
	case k < 7:
		w.update(s)
	case k < 8:
		w.deleteItem(s)
	case k < 11:
		w.get(s)
	case k < 12:
		w.batchGet(s)
	case k < 13:
		w.batchWrite(s)
	case k < 15:
		w.query(s)
	case k < 16:
		w.queryGSI(s)
	case k < 17:
		w.scan(s)
	case k < 18:
		w.transactWrite(s)
	case k < 19:
		w.transactGet(s)
	case k < 20:
		w.queryLSI(s)
	case k < 22:
		w.partiQL(s)
	default:
		w.describe(s)
	}
}

// newItem is a random item of the worker for key pk, sk.
func (w *amWorker) newItem(pk string, sk int) (map[string]types.AttributeValue, *amItem) {
	w.ver++
	it := &amItem{known: true, present: true, n: w.rng.IntN(5), ver: w.ver, data: strconv.Itoa(w.rng.IntN(1000))}
	av := amKeyAV(pk, sk)
	av["w"] = &types.AttributeValueMemberS{Value: strconv.Itoa(w.id)}
	av["n"] = &types.AttributeValueMemberN{Value: strconv.Itoa(it.n)}
	av["ver"] = &types.AttributeValueMemberN{Value: strconv.Itoa(it.ver)}
	av["data"] = &types.AttributeValueMemberS{Value: it.data}
	av["exp"] = &types.AttributeValueMemberN{Value: "4102444800"} // 2100: never expires
	if w.rng.IntN(3) > 0 {
		it.g = fmt.Sprintf("w%d-g%d", w.id, w.rng.IntN(2))
		av["g"] = &types.AttributeValueMemberS{Value: it.g}
	}
	return av, it
}

// amItemOf is the model's view of an item the emulator answered (nil: none).
func amItemOf(av map[string]types.AttributeValue) *amItem {
	if av == nil {
		return &amItem{known: true}
	}
	it := &amItem{known: true, present: true}
	if g, ok := av["g"].(*types.AttributeValueMemberS); ok {
		it.g = g.Value
	}
	if v, ok := av["n"].(*types.AttributeValueMemberN); ok {
		it.n, _ = strconv.Atoi(v.Value)
	}
	if v, ok := av["ver"].(*types.AttributeValueMemberN); ok {
		it.ver, _ = strconv.Atoi(v.Value)
	}
	if v, ok := av["data"].(*types.AttributeValueMemberS); ok {
		it.data = v.Value
	}
	return it
}

func (it *amItem) String() string {
	if !it.known {
		return "unknown"
	}
	if !it.present {
		return "none"
	}
	return fmt.Sprintf("{g:%q n:%d ver:%d data:%q}", it.g, it.n, it.ver, it.data)
}

// same reports whether got is what the model has (an unknown item is
// anything).
func (it *amItem) same(got *amItem) bool {
	if it == nil {
		it = &amItem{known: true}
	}
	return !it.known || it.String() == got.String()
}

// current is the model's item k, nil for none known.
func (m *amWorkerTable) current(k string) *amItem {
	if it := m.items[k]; it != nil {
		return it
	}
	return &amItem{known: !m.rest}
}

func (w *amWorker) put(s *amSlot) {
	o := w.begin(s)
	if o.def.gen == 0 {
		return
	}
	pk, sk, k := w.key(o.def)
	o.key = k
	av, it := w.newItem(pk, sk)
	in := &dynamodb.PutItemInput{TableName: w.tableName(s), Item: av, ReturnValues: types.ReturnValueAllOld}
	conditional := w.rng.IntN(3) == 0
	if conditional {
		in.ConditionExpression = aws.String("attribute_not_exists(pk)")
	}
	out, err := w.db().PutItem(w.r.ctx, in)
	w.end(o)
	if !w.checkFound(o, "PutItem", err) {
		w.written(o, []string{k}, err)
		return
	}
	m := w.model(s, o.e0.gen)
	old := m.current(k)
	var ccf *types.ConditionalCheckFailedException
	switch {
	case conditional && old.known && old.present:
		if !errors.As(err, &ccf) {
			w.r.fail(w.who(), "PutItem attribute_not_exists on %s %s, present in the model: %v (its changes: %v)", s.name, k, err, m.trail[k])
		}
		return
	case conditional && !old.known && errors.As(err, &ccf):
		m.set(k, &amItem{known: false}, w.trace("put"))
		return
	case err != nil:
		w.r.fail(w.who(), "PutItem %s %s: %v", s.name, k, err)
		return
	}
	if got := amItemOf(out.Attributes); !old.same(got) {
		w.r.fail(w.who(), "PutItem %s %s ALL_OLD %s, the model %s", s.name, k, got, old)
	}
	m.set(k, it, w.trace("put"))
}

func (w *amWorker) update(s *amSlot) {
	o := w.begin(s)
	if o.def.gen == 0 {
		return
	}
	pk, sk, k := w.key(o.def)
	o.key = k
	w.ver++
	data := strconv.Itoa(w.rng.IntN(1000))
	in := &dynamodb.UpdateItemInput{TableName: w.tableName(s), Key: amKeyAV(pk, sk), ReturnValues: types.ReturnValueAllNew,
		UpdateExpression:         aws.String("SET #v = :v, #d = :d, #w = :w ADD #n :one"),
		ExpressionAttributeNames: map[string]string{"#v": "ver", "#d": "data", "#w": "w", "#n": "n"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberN{Value: strconv.Itoa(w.ver)},
			":d": &types.AttributeValueMemberS{Value: data}, ":w": &types.AttributeValueMemberS{Value: strconv.Itoa(w.id)},
			":one": &types.AttributeValueMemberN{Value: "1"}}}
	conditional := w.rng.IntN(2) == 0
	if conditional {
		in.ConditionExpression = aws.String("attribute_exists(pk)")
	}
	out, err := w.db().UpdateItem(w.r.ctx, in)
	w.end(o)
	if !w.checkFound(o, "UpdateItem", err) {
		w.written(o, []string{k}, err)
		return
	}
	m := w.model(s, o.e0.gen)
	old := m.current(k)
	var ccf *types.ConditionalCheckFailedException
	switch {
	case conditional && old.known && !old.present:
		if !errors.As(err, &ccf) {
			w.r.fail(w.who(), "UpdateItem attribute_exists on %s %s, absent in the model: %v (its changes: %v)", s.name, k, err, m.trail[k])
		}
		return
	case conditional && !old.known && errors.As(err, &ccf):
		m.set(k, &amItem{known: true}, w.trace("update"))
		return
	case err != nil:
		w.r.fail(w.who(), "UpdateItem %s %s: %v", s.name, k, err)
		return
	}
	want := &amItem{known: true, present: true, g: old.g, n: old.n + 1, ver: w.ver, data: data}
	if !old.present {
		want.n, want.g = 1, ""
	}
	got := amItemOf(out.Attributes)
	if old.known && got.String() != want.String() {
		w.r.fail(w.who(), "UpdateItem %s %s ALL_NEW %s, the model %s", s.name, k, got, want)
	}
	m.set(k, got, w.trace("update"))
}

func (w *amWorker) deleteItem(s *amSlot) {
	o := w.begin(s)
	if o.def.gen == 0 {
		return
	}
	pk, sk, k := w.key(o.def)
	out, err := w.db().DeleteItem(w.r.ctx, &dynamodb.DeleteItemInput{TableName: w.tableName(s), Key: amKeyAV(pk, sk), ReturnValues: types.ReturnValueAllOld})
	w.end(o)
	if !w.checkFound(o, "DeleteItem", err) {
		w.written(o, []string{k}, err)
		return
	}
	if err != nil {
		w.r.fail(w.who(), "DeleteItem %s %s: %v", s.name, k, err)
		return
	}
	m := w.model(s, o.e0.gen)
	if got, old := amItemOf(out.Attributes), m.current(k); !old.same(got) {
		w.r.fail(w.who(), "DeleteItem %s %s ALL_OLD %s, the model %s", s.name, k, got, old)
	}
	m.set(k, &amItem{known: true}, w.trace("deleteItem"))
}

// read checks a consistent read of key k: got against the model, and an
// unknown item becomes known.
func (w *amWorker) read(o *amOp, op, k string, got *amItem) {
	m := w.model(o.s, o.e0.gen)
	if old := m.current(k); !old.same(got) {
		w.r.fail(w.who(), "%s %s %s: %s, the model %s (its changes: %v)", op, o.s.name, k, got, old, m.trail[k])
	}
	m.set(k, got, w.trace("read"))
}

func (w *amWorker) get(s *amSlot) {
	o := w.begin(s)
	if o.def.gen == 0 {
		return
	}
	pk, sk, k := w.key(o.def)
	out, err := w.db().GetItem(w.r.ctx, &dynamodb.GetItemInput{TableName: w.tableName(s), Key: amKeyAV(pk, sk), ConsistentRead: w.consistent()})
	w.end(o)
	if !w.checkFound(o, "GetItem", err) {
		return
	}
	if err != nil {
		w.r.fail(w.who(), "GetItem %s %s: %v", s.name, k, err)
		return
	}
	w.read(o, "GetItem", k, amItemOf(out.Item))
}

// batchGet reads keys of one or two tables in one BatchGetItem.
func (w *amWorker) batchGet(s *amSlot) {
	ops := []*amOp{w.begin(s)}
	if other := w.r.slots[w.rng.IntN(amSlots)]; other != s {
		ops = append(ops, w.begin(other))
	}
	req := map[string]types.KeysAndAttributes{}
	keys := map[string][]string{}
	for _, o := range ops {
		if o.def.gen == 0 {
			return
		}
		ka := types.KeysAndAttributes{ConsistentRead: w.consistent()}
		seen := map[string]bool{}
		for range 3 {
			pk, sk, k := w.key(o.def)
			if !seen[k] {
				seen[k] = true
				ka.Keys = append(ka.Keys, amKeyAV(pk, sk))
				keys[o.s.name] = append(keys[o.s.name], k)
			}
		}
		req[o.s.name] = ka
	}
	out, err := w.db().BatchGetItem(w.r.ctx, &dynamodb.BatchGetItemInput{RequestItems: req})
	for _, o := range ops {
		w.end(o)
	}
	// Any table missing is ResourceNotFoundException for the whole batch.
	allThere, anyGone, sure := true, false, true
	for _, o := range ops {
		phase, stable := o.stable()
		sure = sure && stable && (phase == amActive || phase == amAbsent || phase == amDeleting)
		allThere = allThere && phase == amActive
		anyGone = anyGone || phase == amAbsent || phase == amDeleting
	}
	code := amCode(err)
	switch {
	case !sure:
		return
	case allThere && code == amNotFound:
		w.r.fail(w.who(), "BatchGetItem on %v answered ResourceNotFoundException, though every table was ACTIVE before the request and after it", slices.Collect(mapsKeys(req)))
		return
	case anyGone && code != amNotFound:
		w.r.fail(w.who(), "BatchGetItem on %v answered %v, though a table was gone before the request and after it", slices.Collect(mapsKeys(req)), cmp.Or(code, "200"))
		return
	case !allThere:
		return
	case err != nil:
		w.r.fail(w.who(), "BatchGetItem: %v", err)
		return
	case len(out.UnprocessedKeys) > 0:
		return // allowed; nothing to check of those
	}
	for _, o := range ops {
		got := map[string]*amItem{}
		for _, av := range out.Responses[o.s.name] {
			got[amModelKey(av, o.def.sort)] = amItemOf(av)
		}
		for _, k := range keys[o.s.name] {
			it := got[k]
			if it == nil {
				it = &amItem{known: true}
			}
			w.read(o, "BatchGetItem", k, it)
		}
	}
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// amModelKey is the model's key of an item the emulator answered, from a
// table with a sort key or not (without one, sk is a plain attribute).
func amModelKey(av map[string]types.AttributeValue, sort bool) string {
	pk := av["pk"].(*types.AttributeValueMemberS).Value
	if sk, ok := av["sk"].(*types.AttributeValueMemberN); ok && sort {
		return pk + "|" + sk.Value
	}
	return pk + "|"
}

func (w *amWorker) batchWrite(s *amSlot) {
	o := w.begin(s)
	if o.def.gen == 0 {
		return
	}
	var reqs []types.WriteRequest
	var keys []string
	puts := map[string]*amItem{}
	w.ver++
	ver := w.ver
	seen := map[string]bool{}
	for range 1 + w.rng.IntN(4) {
		pk, sk, k := w.key(o.def)
		if seen[k] {
			continue
		}
		seen[k] = true
		keys = append(keys, k)
		if w.rng.IntN(4) == 0 {
			reqs = append(reqs, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: amKeyAV(pk, sk)}})
			puts[k] = &amItem{known: true}
			continue
		}
		av, it := w.newItem(pk, sk)
		w.ver--
		it.ver = ver
		av["ver"] = &types.AttributeValueMemberN{Value: strconv.Itoa(ver)}
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: av}})
		puts[k] = it
	}
	out, err := w.db().BatchWriteItem(w.r.ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{s.name: reqs}})
	w.end(o)
	apply := func(m *amWorkerTable) {
		if err != nil {
			return
		}
		for k, it := range puts {
			m.set(k, it, w.trace("batchWrite"))
		}
		for _, un := range out.UnprocessedItems[s.name] { // not written: unknown no more than before
			var k string
			if un.PutRequest != nil {
				k = amModelKey(un.PutRequest.Item, o.def.sort)
			} else {
				k = amModelKey(un.DeleteRequest.Key, o.def.sort)
			}
			m.set(k, &amItem{known: false}, w.trace("batchWrite"))
		}
	}
	if !w.checkFound(o, "BatchWriteItem", err) {
		w.written(o, keys, err)
		return
	}
	if err != nil {
		w.r.fail(w.who(), "BatchWriteItem %s: %v", s.name, err)
		return
	}
	apply(w.model(s, o.e0.gen))
}

// query reads one of the worker's partitions, forward or backward, and
// compares it with the model's items of that partition in sort order.
func (w *amWorker) query(s *amSlot) {
	o := w.begin(s)
	if o.def.gen == 0 {
		return
	}
	pk, _, _ := w.key(o.def)
	forward := w.rng.IntN(2) == 0
	var got []map[string]types.AttributeValue
	var err error
	p := dynamodb.NewQueryPaginator(w.db(), &dynamodb.QueryInput{TableName: w.tableName(s), ConsistentRead: w.consistent(),
		KeyConditionExpression:    aws.String("pk = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: pk}},
		ScanIndexForward:          aws.Bool(forward), Limit: aws.Int32(int32(1 + w.rng.IntN(3)))})
	for p.HasMorePages() {
		var page *dynamodb.QueryOutput
		if page, err = p.NextPage(w.r.ctx); err != nil {
			break
		}
		got = append(got, page.Items...)
	}
	w.end(o)
	if !w.checkFound(o, "Query", err) {
		return
	}
	if err != nil {
		w.r.fail(w.who(), "Query %s %s: %v", s.name, pk, err)
		return
	}
	m := w.model(s, o.e0.gen)
	w.compareSet(o, "Query "+pk, got, func(k string) bool { return strings.HasPrefix(k, pk+"|") }, m, !forward)
}

// compareSet compares items the emulator answered with the model's items
// whose keys match (in sort key order, reversed when backward, for a
// Query of a table with a sort key; as a set otherwise).
func (w *amWorker) compareSet(o *amOp, op string, got []map[string]types.AttributeValue, match func(string) bool, m *amWorkerTable, backward bool) {
	var gotKeys []string
	gotItems := map[string]*amItem{}
	for _, av := range got {
		k := amModelKey(av, o.def.sort)
		gotKeys = append(gotKeys, k)
		gotItems[k] = amItemOf(av)
	}
	if strings.HasPrefix(op, "Query") && o.def.sort {
		sorted := slices.SortedFunc(slices.Values(gotKeys), func(a, b string) int {
			return cmp.Compare(amSortOf(a), amSortOf(b))
		})
		if backward {
			slices.Reverse(sorted)
		}
		if !slices.Equal(sorted, gotKeys) {
			w.r.fail(w.who(), "%s on %s: out of order: %v", op, o.s.name, gotKeys)
		}
	}
	for k, it := range m.items {
		if !match(k) || !it.known {
			continue
		}
		g := gotItems[k]
		if g == nil {
			g = &amItem{known: true}
		}
		if !it.same(g) {
			w.r.fail(w.who(), "%s on %s: %s is %s, the model %s (its changes: %v)", op, o.s.name, k, g, it, m.trail[k])
		}
	}
	for k, g := range gotItems {
		if !match(k) {
			w.r.fail(w.who(), "%s on %s: answered %s, which it does not match", op, o.s.name, k)
		}
		if it := m.current(k); it.known && !it.present {
			w.r.fail(w.who(), "%s on %s: answered %s %s, absent in the model (its changes: %v)", op, o.s.name, k, g, m.trail[k])
		}
	}
	for k, g := range gotItems { // what was unknown is known now
		if it := m.current(k); !it.known {
			m.set(k, g, w.trace("compareSet"))
		}
	}
	for k, it := range m.items {
		if match(k) && !it.known {
			if g := gotItems[k]; g != nil {
				m.set(k, g, w.trace("compareSet"))
			} else {
				m.set(k, &amItem{known: true}, w.trace("compareSet"))
			}
		}
	}
}

func amSortOf(k string) int {
	_, sk, _ := strings.Cut(k, "|")
	n, _ := strconv.Atoi(sk)
	return n
}

// queryGSI reads one of the worker's g values on a GSI the model has
// ACTIVE: exactly the worker's items with that g.
func (w *amWorker) queryGSI(s *amSlot) {
	o := w.begin(s)
	def := o.def
	var names []string
	for g, active := range def.gsis {
		if active {
			names = append(names, g)
		}
	}
	if len(names) == 0 || def.changing {
		return
	}
	slices.Sort(names)
	index := names[w.rng.IntN(len(names))]
	g := fmt.Sprintf("w%d-g%d", w.id, w.rng.IntN(2))
	var got []map[string]types.AttributeValue
	var err error
	p := dynamodb.NewQueryPaginator(w.db(), &dynamodb.QueryInput{TableName: w.tableName(s), IndexName: aws.String(index),
		KeyConditionExpression:    aws.String("g = :g"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":g": &types.AttributeValueMemberS{Value: g}},
		Limit:                     aws.Int32(int32(1 + w.rng.IntN(4)))})
	for p.HasMorePages() {
		var page *dynamodb.QueryOutput
		if page, err = p.NextPage(w.r.ctx); err != nil {
			break
		}
		got = append(got, page.Items...)
	}
	w.end(o)
	if !w.checkFound(o, "Query "+index, err) {
		return
	}
	if s.def.Load() != def {
		return // the indexes changed meanwhile
	}
	if err != nil {
		w.r.fail(w.who(), "Query %s on %s: %v", index, s.name, err)
		return
	}
	m := w.model(s, o.e0.gen)
	if index == "byGN" { // sorted by n
		for i := 1; i < len(got); i++ {
			if amItemOf(got[i-1]).n > amItemOf(got[i]).n {
				w.r.fail(w.who(), "Query %s on %s: out of n order", index, s.name)
				break
			}
		}
	}
	match := func(k string) bool { it := m.items[k]; return it != nil && it.known && it.present && it.g == g }
	var gotKeys []string
	for _, av := range got {
		gotKeys = append(gotKeys, amModelKey(av, def.sort))
	}
	for k, it := range m.items {
		if it.known && it.present && it.g == g && !slices.Contains(gotKeys, k) {
			w.r.fail(w.who(), "Query %s g=%s on %s: %s missing (the model %s)", index, g, s.name, k, it)
		}
	}
	for _, av := range got {
		k := amModelKey(av, def.sort)
		it := m.current(k)
		if !it.known {
			continue
		}
		if !match(k) || !it.same(amItemOf(av)) {
			w.r.fail(w.who(), "Query %s g=%s on %s: answered %s %s, the model %v", index, g, s.name, k, amItemOf(av), it)
		}
	}
}

// scan reads the whole table, filtered to the worker's items, in
// segments or not.
func (w *amWorker) scan(s *amSlot) {
	o := w.begin(s)
	if o.def.gen == 0 {
		return
	}
	segments := 1 + w.rng.IntN(3)
	var got []map[string]types.AttributeValue
	var err error
	for seg := range segments {
		in := &dynamodb.ScanInput{TableName: w.tableName(s), ConsistentRead: w.consistent(), Limit: aws.Int32(int32(2 + w.rng.IntN(6))),
			FilterExpression: aws.String("#w = :w"), ExpressionAttributeNames: map[string]string{"#w": "w"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":w": &types.AttributeValueMemberS{Value: strconv.Itoa(w.id)}}}
		if segments > 1 {
			in.Segment, in.TotalSegments = aws.Int32(int32(seg)), aws.Int32(int32(segments))
		}
		p := dynamodb.NewScanPaginator(w.db(), in)
		for p.HasMorePages() {
			var page *dynamodb.ScanOutput
			if page, err = p.NextPage(w.r.ctx); err != nil {
				break
			}
			got = append(got, page.Items...)
		}
		if err != nil {
			break
		}
	}
	w.end(o)
	if !w.checkFound(o, "Scan", err) {
		return
	}
	if err != nil {
		w.r.fail(w.who(), "Scan %s: %v", s.name, err)
		return
	}
	m := w.model(s, o.e0.gen)
	w.compareSet(o, "Scan", got, func(string) bool { return true }, m, false)
	m.rest = false // every key of the worker is known now
}

// transactWrite writes two of the worker's items, or fails whole when a
// condition on one of them fails.
func (w *amWorker) transactWrite(s *amSlot) {
	o := w.begin(s)
	if o.def.gen == 0 {
		return
	}
	pk1, sk1, k1 := w.key(o.def)
	pk2, sk2, k2 := w.key(o.def)
	if k1 == k2 {
		return
	}
	w.ver++
	ver := w.ver
	av, it := w.newItem(pk1, sk1)
	w.ver--
	it.ver = ver
	av["ver"] = &types.AttributeValueMemberN{Value: strconv.Itoa(ver)}
	cond := w.rng.IntN(2) == 0
	check := &types.ConditionCheck{TableName: w.tableName(s), Key: amKeyAV(pk2, sk2), ConditionExpression: aws.String("attribute_exists(pk)")}
	if !cond {
		check.ConditionExpression = aws.String("attribute_not_exists(pk)")
	}
	_, err := w.db().TransactWriteItems(w.r.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: w.tableName(s), Item: av}}, {ConditionCheck: check}}})
	w.end(o)
	if !w.checkFound(o, "TransactWriteItems", err) {
		w.written(o, []string{k1}, err)
		return
	}
	m := w.model(s, o.e0.gen)
	other := m.current(k2)
	var tce *types.TransactionCanceledException
	switch {
	case !other.known:
		if err == nil {
			m.set(k1, it, w.trace("transactWrite"))
			m.set(k2, &amItem{known: false}, w.trace("transactWrite"))
		} else if errors.As(err, &tce) {
			m.set(k2, &amItem{known: false}, w.trace("transactWrite"))
		} else {
			w.r.fail(w.who(), "TransactWriteItems %s: %v", s.name, err)
		}
	case other.present == cond:
		if err != nil {
			w.r.fail(w.who(), "TransactWriteItems %s, its condition true in the model: %v", s.name, err)
			return
		}
		m.set(k1, it, w.trace("transactWrite"))
	default:
		if !errors.As(err, &tce) {
			w.r.fail(w.who(), "TransactWriteItems %s, its condition false in the model: %v", s.name, err)
			return
		}
		if len(tce.CancellationReasons) != 2 || aws.ToString(tce.CancellationReasons[1].Code) != "ConditionalCheckFailed" ||
			aws.ToString(tce.CancellationReasons[0].Code) != "None" {
			w.r.fail(w.who(), "TransactWriteItems %s: reasons %v", s.name, tce.CancellationReasons)
		}
	}
}

func (w *amWorker) transactGet(s *amSlot) {
	o := w.begin(s)
	if o.def.gen == 0 {
		return
	}
	pk1, sk1, k1 := w.key(o.def)
	pk2, sk2, k2 := w.key(o.def)
	if k1 == k2 {
		return // one item twice: ValidationException
	}
	out, err := w.db().TransactGetItems(w.r.ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: w.tableName(s), Key: amKeyAV(pk1, sk1)}}, {Get: &types.Get{TableName: w.tableName(s), Key: amKeyAV(pk2, sk2)}}}})
	w.end(o)
	if !w.checkFound(o, "TransactGetItems", err) {
		return
	}
	if err != nil {
		w.r.fail(w.who(), "TransactGetItems %s: %v", s.name, err)
		return
	}
	w.read(o, "TransactGetItems", k1, amItemOf(out.Responses[0].Item))
	w.read(o, "TransactGetItems", k2, amItemOf(out.Responses[1].Item))
}

// queryLSI reads one of the worker's partitions on the LSI byNL: its
// items in n order.
func (w *amWorker) queryLSI(s *amSlot) {
	o := w.begin(s)
	if !o.def.lsi {
		return
	}
	pk, _, _ := w.key(o.def)
	var got []map[string]types.AttributeValue
	var err error
	p := dynamodb.NewQueryPaginator(w.db(), &dynamodb.QueryInput{TableName: w.tableName(s), IndexName: aws.String("byNL"), ConsistentRead: w.consistent(),
		KeyConditionExpression:    aws.String("pk = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: pk}},
		Limit:                     aws.Int32(int32(1 + w.rng.IntN(3)))})
	for p.HasMorePages() {
		var page *dynamodb.QueryOutput
		if page, err = p.NextPage(w.r.ctx); err != nil {
			break
		}
		got = append(got, page.Items...)
	}
	w.end(o)
	if !w.checkFound(o, "Query byNL", err) {
		return
	}
	if err != nil {
		w.r.fail(w.who(), "Query byNL %s %s: %v", s.name, pk, err)
		return
	}
	for i := 1; i < len(got); i++ {
		if amItemOf(got[i-1]).n > amItemOf(got[i]).n {
			w.r.fail(w.who(), "Query byNL on %s: out of n order", s.name)
			break
		}
	}
	w.compareSet(o, "LSI query "+pk, got, func(k string) bool { return strings.HasPrefix(k, pk+"|") }, w.model(s, o.e0.gen), false)
}

// partiQL runs one of SELECT, INSERT, UPDATE and DELETE on one of the
// worker's keys with ExecuteStatement: INSERT of an item that exists is
// DuplicateItemException, UPDATE of one that does not
// ConditionalCheckFailedException, DELETE of one that does not nothing.
func (w *amWorker) partiQL(s *amSlot) {
	o := w.begin(s)
	if o.def.gen == 0 {
		return
	}
	pk, sk, k := w.key(o.def)
	o.key = k
	where := "pk = ?"
	params := []types.AttributeValue{&types.AttributeValueMemberS{Value: pk}}
	if sk >= 0 {
		where += " AND sk = ?"
		params = append(params, &types.AttributeValueMemberN{Value: strconv.Itoa(sk)})
	}
	table := `"` + s.name + `"`
	kind := w.rng.IntN(4)
	var stmt string
	var it *amItem
	switch kind {
	case 0:
		stmt = "SELECT * FROM " + table + " WHERE " + where
	case 1:
		var av map[string]types.AttributeValue
		av, it = w.newItem(pk, sk)
		delete(av, "g")
		it.g = ""
		stmt = "INSERT INTO " + table + " VALUE {'pk': ?, 'w': ?, 'n': ?, 'ver': ?, 'data': ?"
		params = []types.AttributeValue{av["pk"], av["w"], av["n"], av["ver"], av["data"]}
		if sk >= 0 {
			stmt += ", 'sk': ?"
			params = append(params, av["sk"])
		}
		stmt += "}"
	case 2:
		w.ver++
		stmt = "UPDATE " + table + " SET ver = ? WHERE " + where
		params = append([]types.AttributeValue{&types.AttributeValueMemberN{Value: strconv.Itoa(w.ver)}}, params...)
	default:
		stmt = "DELETE FROM " + table + " WHERE " + where
	}
	out, err := w.db().ExecuteStatement(w.r.ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), Parameters: params,
		ConsistentRead: aws.Bool(kind == 0 && w.rng.IntN(2) == 0)})
	w.end(o)
	if !w.checkFound(o, "ExecuteStatement", err) {
		if kind > 0 {
			w.written(o, []string{k}, err)
		}
		return
	}
	m := w.model(s, o.e0.gen)
	old := m.current(k)
	var dup *types.DuplicateItemException
	var ccf *types.ConditionalCheckFailedException
	switch {
	case kind == 0 && err == nil:
		var got *amItem
		switch len(out.Items) {
		case 0:
			got = &amItem{known: true}
		case 1:
			got = amItemOf(out.Items[0])
		default:
			w.r.fail(w.who(), "%s on %s: %d items", stmt, k, len(out.Items))
			return
		}
		w.read(o, "SELECT", k, got)
	case kind == 1 && errors.As(err, &dup) && (!old.known || old.present):
		m.set(k, &amItem{known: false}, w.trace("partiQL")) // there, whatever it is
	case kind == 1 && err == nil && (!old.known || !old.present):
		m.set(k, it, w.trace("partiQL"))
	case kind == 2 && errors.As(err, &ccf) && (!old.known || !old.present):
		m.set(k, &amItem{known: true}, w.trace("partiQL"))
	case kind == 2 && err == nil && (!old.known || old.present):
		if !old.known {
			m.set(k, &amItem{known: false}, w.trace("partiQL"))
			break
		}
		up := *old
		up.ver = w.ver
		m.set(k, &up, w.trace("partiQL"))
	case kind == 3 && err == nil:
		m.set(k, &amItem{known: true}, w.trace("partiQL"))
	default:
		w.r.fail(w.who(), "%s on %s %s (the model %s): %v", stmt, s.name, k, old, err)
	}
}

// describe: DescribeTable of a table the model has ACTIVE answers it
// (ACTIVE, or UPDATING during an index change); of one gone,
// ResourceNotFoundException.
func (w *amWorker) describe(s *amSlot) {
	o := w.begin(s)
	out, err := w.db().DescribeTable(w.r.ctx, &dynamodb.DescribeTableInput{TableName: w.tableName(s)})
	w.end(o)
	phase, stable := o.stable()
	switch {
	case !stable:
	case phase == amActive && err != nil:
		w.r.fail(w.who(), "DescribeTable %s, ACTIVE before and after: %v", s.name, err)
	case phase == amActive && out.Table.TableStatus != types.TableStatusActive && out.Table.TableStatus != types.TableStatusUpdating:
		w.r.fail(w.who(), "DescribeTable %s, ACTIVE before and after: %s", s.name, out.Table.TableStatus)
	case phase == amAbsent && amCode(err) != amNotFound:
		w.r.fail(w.who(), "DescribeTable %s, gone before and after: %v", s.name, err)
	}
}

// verifyTable reads every key of the worker in s (no request running
// meanwhile): each must be as the model has it.
func (w *amWorker) verifyTable(s *amSlot) {
	o := w.begin(s)
	var got []map[string]types.AttributeValue
	p := dynamodb.NewScanPaginator(w.db(), &dynamodb.ScanInput{TableName: aws.String(s.name), ConsistentRead: aws.Bool(true),
		FilterExpression: aws.String("#w = :w"), ExpressionAttributeNames: map[string]string{"#w": "w"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":w": &types.AttributeValueMemberS{Value: strconv.Itoa(w.id)}}})
	for p.HasMorePages() {
		page, err := p.NextPage(w.r.ctx)
		if err != nil {
			w.r.fail(w.who(), "Scan %s to verify it: %v", s.name, err)
			return
		}
		got = append(got, page.Items...)
	}
	w.end(o)
	w.compareSet(o, "Scan", got, func(string) bool { return true }, w.model(s, o.e0.gen), false)
}
