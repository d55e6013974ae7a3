package emulator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"time"
)

// call is what one request hands to an operation: the database it acts on and
// the request's context, clock and logger.
type call struct {
	ctx       context.Context
	ns        *Namespace // the database selected by access key + region (or shared)
	region    string     // region from the request's credential scope
	account   string     // account id for ARNs (DynamoDB Local's "000000000000")
	accessKey string     // access key id from the request's credential
	op        string     // operation name, e.g. "PutItem"
	requestID string     // x-amzn-RequestId of this request
	host      string     // the request's Host (host[:port]), for DescribeEndpoints
	now       time.Time  // the clock read once when the request arrived
	clock     func() time.Time
	log       *slog.Logger // carries op and request id
	emu       *Emulator
}

// Now returns the time the request arrived (one clock reading per request,
// so every timestamp a request writes is the same).
func (c *call) Now() time.Time { return c.now }

// Context returns the request's context: long scans may stop when it is done.
func (c *call) Context() context.Context { return c.ctx }

// opFunc runs one operation on a raw JSON body and returns the JSON response.
type opFunc func(c *call, body []byte) ([]byte, error)

// ops maps operation names ("PutItem") to their handlers. Filled by register
// from init functions only; read-only afterwards.
var ops = map[string]opFunc{}

// register installs the handler of one operation. Call it from an init
// function of the operation's file:
//
//	func init() { register("PutItem", putItem) }
//	func putItem(c *call, in *putItemInput) (*putItemOutput, error)
//
// The adapter decodes the body into a new *In (wrong JSON types and malformed
// JSON become SerializationException), calls f, and encodes *Out with
// encoding/json (a nil *Out encodes as {}). Registering a name twice panics.
func register[In, Out any](name string, f func(c *call, in *In) (*Out, error)) {
	if _, dup := ops[name]; dup {
		panic("emulator: operation registered twice: " + name)
	}
	ops[name] = func(c *call, body []byte) ([]byte, error) {
		in := new(In)
		if err := decodeRequest(body, in); err != nil {
			return nil, err
		}
		out, err := f(c, in)
		if err != nil {
			return nil, err
		}
		if out == nil {
			return []byte("{}"), nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("emulator: encoding %s output: %w", name, err)
		}
		return b, nil
	}
}

// decodeRequest decodes a request body into in. Syntax errors and JSON values
// of the wrong type become SerializationException with AWS's wording; errors
// from the wire types (ValidationException, ...) pass through unchanged.
func decodeRequest(body []byte, in any) error {
	if len(body) == 0 {
		// The SDKs always send at least {}; AWS treats an empty body as {}.
		return nil
	}
	err := json.Unmarshal(body, in)
	if err == nil {
		return nil
	}
	if _, ok := classify(err); ok {
		return err
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return errSerialization(typeErrorMessage(te, body))
	}
	return errSerialization("")
}

// typeErrorMessage words a JSON type mismatch as AWS's request layer does
// ("NUMBER_VALUE cannot be converted to String"). body is the request body,
// to tell true from false.
func typeErrorMessage(te *json.UnmarshalTypeError, body []byte) string {
	t := te.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var token string
	switch te.Value {
	case "array":
		return msgSerListStart
	case "object":
		return msgSerMapStart
	case "string":
		token = "STRING_VALUE"
	case "bool":
		token = "FALSE_VALUE"
		if te.Offset >= 4 && te.Offset <= int64(len(body)) && string(body[te.Offset-4:te.Offset]) == "true" {
			token = "TRUE_VALUE"
		}
	default:
		token = "NUMBER_VALUE"
	}
	switch t.Kind() {
	case reflect.String:
		return token + " cannot be converted to String"
	case reflect.Bool:
		return token + " cannot be converted to Boolean"
	case reflect.Int, reflect.Int32, reflect.Int16, reflect.Int8, reflect.Uint, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		return token + " cannot be converted to Integer"
	case reflect.Int64, reflect.Uint64:
		return token + " cannot be converted to Long"
	case reflect.Float32, reflect.Float64:
		return token + " cannot be converted to Double"
	case reflect.Slice, reflect.Array:
		return msgSerExpectedList
	case reflect.Map:
		return msgSerExpectedMap
	}
	return msgSerExpectedNull
}
