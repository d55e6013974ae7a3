package service

import (
	"fmt"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Shared helpers of the data-plane operations (PutItem, GetItem, DeleteItem,
// UpdateItem, Query, Scan, BatchGetItem, BatchWriteItem): ReturnValues, a
// write's condition checked on the current item, key validation
// (the key values' rules are tablespec's, key_values.go; a request's
// expression compiler is exprparams'; capacity accounting is in
// capacity.go).

// maxItemBytes is DynamoDB's item size limit (400 KB).
const maxItemBytes = 400 * 1024

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
	return v, tablespec.CheckKeyValue(attr.Name, v, partition)
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
	return v, tablespec.CheckKeyValue(attr.Name, v, partition)
}

// ReturnValues values.
const (
	returnNone       = "NONE"
	returnAllOld     = "ALL_OLD"
	returnUpdatedOld = "UPDATED_OLD"
	returnAllNew     = "ALL_NEW"
	returnUpdatedNew = "UPDATED_NEW"
)

// checkCondition evaluates cond (nil: no condition) on the current item
// inside a Write callback and returns ConditionalCheckFailedException, with
// the current item when rvoccf is ALL_OLD, if it does not hold.
func checkCondition(cond *expr.Condition, cur storage.Item, rvoccf string) error {
	if cond == nil {
		return nil
	}
	ok, err := cond.Eval(cur)
	if err != nil {
		return err
	}
	if ok {
		return nil
	}
	if rvoccf == returnAllOld && cur != nil {
		return apierr.ConditionalCheckFailed(cur)
	}
	return apierr.ConditionalCheckFailed(nil)
}
