package wire

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/lease"
)

// Faults of attribute values that the request decoder reads past.
//
// AWS checks a request in layers (the service's validation_order.go): its
// member constraints, expression syntax and sizes come before the values'
// own faults (a malformed number, a duplicate set member, an empty
// attribute name, a value nested too deep), and those before the table is
// looked up. So the request decoder does not stop at such a fault: it
// records the first one with where it was (Deferred), decodes the rest of
// the body, and DecodeRequestDeferred hands it to the operation, which
// reports it at its place. Syntax and serialization errors still end
// decoding at once: they come before every layer.

// Deferred is the first fault of an attribute value in a request body.
type Deferred struct {
	// Err is the ValidationException as the decoder words it (the older
	// layer; apierr.Relayer rewords a malformed value's for an operation).
	Err error
	// Index is the position, in the body's top-level list member (such
	// as TransactItems), of the element holding the value; -1 when the
	// value is in no such list.
	Index int
	// OlderForm: the request holds a value nested past OlderFormDepth.
	OlderForm bool
}

// ValueError is the error a wire type's UnmarshalJSON returns for a value
// it decoded whole but found a fault in (the value is set): the request
// decoder records it as Deferred and goes on; other callers see an error.
type ValueError struct{ Err error }

func (e *ValueError) Error() string { return e.Err.Error() }
func (e *ValueError) Unwrap() error { return e.Err }

// valueError wraps verr (nil: nil).
func valueError(verr error) error {
	if verr == nil {
		return nil
	}
	return &ValueError{Err: verr}
}

// DecodeRequestDeferred is DecodeRequest that reads past the faults of
// attribute values: err is a syntax, serialization or other error that
// ended decoding; otherwise deferred, if not nil, is the first value fault
// and in holds the whole request (a faulty value as read, or a NULL in
// place of a value that names no type).
func DecodeRequestDeferred(body []byte, in any) (deferred *Deferred, err error) {
	d := reqDecoders.Get()
	defer reqDecoders.Put(d)
	d.decoder = decoder{data: body}
	return d.decode(in)
}

// DecodeBody is DecodeRequestDeferred for the body b reads: it reads the
// body once, as the decoder needs it, and the members lim names as their
// policies say (limits.go; nil: whole). What stopped the reading is in b
// (its Err), and b.Buf is then the window: the bytes the request kept,
// which its views (a NameList's, a CompactValues') are of, in use until
// the request is answered. A small body is read whole first. With no
// R, Buf is the whole body.
func DecodeBody(b *Body, in any, lim *Limits) (deferred *Deferred, err error) {
	d := reqDecoders.Get()
	defer reqDecoders.Put(d)
	// The decoder reads its own copy of b, copied back once read: b
	// itself, pointed to by the pooled decoder, moved every caller's Body
	// to the heap (BenchmarkDecodePair/GetItem/handler: 7 -> 6 allocs/op,
	// 328 -> 232 B/op).
	d.read = *b
	d.decoder = decoder{data: b.Buf[:0], src: &d.read, lim: lim}
	switch {
	case b.R == nil:
		d.data, d.src = b.Buf, nil
		d.read.N, d.read.EOF = int64(len(b.Buf)), true
	case b.Size >= 0 && b.Size <= maxBodyText:
		d.rest()
	}
	deferred, err = d.decode(in)
	d.read.Buf = d.data
	*b = d.read
	return deferred, err
}

// decode decodes the input d reads into in; d.data is then the window
// it read it in.
func (d *reqDecoder) decode(in any) (deferred *Deferred, err error) {
	if len(d.data) == 0 && !d.more() {
		// The SDKs always send at least {}; AWS treats an empty body as {}.
		return nil, nil
	}
	if d.data[0] != '{' {
		if d.skipSpace(); d.peek() == 'n' {
			d.rest()
			if isJSONNullSlow(d.data) {
				return nil, apierr.Serialization("")
			}
		}
	}
	rv := reflect.ValueOf(in)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil, unsupported(fmt.Sprintf("request decoder needs a non-nil pointer, not %T", in)).asError()
	}
	v := rv.Elem()
	dec := codecOf(v.Type(), d.lim)
	d.top, d.in = -1, in
	err = d.run(dec, v)
	if decodeCount != nil {
		decodeCount(d.decoded)
	}
	if err != nil {
		if d.deferred != nil && err == d.saved {
			// A value's fault wins over a JSON value of the wrong type,
			// as it did when it ended decoding (wire's doc.go, Caveats).
			return nil, d.deferred.Err
		}
		return nil, err
	}
	if d.deferred != nil {
		d.deferred.OlderForm = d.olderForm
	}
	return d.deferred, nil
}

// decodeCount, set by a test, is told each request's decoding and the
// attribute values it decoded (TestDecodeOnce).
var decodeCount func(values int)

// isJSONNullSlow reports whether body is the JSON literal null, with JSON's
// whitespace around it at most.
//
// AWS refuses such a body: the request must be an object (scylladb's
// AWS-verified test_request_payload_must_be_object in
// test/alternator/test_manual_requests.py, added April 2025, expects an
// error for ListTables with a null body, SerializationException allowed).
// No record gives the message; it is left out as for a body that is not
// JSON at all, AWS's answer to the other bodies that are not an object
// being a SerializationException too ("Start of list found where not
// expected" for [], "Expected null" for a string, number or boolean).
// Without this the struct decoder would read null as "nothing given" and
// answer as for {} (DynamoDB Local answers 500).
//
// Only a body that opens with n, after JSON's space, is trimmed: an
// object's body pays one byte's look, not bytes.Trim
// (BenchmarkOps/GetItem/handler).
func isJSONNullSlow(body []byte) bool {
	i := 0
	for i < len(body) && isJSONSpace(body[i]) {
		i++
	}
	if i == len(body) || body[i] != 'n' {
		return false
	}
	return string(bytes.TrimRight(body[i:], " \t\r\n")) == "null"
}

// reqDecoders are reused request decoders: one escapes to the heap (the
// codecs are function values), and a request should not pay for it.
// Given back zeroed, so the pool holds no request's body.
//
// The pool pays on every operation. BenchmarkOps handler, 2000x -count
// 5, medians, pool on -> off: PutItem 816 -> 961 B/op (+18%), 10 -> 11
// allocs; GetItem 233 -> 376 B/op (+61%); UpdateItemCondition 1308 ->
// 1453 B/op (+11%); QueryPartition10 295 -> 435 B/op (+48%); ScanFiltered
// 714 -> 852 B/op (+19%); TransactGet2 1914 -> 2059 B/op (+8%).
var reqDecoders = lease.NewPool(lease.Config[*reqDecoder]{
	New:   func() *reqDecoder { return new(reqDecoder) },
	Reset: func(d *reqDecoder) bool { *d = reqDecoder{}; return true },
})

// deferValue records verr, the fault of a value decoded whole, as the
// request's Deferred if it is the first.
func (d *reqDecoder) deferValue(verr error) {
	if d.deferred == nil {
		d.deferred = &Deferred{Err: verr, Index: d.top}
	}
}

// deferUnmarshaler records the *ValueError of a wire type's UnmarshalJSON
// and reports whether err was one.
func (d *reqDecoder) deferUnmarshaler(err error) bool {
	var ve *ValueError
	if !errors.As(err, &ve) {
		return false
	}
	d.deferValue(ve.Err)
	return true
}

// isJSONSpace reports whether c is white space between JSON tokens.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
