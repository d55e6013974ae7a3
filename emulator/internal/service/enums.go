package service

// absentIfEmpty returns nil for a pointer to "": an enum member sent as ""
// is treated as absent, as DynamoDB Local does for Select (and as
// ReturnValues "" already is).
func absentIfEmpty(p *string) *string {
	if p != nil && *p == "" {
		return nil
	}
	return p
}
