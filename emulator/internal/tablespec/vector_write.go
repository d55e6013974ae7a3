package tablespec

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/dynamoemu/dynamoemu/internal/vector"
)

// Writes to a table with vector indexes: AWS refuses an item whose vector
// attribute is there but not a list of Dimensions numbers, each a 32-bit
// float, or whose search schema attribute has another type than its
// definition (VECTOR_SPEC.md, "Writes and the index"). checkIndexKeys,
// which every write path calls (PutItem, UpdateItem, BatchWriteItem,
// TransactWriteItems, PartiQL), calls checkVectorItem; storage itself
// only leaves items that do not fit out of the index.

// CheckVectorItem words vector.CheckItem's report for item, about
// to be written to a table with vector indexes xs. updated selects
// UpdateItem's wording for an empty HASH value, as for GSI keys.
func CheckVectorItem(xs []*VectorIndexDef, item storage.Item, updated bool) error {
	for _, x := range xs {
		err := vector.CheckItem(x.Defs, item)
		if err == nil {
			continue
		}
		var ve *vector.ItemError
		if !errors.As(err, &ve) {
			return err
		}
		switch ve.Problem {
		case vector.NotList:
			return apierr.Validationf(apierr.MsgVectorType, ve.Attribute, ve.Kind, ve.Index)
		case vector.Dimension:
			return apierr.Validationf(apierr.MsgVectorSize, ve.Attribute, ve.Expected, ve.Actual, ve.Index)
		case vector.ElementNotNumber:
			return apierr.Validationf(apierr.MsgVectorElementType, ve.Attribute, ve.Element, ve.Kind, ve.Index)
		case vector.ElementRange:
			return apierr.Validationf(apierr.MsgVectorElementFP32, ve.Attribute, ve.Element, ve.Index)
		case vector.SchemaKind:
			return apierr.Validationf(apierr.MsgIndexKeyTypeMismatch, ve.Attribute, ve.Want, ve.Kind, ve.Index)
		default: // HashEmpty
			what := "string"
			if item[ve.Attribute].Kind() == storage.KindB {
				what = "binary"
			}
			if updated {
				return apierr.Validationf(apierr.MsgUpdateIndexKeyEmpty, what)
			}
			return apierr.Validationf(apierr.MsgIndexKeyEmpty, what, ve.Index, ve.Attribute)
		}
	}
	return nil
}
