package tablespec

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Tag limits (AWS API reference, Tag; Developer Guide, tagging restrictions).
const (
	MaxTags        = 50  // per resource
	maxTagKeyLen   = 128 // Unicode characters
	maxTagValueLen = 256 // Unicode characters
)

// TagPair is one stored tag: a tag in an answer's form.
type TagPair = TagDesc

// ValidateTags applies AWS's tag rules to a TagResource or CreateTable
// request, tag by tag, and returns the tags in request order.
func ValidateTags(tags []Tag) ([]TagPair, error) {
	out := make([]TagPair, 0, len(tags))
	seen := make(map[string]bool, len(tags))
	for _, tg := range tags {
		if tg.Key == nil {
			return nil, apierr.Validation(apierr.MsgTagKeyInvalid("null"))
		}
		k := *tg.Key
		if !validTagText(k, 1, maxTagKeyLen) {
			return nil, apierr.Validation(apierr.MsgTagKeyInvalid(k))
		}
		if tg.Value == nil {
			return nil, apierr.Validation(apierr.MsgTagValueInvalid("null"))
		}
		v := *tg.Value
		if !validTagText(v, 0, maxTagValueLen) {
			return nil, apierr.Validation(apierr.MsgTagValueInvalid(v))
		}
		if strings.HasPrefix(k, "aws:") {
			return nil, apierr.Validation(apierr.MsgTagKeyReserved(k))
		}
		if seen[k] {
			return nil, apierr.Validation(apierr.MsgTagKeyDuplicate(k))
		}
		seen[k] = true
		out = append(out, TagPair{Key: k, Value: v})
	}
	return out, nil
}

// validTagText reports whether s has min..max Unicode characters, each a
// letter, a number, a separator (space, no-break space, ...) or one of
// _ . : / = + - @ (AWS's pattern ^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$).
func validTagText(s string, min, max int) bool {
	if !utf8.ValidString(s) {
		return false
	}
	n := utf8.RuneCountInString(s)
	if n < min || n > max {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.Is(unicode.Z, r) &&
			!strings.ContainsRune("_.:/=+-@", r) {
			return false
		}
	}
	return true
}

// ValidTagKey reports whether k is a valid tag key: 1 to 128 characters
// of AWS's tag pattern.
func ValidTagKey(k string) bool { return validTagText(k, 1, maxTagKeyLen) }

// TagMap is tags as a map from key to value (the conventions rules read
// a table's tags so).
func TagMap(tags []TagPair) map[string]string {
	m := make(map[string]string, len(tags))
	for _, tp := range tags {
		m[tp.Key] = tp.Value
	}
	return m
}
