package service

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// A table's tags are part of its definition (tableMeta.tags, recorded
// with it), so they come and go with the table: CreateTable's Tags set
// them, through the checks here, and a feature's tagging operations
// change them through Table.ChangeTags (feature_definition.go). They
// choose the table's conventions policy (conventions.go) and its
// throttling (fx.go's ThrottleTag).

// Tag limits (AWS API reference, Tag; Developer Guide, tagging restrictions).
const (
	MaxTags        = 50  // per resource
	maxTagKeyLen   = 128 // Unicode characters
	maxTagValueLen = 256 // Unicode characters
	maxARNLen      = 1283
)

// tagPair is one stored tag.
type tagPair struct{ key, value string }

// storePolicy is a changeMeta done that makes p t's conventions policy
// once the change is recorded.
func (t *table) storePolicy(p *tablePolicy) func(bool) error {
	return func(recorded bool) error {
		if recorded {
			t.conv.Store(p)
		}
		return nil
	}
}

// arnConstraints checks a ResourceArn against the model: 1 to 1283
// characters.
func arnConstraints(cs *apierr.Constraints, arn string) {
	if len(arn) < 1 {
		cs.Add(apierr.Quote(arn), "resourceArn", apierr.LenGE(1))
	}
	if len(arn) > maxARNLen {
		cs.Add(apierr.Quote(arn), "resourceArn", apierr.LenLE(maxARNLen))
	}
}

// validateTags applies AWS's tag rules to a TagResource or CreateTable
// request, tag by tag, and returns the tags in request order.
func validateTags(tags []Tag) ([]tagPair, error) {
	out := make([]tagPair, 0, len(tags))
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
		out = append(out, tagPair{k, v})
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
