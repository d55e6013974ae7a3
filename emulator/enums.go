package emulator

// absentIfEmpty returns nil for a pointer to "": an enum member sent as ""
// is treated as absent, as DynamoDB Local does for Select (and as
// ReturnValues "" already is).
func absentIfEmpty(p *string) *string {
	if p != nil && *p == "" {
		return nil
	}
	return p
}

// queryLimitConstraint is Query's Limit below 1. Query's answer differs
// from Scan's: AWS echoes no value and names the member 'Limit' ("1
// validation error detected: Value at 'Limit' failed to satisfy
// constraint: Member must have value greater than or equal to 1", AWS's
// recorded answer); Scan says "Value '0' at 'limit'".
func queryLimitConstraint(limit *int64) string {
	if limit != nil && *limit < 1 {
		return msgQueryLimit
	}
	return ""
}
