package service

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/lease"
)

// call is what one request hands to an operation: the database it acts on and
// the request's context, clock and logger.
type call struct {
	ctx       context.Context
	ns        *Namespace // the database selected by access key + region (or shared)
	region    string     // region from the request's credential scope
	account   string     // account id for ARNs (DynamoDB Local's "000000000000")
	accessKey string     // access key id from the request's credential
	tenantHdr string     // the x-tenant-code header, for the stages' key guards (Call.Tenant)
	op        string     // operation name, e.g. "PutItem"
	requestID string     // x-amzn-RequestId of this request
	host      string     // the request's Host (host[:port]), for DescribeEndpoints
	now       time.Time  // the clock read once when the request arrived
	clock     func() time.Time
	svc       *Service
	out       []byte         // spare buffer for the response body (may be nil)
	tableName *string        // where the request's TableName goes, for the request log; nil: nowhere
	values    *wire.Deferred // a value fault not yet reported (value_order.go)
	inLen     int            // bytes of the JSON body register's adapter decoded the input from; 0: none (item_size_bound.go)
	cut       Cut            // the list the edge cut while the body arrived (ListCutOf)
	pipe      pipe           // a data-plane request's context in the pipeline (pipeline_item.go)
	in        any            // a data-plane request's decoded input, for the stages (Call.Input)

	lease.Owned // lent by calls for one request (call_pool.go)
}

// Now returns the time the request arrived (one clock reading per request,
// so every timestamp a request writes is the same).
func (c *call) Now() time.Time { return c.now }

// Context returns the request's context: long scans may stop when it is done.
func (c *call) Context() context.Context { return c.ctx }

// TargetPrefix is the X-Amz-Target prefix of DynamoDB's API.
const TargetPrefix = "DynamoDB_20120810."

// opFunc runs one operation on a raw JSON body and returns the JSON response.
type opFunc func(c *call, body []byte) ([]byte, error)

// ops maps operation names ("PutItem") to their handlers. Filled by register
// from init functions only; read-only afterwards.
var ops = make(map[string]opFunc, 96) // room for every operation: no growth at init

// lookupOp finds the operation an X-Amz-Target names: DynamoDB's
// ("DynamoDB_20120810.PutItem", registered as "PutItem") or another
// API's a feature serves (the Streams API's
// "DynamoDBStreams_20120810.GetRecords", registered under the full
// target: APIOp), named by the part after its prefix.
func lookupOp(target string) (name string, op opFunc, ok bool) {
	if name, ok = strings.CutPrefix(target, TargetPrefix); ok {
		op, ok = ops[name]
		return name, op, ok
	}
	for _, p := range apiPrefixes {
		if strings.HasPrefix(target, p) {
			op, ok = ops[target]
			return target[len(p):], op, ok
		}
	}
	return "", nil, false
}

// register installs the handler of one operation. Call it from an init
// function of the operation's file:
//
//	func init() { register("PutItem", putItem) }
//	func putItem(c *call, in *putItemInput) (*putItemOutput, error)
//
// The adapter decodes the body into a new *In (a pooled one for a
// pooledInput, input_recycle.go) with DecodeRequest (wrong JSON
// types and malformed JSON become SerializationException), calls f, and
// encodes *Out with its appendJSON (or a feature's AppendJSON) method if
// it has one (encode_outputs.go) or else
// encoding/json (a nil *Out encodes as {}), into c.out when there is room.
// A data-plane operation (registerDataPlane) runs inside the request
// pipeline's stages (pipeline.go); any other gets one fault decision per
// call (the installed CallCheckers, stage.go). Registering a name
// twice panics.
func register[In, Out any](name string, f func(c *call, in *In) (*Out, error)) {
	_, appends := any(new(Out)).(JSONAppender) // a feature's output that encodes itself
	h := newOpHandler(name, reflect.TypeFor[In](), reflect.TypeFor[Out](), appends)
	h.get = func() any { return new(In) }
	if _, ok := any(new(In)).(pooledInput); ok { // lent from a pool (input_recycle.go)
		h.pool(h.get)
	}
	h.run = func(c *call, in any) (any, error) {
		out, err := f(c, in.(*In))
		if out == nil {
			return nil, err // no typed nil in the interface: serve encodes it as {}
		}
		return out, err
	}
	ops[name] = h.serve
}

// pool makes h lend its inputs from a pool of those newIn makes (each
// a pooledInput), zeroed when given back.
func (h *opHandler) pool(newIn func() any) {
	inputs := lease.NewPool(lease.Config[any]{
		New:   newIn,
		Reset: func(in any) bool { in.(pooledInput).zeroInput(); return true },
	})
	h.get, h.put = inputs.Get, inputs.Put
}

// newOpHandler checks that name is not registered yet, notes its types
// (OperationShapes) and returns its handler without get, put and run.
// registerDataPlane marks a data-plane name before it registers.
func newOpHandler(name string, in, out reflect.Type, appends bool) *opHandler {
	if _, dup := ops[name]; dup {
		panic("emulator: operation registered twice: " + name)
	}
	if opShapes == nil {
		opShapes = map[string]OpShape{}
	}
	opShapes[name] = OpShape{In: in, Out: out}
	return &opHandler{name: name, data: isDataPlane(name), appends: appends, pre: prescanOf(name)}
}

// opHandler is one registered operation. Only its get, put and run know
// the operation's types; serve, the rest of the adapter, is one function
// for every operation, not a copy per pair of types (each copy was about
// 5.7 kB of the binary, 64 of them).
type opHandler struct {
	name          string
	data, appends bool                          // a data-plane operation; Out is a JSONAppender
	pre           prescan                       // prescanOf(name); nil: none
	get           func() any                    // a new or pooled *In
	put           func(any)                     // gives a pooled *In back; nil: not pooled
	run           func(*call, any) (any, error) // f on the *In; a nil *Out comes back as nil
}

// serve decodes body into a new input, runs the operation and encodes
// its output (register says how).
func (h *opHandler) serve(c *call, body []byte) ([]byte, error) {
	name := h.name
	in := h.get()
	if h.put != nil {
		defer h.put(in)
	}
	if r, ok := in.(recycler); ok {
		defer r.recycle() // input_recycle.go
	}
	c.inLen = len(body)
	var fill func(any)
	if n := c.cut.Elems; n > 0 { // cut as it arrived: the body is reduced (oversize.go)
		c.inLen, fill = c.cut.Len, func(in any) { ListCutOf(name).Filled(in, n) }
	} else if h.pre != nil && !prescanOff.Load() {
		if reduced, f := h.pre(body); reduced != nil {
			body, fill = reduced, f // a list far over its limit (oversize.go)
		}
	}
	deferred, err := wire.DecodeRequestDeferred(body, in)
	if err != nil {
		return nil, valueLayer(name, err)
	}
	if fill != nil {
		fill(in)
	}
	if deferred != nil {
		if !deferredValueOps()[name] {
			return nil, valueLayer(name, deferred.Err)
		}
		c.values = deferred
	}
	noteTable(c.tableName, in)
	if !h.data {
		if err := c.checkCall(c.op, in); err != nil { // c.op: a Streams operation by its own name
			return nil, err
		}
	}
	if h.data {
		c.in = in
	}
	out, err := h.run(c, in)
	if h.data {
		c.finishItem(err)
	}
	if err != nil {
		return nil, err
	}
	if out == nil {
		return append(c.out, "{}"...), nil
	}
	if h.appends {
		return out.(JSONAppender).AppendJSON(c.out), nil
	}
	if a, ok := out.(jsonAppender); ok {
		b := a.appendJSON(c.out)
		if r, ok := out.(recycler); ok {
			r.recycle() // encoded: nothing uses out any more (page_pool.go)
		}
		return b, nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("emulator: encoding %s output: %w", name, err)
	}
	return b, nil
}

// OpShape is the Go types an operation decodes and encodes.
type OpShape struct{ In, Out reflect.Type }

var opShapes map[string]OpShape // by operation name; filled by register only

// OperationShapes returns the types of every registered operation, by
// name (emulator/model_walk_test.go walks them beside the SDK's).
func OperationShapes() map[string]OpShape { return maps.Clone(opShapes) }

// noteTable stores the TableName member of a decoded input in *table,
// for the edge's request log (table nil: the request is not logged).
func noteTable(table *string, in any) {
	if table == nil {
		return
	}
	v := reflect.ValueOf(in)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	f := v.FieldByName("TableName")
	for f.IsValid() && f.Kind() == reflect.Pointer && !f.IsNil() {
		f = f.Elem()
	}
	if f.IsValid() && f.Kind() == reflect.String {
		*table = f.String()
	}
}
