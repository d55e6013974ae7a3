package wire

import (
	"unsafe"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// MaxValueDepth is DynamoDB's nesting limit: an attribute's own value is level
// 1, and a value nested in 32 levels of L or M is rejected.
const MaxValueDepth = 32

// OlderFormDepth is the nesting level past which AWS's single-item
// operations read a request in an older form, which words some member
// errors otherwise (Deferred.OlderForm): a value 63 maps deep is past it,
// one 40 deep is not ("about 62 levels": paritysuite/dynamodb-conformance
// tests/tier3/validation-ordering/deepRequests.test.ts, us-east-1 and
// eu-west-2, 2026-10-09).
const OlderFormDepth = 63

// AttributeValue is one attribute value in DynamoDB's JSON form, such as
// {"S":"a"} or {"L":[{"N":"1"}]}. Decoding validates it the way DynamoDB does
// (exactly one type, non-empty sets without duplicates, valid numbers and
// base64) and stores numbers in canonical form. A JSON null leaves it invalid
// (IsValid() false), so optional parameters can tell "absent" apart.
type AttributeValue struct{ storage.Value }

// UnmarshalJSON decodes and validates one attribute value.
func (a *AttributeValue) UnmarshalJSON(data []byte) error {
	d := decoder{data: data, docOrder: true}
	d.skipSpace()
	if d.consumeLiteral("null") {
		if err := d.end(); err != nil {
			return err
		}
		a.Value = storage.Value{}
		return nil
	}
	v, err := d.attrValue(1)
	if err = d.finish(err); err != nil {
		return err
	}
	a.Value = v
	return nil
}

// MarshalJSON encodes the value in DynamoDB's JSON form.
func (a AttributeValue) MarshalJSON() ([]byte, error) {
	return AppendValue(nil, a.Value), nil
}

// ValuesOf returns avs as storage values: the same array, not a copy (an
// AttributeValue is a storage.Value and nothing more, which the array
// below checks at compile time); nil for none. Values are immutable; do
// not store into either. The copy it replaces was 0.44 times the body of
// a 4 MB Query of 58,254 KeyConditions (5.61 to 5.17 allocated, 5.12 to
// 4.75 peak, medians of 3 interleaved; go test -run XXX -bench
// 'BenchmarkOversizeMemory/KeyConditions$' ./emulator).
func ValuesOf(avs []AttributeValue) []storage.Value {
	if len(avs) == 0 {
		return nil
	}
	return unsafe.Slice(&avs[0].Value, len(avs))
}

// An AttributeValue has a storage.Value's size, so ValuesOf's view of
// one array as the other is exact.
var _ [unsafe.Sizeof(AttributeValue{}) - unsafe.Sizeof(storage.Value{})]struct{} = [0]struct{}{}

// WireItem is an item (or key) in DynamoDB's JSON form: attribute name to
// value. Decoding validates every value; a null value is rejected as DynamoDB
// does. It has storage.Item's underlying type, so converting between the two
// (Item, ItemToWire) copies nothing.
type WireItem map[string]storage.Value

// UnmarshalJSON decodes and validates a whole item.
func (w *WireItem) UnmarshalJSON(data []byte) error {
	d := decoder{data: data}
	d.skipSpace()
	if d.consumeLiteral("null") {
		if err := d.end(); err != nil {
			return err
		}
		*w = nil
		return nil
	}
	it, err := d.item()
	if err = d.finish(err); err != nil {
		return err
	}
	*w = WireItem(it)
	return nil
}

// MarshalJSON encodes the item with its attribute names in sorted order.
func (w WireItem) MarshalJSON() ([]byte, error) {
	if w == nil {
		return []byte("null"), nil
	}
	return AppendItem(nil, w), nil
}

// Item returns the item as storage values: the same map, not a copy. Values
// are immutable; do not add or delete attributes through either.
func (w WireItem) Item() storage.Item { return storage.Item(w) }

// ItemToWire returns it in wire form: the same map, not a copy; nil for nil.
func ItemToWire(it storage.Item) WireItem { return WireItem(it) }

// DecodeHeld decodes an item as a request held it, written back by
// AppendItem (a key parked: the service's limits.go): a value with a
// fault comes back as it was read, the fault reported already.
func DecodeHeld(data []byte) (storage.Item, error) {
	d := decoder{data: data}
	it, err := d.item()
	if err == nil {
		err = d.end()
	}
	return it, err
}

// DecodeItem decodes and validates an item in DynamoDB's JSON form straight
// into storage values, without the WireItem map in between.
func DecodeItem(data []byte) (storage.Item, error) {
	d := decoder{data: data}
	it, err := d.item()
	if err = d.finish(err); err != nil {
		return nil, err
	}
	return it, nil
}

// ItemMap returns an empty item map for about size attributes, from the
// maps given back when size is small; give it back with RecycleItem.
func ItemMap(size int) storage.Item { return valueMap(size) }
