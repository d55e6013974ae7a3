package emulator

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"net/http"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/lambdaesm"
	"github.com/dynamoemu/dynamoemu/emulator/internal/sigv4"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/iam"
)

// Streams that call a handler: Lambda's event source mappings over the
// tables' streams (emulator/internal/lambdaesm), configured through
// Lambda's REST API on the emulator's port (/2015-03-31/event-source-mappings,
// routed by the edge), a mappings file, or the Go API below, and a
// drain for tests:
//
//	POST /dynamoemu/streams/drain     {"timeout":"30s"} -> {"drained":true}, or 504 naming the stuck mappings
//	GET  /dynamoemu/streams/mappings  every mapping's configuration and progress

// defaultDrainTimeout is how long POST /dynamoemu/streams/drain waits
// when its body names no timeout.
const defaultDrainTimeout = 30 * time.Second

// EventSourceMapping is a mapping as Streams.CreateMapping makes it:
// Lambda's CreateEventSourceMapping request (the members
// that apply to a DynamoDB stream), plus TableName (the latest stream
// of a table, which may be created later) and Endpoint (the Lambda
// endpoint of this mapping's function, instead of
// Streams.SetLambdaEndpoint's).
type EventSourceMapping struct {
	EventSourceArn                 *string         `json:",omitempty"`
	TableName                      *string         `json:",omitempty"`
	FunctionName                   *string         `json:",omitempty"`
	Endpoint                       *string         `json:",omitempty"`
	Enabled                        *bool           `json:",omitempty"`
	BatchSize                      *int64          `json:",omitempty"`
	MaximumBatchingWindowInSeconds *int64          `json:",omitempty"`
	StartingPosition               *string         `json:",omitempty"`
	FilterPatterns                 []string        `json:"-"` // each a Pattern of FilterCriteria
	MaximumRetryAttempts           *int64          `json:",omitempty"`
	MaximumRecordAgeInSeconds      *int64          `json:",omitempty"`
	BisectBatchOnFunctionError     *bool           `json:",omitempty"`
	FunctionResponseTypes          []string        `json:",omitempty"`
	ParallelizationFactor          *int64          `json:",omitempty"`
	TumblingWindowInSeconds        *int64          `json:",omitempty"`
	OnFailureDestination           *string         `json:"-"` // file://, http(s):// or an ARN
	UUID                           *string         `json:",omitempty"`
	FilterCriteria                 json.RawMessage `json:",omitempty"` // as Lambda's API takes it, instead of FilterPatterns
}

// spec converts the public request into the feature's.
func (m EventSourceMapping) spec() (*lambdaesm.Spec, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var s lambdaesm.Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	if len(m.FilterPatterns) > 0 {
		fc := &lambdaesm.FilterCriteria{}
		for _, p := range m.FilterPatterns {
			fc.Filters = append(fc.Filters, lambdaesm.Filter{Pattern: &p})
		}
		s.FilterCriteria = fc
	}
	if m.OnFailureDestination != nil {
		s.DestinationConfig = &lambdaesm.DestinationConfig{OnFailure: &lambdaesm.OnFailure{Destination: m.OnFailureDestination}}
	}
	return &s, nil
}

func (e *Emulator) esm() *lambdaesm.Manager { return lambdaesm.Of(e.svc) }

// Streams are the tables' stream handlers: Lambda's event source
// mappings over the tables' streams, each calling a function (a Go func
// set by SetFunction, or one invoked over Lambda's API at its Endpoint
// or SetLambdaEndpoint's) with batches of records, and Drain, which
// waits until they have handled every record written. Mappings are also
// made over Lambda's REST API on the emulator's port, from a mappings
// file (LoadMappings) or a Serverless Framework file (LoadServerless).
// The zero Streams is not usable: Emulator.Streams returns one.
type Streams struct{ e *Emulator }

// Streams returns the emulator's stream handlers.
func (e *Emulator) Streams() Streams { return Streams{e} }

// CreateMapping makes a mapping and returns its UUID.
func (s Streams) CreateMapping(m EventSourceMapping) (string, error) {
	e := s.e
	spec, err := m.spec()
	if err != nil {
		return "", err
	}
	c, err := e.esm().Create(spec)
	if err != nil {
		return "", err
	}
	return c.UUID, nil
}

// UpdateMapping changes the members m sets of mapping uuid.
func (s Streams) UpdateMapping(uuid string, m EventSourceMapping) error {
	spec, err := m.spec()
	if err != nil {
		return err
	}
	_, err = s.e.esm().Update(uuid, spec)
	return err
}

// DeleteMapping stops and forgets mapping uuid.
func (s Streams) DeleteMapping(uuid string) error {
	_, err := s.e.esm().Delete(uuid)
	return err
}

// SetLambdaEndpoint sets where functions are invoked (Lambda's Invoke
// API: POST {url}/2015-03-31/functions/NAME/invocations, as
// serverless-offline's lambda port serves it) when no Go function of
// their name is set.
func (s Streams) SetLambdaEndpoint(url string) { s.e.esm().SetEndpoint(url) }

// SetFunction makes fn the function called name: the mappings of that
// function call it with the event's JSON ({"Records":[...]}); an error
// is a function error, and the answer is read for batchItemFailures.
// nil removes it.
func (s Streams) SetFunction(name string, fn func(ctx context.Context, event []byte) ([]byte, error)) {
	if fn == nil {
		s.e.esm().SetFunction(name, nil)
		return
	}
	s.e.esm().SetFunction(name, fn)
}

// Failures returns the invocation records (as Lambda sends an
// on-failure destination) of the batches mapping uuid discarded, oldest
// first.
func (s Streams) Failures(uuid string) ([][]byte, error) { return s.e.esm().Failures(uuid) }

// LoadMappings reads a mappings file (cmd/dynamoemu's
// -eventSourceMappings; docs/stream-handlers.md) and creates its
// mappings.
func (s Streams) LoadMappings(path string) error { return s.e.esm().LoadFile(path) }

// Drain returns once every enabled mapping has handled every
// record written before the call: delivered, dropped by its filters, or
// discarded to its on-failure destination after its retries or its
// maximum record age. When ctx ends first, the error names each mapping
// still behind, where it is and its last error.
func (s Streams) Drain(ctx context.Context) error { return s.e.esm().Drain(ctx) }

// EventSourceMappingStatus is a mapping's state and progress, for the
// console, the MCP server and GET adminpath.StreamsMappings.
type EventSourceMappingStatus struct {
	UUID                 string `json:"uuid"`
	FunctionArn          string `json:"functionArn"`
	EventSourceArn       string `json:"eventSourceArn"` // "" until a TableName mapping finds its table's stream
	State                string `json:"state"`          // Enabled or Disabled
	LastProcessingResult string `json:"lastProcessingResult"`
	Position             string `json:"position"` // the sequence number after the last record handled
	Invocations          int64  `json:"invocations"`
	FunctionErrors       int64  `json:"functionErrors"`
	Discarded            int64  `json:"discarded"` // records sent to the on-failure destination
	Filtered             int64  `json:"filtered"`  // records no filter matched
	LastError            string `json:"lastError,omitempty"`
	LastBatchSize        int    `json:"lastBatchSize"`
	IteratorAgeSeconds   int64  `json:"iteratorAgeSeconds"` // the age of the last record handled, when it was
}

// Mappings returns every mapping's state and progress, in creation
// order.
func (s Streams) Mappings() []EventSourceMappingStatus {
	all := s.e.esm().Statuses()
	out := make([]EventSourceMappingStatus, len(all))
	for i, st := range all {
		out[i] = EventSourceMappingStatus{UUID: st.UUID, FunctionArn: st.FunctionArn, EventSourceArn: st.EventSourceArn,
			State: st.State, LastProcessingResult: st.LastProcessingResult, Position: st.Position,
			Invocations: st.Invocations, FunctionErrors: st.FunctionErrors, Discarded: st.Discarded, Filtered: st.Filtered,
			LastError: st.LastError, LastBatchSize: st.LastBatchSize, IteratorAgeSeconds: st.IteratorAgeSecs}
	}
	return out
}

// isLambdaPath reports whether path is Lambda's event source mapping API.
func isLambdaPath(path string) bool { return strings.HasPrefix(path, lambdaesm.APIPrefix) }

// serveLambda serves Lambda's event source mapping API. The mappings
// are the emulator's, not a namespace's, but a mapping sends a table's
// records to its function and its on-failure destination, so with
// Options.Credentials every request needs credentials, as Lambda's API
// does: a SigV4 signature by a listed key scoped to the service lambda
// (as the AWS CLI's and the SDKs' Lambda clients sign), or one of
// Options.AdminTokens (as the admin endpoints take it; the npm
// package's createEventSourceMapping sends it). A refusal is Lambda's
// answer (lambdaesm.WriteRefusal). With Options.IAM, each call of a key
// with an identity is decided as IAM's lambda:CreateEventSourceMapping,
// lambda:ListEventSourceMappings, ... (lambdaesm.Guard) with the IAM
// stage's evaluator (iam.Authorize); a token, or a key without an
// identity, acts as the account's root. With Options.Conventions each
// call is judged on its declaration (lambdaesm.Decls: judgeBound,
// boundary.go): a caller bound to a tenant may not make, change or
// delete a mapping of the stream of a table that opts in, which would
// hand it every tenant's records.
func (e *Emulator) serveLambda(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	if err := lambdaesm.CheckSize(r); err != nil { // a body announced over the limit: answered before anything reads it
		lambdaesm.WriteError(w, err)
		return
	}
	var g *lambdaesm.Guard
	var c *sigv4.Check
	if e.keys != nil {
		var err error
		c, err = e.keys.Auth(r, sigv4.ServiceLambda, lambdaesm.MaxAPIBody)
		if errors.Is(err, apierr.ErrRequestEntityTooLarge) { // a body of unknown length, found over the limit as it was read
			err = lambdaesm.TooLarge(r)
		}
		if err != nil {
			lambdaesm.WriteRefusal(w, err)
			return
		}
		if c != nil && e.iam != nil {
			if id := e.iam.identity(c.KeyID()); id != nil {
				g = &lambdaesm.Guard{Region: c.Region(), Allow: func(op, resource, function string) error {
					var keys map[string][]string
					if function != "" {
						keys = map[string][]string{"lambda:functionarn": {function}}
					}
					return iam.Authorize(id, "lambda:"+op, resource, keys)
				}}
			}
		}
	}
	if e.opts.Conventions != nil {
		if g == nil {
			g = &lambdaesm.Guard{}
		}
		g.Judge = func(op string, d boundary.Decl, stream string) error {
			return e.judgeBound(r, c, op, d, func() []string {
				if t := boundary.TableOf(stream); t != "" {
					return []string{t}
				}
				return nil
			})
		}
	}
	e.esm().Serve(w, r, g)
}

// LoadServerless reads a Serverless Framework service file
// (cmd/dynamoemu's -serverless): each function's DynamoDB stream events
// become mappings to the function as serverless-offline names it, their
// ARNs matched to tables by name, ${env:...} resolved with getenv (and
// .env beside the file with useDotenv). The file is read again as
// tables are made and, while an event waits, as its .env changes
// (docs/stream-handlers.md). It returns why events were left out or
// wait at the start; later changes are logged.
func (s Streams) LoadServerless(path string, getenv func(string) string) ([]string, error) {
	return s.e.esm().LoadServerless(path, getenv)
}

// streamRead hears each stream a client reads (GetShardIterator,
// GetRecords: streamsapi.ReaderWatch). A client reading a stream that an
// enabled event source mapping also delivers is most often a second
// poller, such as serverless-offline-dynamodb-streams in the framework
// template's plugin list, which hands each record to the same function
// again: warned of once per stream (docs/stream-handlers.md).
func (e *Emulator) streamRead(arn string) {
	if _, done := e.pollersWarned.Load(arn); done {
		return
	}
	fns := e.esm().FunctionsOf(arn)
	if len(fns) == 0 {
		return
	}
	if _, done := e.pollersWarned.LoadOrStore(arn, true); done {
		return
	}
	e.log.Warn("a client reads a stream with GetShardIterator or GetRecords while an event source mapping delivers it: "+
		"if that client is a poller such as serverless-offline-dynamodb-streams, each record reaches the function twice; "+
		"take the plugin out of serverless.yml's plugins (docs/stream-handlers.md)",
		"stream", arn, "functions", strings.Join(fns, ", "))
}
