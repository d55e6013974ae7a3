package service

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Tagging: TagResource, UntagResource and ListTagsOfResource address a
// table by its ARN. Tags live in the table's metadata (tableMeta.tags), so
// they come and go with the table; CreateTable's Tags go through the same
// checks. AWS applies a tag change after a second or two and locks the
// table's tags meanwhile (LimitExceededException "Table tags are being
// updated"); the emulator applies it at once and has no such lock.

func init() {
	register("TagResource", tagResource)
	register("UntagResource", untagResource)
	register("ListTagsOfResource", listTagsOfResource)
}

// Tag limits (AWS API reference, Tag; Developer Guide, tagging restrictions).
const (
	maxTags        = 50  // per resource
	maxTagKeyLen   = 128 // Unicode characters
	maxTagValueLen = 256 // Unicode characters
	maxARNLen      = 1283
)

// tagPair is one stored tag.
type tagPair struct{ key, value string }

func tagResource(c *call, in *TagResourceInput) (*TagResourceOutput, error) {
	if in.ResourceArn == nil {
		return nil, apierr.Validation(apierr.MsgTagARNRequired)
	}
	var cs apierr.Constraints
	arnConstraints(&cs, *in.ResourceArn)
	apierr.NotNull(&cs, nilIfNoSlice(in.Tags), "tags")
	if err := cs.Err(); err != nil {
		return nil, err
	}
	name, err := c.tableNameFromResourceARN(*in.ResourceArn)
	if err != nil {
		return nil, err
	}
	if len(in.Tags) == 0 {
		return nil, apierr.Validation(apierr.MsgTagsRequired)
	}
	tags, err := validateTags(in.Tags)
	if err != nil {
		return nil, err
	}
	t := c.ns.getTable(name)
	if t == nil {
		return nil, apierr.ResourceNotFound(apierr.MsgARNNotFound(*in.ResourceArn))
	}
	err = t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		merged := mergeTags(m.tags, tags)
		if len(merged) > maxTags {
			return nil, apierr.Validation(apierr.MsgTagLimit)
		}
		p, err := c.svc.conv.attach(c, t, merged)
		if err != nil {
			return nil, err
		}
		m.tags = merged
		return t.storePolicy(p), nil
	})
	return nil, err
}

func untagResource(c *call, in *UntagResourceInput) (*UntagResourceOutput, error) {
	if in.ResourceArn == nil {
		return nil, apierr.Validation(apierr.MsgTagARNRequired)
	}
	var cs apierr.Constraints
	arnConstraints(&cs, *in.ResourceArn)
	apierr.NotNull(&cs, nilIfNoSlice(in.TagKeys), "tagKeys")
	if err := cs.Err(); err != nil {
		return nil, err
	}
	name, err := c.tableNameFromResourceARN(*in.ResourceArn)
	if err != nil {
		return nil, err
	}
	if len(in.TagKeys) == 0 {
		return nil, apierr.Validation(apierr.MsgTagKeysEmpty)
	}
	if len(in.TagKeys) > maxTags {
		return nil, apierr.Validation(apierr.MsgTagLimit)
	}
	for _, k := range in.TagKeys {
		if !validTagText(k, 1, maxTagKeyLen) {
			return nil, apierr.Validation(apierr.MsgTagKeyInvalid(k))
		}
	}
	t := c.ns.getTable(name)
	if t == nil {
		return nil, apierr.ResourceNotFound(apierr.MsgARNNotFound(*in.ResourceArn))
	}
	err = t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		var kept []tagPair // a new slice: snapshots keep the old one
		for _, tp := range m.tags {
			if !slices.Contains(in.TagKeys, tp.key) {
				kept = append(kept, tp)
			}
		}
		p, err := c.svc.conv.attach(c, t, kept)
		if err != nil {
			return nil, err
		}
		m.tags = kept
		return t.storePolicy(p), nil
	})
	return nil, err
}

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

func listTagsOfResource(c *call, in *ListTagsOfResourceInput) (*ListTagsOfResourceOutput, error) {
	if in.ResourceArn == nil {
		return nil, apierr.Validation(apierr.MsgTagARNRequired)
	}
	var cs apierr.Constraints
	arnConstraints(&cs, *in.ResourceArn)
	if err := cs.Err(); err != nil {
		return nil, err
	}
	name, err := c.tableNameFromResourceARN(*in.ResourceArn)
	if err != nil {
		return nil, err
	}
	t := c.ns.getTable(name)
	if t == nil {
		return nil, apierr.ResourceNotFound(apierr.MsgARNNotFound(*in.ResourceArn))
	}
	// At most 50 tags: AWS answers them in one page (no NextToken, even
	// at 50), and so ignores a NextToken in the request.
	tags := t.snapshot().tags
	out := &ListTagsOfResourceOutput{Tags: make([]TagDesc, len(tags))}
	for i, tp := range tags {
		out.Tags[i] = TagDesc{Key: tp.key, Value: tp.value}
	}
	return out, nil
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

// tableNameFromResourceARN checks a tagging ResourceArn the way AWS does
// and returns the table name it names:
//
//	not arn:...                        ValidationException, must start with 'arn:'
//	fewer than six parts               ValidationException, Invalid TableArn
//	another service                    ValidationException, not a DynamoDB resource arn
//	another region                     ValidationException, Invalid TableArn
//	another account                    AccessDeniedException
//	an index (or not a table)          ValidationException, only table or stream
//	a stream of a table                ResourceNotFoundException
func (c *call) tableNameFromResourceARN(arn string) (string, error) {
	if !strings.HasPrefix(arn, "arn:") {
		return "", apierr.Validation(apierr.MsgARNNoPrefix(arn))
	}
	parts := strings.SplitN(arn, ":", 6) // arn partition service region account resource
	if len(parts) < 6 {
		return "", apierr.Validation(apierr.MsgInvalidTableARN(arn))
	}
	service, region, account, resource := parts[2], parts[3], parts[4], parts[5]
	switch {
	case service != "dynamodb":
		return "", apierr.Validation(apierr.MsgARNNotDynamoDB(arn))
	case region != c.region:
		return "", apierr.Validation(apierr.MsgInvalidTableARN(arn))
	case account != c.account:
		return "", apierr.AccessDenied(apierr.MsgAccessDenied)
	}
	rest, ok := strings.CutPrefix(resource, "table/")
	if !ok {
		return "", apierr.Validation(apierr.MsgARNNotTable(arn))
	}
	name, sub, hasSub := strings.Cut(rest, "/")
	if hasSub {
		if strings.HasPrefix(sub, "stream/") {
			// Tagging a stream is not supported by the emulator; AWS
			// answers a stream ARN it cannot resolve like this.
			return "", apierr.ResourceNotFound(apierr.MsgARNNotFound(arn))
		}
		return "", apierr.Validation(apierr.MsgARNNotTable(arn))
	}
	if !validTableName(name) {
		return "", apierr.Validation(apierr.MsgInvalidTableARN(arn))
	}
	return name, nil
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

// mergeTags returns cur with tags added: a key already present takes the
// new value in place, new keys follow in request order. cur is not
// modified.
func mergeTags(cur, tags []tagPair) []tagPair {
	out := make([]tagPair, len(cur), len(cur)+len(tags))
	copy(out, cur)
	for _, tp := range tags {
		i := 0
		for i < len(out) && out[i].key != tp.key {
			i++
		}
		if i < len(out) {
			out[i].value = tp.value
		} else {
			out = append(out, tp)
		}
	}
	return out
}
