package lambdaesm

import (
	"cmp"
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
)

// Feature is Lambda's event source mappings for DynamoDB streams
// (service.Config.Features). It registers no DynamoDB operation: its API is
// Lambda's REST API (api.go), which the emulator's edge routes here,
// and its state is one Manager per service.
type Feature struct{}

// Name is the feature's name. It keeps no slot.
func (Feature) Name() string { return "lambdaEventSourceMappings" }

// managers is the Manager of every service.
var managers = service.NewServiceState(func(s *service.Service) *Manager {
	return &Manager{svc: s, maps: map[string]*mapping{}, funcs: map[string]Function{}, quit: make(chan struct{}),
		client: &http.Client{Timeout: 15 * time.Minute, CheckRedirect: noRedirect}}
})

// Register registers nothing: the feature's API is Lambda's, and its
// Manager is made at its first use in a service (Of).
func (Feature) Register(service.Registrar) {}

// Of returns the Manager of the service svc.
func Of(svc *service.Service) *Manager { return managers.For(svc) }

// Function is a function given in Go: it gets the event's JSON and
// returns the function's answer, or an error (a function error).
type Function func(ctx context.Context, event []byte) ([]byte, error)

// Manager is a service's event source mappings and their pollers.
type Manager struct {
	svc    *service.Service
	client *http.Client

	mu          sync.Mutex
	maps        map[string]*mapping
	order       []string // UUIDs in creation order
	funcs       map[string]Function
	endpoint    string       // the default Lambda endpoint
	sink        func([]byte) // told of every invocation record (Go API), or nil
	closed      bool
	saver       func([]byte)      // hears the mappings after each change (persist.go), or nil
	pending     map[string]saved  // saved mappings of files, by origin, until their file makes them again
	backoff     time.Duration     // the wait before a failed batch's first retry (SetRetryBackoff)
	filterQuota int               // filters a mapping may have (SetFilterQuota; 0: DefaultFilterQuota)
	made        *streamlog.Signal // notified when a stream is made (SetStreamChanges); nil: none
	log         *slog.Logger      // hears the files' mappings change (SetLogger); nil: none
	quit        chan struct{}     // closed by Close: the files' watchers stop
	targets     Targets           // what mappings may reach (targets.go)
	// hadMappings: the last save (or the restored state) held a mapping,
	// so a save with none must replace it.
	hadMappings bool

	saveMu sync.Mutex // serializes saves: the last one saved is the latest
	// saveWant counts the checkpoints moved (under mu); saveDone is the
	// count the last save read before it took the mappings (under
	// saveMu), so a save begun after a checkpoint moved holds it.
	saveWant, saveDone uint64
}

// SetEndpoint sets the Lambda endpoint functions are invoked at when
// neither a Go function nor the mapping names one.
func (m *Manager) SetEndpoint(url string) {
	m.mu.Lock()
	m.endpoint = trimSlash(url)
	m.mu.Unlock()
}

// SetFunction makes fn the function called name (nil: removes it).
func (m *Manager) SetFunction(name string, fn Function) {
	m.mu.Lock()
	if fn == nil {
		delete(m.funcs, name)
	} else {
		m.funcs[name] = fn
	}
	m.mu.Unlock()
}

// OnFailure makes fn hear every invocation record of a discarded batch
// (nil: none), beside its mapping's destination.
func (m *Manager) OnFailure(fn func(record []byte)) {
	m.mu.Lock()
	m.sink = fn
	m.mu.Unlock()
}

// Create makes a mapping and starts its poller.
func (m *Manager) Create(s *Spec) (Configuration, error) { return m.create(s, "", nil) }

// create makes a mapping of origin origin ("": the API's), from a
// saved one when sv is not nil, and starts its poller.
func (m *Manager) create(s *Spec, origin string, sv *saved) (Configuration, error) {
	var st settings
	if err := m.checkFilterQuota(s); err != nil {
		return Configuration{}, err
	}
	if err := st.apply(s, true); err != nil {
		return Configuration{}, err
	}
	if err := m.targetsNow().check(&st); err != nil {
		return Configuration{}, err
	}
	// Lambda validates the stream an EventSourceArn names (a mapping
	// saved before a restart is made again whatever became of it).
	if st.sourceARN != "" && sv == nil {
		if _, ok := m.findStream(st.sourceARN, m.svc.Now()); !ok {
			return Configuration{}, invalidParameter("Stream not found: " + st.sourceARN)
		}
	}
	id := newUUID()
	if s.UUID != nil && *s.UUID != "" {
		id = *s.UUID
	}
	mp := newMapping(m, id, st, m.svc.Now())
	mp.origin = origin
	if sv != nil {
		mp.restore(sv)
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return Configuration{}, fmt.Errorf("lambdaesm: closed")
	}
	if _, dup := m.maps[id]; dup {
		m.mu.Unlock()
		return Configuration{}, &apiError{typ: "ResourceConflictException", status: 409,
			msg: "An event source mapping with UUID " + id + " already exists."}
	}
	m.maps[id] = mp
	m.order = append(m.order, id)
	m.mu.Unlock()
	go mp.run()
	m.save()
	c := mp.config()
	c.State = "Creating"
	return c, nil
}

// SetStreamChanges gives the Manager the Signal its service notifies when
// a stream is made or forgotten (service.Config.StreamChanges): a
// mapping waiting for its table's stream waits on it. Without one such a
// mapping looks again every idlePoll.
func (m *Manager) SetStreamChanges(s *streamlog.Signal) {
	m.mu.Lock()
	m.made = s
	m.mu.Unlock()
}

// streamsMade returns the channel of the next stream made, and the poll
// interval when there is none (0: no poll).
func (m *Manager) streamsMade() (<-chan struct{}, time.Duration) {
	m.mu.Lock()
	s := m.made
	m.mu.Unlock()
	if s == nil {
		return nil, idlePoll
	}
	return s.Changed(), 0
}

// SetFilterQuota sets how many filters a mapping may have (0:
// DefaultFilterQuota; at most MaxFilterQuota), as a Lambda quota
// increase does; mappings made or updated after it are checked against it.
func (m *Manager) SetFilterQuota(n int) {
	m.mu.Lock()
	m.filterQuota = min(n, MaxFilterQuota)
	m.mu.Unlock()
}

// checkFilterQuota refuses more filters than the quota: "If you attempt
// to add more filters than your current quota permits, Lambda will
// return an error when you try to create the event source" ("Control
// which events Lambda sends to your function").
func (m *Manager) checkFilterQuota(s *Spec) error {
	if s.FilterCriteria == nil {
		return nil
	}
	m.mu.Lock()
	quota := cmp.Or(m.filterQuota, DefaultFilterQuota)
	m.mu.Unlock()
	if n := len(s.FilterCriteria.Filters); n > quota {
		return invalidParameter(fmt.Sprintf("The number of filters (%d) exceeds the quota of %d filters per event source mapping", n, quota))
	}
	return nil
}

// Get returns the mapping uuid's configuration.
func (m *Manager) Get(uuid string) (Configuration, error) {
	mp := m.lookup(uuid)
	if mp == nil {
		return Configuration{}, notFound()
	}
	return mp.config(), nil
}

// List returns the mappings, in creation order, of a source ARN and a
// function ("" matches any).
func (m *Manager) List(sourceARN, function string) []Configuration {
	m.mu.Lock()
	all := make([]*mapping, 0, len(m.order))
	for _, id := range m.order {
		all = append(all, m.maps[id])
	}
	m.mu.Unlock()
	fn, _ := parseFunctionName(function)
	out := []Configuration{}
	for _, mp := range all {
		c := mp.config()
		if sourceARN != "" && c.EventSourceArn != sourceARN {
			continue
		}
		if st := mp.settings(); function != "" && (st.function != fn.name || fn.qualifier != "" && st.fnRef.qualifier != fn.qualifier) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// Update changes the mapping uuid's settings.
func (m *Manager) Update(uuid string, s *Spec) (Configuration, error) {
	mp := m.lookup(uuid)
	if mp == nil {
		return Configuration{}, notFound()
	}
	if err := mp.update(s); err != nil {
		return Configuration{}, err
	}
	m.save()
	c := mp.config()
	c.State = "Updating"
	return c, nil
}

// Delete stops and forgets the mapping uuid.
func (m *Manager) Delete(uuid string) (Configuration, error) {
	m.mu.Lock()
	mp := m.maps[uuid]
	if mp != nil {
		delete(m.maps, uuid)
		m.order = slices.DeleteFunc(m.order, func(id string) bool { return id == uuid })
	}
	m.mu.Unlock()
	if mp == nil {
		return Configuration{}, notFound()
	}
	mp.stop()
	m.save()
	c := mp.config()
	c.State = "Deleting"
	return c, nil
}

// Status is a mapping's progress, for the drain's timeout and the
// console.
type Status struct {
	Configuration
	Position        string // the sequence number after the last record handled ("" before the first read)
	Invocations     int64
	FunctionErrors  int64
	Discarded       int64 // records sent to the on-failure destination
	Filtered        int64 // records no filter matched
	LastError       string
	LastBatchSize   int
	IteratorAgeSecs int64 // the age of the last record handled, at its handling
}

// Statuses returns every mapping's status, in creation order.
func (m *Manager) Statuses() []Status {
	m.mu.Lock()
	all := make([]*mapping, 0, len(m.order))
	for _, id := range m.order {
		all = append(all, m.maps[id])
	}
	m.mu.Unlock()
	out := make([]Status, 0, len(all))
	for _, mp := range all {
		out = append(out, mp.status())
	}
	return out
}

// Failures returns the invocation records of the batches the mapping
// uuid discarded (the last maxKeptFailures), oldest first.
func (m *Manager) Failures(uuid string) ([][]byte, error) {
	mp := m.lookup(uuid)
	if mp == nil {
		return nil, notFound()
	}
	mp.mu.Lock()
	defer mp.mu.Unlock()
	return slices.Clone(mp.failures), nil
}

// Drain returns once every enabled mapping has handled every record its
// stream held when Drain was called (delivered, dropped by its filters,
// or discarded to its on-failure destination after its retries or its
// maximum age), or, when ctx ends first, an error naming the mappings
// still behind. A batching window does not hold such records back.
func (m *Manager) Drain(ctx context.Context) error {
	m.mu.Lock()
	all := make([]*mapping, 0, len(m.order))
	for _, id := range m.order {
		all = append(all, m.maps[id])
	}
	m.mu.Unlock()
	type goal struct {
		mp     *mapping
		target uint64
	}
	var goals []goal
	for _, mp := range all {
		if t, ok := mp.drainTarget(); ok {
			goals = append(goals, goal{mp, t})
		}
	}
	var stuck []string
	for _, g := range goals {
		if err := g.mp.waitFor(ctx, g.target); err != nil {
			stuck = append(stuck, g.mp.describeStuck(g.target))
		}
	}
	if len(stuck) > 0 {
		return &DrainError{Stuck: stuck, Cause: ctx.Err()}
	}
	return nil
}

// DrainError is a drain that ended before every mapping caught up.
type DrainError struct {
	Stuck []string // one line per mapping behind
	Cause error
}

func (e *DrainError) Error() string {
	msg := "streams not drained: "
	for i, s := range e.Stuck {
		if i > 0 {
			msg += "; "
		}
		msg += s
	}
	return msg
}

func (e *DrainError) Unwrap() error { return e.Cause }

// Close stops every poller and saves the mappings with their
// checkpoints.
func (m *Manager) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	close(m.quit)
	all := make([]*mapping, 0, len(m.maps))
	for _, mp := range m.maps {
		all = append(all, mp)
	}
	m.mu.Unlock()
	for _, mp := range all {
		mp.stop()
	}
	m.save()
}

func (m *Manager) lookup(uuid string) *mapping {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.maps[uuid]
}

// target returns how the function called name is invoked: its Go
// function, or the endpoint (the mapping's, else the manager's).
func (m *Manager) target(name, endpoint string) (Function, string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if fn := m.funcs[name]; fn != nil {
		return fn, ""
	}
	if endpoint == "" {
		endpoint = m.endpoint
	}
	return nil, endpoint
}

// streams returns the streams of every namespace at now.
func (m *Manager) streams(now time.Time) []service.Stream {
	var out []service.Stream
	for _, id := range m.svc.NamespaceIDs() {
		if m.svc.Forked(id) != nil {
			continue // a fork not changed yet (a branch) has no records: left sharing its catalog
		}
		if ns := m.svc.Namespace(id); ns != nil {
			out = append(out, ns.Space().Streams(now)...)
		}
	}
	return out
}

// findStream returns the stream of ARN arn in any namespace.
func (m *Manager) findStream(arn string, now time.Time) (service.Stream, bool) {
	for _, s := range m.streams(now) {
		if s.ARN() == arn {
			return s, true
		}
	}
	return service.Stream{}, false
}

// tableStream returns the enabled stream of the table called name, the
// latest made, in any namespace.
func (m *Manager) tableStream(name string, now time.Time) (service.Stream, bool) {
	var best service.Stream
	found := false
	for _, s := range m.streams(now) {
		if s.TableName() != name {
			continue
		}
		if st, _ := s.State(now); st != service.Enabled {
			continue
		}
		if !found || s.Created().After(best.Created()) {
			best, found = s, true
		}
	}
	return best, found
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// noRedirect is the invoking client's CheckRedirect: Lambda's Invoke
// API does not redirect, and a redirect followed would send the records
// where the mapping's checked URL does not name (targets.go).
func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func trimSlash(s string) string {
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

// FunctionsOf returns the functions of the enabled mappings reading the
// stream arn now, in creation order.
func (m *Manager) FunctionsOf(arn string) []string {
	m.mu.Lock()
	all := make([]*mapping, 0, len(m.order))
	for _, id := range m.order {
		all = append(all, m.maps[id])
	}
	m.mu.Unlock()
	var out []string
	for _, mp := range all {
		if st := mp.settings(); st.enabled && st.sourceARN == arn {
			out = append(out, cmp.Or(st.fnSpec, st.function))
		}
	}
	return out
}
