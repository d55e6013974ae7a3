package transfers

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Filtered exports (ExportTableToPointInTime's FilterSpecification,
// September 2026). AWS's developer guide, "Filtering a table export"
// (S3DataExport.Filtered), and the API reference (FilterSpecification):
//
//   - KeyConditionExpression selects items by key with Query's syntax and
//     rules: one partition key value by equality, an optional condition
//     on the sort key, no other attribute;
//   - FilterExpression keeps the items it holds for, with Scan's syntax;
//     it may name key attributes only when no KeyConditionExpression is
//     given;
//   - ProjectionExpression picks the attributes written;
//   - an incremental export tests each changed item's latest image, a
//     deleted item's old one.
//
// A bad expression is refused before anything is written, with the
// answers Query and Scan give to the same expression (expr's messages,
// "Invalid FilterExpression: ...", the unused-placeholder check, a filter
// on a key attribute beside a key condition): no record of AWS's answer
// to a filtered export's bad expression was found, and the guide says
// the expressions follow Query's and Scan's rules. The specification is
// echoed in the export's description, as the model's
// ExportDescription.FilterSpecification has it.

// FilterSpecification is AWS's FilterSpecification.
type FilterSpecification struct {
	FilterExpression          *string                        `json:"FilterExpression,omitempty"`
	KeyConditionExpression    *string                        `json:"KeyConditionExpression,omitempty"`
	ProjectionExpression      *string                        `json:"ProjectionExpression,omitempty"`
	ExpressionAttributeNames  map[string]string              `json:"ExpressionAttributeNames,omitempty"`
	ExpressionAttributeValues map[string]wire.AttributeValue `json:"ExpressionAttributeValues,omitempty"`
}

// exportFilter is a compiled FilterSpecification.
type exportFilter struct {
	ks     storage.KeySchema
	kc     *expr.KeyCondition // nil: every key
	filter *expr.Condition    // nil: every item
	proj   *expr.Projection   // nil: every attribute
}

// compileExportFilter compiles spec (nil: no filter) against the table's
// key schema ks.
func compileExportFilter(spec *FilterSpecification, ks storage.KeySchema) (*exportFilter, error) {
	if spec == nil {
		return nil, nil
	}
	var values map[string]storage.Value
	if spec.ExpressionAttributeValues != nil {
		values = make(map[string]storage.Value, len(spec.ExpressionAttributeValues))
		for k, v := range spec.ExpressionAttributeValues {
			values[k] = v.Value
		}
	}
	comp := expr.NewCompiler(spec.ExpressionAttributeNames, values)
	if err := comp.Err(); err != nil {
		return nil, err
	}
	f := &exportFilter{ks: ks}
	var err error
	if spec.KeyConditionExpression != nil {
		if f.kc, err = comp.KeyCondition(*spec.KeyConditionExpression, ks); err != nil {
			return nil, err
		}
	}
	if spec.FilterExpression != nil {
		if f.filter, err = comp.Condition("FilterExpression", *spec.FilterExpression); err != nil {
			return nil, err
		}
		if f.kc != nil {
			for _, a := range f.filter.Attributes() {
				if a == ks.Partition.Name || ks.HasSort() && a == ks.Sort.Name {
					return nil, apierr.Validationf(apierr.MsgFilterOnKey, "Filter Expression", a)
				}
			}
		}
	}
	if spec.ProjectionExpression != nil {
		if f.proj, err = comp.Projection(*spec.ProjectionExpression); err != nil {
			return nil, err
		}
	}
	if err := comp.Unused(); err != nil {
		return nil, err
	}
	return f, nil
}

// keeps reports whether item is exported: inside the key condition and
// holding the filter (an item the filter cannot evaluate is left out, as
// Scan leaves it out).
func (f *exportFilter) keeps(item storage.Item) bool {
	if f.kc != nil {
		var sk storage.Value
		if f.ks.HasSort() {
			sk = item[f.ks.Sort.Name]
		}
		if !f.kc.Match(item[f.ks.Partition.Name], sk) {
			return false
		}
	}
	if f.filter != nil {
		ok, err := f.filter.Eval(item)
		return err == nil && ok
	}
	return true
}

// release gives back the pooled key condition.
func (f *exportFilter) release() {
	if f != nil && f.kc != nil {
		f.kc.Release()
		f.kc = nil
	}
}

// project is the part of item written: the projection's attributes, or
// the whole item.
func (f *exportFilter) project(item storage.Item) storage.Item {
	if f.proj == nil {
		return item
	}
	return f.proj.Apply(item)
}
