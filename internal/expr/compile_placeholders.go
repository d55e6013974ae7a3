package expr

import "github.com/dynamoemu/dynamoemu/internal/storage"

// placeholdersFine reports whether checkPlaceholders finds nothing wrong,
// in one walk of each map: every request with placeholders pays for this
// check, and walking a map is the most of it. checkPlaceholders makes its
// rule-by-rule walks, which decide which error comes first, only when
// something is wrong.
func placeholdersFine(names map[string]string, values map[string]storage.Value) bool {
	for k, v := range names {
		if len(k) > maxPlaceholderKey || !isPlaceholder(k, '#') || v == "" || len(v) > MaxAttributeNameBytes {
			return false
		}
	}
	for k := range values {
		if len(k) > maxPlaceholderKey || !isPlaceholder(k, ':') {
			return false
		}
	}
	return true
}
