package readparams

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// Select values.
// SelectAll and SelectAllProjected are the Select values the service
// reads too.
const (
	SelectAll          = "ALL_ATTRIBUTES"
	SelectAllProjected = "ALL_PROJECTED_ATTRIBUTES"
	selectSpecific     = "SPECIFIC_ATTRIBUTES"
	selectCount        = "COUNT"
)

// The request parameters Query and Scan share: Limit, Select,
// ConditionalOperator, IndexName, Segment and TotalSegments, checked with
// AWS's constraint messages.

// LimitOf is a Limit as an int, 0 when absent.
func LimitOf(limit *int64) int {
	if limit == nil {
		return 0
	}
	return int(min(*limit, 1<<31))
}

// IndexNameConstraint checks an IndexName's length and characters.
func IndexNameConstraint(name *string) string {
	if name == nil {
		return ""
	}
	n := *name
	switch {
	case len(n) < 3:
		return apierr.Violation(apierr.Quote(n), "indexName", apierr.LenGE(3))
	case len(n) > 255:
		return apierr.Violation(apierr.Quote(n), "indexName", apierr.LenLE(255))
	}
	for i := 0; i < len(n); i++ {
		if !apierr.NameChar(n[i]) {
			return apierr.Violation(apierr.Quote(n), "indexName", apierr.NamePatternConstraint)
		}
	}
	return ""
}

// SegmentConstraint checks Segment's range, 0..999999.
func SegmentConstraint(segment *int64) string {
	switch {
	case segment == nil:
	case *segment < 0:
		return apierr.Violation(apierr.QuoteInt(*segment), "segment", apierr.ValGE(0))
	case *segment > 999999:
		return apierr.Violation(apierr.QuoteInt(*segment), "segment", apierr.ValLE(999999))
	}
	return ""
}

// TotalSegmentsConstraint checks TotalSegments' range, 1..1000000.
func TotalSegmentsConstraint(total *int64) string {
	switch {
	case total == nil:
	case *total < 1:
		return apierr.Violation(apierr.QuoteInt(*total), "totalSegments", apierr.ValGE(1))
	case *total > 1000000:
		return apierr.Violation(apierr.QuoteInt(*total), "totalSegments", apierr.ValLE(1000000))
	}
	return ""
}

// CheckSegments requires Segment and TotalSegments together, Segment below
// TotalSegments.
func CheckSegments(segment, total *int64) error {
	switch {
	case segment != nil && total == nil:
		return apierr.Validation(apierr.MsgSegmentWithoutTotal)
	case segment == nil && total != nil:
		return apierr.Validation(apierr.MsgTotalWithoutSegment)
	case segment != nil && *segment >= *total:
		return apierr.Validationf(apierr.MsgSegmentTooLarge, *segment, *total)
	}
	return nil
}

// CheckSelect applies the rules tying Select to the projection parameters
// and reports whether only the count is wanted.
func CheckSelect(sel, index, projection *string, attrs bool) (countOnly bool, err error) {
	projParam := ""
	switch {
	case projection != nil:
		projParam = "ProjectionExpression"
	case attrs:
		projParam = "AttributesToGet"
	}
	if sel == nil {
		return false, nil
	}
	switch *sel {
	case SelectAllProjected:
		if index == nil {
			return false, apierr.Validation(apierr.MsgAllProjectedNoIndex)
		}
	case selectSpecific:
		if projParam == "" {
			return false, apierr.Validation(apierr.MsgSpecificWithoutProj)
		}
	case selectCount:
		if projParam != "" {
			return false, apierr.Validationf(apierr.MsgProjectionWithSelect, projParam, "only the Count")
		}
		return true, nil
	case SelectAll:
		if projParam != "" {
			return false, apierr.Validationf(apierr.MsgProjectionWithSelect, projParam, SelectAll)
		}
	}
	return false, nil
}

// Projection compiles a read's ProjectionExpression or AttributesToGet
// (nil: whole items). The request's AttributesToGet is sorted in place
// (expr.AttributesToGetOwned), not copied: nothing reads it after but
// whether it was given (BatchGetItem's UnprocessedKeys take the names
// in the request's order from Projection.LegacyNames).
func Projection(comp *expr.Compiler, projection *string, attrs []string) (*expr.Projection, error) {
	switch {
	case projection != nil:
		return comp.Projection(*projection)
	case attrs != nil:
		return expr.AttributesToGetOwned(attrs)
	}
	return nil, nil
}

// ProjectionOf is Projection for a read that gives AttributesToGet as
// an expr.NameList (GetItem, Query, Scan): its offsets are sorted in
// place (expr.AttributesToGetList) and the projection reads the list.
func ProjectionOf(comp *expr.Compiler, projection *string, attrs *expr.NameList) (*expr.Projection, error) {
	switch {
	case projection != nil:
		return comp.Projection(*projection)
	case attrs.Given():
		return expr.AttributesToGetList(attrs)
	}
	return nil, nil
}
