package tablespec

import (
	"fmt"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// DynamoDB's key size limits, in bytes of the raw string or binary value.
const (
	MaxPartitionKeyBytes = 2048
	MaxSortKeyBytes      = 1024
)

// CheckItemKey applies the rules for the index's key attributes to an
// item about to be written: where present, each has the type the
// definition gives, is not an empty string or binary, and is within the
// key size limits (a value that does not fit is apierr.KeyShape, which
// the transactions cancel for). updated selects UpdateItem's wording for
// the empty case.
func (idx *IndexDef) CheckItemKey(item storage.Item, updated bool) error {
	for i, attr := range slices.Concat(idx.PartAttrs, idx.SortAttrs) {
		v, ok := item[attr.Name]
		if !ok {
			continue
		}
		if v.Kind() != attr.Kind {
			return apierr.KeyShape(fmt.Sprintf(apierr.MsgIndexKeyTypeMismatch, attr.Name, attr.Kind, v.Kind(), idx.Name))
		}
		if v.Kind() == storage.KindN {
			continue
		}
		if n := len(v.Str()); n > 0 {
			limit := MaxSortKeyBytes
			if i < len(idx.PartAttrs) {
				limit = MaxPartitionKeyBytes
			}
			if n > limit {
				return apierr.KeyShape(apierr.MsgIndexKeyTooLarge(attr.Name, n, limit, idx.Name))
			}
			continue
		}
		what := "string"
		if v.Kind() == storage.KindB {
			what = "binary"
		}
		if updated {
			return &apierr.Error{Class: apierr.ErrValidation, Msg: fmt.Sprintf(apierr.MsgUpdateIndexKeyEmpty, what), Cause: apierr.ErrUpdateIndexKeyEmpty}
		}
		return apierr.Validationf(apierr.MsgIndexKeyEmpty, what, idx.Name, attr.Name)
	}
	return nil
}
