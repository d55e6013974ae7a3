package service

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/lease"
)

// TargetPrefix is the X-Amz-Target prefix of DynamoDB's API.
const TargetPrefix = "DynamoDB_20120810."

// lookupOp finds the operation an X-Amz-Target names (DynamoDB's, or another
// API's under its full target: APIOp), named by the part after its prefix.
func (sm *seams) lookupOp(target string) (name string, op *opHandler, ok bool) {
	if name, ok = strings.CutPrefix(target, TargetPrefix); ok {
		op, ok = sm.ops[name]
		return name, op, ok
	}
	for _, p := range sm.apis {
		if strings.HasPrefix(target, p) {
			op, ok = sm.ops[target]
			return target[len(p):], op, ok
		}
	}
	return "", nil, false
}

// register installs an operation's handler in sm with d, what it touches
// (package boundary; an invalid one panics): serve decodes the body into a
// new or pooled *In, calls f and encodes *Out with its
// appendJSON/AppendJSON (encode_outputs.go) or encoding/json (nil: {}); a
// data-plane op (d.On boundary.Items) runs in the pipeline's stages
// (pipeline.go), others get the CheckCall hooks, which judge d.
func register[In, Out any](sm *seams, name string, d boundary.Decl, f func(c *call, in *In) (*Out, error)) {
	sm.install(name, d, (*In)(nil), (*Out)(nil), func(c *call, in any) (any, bool, error) {
		out, err := f(c, in.(*In))
		return out, out == nil, err
	})
}

// install is what register and Op share: it knows no type, so it is one copy.
func (sm *seams) install(name string, d boundary.Decl, inPtr, outPtr any, run func(*call, any) (any, bool, error)) {
	if _, dup := sm.ops[name]; dup || !d.Valid() {
		panic("emulator: operation registered twice or undeclared: " + name)
	}
	h := &opHandler{name: name, decl: d, data: d.On == boundary.Items, in: reflect.TypeOf(inPtr).Elem(), out: reflect.TypeOf(outPtr).Elem(), run1: run}
	h.get = func() any { return reflect.New(h.in).Interface() }
	h.implements(h.get(), reflect.New(h.out).Interface())
	sm.ops[name] = h
}

// opHandler is one operation: only get, put and run know its types.
type opHandler struct {
	name                             string
	decl                             boundary.Decl                       // what it touches, judged before it runs
	data                             bool                                // a data-plane operation
	in, out                          reflect.Type                        // *In's and *Out's element types (OperationShapes)
	get                              func() any                          // a new or pooled *In
	put                              func(any)                           // gives a pooled *In back; nil: not pooled
	run1                             func(*call, any) (any, bool, error) // f on the *In, and whether its *Out is nil
	recycle, self, appends, recycles bool                                // asked once (implements): *In is a recycler; *Out a JSONAppender, a jsonAppender, a recycler
	binds                            bool                                // *In is a seamBound
}

// seamBound is an input that holds what the service's features own of
// it (UpdateTableInput's OwnedMembers), told before it is decoded.
type seamBound interface{ bind(sm *seams) }

func (h *opHandler) implements(in, out any) {
	if _, ok := in.(pooledInput); ok {
		p := lease.NewPool(lease.Config[any]{New: h.get, Reset: func(in any) bool { in.(pooledInput).zeroInput(); return true }})
		h.get, h.put = p.Get, p.Put
	}
	_, h.recycle = in.(recycler)
	_, h.binds = in.(seamBound)
	_, h.self = out.(JSONAppender)
	_, h.appends = out.(jsonAppender)
	_, h.recycles = out.(recycler)
}

// giveBack gives the input back, answered: one defer, open-coded (two were not).
func (h *opHandler) giveBack(in any) {
	if h.recycle {
		in.(recycler).recycle() // input_recycle.go
	}
	if h.put != nil {
		h.put(in)
	}
}

// Input is a request's body decoded into its operation's input (Decode),
// for Serve; Release gives it back when it is not served.
type Input struct {
	h        *opHandler
	in       any
	deferred *wire.Deferred
	err      error
	n        int // the body's bytes
}

// Release gives back an input that will not be served.
func (in *Input) Release() {
	if in.h != nil && in.in != nil {
		in.h.giveBack(in.in)
		in.in = nil
	}
}

// decode reads the request's body through the request decoder, once, with
// the service's limits (lim: limits.go): into a new or pooled *In, told
// what sm's features own of it first.
func (h *opHandler) decode(body *wire.Body, sm *seams, lim *wire.Limits) Input {
	in := h.get()
	if h.binds {
		in.(seamBound).bind(sm)
	}
	deferred, err := wire.DecodeBody(body, in, lim)
	if f, ok := in.(finisher); ok {
		err = cmp.Or(err, f.finish(err == nil))
	}
	return Input{h: h, in: in, deferred: deferred, err: err, n: int(body.N)}
}

// run runs the operation on its decoded input, and gives the input back.
func (h *opHandler) run(c *call, input Input) ([]byte, error) {
	name, in := h.name, input.in
	defer h.giveBack(in)
	c.decl = h.decl
	c.inLen = input.n
	if input.err != nil {
		return nil, valueLayer(name, input.err)
	}
	if deferred := input.deferred; deferred != nil {
		if !deferredValueOps()[name] {
			return nil, valueLayer(name, deferred.Err)
		}
		c.values = deferred
	}
	noteTable(c.tableName, in)
	if h.data {
		c.in = in
	} else if err := c.checkCall(c.op, in); err != nil { // c.op: a Streams operation by its own name
		return nil, err
	}
	out, none, err := h.run1(c, in)
	if err != nil {
		return nil, err
	}
	if none {
		return append(c.out, "{}"...), nil
	}
	if h.self { // a feature's output that encodes itself
		return out.(JSONAppender).AppendJSON(c.out), nil
	}
	if h.appends {
		b := out.(jsonAppender).appendJSON(c.out)
		if h.recycles {
			out.(recycler).recycle() // encoded: nothing uses out any more (page_pool.go)
		}
		return b, nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("emulator: encoding %s output: %w", name, err)
	}
	return b, nil
}

// OpShape is the Go types an operation decodes and encodes, and what it
// touches.
type OpShape struct {
	In, Out reflect.Type
	Decl    boundary.Decl
}

// OperationShapes returns the types of every operation of the service, by
// name.
func (s *Service) OperationShapes() map[string]OpShape {
	out := make(map[string]OpShape, len(s.seams.ops))
	for name, h := range s.seams.ops {
		out[name] = OpShape{In: h.in, Out: h.out, Decl: h.decl}
	}
	return out
}

// noteTable stores a decoded input's TableName in *table (nil: not logged).
func noteTable(table *string, in any) {
	if table != nil { // in is a *In; its TableName a string or a *string
		if v := reflect.Indirect(reflect.ValueOf(in)); v.Kind() == reflect.Struct {
			if f := reflect.Indirect(v.FieldByName("TableName")); f.Kind() == reflect.String {
				*table = f.String()
			}
		}
	}
}
