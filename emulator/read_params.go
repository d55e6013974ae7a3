package emulator

// The request parameters Query and Scan share: Limit, Select,
// ConditionalOperator, IndexName, Segment and TotalSegments, checked with
// AWS's constraint messages.

func limitOf(limit *int64) int {
	if limit == nil {
		return 0
	}
	return int(min(*limit, 1<<31))
}

// indexNameConstraint checks an IndexName's length and characters.
func indexNameConstraint(name *string) string {
	if name == nil {
		return ""
	}
	n := *name
	switch {
	case len(n) < 3:
		return violation(quote(n), "indexName", cLenGE(3))
	case len(n) > 255:
		return violation(quote(n), "indexName", cLenLE(255))
	}
	for i := 0; i < len(n); i++ {
		if !nameChar(n[i]) {
			return violation(quote(n), "indexName", cNamePattern)
		}
	}
	return ""
}

// segmentConstraint checks Segment's range, 0..999999.
func segmentConstraint(segment *int64) string {
	switch {
	case segment == nil:
	case *segment < 0:
		return violation(quoteInt(*segment), "segment", cValGE(0))
	case *segment > 999999:
		return violation(quoteInt(*segment), "segment", cValLE(999999))
	}
	return ""
}

// totalSegmentsConstraint checks TotalSegments' range, 1..1000000.
func totalSegmentsConstraint(total *int64) string {
	switch {
	case total == nil:
	case *total < 1:
		return violation(quoteInt(*total), "totalSegments", cValGE(1))
	case *total > 1000000:
		return violation(quoteInt(*total), "totalSegments", cValLE(1000000))
	}
	return ""
}

// checkSegments requires Segment and TotalSegments together, Segment below
// TotalSegments.
func checkSegments(segment, total *int64) error {
	switch {
	case segment != nil && total == nil:
		return errValidation(msgSegmentWithoutTotal)
	case segment == nil && total != nil:
		return errValidation(msgTotalWithoutSegment)
	case segment != nil && *segment >= *total:
		return errValidationf(msgSegmentTooLarge, *segment, *total)
	}
	return nil
}

// checkSelect applies the rules tying Select to the projection parameters
// and reports whether only the count is wanted.
func checkSelect(sel, index, projection *string, attrs []string) (countOnly bool, err error) {
	projParam := ""
	switch {
	case projection != nil:
		projParam = "ProjectionExpression"
	case attrs != nil:
		projParam = "AttributesToGet"
	}
	if sel == nil {
		return false, nil
	}
	switch *sel {
	case selectAllProjected:
		if index == nil {
			return false, errValidation(msgAllProjectedNoIndex)
		}
	case selectSpecific:
		if projParam == "" {
			return false, errValidation(msgSpecificWithoutProj)
		}
	case selectCount:
		if projParam != "" {
			return false, errValidationf(msgProjectionWithSelect, projParam, "only the Count")
		}
		return true, nil
	case selectAll:
		if projParam != "" {
			return false, errValidationf(msgProjectionWithSelect, projParam, selectAll)
		}
	}
	return false, nil
}
