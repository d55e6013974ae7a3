package apierr

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// DynamoDB checks attribute values in one of two layers, and the
// operation decides which one, and so the wording of a malformed number
// or a duplicate set member (AWS's answers captured in four regions,
// 2026-10-09, paritysuite/dynamodb-conformance
// tests/tier3/error-messages/valueLayers.test.ts):
//
//	LayerEnveloped  PutItem, UpdateItem, DeleteItem: the current wording
//	                inside "1 validation error detected: ", wherever the
//	                value sits (item, key, expression value, legacy members)
//	LayerCurrent    GetItem, BatchGetItem, Query: the current wording, bare
//	LayerOlder      BatchWriteItem, TransactWriteItems, TransactGetItems,
//	                Scan and every other operation: the older wording, an
//	                expression value's inside "ExpressionAttributeValues
//	                contains invalid value: ... for key :v"
//
// The current wording quotes a set's members ("Input collection ["a", "b",
// "b"] contains duplicates."), names none of a number set's, and ends an
// unconvertible number's message with ": " and the text even when it is
// empty. The older one prints the members as sent, unquoted, drops the
// prefix and the full stop of the number-set message, leaves the colon out
// for an empty number, and computes a number's magnitude in 32 bits
// (1e2147483647 underflows). DynamoDB Local answers in the older wording
// everywhere.
type Layer int

const (
	LayerOlder Layer = iota
	LayerCurrent
	LayerEnveloped
)

// ValueFault is a malformed attribute value found while decoding a
// request: a number that is not one DynamoDB stores, or a set with a
// duplicate member. The decoder answers it in the older layer; Relayer
// words it for the operation's layer.
type ValueFault struct {
	// Number: the number's text and storage's error for it (nil: a set).
	Number    string
	NumberErr error
	// SetKind and Members: the set's kind and members as sent (binary
	// ones as raw bytes).
	SetKind storage.Kind
	Members []string
	// ExprKey is the ExpressionAttributeValues placeholder the value is
	// (or is in), or "".
	ExprKey string
}

func (f *ValueFault) Error() string { return f.Render(LayerOlder) }

// InExprValue returns a copy of f found in the expression value name.
func (f *ValueFault) InExprValue(name string) *ValueFault {
	g := *f
	g.ExprKey = name
	return &g
}

// Err is the ValidationException of f in the older layer, f its cause.
func (f *ValueFault) Err() error {
	return &Error{Class: ErrValidation, Msg: f.Render(LayerOlder), Cause: f}
}

// Render words f for layer.
func (f *ValueFault) Render(layer Layer) string {
	var msg string
	if f.NumberErr != nil {
		msg = f.renderNumber(layer)
	} else {
		msg = f.renderSet(layer)
	}
	switch layer {
	case LayerOlder:
		if f.ExprKey != "" {
			return MsgExprValueInvalid + msg + MsgExprValueForKey + f.ExprKey
		}
	case LayerEnveloped:
		return validationEnvelope + msg
	}
	return msg
}

func (f *ValueFault) renderNumber(layer Layer) string {
	err := f.NumberErr
	if layer == LayerOlder {
		err = olderNumberError(f.Number, err)
	}
	if errors.Is(err, storage.ErrNumberInvalid) {
		if layer == LayerOlder && f.Number == "" {
			return storage.ErrNumberInvalid.Error()
		}
		return storage.ErrNumberInvalid.Error() + ": " + f.Number
	}
	return err.Error()
}

// olderNumberError is the older layer's error for text, to which the
// current layer answers err: the text read as Java's BigDecimal reads it,
// then the magnitude computed in 32 bits. An exponent whose magnitude, or
// a scale (digits after the point less the exponent) that does not fit a
// 32-bit integer does not convert (1e2147483648, and 1e-2147483648 whose
// scale is 2^31: AWS's answers as recorded by paritysuite/dynamodb-
// conformance, tests/tier3/error-messages/partiqlParameterNumbers.test.ts,
// October 2026); one near the limit wraps (1e2147483647: underflow).
func olderNumberError(text string, err error) error {
	i := strings.IndexAny(text, "eE")
	if i < 0 || !(errors.Is(err, storage.ErrNumberOverflow) || errors.Is(err, storage.ErrNumberUnderflow)) {
		return err
	}
	mant := strings.TrimLeft(text[:i], "+-")
	intPart, frac, _ := strings.Cut(mant, ".")
	e, perr := strconv.ParseInt(text[i+1:], 10, 64)
	if scale := int64(len(frac)) - e; perr != nil || e > math.MaxInt32 || e < -math.MaxInt32 ||
		scale > math.MaxInt32 || scale < math.MinInt32 {
		return storage.ErrNumberInvalid
	}
	// The leading digit's position in the mantissa, as the current layer
	// counts it, then the exponent added in 32 bits.
	lead := int64(0)
	if t := strings.TrimLeft(intPart, "0"); t != "" {
		lead = int64(len(t))
	} else if t := strings.TrimLeft(frac, "0"); t != "" {
		lead = -int64(len(frac) - len(t))
	}
	if adj := int32(e + lead); adj > 0 {
		return storage.ErrNumberOverflow
	}
	return storage.ErrNumberUnderflow
}

func (f *ValueFault) renderSet(layer Layer) string {
	shown := slices.Clone(f.Members)
	if layer == LayerOlder {
		if f.SetKind == storage.KindNS {
			return msgNumberSetDuplicatesOlder
		}
		if f.SetKind == storage.KindBS {
			for i, m := range shown {
				shown[i] = b64(m)
			}
			return fmt.Sprintf(MsgBinarySetDuplicates, strings.Join(shown, ", "))
		}
		return fmt.Sprintf(MsgSetDuplicates, strings.Join(shown, ", "))
	}
	if f.SetKind == storage.KindNS {
		return msgNumberSetDuplicates
	}
	// The members in byte order up to the first repeat, then the repeat,
	// then the rest as sent, each quoted.
	var sorted []string
	rest := []string(nil)
	for i, m := range shown {
		j, found := slices.BinarySearch(sorted, m)
		if found {
			rest = append([]string{m}, shown[i+1:]...)
			break
		}
		sorted = slices.Insert(sorted, j, m)
	}
	list := append(sorted, rest...)
	for i, m := range list {
		if f.SetKind == storage.KindBS {
			m = b64(m)
		}
		list[i] = strconv.Quote(m)
	}
	if f.SetKind == storage.KindBS {
		return fmt.Sprintf(MsgBinarySetDuplicates, strings.Join(list, ","))
	}
	return fmt.Sprintf(MsgSetDuplicates, strings.Join(list, ", "))
}

// A number set's duplicates: the current layer names no members; the older
// one drops the prefix and the full stop too.
const (
	msgNumberSetDuplicates      = "One or more parameter values were invalid: Input collection contains duplicates."
	msgNumberSetDuplicatesOlder = "Input collection contains duplicates"
)

// Relayer words err for layer when it is a ValueFault's (as the decoder
// answers it); any other error is returned as it is.
func Relayer(err error, layer Layer) error {
	var f *ValueFault
	if layer == LayerOlder || !errors.As(err, &f) {
		return err
	}
	return &Error{Class: ErrValidation, Msg: f.Render(layer), Cause: f}
}

// validationEnvelope prefixes the one violation of a request.
const validationEnvelope = "1 validation error detected: "

// b64 is a binary member as AWS's messages show it.
func b64(m string) string { return base64.StdEncoding.EncodeToString([]byte(m)) }
