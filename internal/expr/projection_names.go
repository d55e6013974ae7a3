package expr

// LegacyNames returns a projection's AttributesToGet names in the
// request's order, made afresh (nil for a ProjectionExpression's, or a
// nil projection): what a caller that gave its list to
// AttributesToGetOwned, which sorted it, gives back (BatchGetItem's
// UnprocessedKeys).
func (p *Projection) LegacyNames() []string {
	if p == nil || !p.legacy {
		return nil
	}
	names := make([]string, p.legacyNames())
	for i := range names {
		names[i] = p.legacyName(i)
	}
	return names
}
