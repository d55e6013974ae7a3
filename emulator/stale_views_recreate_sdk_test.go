package emulator_test

import (
	"context"
	"errors"
	"fmt"
	rand "math/rand/v2"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The views that answer a read from something other than the live
// table (consistency fuzzing's and a read lag's shadow, a lagging GSI, a
// global table's replica), and the work that acts on a table by name
// beside them (the TTL sweeper, stream readers), across the table's
// re-creation (DeleteTable, wait until gone, CreateTable of the same
// name) and a GSI's creation and deletion by UpdateTable. AWS: a table
// that CreateTable answered and DescribeTable reports ACTIVE is found by
// every later request until it is deleted; an eventually consistent read
// never reads a deleted table's generation.
//
// A controller cycles one table through generations; readers send
// eventually consistent GetItem, BatchGetItem, Query and Scan from
// several goroutines, and writers put items stamped with the
// generation. The controller numbers its phases (epoch: odd while the
// table is being deleted or made, even from the moment DescribeTable
// reports it ACTIVE until its DeleteTable is sent); a request that
// began and ended in the same even epoch must find the table, and no
// answer may hold an item of a generation older than the one the
// request began in.

// staleViewMode is one way of serving reads from a lagging view.
type staleViewMode struct {
	name  string
	opts  func(seed uint64) emulator.Options
	setup func(e *emulator.Emulator)
	// replica: the table is a global table with a replica in
	// staleReplicaRegion, which the readers read.
	replica bool
}

const staleReplicaRegion = "eu-west-1"

// staleViewDuration is how long each mode and seed runs: 2 s, 4 s with
// DYNAMOEMU_HEAVY_TESTS (CI: 3 modes x 3 seeds, 36 s of the emulator
// package's 10-minute budget), or DYNAMOEMU_STALE_VIEWS_FOR (a Go
// duration, on demand: a minute per seed ran 369 generations and about
// 113,000 checked reads in fuzz mode) with all of staleViewSeeds.
func staleViewDuration(t *testing.T) time.Duration {
	if v := os.Getenv("DYNAMOEMU_STALE_VIEWS_FOR"); v != "" {
		d, err := time.ParseDuration(v)
		require.NoError(t, err, "DYNAMOEMU_STALE_VIEWS_FOR")
		return d
	}
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		return 4 * time.Second
	}
	return 2 * time.Second
}

// staleViewSeeds are the seeds each mode runs with: two, three with
// DYNAMOEMU_HEAVY_TESTS, seven in a long run (DYNAMOEMU_STALE_VIEWS_FOR).
func staleViewSeeds() []uint64 {
	switch {
	case os.Getenv("DYNAMOEMU_STALE_VIEWS_FOR") != "":
		return []uint64{1, 2, 3, 4, 5, 42, 18446744073709551615}
	case os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "":
		return []uint64{1, 2, 42}
	}
	return []uint64{1, 42}
}

func TestStaleViewsAcrossTableRecreation(t *testing.T) {
	modes := []staleViewMode{
		{name: "fuzz", opts: func(seed uint64) emulator.Options {
			return emulator.Options{Consistency: fmt.Sprintf("fuzz:%d", seed)}
		}},
		{name: "lag", opts: func(uint64) emulator.Options {
			return emulator.Options{Faults: emulator.FaultOptions{Lags: []emulator.LagSetting{
				{Table: "recreated", Reads: true, Delay: 20 * time.Millisecond},
				{Table: "recreated", Index: "*", Delay: 20 * time.Millisecond},
				{Table: "recreated", Stream: true, Delay: 20 * time.Millisecond},
			}}}
		}},
		{name: "replica", replica: true, opts: func(uint64) emulator.Options { return emulator.Options{} },
			setup: func(e *emulator.Emulator) { e.Lags().SetReplicationDelay(5 * time.Millisecond) }},
	}
	for _, m := range modes {
		for _, seed := range staleViewSeeds() {
			t.Run(fmt.Sprintf("%s/%d", m.name, seed), func(t *testing.T) { runStaleViews(t, m, seed) })
		}
	}
}

// staleRun is one run's shared state.
type staleRun struct {
	t       *testing.T
	ctx     context.Context
	home    *dynamodb.Client // the region the table is made in
	streams *dynamodbstreams.Client
	read    *dynamodb.Client // the region the readers read
	epoch   atomic.Int64
	// writing is held (read-locked) by each write from its look at the
	// epoch to its answer, and locked by the controller to end an ACTIVE
	// epoch: no write of one generation lands in the next.
	writing sync.RWMutex
	reads   atomic.Int64
	found   atomic.Int64
	probes  atomic.Int64 // probe reads right after a write
	missed  atomic.Int64 // of them, those that did not see it (the view lagged)
	mu      sync.Mutex
	errs    []string
	done    atomic.Bool
	replica bool
}

func (r *staleRun) fail(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.errs) < 10 {
		r.errs = append(r.errs, fmt.Sprintf(format, args...))
	}
}

const staleTable = "recreated"

func staleKey(pk string, sk int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk},
		"sk": &types.AttributeValueMemberN{Value: strconv.Itoa(sk)}}
}

func runStaleViews(t *testing.T, m staleViewMode, seed uint64) {
	e, home, streams := emulatortest.NewWithStreams(t, m.opts(seed))
	if m.setup != nil {
		m.setup(e)
	}
	read := home
	if m.replica {
		o := home.Options()
		o.Region = staleReplicaRegion
		read = dynamodb.New(o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.Clock().RunTTLSweeper(ctx, time.Millisecond)
	r := &staleRun{t: t, ctx: ctx, home: home, streams: streams, read: read, replica: m.replica}
	r.epoch.Store(1)

	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); r.reader(rand.New(rand.NewPCG(seed, uint64(i)))) }()
	}
	for i := range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); r.writer(rand.New(rand.NewPCG(seed, 100+uint64(i)))) }()
	}
	wg.Add(1)
	go func() { defer wg.Done(); r.streamReader() }()

	// The run lasts staleViewDuration, and past it until a read has been
	// checked and a probe has found the view stale (on a busy machine two
	// seconds held two generations and two probes, neither stale, in
	// fuzz mode), within a bound that only catches a hang.
	gens := 0
	start := time.Now()
	deadline, bound := start.Add(staleViewDuration(t)), start.Add(testkit.Scaled(2*time.Minute))
	for r.failed() == 0 && (time.Now().Before(deadline) ||
		(r.reads.Load() == 0 || r.missed.Load() == 0) && time.Now().Before(bound)) {
		gens++
		r.cycle(gens, rand.New(rand.NewPCG(seed, 1000+uint64(gens))))
	}
	r.done.Store(true)
	wg.Wait()
	require.Empty(t, r.errs)
	t.Logf("%d generations, %d reads checked, %d items checked, %d of %d probes stale",
		gens, r.reads.Load(), r.found.Load(), r.missed.Load(), r.probes.Load())
	require.Positive(t, r.reads.Load(), "no read ran while the table was ACTIVE")
	require.Positive(t, r.missed.Load(), "the readers' view never lagged: the test tested nothing stale")
}

func (r *staleRun) failed() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.errs)
}

// cycle makes generation gen of the table, lets the readers and writers
// at it while a GSI is added and deleted, and deletes it.
func (r *staleRun) cycle(gen int, rng *rand.Rand) {
	ctx := r.ctx
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(staleTable),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	}
	if rng.IntN(2) == 0 {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS})
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
	}
	if _, err := r.home.CreateTable(ctx, in); err != nil {
		r.fail("gen %d: CreateTable: %v", gen, err)
		return
	}
	r.waitActive(r.home, gen)
	if _, err := r.home.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(staleTable),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
		r.fail("gen %d: UpdateTimeToLive: %v", gen, err)
	}
	if r.replica {
		if _, err := r.home.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(staleTable),
			ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(staleReplicaRegion)}}}}); err != nil {
			r.fail("gen %d: UpdateTable adding a replica: %v", gen, err)
			return
		}
		r.waitActive(r.read, gen)
	}
	r.epoch.Store(int64(2 * gen)) // ACTIVE: found by every read from now on
	r.probe(gen)
	for range 1 + rng.IntN(3) {
		time.Sleep(time.Duration(5+rng.IntN(20)) * time.Millisecond)
		r.gsiChange(gen)
	}
	time.Sleep(time.Duration(5+rng.IntN(20)) * time.Millisecond)
	r.writing.Lock()
	r.epoch.Store(int64(2*gen + 1)) // deleting
	r.writing.Unlock()
	if r.replica {
		if _, err := r.read.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(staleTable)}); err != nil {
			r.fail("gen %d: DeleteTable of the replica: %v", gen, err)
		}
		r.waitGone(r.read, gen)
		r.waitNoReplicas(gen)
	}
	if _, err := r.home.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(staleTable)}); err != nil {
		r.fail("gen %d: DeleteTable: %v", gen, err)
	}
	r.waitGone(r.home, gen)
}

// probe writes an item and reads it back at once, eventually
// consistently, through the readers' client: counted as missed when the
// read does not see it, which shows the view the readers read lags.
func (r *staleRun) probe(gen int) {
	it := staleKey("probe", 0)
	it["gen"] = &types.AttributeValueMemberN{Value: strconv.Itoa(gen)}
	if _, err := r.home.PutItem(r.ctx, &dynamodb.PutItemInput{TableName: aws.String(staleTable), Item: it}); err != nil {
		r.fail("gen %d: PutItem of the probe: %v", gen, err)
		return
	}
	out, err := r.read.GetItem(r.ctx, &dynamodb.GetItemInput{TableName: aws.String(staleTable), Key: staleKey("probe", 0)})
	if err != nil {
		r.fail("gen %d: GetItem of the probe: %v", gen, err)
		return
	}
	r.probes.Add(1)
	if out.Item == nil {
		r.missed.Add(1)
	}
}

// gsiChange adds the GSI byG if the table has none, else deletes it,
// and waits until DescribeTable reports every index settled.
func (r *staleRun) gsiChange(gen int) {
	d, err := r.home.DescribeTable(r.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(staleTable)})
	if err != nil {
		r.fail("gen %d: DescribeTable before a GSI change: %v", gen, err)
		return
	}
	up := &dynamodb.UpdateTableInput{TableName: aws.String(staleTable),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}}}
	if len(d.Table.GlobalSecondaryIndexes) == 0 {
		up.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:  aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}
	} else {
		up.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("byG")}}}
	}
	if _, err := r.home.UpdateTable(r.ctx, up); err != nil {
		var inUse *types.ResourceInUseException
		if !errors.As(err, &inUse) {
			r.fail("gen %d: UpdateTable of a GSI: %v", gen, err)
		}
	}
	r.waitActive(r.home, gen)
}

// waitActive polls DescribeTable through c until the table and its GSIs
// are ACTIVE.
func (r *staleRun) waitActive(c *dynamodb.Client, gen int) {
	for try := 0; try < 5000; try++ {
		d, err := c.DescribeTable(r.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(staleTable)})
		if err == nil {
			ok := d.Table.TableStatus == types.TableStatusActive
			for _, g := range d.Table.GlobalSecondaryIndexes {
				ok = ok && g.IndexStatus == types.IndexStatusActive
			}
			if ok {
				return
			}
		} else if !isRNF(err) {
			r.fail("gen %d: DescribeTable while it settles: %v", gen, err)
			return
		}
		time.Sleep(time.Millisecond)
	}
	r.fail("gen %d: the table is not ACTIVE after 5000 DescribeTable", gen)
}

// waitGone polls DescribeTable through c until it answers
// ResourceNotFoundException.
func (r *staleRun) waitGone(c *dynamodb.Client, gen int) {
	for try := 0; try < 5000; try++ {
		_, err := c.DescribeTable(r.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(staleTable)})
		if isRNF(err) {
			return
		}
		time.Sleep(time.Millisecond)
	}
	r.fail("gen %d: the table is not gone after 5000 DescribeTable", gen)
}

// waitNoReplicas polls DescribeTable in the home region until it lists
// no replica (a replica deleted is DELETING there for a while, and the
// home table, its source, cannot be deleted before it is gone).
func (r *staleRun) waitNoReplicas(gen int) {
	for try := 0; try < 5000; try++ {
		d, err := r.home.DescribeTable(r.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(staleTable)})
		if err != nil {
			r.fail("gen %d: DescribeTable while its replica goes: %v", gen, err)
			return
		}
		if len(d.Table.Replicas) == 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
	r.fail("gen %d: the replica is still listed after 5000 DescribeTable", gen)
}

func isRNF(err error) bool {
	var rnf *types.ResourceNotFoundException
	return errors.As(err, &rnf)
}

// writer puts and updates items stamped with the generation the table
// is in, some of them expired (for the TTL sweeper).
func (r *staleRun) writer(rng *rand.Rand) {
	for !r.done.Load() {
		r.writing.RLock()
		ep := r.epoch.Load()
		if ep%2 == 1 {
			r.writing.RUnlock()
			time.Sleep(time.Millisecond)
			continue
		}
		gen := ep / 2
		it := staleKey("p"+strconv.Itoa(rng.IntN(3)), rng.IntN(8))
		it["gen"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(gen, 10)}
		it["g"] = &types.AttributeValueMemberS{Value: "g" + strconv.Itoa(rng.IntN(2))}
		if rng.IntN(4) == 0 {
			it["exp"] = &types.AttributeValueMemberN{Value: "1"} // long expired
		}
		_, err := r.home.PutItem(r.ctx, &dynamodb.PutItemInput{TableName: aws.String(staleTable), Item: it})
		r.writing.RUnlock()
		if err != nil {
			r.fail("gen %d: PutItem while the table is ACTIVE: %v", gen, err)
		}
	}
}

// reader sends eventually consistent reads and checks each answer that
// ran within one ACTIVE epoch.
func (r *staleRun) reader(rng *rand.Rand) {
	for !r.done.Load() {
		ep := r.epoch.Load()
		if ep%2 == 1 {
			time.Sleep(200 * time.Microsecond)
			continue
		}
		gen := ep / 2
		op, items, err := r.readOnce(rng)
		if r.epoch.Load() != ep {
			continue // the table was deleted during the read: any answer goes
		}
		r.reads.Add(1)
		if err != nil {
			r.fail("gen %d: %s of an ACTIVE table: %v", gen, op, err)
			continue
		}
		for _, it := range items {
			r.found.Add(1)
			n, ok := it["gen"].(*types.AttributeValueMemberN)
			if !ok {
				r.fail("gen %d: %s answered an item without gen: %v", gen, op, it)
				continue
			}
			if g, _ := strconv.ParseInt(n.Value, 10, 64); g != gen {
				r.fail("gen %d: %s answered an item of generation %d (a deleted table's)", gen, op, g)
			}
		}
	}
}

// readOnce sends one eventually consistent read.
func (r *staleRun) readOnce(rng *rand.Rand) (string, []map[string]types.AttributeValue, error) {
	ctx, tn := r.ctx, aws.String(staleTable)
	pk := "p" + strconv.Itoa(rng.IntN(3))
	switch rng.IntN(6) {
	case 0, 1:
		out, err := r.read.GetItem(ctx, &dynamodb.GetItemInput{TableName: tn, Key: staleKey(pk, rng.IntN(8))})
		if err != nil || out.Item == nil {
			return "GetItem", nil, err
		}
		return "GetItem", []map[string]types.AttributeValue{out.Item}, nil
	case 2:
		keys := []map[string]types.AttributeValue{staleKey(pk, 0), staleKey(pk, 1), staleKey("p0", 7)}
		out, err := r.read.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{staleTable: {Keys: keys}}})
		if err != nil {
			return "BatchGetItem", nil, err
		}
		return "BatchGetItem", out.Responses[staleTable], nil
	case 3:
		out, err := r.read.Query(ctx, &dynamodb.QueryInput{TableName: tn, KeyConditionExpression: aws.String("pk = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: pk}}})
		if err != nil {
			return "Query", nil, err
		}
		return "Query", out.Items, nil
	case 4:
		// The GSI the controller adds and deletes: ValidationException
		// while it is not there (as AWS answers), never
		// ResourceNotFoundException.
		out, err := r.read.Query(ctx, &dynamodb.QueryInput{TableName: tn, IndexName: aws.String("byG"),
			KeyConditionExpression:    aws.String("g = :g"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":g": &types.AttributeValueMemberS{Value: "g" + strconv.Itoa(rng.IntN(2))}}})
		if amCode(err) == "ValidationException" {
			return "Query of the GSI", nil, nil
		}
		if err != nil {
			return "Query of the GSI", nil, err
		}
		return "Query of the GSI", out.Items, nil
	default:
		out, err := r.read.Scan(ctx, &dynamodb.ScanInput{TableName: tn})
		if err != nil {
			return "Scan", nil, err
		}
		return "Scan", out.Items, nil
	}
}

// streamReader reads the table's stream (DescribeStream, a LATEST
// iterator, GetRecords) while the table is ACTIVE, as a stream poller
// does by the table's name: its answers are not checked (the stream of
// a table being deleted may go at any time), only that it makes no read
// of the table miss.
func (r *staleRun) streamReader() {
	for !r.done.Load() {
		if r.epoch.Load()%2 == 1 {
			time.Sleep(time.Millisecond)
			continue
		}
		d, err := r.home.DescribeTable(r.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(staleTable)})
		if err != nil || d.Table.LatestStreamArn == nil {
			time.Sleep(time.Millisecond)
			continue
		}
		ds, err := r.streams.DescribeStream(r.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: d.Table.LatestStreamArn})
		if err != nil || len(ds.StreamDescription.Shards) == 0 {
			continue
		}
		it, err := r.streams.GetShardIterator(r.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: d.Table.LatestStreamArn,
			ShardId: ds.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
		if err != nil {
			continue
		}
		iter := it.ShardIterator
		for range 5 {
			out, err := r.streams.GetRecords(r.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
			if err != nil || out.NextShardIterator == nil {
				break
			}
			iter = out.NextShardIterator
		}
	}
}
