package service

import (
	"fmt"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Shared helpers of the data-plane operations (PutItem, GetItem, DeleteItem,
// UpdateItem, Query, Scan, BatchGetItem, BatchWriteItem): key validation
// and per-request expression compilation (capacity accounting is in
// capacity.go).

// DynamoDB's key size limits, in bytes of the raw string or binary value.
const (
	maxPartitionKeyBytes = tablespec.MaxPartitionKeyBytes
	maxSortKeyBytes      = tablespec.MaxSortKeyBytes
	// maxItemBytes is DynamoDB's item size limit (400 KB).
	maxItemBytes = 400 * 1024
)

// keyFromKeyParam validates a Key request parameter (GetItem, DeleteItem,
// UpdateItem, BatchGetItem, BatchWriteItem DeleteRequest): exactly the
// table's key attributes, each of the schema's type, non-empty and within
// the size limits. Any shape mismatch is AWS's one generic message.
func (t *table) keyFromKeyParam(key storage.Item) (storage.Key, error) {
	ks := t.schema
	want := 1
	if ks.HasSort() {
		want = 2
	}
	if len(key) != want {
		return storage.Key{}, apierr.KeyShape(apierr.MsgKeySchemaMismatch)
	}
	var k storage.Key
	var err error
	if k.Partition, err = keyParamAttr(key, ks.Partition, true); err != nil {
		return storage.Key{}, err
	}
	if ks.HasSort() {
		if k.Sort, err = keyParamAttr(key, ks.Sort, false); err != nil {
			return storage.Key{}, err
		}
	}
	return k, nil
}

func keyParamAttr(key storage.Item, attr storage.KeyAttr, partition bool) (storage.Value, error) {
	v, ok := key[attr.Name]
	if !ok || v.Kind() != attr.Kind {
		return storage.Value{}, apierr.KeyShape(apierr.MsgKeySchemaMismatch)
	}
	return v, checkKeyValue(attr.Name, v, partition)
}

// keyFromItem validates the key attributes of a whole item (PutItem,
// BatchWriteItem PutRequest): present, of the schema's type, non-empty and
// within the size limits. Other attributes are not looked at.
func (t *table) keyFromItem(item storage.Item) (storage.Key, error) {
	ks := t.schema
	var k storage.Key
	var err error
	if k.Partition, err = itemKeyAttr(item, ks.Partition, true); err != nil {
		return storage.Key{}, err
	}
	if ks.HasSort() {
		if k.Sort, err = itemKeyAttr(item, ks.Sort, false); err != nil {
			return storage.Key{}, err
		}
	}
	return k, nil
}

// indexes returns the table's secondary index definitions, which the
// caller must not modify. It takes no lock (see table.meta): writes call it
// inside their storage callbacks.
func (t *table) indexes() (gsis, lsis []*tablespec.IndexDef) {
	m := t.meta.Load()
	return m.GSIs, m.LSIs
}

// checkIndexKeys applies the rules for secondary index key attributes to
// an item about to be written: where present, an index key attribute has
// the type its definition gives and is not an empty string or binary.
// updated selects UpdateItem's wording for the empty case.
func (t *table) checkIndexKeys(item storage.Item, updated bool) error {
	m := t.meta.Load()
	for _, list := range [2][]*tablespec.IndexDef{m.GSIs, m.LSIs} {
		for _, idx := range list {
			if err := idx.CheckItemKey(item, updated); err != nil {
				return err
			}
		}
	}
	if len(m.Vectors) > 0 {
		return tablespec.CheckVectorItem(m.Vectors, item, updated)
	}
	return nil
}

func itemKeyAttr(item storage.Item, attr storage.KeyAttr, partition bool) (storage.Value, error) {
	v, ok := item[attr.Name]
	if !ok {
		return storage.Value{}, apierr.KeyShape(fmt.Sprintf(apierr.MsgKeyMissingInItem, attr.Name))
	}
	if v.Kind() != attr.Kind {
		return storage.Value{}, apierr.KeyShape(fmt.Sprintf(apierr.MsgKeyTypeMismatch, attr.Name, attr.Kind, v.Kind()))
	}
	return v, checkKeyValue(attr.Name, v, partition)
}

// checkKeyValue applies the rules every key value obeys once its type is
// right: S and B non-empty, at most 2048 bytes (partition) or 1024 (sort).
func checkKeyValue(name string, v storage.Value, partition bool) error {
	if v.Kind() == storage.KindN {
		return nil // canonical numbers are far below the limits
	}
	n := len(v.Str())
	switch {
	case n == 0 && v.Kind() == storage.KindS:
		return apierr.Validationf(apierr.MsgKeyEmptyString, name)
	case n == 0:
		return apierr.Validationf(apierr.MsgKeyEmptyBinary, name)
	case partition && n > maxPartitionKeyBytes:
		return apierr.Validation(apierr.MsgHashKeyTooLong)
	case !partition && n > maxSortKeyBytes:
		return apierr.Validation(apierr.MsgRangeKeyTooLong)
	}
	return nil
}

// newCompiler returns the request's expression compiler over its
// ExpressionAttributeNames and ExpressionAttributeValues (either may be
// nil), or the error of the maps themselves (a key that is no placeholder,
// an empty name), which AWS reports before looking at any expression.
// Two differences from DynamoDB Local remain: a name mapped to JSON null
// decodes as "" and is reported as empty ("null for key #v" there), and a
// bad ExpressionAttributeValues value is reported by the decoder, before
// any of these checks (there, after the maps' keys).
//
// Expressions are looked up in the process's cache first (expr_cache.go).
//
// Then the maps' size (wire's wire_placeholders.go): a map of more than 2 MB
// arrives as a stand-in holding only what Err could report.
func newCompiler(names map[string]string, values wire.ExpressionValues) (*expr.Compiler, error) {
	names, namesOver := wire.WithoutStandIn(names)
	vals := wire.SplitValues(values)          // a map, or a table of many values (wire_compact.go)
	comp := vals.Compiler(exprCache(), names) // a caller done with it may Release it
	if err := comp.Err(); err != nil {
		return nil, err
	}
	if err := wire.SubstitutionSizeError(names, namesOver, vals); err != nil {
		return nil, err
	}
	return comp, nil
}
