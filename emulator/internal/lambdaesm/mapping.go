package lambdaesm

import (
	"context"
	"fmt"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamsapi"
)

// A mapping's poller: one goroutine per mapping reads its stream's one
// shard from its checkpoint, drops the records no filter matches,
// gathers a batch (up to BatchSize matching records, or BatchSize per
// lane with a ParallelizationFactor, within the 6 MB payload, waiting
// up to MaximumBatchingWindowInSeconds for more), invokes the function
// and moves the checkpoint past the batch once every record of it was
// delivered or discarded (deliver.go). Records of one partition key go
// to one lane, so their order is kept.
//
// A poller with nothing to do waits without a timer: on its stream's
// change signal (streamrec.Stream.Changed: the stream's next record, or
// its disabling), on the service's when it has no stream yet or its
// table's stream was closed (service.Config.StreamChanges, which the
// emulator hands the Manager too: SetStreamChanges), and on its own wake (an update, a drain). So an idle mapping
// uses no CPU. It takes each channel before it looks, so a record
// written between its look and its wait wakes it at once. Two states
// still poll, every idlePoll, because what they wait for is the clock
// and not a write: an open tumbling window (its end, on the emulator's
// clock, which a test may move) and records a stage's hold keeps back
// (the lag gates, which show them as the clock passes).

// idlePoll is how often a poller looks again while it waits on the
// clock: an open tumbling window, records held back.
const idlePoll = 20 * time.Millisecond

// maxKeptFailures bounds the invocation records a mapping keeps.
const maxKeptFailures = 1000

type mapping struct {
	mgr    *Manager
	uuid   string
	origin string // the file entry it was made from ("": the API); persist.go

	quit     chan struct{}
	done     chan struct{}
	wake     chan struct{}
	stopOnce sync.Once
	// wakeups counts the poller's turns (run's loop): a test's measure
	// that an idle mapping does not wake.
	wakeups atomic.Int64

	mu         sync.Mutex
	st         settings
	modified   time.Time
	started    bool   // pos is set
	pos        uint64 // every record before it is handled
	flushTo    uint64 // a drain's target: no batching window before it
	progress   chan struct{}
	lastResult string
	lastErr    string
	invokes    int64
	funcErrs   int64
	discarded  int64
	filtered   int64
	lastBatch  int
	iterAge    int64
	failures   [][]byte
	windowEnd  int64 // the open tumbling window's end (0: none), for drains
	drainAt    int64 // the clock's second of the latest drain
	// win is the open tumbling window as of pos: tw when the checkpoint
	// last moved, saved with it in one write (persist.go).
	win tumble

	tw tumble // run's goroutine alone
}

func newMapping(m *Manager, id string, st settings, now time.Time) *mapping {
	mp := &mapping{mgr: m, uuid: id, st: st, modified: now, quit: make(chan struct{}), done: make(chan struct{}),
		wake: make(chan struct{}, 1), progress: make(chan struct{}), lastResult: "No records processed"}
	// A stream that exists now starts where StartingPosition says; one
	// found later holds only records written after the mapping was made,
	// so it is read from its start (runLoop).
	if s, ok := mp.resolve(now); ok {
		first, next := s.Bounds(now)
		mp.pos = first
		if st.startPos == posLatest {
			mp.pos = next
		}
		mp.started = true
	}
	return mp
}

func (mp *mapping) settings() settings {
	mp.mu.Lock()
	defer mp.mu.Unlock()
	return mp.st
}

// resolve finds the mapping's stream. A mapping made by TableName (a
// mappings file, serverless.yml, the Go API) follows its table by name:
// it is bound to the table's latest stream and, once that stream is
// closed (the table deleted, or its stream disabled) and read to its
// end, moves to the table's newer stream when there is one (the table
// made again: `npm run migrate` twice), read from its start since all of
// it came after the mapping. A mapping made by EventSourceArn stays on
// its stream, as Lambda binds a mapping to a stream ARN.
func (mp *mapping) resolve(now time.Time) (service.Stream, bool) {
	mp.mu.Lock()
	arn, table, pos, started := mp.st.sourceARN, mp.st.tableName, mp.pos, mp.started
	mp.mu.Unlock()
	cur, found := service.Stream{}, false
	if arn != "" {
		cur, found = mp.mgr.findStream(arn, now)
		if found && (table == "" || !readToEnd(cur, pos, started, now)) {
			return cur, true
		}
	}
	if table == "" {
		return service.Stream{}, false
	}
	s, ok := mp.mgr.tableStream(table, now)
	if !ok || s.ARN() == arn {
		return cur, found // no newer stream: the closed one (or none) until one comes
	}
	mp.mu.Lock()
	if mp.st.sourceARN == arn {
		mp.st.sourceARN = s.ARN()
		mp.started = false // a new stream: from its start
	}
	mp.mu.Unlock()
	return s, true
}

// readToEnd reports whether s is closed and the mapping, at pos, has
// handled all of it.
func readToEnd(s service.Stream, pos uint64, started bool, now time.Time) bool {
	if status, _ := s.State(now); status == service.Enabled || !started {
		return false
	}
	_, next := s.Bounds(now)
	return pos >= next
}

func (mp *mapping) stop() {
	mp.stopOnce.Do(func() { close(mp.quit) })
	<-mp.done
	mp.mu.Lock()
	mp.notifyLocked()
	mp.mu.Unlock()
}

func (mp *mapping) stopped() bool {
	select {
	case <-mp.quit:
		return true
	default:
		return false
	}
}

// wait waits until a or b is closed (nil: never), the mapping is woken
// or stopped, or d passed (0: no timer).
func (mp *mapping) wait(a, b <-chan struct{}, d time.Duration) {
	var tc <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		tc = t.C
	}
	select {
	case <-a:
	case <-b:
	case <-tc:
	case <-mp.wake:
	case <-mp.quit:
	}
}

func (mp *mapping) poke() {
	select {
	case mp.wake <- struct{}{}:
	default:
	}
}

// notifyLocked tells the drains waiting on the mapping that it moved.
func (mp *mapping) notifyLocked() {
	close(mp.progress)
	mp.progress = make(chan struct{})
}

// item is one record of a batch.
type item struct {
	seq  uint64
	at   int64  // ApproximateCreationDateTime
	lane uint64 // the hash of its partition key
	json []byte // the record as Lambda sends it
}

var laneSeed = maphash.MakeSeed()

func (mp *mapping) run() {
	defer close(mp.done)
	var windowStart time.Time
	for !mp.stopped() {
		mp.wakeups.Add(1)
		st := mp.settings()
		if !st.enabled {
			mp.wait(nil, nil, 0) // an update or the stop
			continue
		}
		made, poll := mp.mgr.streamsMade() // before looking: a stream made after the look wakes the wait
		now := mp.mgr.svc.Now()
		s, ok := mp.resolve(now)
		if !ok {
			mp.wait(made, nil, poll)
			continue
		}
		changed := s.Changed() // before reading: a record written after the read wakes the wait
		st = mp.settings()
		mp.mu.Lock()
		if !mp.started {
			mp.pos, _ = s.Bounds(now)
			mp.started = true
		}
		pos, flush := mp.pos, mp.flushTo > mp.pos
		mp.mu.Unlock()
		limit := st.batchSize * st.parallel
		batch, next, filtered, err := collect(s, st, pos, limit, now)
		if err != nil { // trimmed: from the oldest record kept
			first, _ := s.Bounds(now)
			mp.advance(first, 0)
			mp.mgr.checkpoint()
			continue
		}
		if next == pos {
			windowStart = time.Time{}
			if mp.tw.open {
				if now.Unix() >= mp.tw.start+st.tumbling {
					mp.closeWindow(s, st, false) // its end passed with no record after it
					continue
				}
				mp.wait(changed, nil, idlePoll) // the window's end is on the clock
				continue
			}
			if _, end := s.Bounds(now); end > pos {
				mp.wait(changed, nil, idlePoll) // records a hold keeps back: shown as the clock passes
				continue
			}
			var newer <-chan struct{}
			var d time.Duration
			if st.tableName != "" {
				if status, _ := s.State(now); status != service.Enabled {
					newer, d = made, poll // the table's stream closed: its next one
				}
			}
			mp.wait(changed, newer, d)
			continue
		}
		if len(batch) > 0 && len(batch) < limit && st.window > 0 && !flush {
			if windowStart.IsZero() {
				windowStart = time.Now()
			}
			if rem := st.window - time.Since(windowStart); rem > 0 {
				mp.wait(nil, nil, min(rem, idlePoll)) // records wait: look again as the window fills
				continue
			}
		}
		windowStart = time.Time{}
		if len(batch) > 0 {
			mp.process(s, st, batch)
			if mp.stopped() {
				return
			}
		}
		mp.advance(next, filtered)
		mp.mgr.checkpoint() // before the next batch: a kill re-delivers at most this one
	}
}

// collect reads from pos up to limit records that pass the filters
// (within the payload limit) and returns them, the position after the
// last record it took or dropped, and how many it dropped.
func collect(s service.Stream, st settings, pos uint64, limit int, now time.Time) ([]item, uint64, int64, error) {
	var batch []item
	var filtered int64
	size := len(`{"Records":[]}`)
	p := pos
	for len(batch) < limit {
		recs, _, _, err := s.Read(p, 1000, 1<<40, now)
		if err != nil {
			return nil, pos, 0, err
		}
		if len(recs) == 0 {
			break
		}
		for i := range recs {
			r := &recs[i]
			if !st.filters.pass(recordView(s, r)) {
				filtered++
				p = r.Seq + 1
				continue
			}
			js := encodeRecord(s, r)
			if len(batch) > 0 && size+len(js)+1 > payloadLimit {
				return batch, p, filtered, nil
			}
			size += len(js) + 1
			batch = append(batch, item{seq: r.Seq, at: r.At, lane: laneOf(r), json: js})
			p = r.Seq + 1
			if len(batch) == limit {
				return batch, p, filtered, nil
			}
		}
	}
	return batch, p, filtered, nil
}

// encodeRecord is the record as Lambda's event holds it.
func encodeRecord(s service.Stream, r *streamlog.Record) []byte {
	return streamsapi.AppendEventRecord(nil, s, r)
}

func laneOf(r *streamlog.Record) uint64 {
	var h maphash.Hash
	h.SetSeed(laneSeed)
	v := r.Key.Partition
	h.WriteByte(byte(v.Kind()))
	h.WriteString(v.Str())
	return h.Sum64()
}

// advance moves the checkpoint to next, with the open tumbling window
// as it is now (run's goroutine alone calls it).
func (mp *mapping) advance(next uint64, filtered int64) {
	mp.mu.Lock()
	if next > mp.pos {
		mp.pos = next
	}
	mp.win = mp.tw
	mp.filtered += filtered
	mp.notifyLocked()
	mp.mu.Unlock()
}

// process delivers a batch: one lane, or ParallelizationFactor lanes at
// once, each its records in order, BatchSize at a time.
func (mp *mapping) process(s service.Stream, st settings, batch []item) {
	if st.tumbling > 0 {
		mp.processWindows(s, st, batch)
		return
	}
	if st.parallel <= 1 {
		for i := 0; i < len(batch); i += st.batchSize {
			mp.deliver(s, st, batch[i:min(i+st.batchSize, len(batch))])
		}
		return
	}
	lanes := make([][]item, st.parallel)
	for _, it := range batch {
		l := it.lane % uint64(st.parallel)
		lanes[l] = append(lanes[l], it)
	}
	var wg sync.WaitGroup
	for _, lane := range lanes {
		if len(lane) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < len(lane); i += st.batchSize {
				mp.deliver(s, st, lane[i:min(i+st.batchSize, len(lane))])
			}
		}()
	}
	wg.Wait()
}

// drainTarget returns the sequence number the mapping must reach for a
// drain called now, and false when it has nothing to reach (disabled,
// or no stream).
func (mp *mapping) drainTarget() (uint64, bool) {
	st := mp.settings()
	if !st.enabled || mp.stopped() {
		return 0, false
	}
	now := mp.mgr.svc.Now()
	s, ok := mp.resolve(now)
	if !ok {
		return 0, false
	}
	_, next := s.Bounds(now)
	mp.mu.Lock()
	if next > mp.flushTo {
		mp.flushTo = next
	}
	mp.drainAt = max(mp.drainAt, now.Unix())
	mp.mu.Unlock()
	mp.poke()
	return next, true
}

// waitFor waits until the checkpoint reaches target (or the mapping is
// stopped or disabled).
func (mp *mapping) waitFor(ctx context.Context, target uint64) error {
	for {
		mp.mu.Lock()
		windowDue := mp.windowEnd != 0 && mp.windowEnd <= mp.drainAt // a drain waits for its final invocation
		done := (mp.started && mp.pos >= target && !windowDue) || !mp.st.enabled
		ch := mp.progress
		mp.mu.Unlock()
		if done || mp.stopped() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// describeStuck says where a mapping behind a drain is.
func (mp *mapping) describeStuck(target uint64) string {
	mp.mu.Lock()
	defer mp.mu.Unlock()
	msg := fmt.Sprintf("mapping %s (function %s, stream %s) at sequence number %s of %s",
		mp.uuid, mp.st.function, mp.st.sourceARN, streamlog.FormatSequenceNumber(mp.pos), streamlog.FormatSequenceNumber(target))
	if mp.lastErr != "" {
		msg += ", last error: " + mp.lastErr
	}
	return msg
}

// update applies an UpdateEventSourceMapping.
func (mp *mapping) update(s *Spec) error {
	mp.mu.Lock()
	st := mp.st
	mp.mu.Unlock()
	if err := mp.mgr.checkFilterQuota(s); err != nil {
		return err
	}
	if err := st.apply(s, false); err != nil {
		return err
	}
	if err := mp.mgr.targetsNow().check(&st); err != nil {
		return err
	}
	mp.mu.Lock()
	mp.st = st
	mp.modified = mp.mgr.svc.Now()
	mp.notifyLocked()
	mp.mu.Unlock()
	mp.poke()
	return nil
}

// config is the mapping's EventSourceMappingConfiguration.
func (mp *mapping) config() Configuration {
	mp.mu.Lock()
	defer mp.mu.Unlock()
	st := mp.st
	region, account := arnParts(st.sourceARN)
	if region == "" {
		region, account = "us-east-1", "000000000000"
	}
	c := Configuration{
		UUID:                           mp.uuid,
		EventSourceMappingArn:          "arn:aws:lambda:" + region + ":" + account + ":event-source-mapping:" + mp.uuid,
		BatchSize:                      int64(st.batchSize),
		MaximumBatchingWindowInSeconds: int64(st.window / time.Second),
		ParallelizationFactor:          int64(st.parallel),
		EventSourceArn:                 st.sourceARN,
		FilterCriteria:                 st.filterSpec,
		FunctionArn:                    st.fnRef.arn(region, account),
		LastModified:                   float64(mp.modified.UnixMilli()) / 1000,
		LastProcessingResult:           mp.lastResult,
		State:                          "Enabled",
		StateTransitionReason:          "User action",
		MaximumRecordAgeInSeconds:      st.maxAge,
		BisectBatchOnFunctionError:     st.bisect,
		MaximumRetryAttempts:           st.maxRetries,
		StartingPosition:               st.startPos,
		TumblingWindowInSeconds:        st.tumbling,
	}
	if !st.enabled {
		c.State = "Disabled"
	}
	if st.onFailure != "" {
		d := st.onFailure
		c.DestinationConfig.OnFailure = &OnFailure{Destination: &d}
	}
	if st.reportItems {
		c.FunctionResponseTypes = []string{reportBatchItemFailures}
	}
	return c
}

func (mp *mapping) status() Status {
	c := mp.config()
	mp.mu.Lock()
	defer mp.mu.Unlock()
	s := Status{Configuration: c, Invocations: mp.invokes, FunctionErrors: mp.funcErrs, Discarded: mp.discarded,
		Filtered: mp.filtered, LastError: mp.lastErr, LastBatchSize: mp.lastBatch, IteratorAgeSecs: mp.iterAge}
	if mp.started {
		s.Position = streamlog.FormatSequenceNumber(mp.pos)
	}
	return s
}
