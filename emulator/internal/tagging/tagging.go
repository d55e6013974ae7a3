package tagging

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// TagResource, UntagResource and ListTagsOfResource address a table by
// its ARN; the tags go through the checks of CreateTable's Tags
// (tablespec.ValidateTags). AWS applies a tag change after a second or two
// and locks the table's tags meanwhile (LimitExceededException "Table
// tags are being updated"); the emulator applies it at once and has no
// such lock.

// Feature is the tagging operations (service.Config.Features).
type Feature struct{}

// Name is the feature's name. It keeps no slot: the tags are the
// core's (a record's "tags" member).
func (Feature) Name() string { return "tagging" }

// Register installs TagResource, UntagResource and ListTagsOfResource.
func (Feature) Register(r service.Registrar) {
	service.Op(r, "TagResource", boundary.TableWrite, tagResource)
	service.Op(r, "UntagResource", boundary.TableWrite, untagResource)
	service.Op(r, "ListTagsOfResource", boundary.TableDescribe, listTagsOfResource)
}

// TagResourceInput is the TagResource request.
type TagResourceInput struct {
	ResourceArn *string       `json:"ResourceArn"`
	Tags        []service.Tag `json:"Tags"`
}

// TagResourceOutput is the TagResource response: an empty body, as AWS
// answers it (not "{}"; erlcloud/erlcloud#502 records AWS's empty
// responses to TagResource and UntagResource).
type TagResourceOutput struct{}

// AppendJSON appends nothing: the answer has no body.
func (*TagResourceOutput) AppendJSON(b []byte) []byte { return b }

// UntagResourceInput is the UntagResource request.
type UntagResourceInput struct {
	ResourceArn *string  `json:"ResourceArn"`
	TagKeys     []string `json:"TagKeys"`
}

// UntagResourceOutput is the UntagResource response: an empty body, as
// TagResourceOutput.
type UntagResourceOutput struct{}

// AppendJSON appends nothing: the answer has no body.
func (*UntagResourceOutput) AppendJSON(b []byte) []byte { return b }

// ListTagsOfResourceInput is the ListTagsOfResource request.
type ListTagsOfResourceInput struct {
	ResourceArn *string `json:"ResourceArn"`
	NextToken   *string `json:"NextToken"`
}

// ListTagsOfResourceOutput is the ListTagsOfResource response. AWS answers
// every tag (at most 50) in one page and never sends a NextToken.
type ListTagsOfResourceOutput struct {
	Tags      []service.TagDesc `json:"Tags"`
	NextToken string            `json:"NextToken,omitempty"`
}

func tagResource(c service.Call, in *TagResourceInput) (*TagResourceOutput, error) {
	if in.ResourceArn == nil {
		return nil, apierr.Validation(apierr.MsgTagARNRequired)
	}
	var cs apierr.Constraints
	apierr.ResourceARNConstraints(&cs, *in.ResourceArn)
	cs.AddViolation(apierr.NullViolation("tags", in.Tags == nil))
	if err := cs.Err(); err != nil {
		return nil, err
	}
	name, err := tableNameFromResourceARN(c, *in.ResourceArn)
	if err != nil {
		return nil, err
	}
	if len(in.Tags) == 0 {
		return nil, apierr.Validation(apierr.MsgTagsRequired)
	}
	tags, err := tablespec.ValidateTags(in.Tags)
	if err != nil {
		return nil, err
	}
	t, ok := c.Table(name)
	if !ok {
		return nil, apierr.ResourceNotFound(apierr.MsgARNNotFound(*in.ResourceArn))
	}
	err = t.ChangeTags(c, func(cur []service.TagDesc) ([]service.TagDesc, error) {
		merged := mergeTags(cur, tags)
		if len(merged) > tablespec.MaxTags {
			return nil, apierr.Validation(apierr.MsgTagLimit)
		}
		return merged, nil
	})
	if err != nil {
		return nil, err
	}
	return &TagResourceOutput{}, nil
}

func untagResource(c service.Call, in *UntagResourceInput) (*UntagResourceOutput, error) {
	if in.ResourceArn == nil {
		return nil, apierr.Validation(apierr.MsgTagARNRequired)
	}
	var cs apierr.Constraints
	apierr.ResourceARNConstraints(&cs, *in.ResourceArn)
	cs.AddViolation(apierr.NullViolation("tagKeys", in.TagKeys == nil))
	if err := cs.Err(); err != nil {
		return nil, err
	}
	name, err := tableNameFromResourceARN(c, *in.ResourceArn)
	if err != nil {
		return nil, err
	}
	if len(in.TagKeys) == 0 {
		return nil, apierr.Validation(apierr.MsgTagKeysEmpty)
	}
	if len(in.TagKeys) > tablespec.MaxTags {
		return nil, apierr.Validation(apierr.MsgTagLimit)
	}
	for _, k := range in.TagKeys {
		if !tablespec.ValidTagKey(k) {
			return nil, apierr.Validation(apierr.MsgTagKeyInvalid(k))
		}
	}
	t, ok := c.Table(name)
	if !ok {
		return nil, apierr.ResourceNotFound(apierr.MsgARNNotFound(*in.ResourceArn))
	}
	err = t.ChangeTags(c, func(cur []service.TagDesc) ([]service.TagDesc, error) {
		return slices.DeleteFunc(cur, func(tg service.TagDesc) bool { return slices.Contains(in.TagKeys, tg.Key) }), nil
	})
	if err != nil {
		return nil, err
	}
	return &UntagResourceOutput{}, nil
}

func listTagsOfResource(c service.Call, in *ListTagsOfResourceInput) (*ListTagsOfResourceOutput, error) {
	if in.ResourceArn == nil {
		return nil, apierr.Validation(apierr.MsgTagARNRequired)
	}
	var cs apierr.Constraints
	apierr.ResourceARNConstraints(&cs, *in.ResourceArn)
	if err := cs.Err(); err != nil {
		return nil, err
	}
	name, err := tableNameFromResourceARN(c, *in.ResourceArn)
	if err != nil {
		return nil, err
	}
	t, ok := c.Table(name)
	if !ok {
		return nil, apierr.ResourceNotFound(apierr.MsgARNNotFound(*in.ResourceArn))
	}
	// At most 50 tags: AWS answers them in one page (no NextToken, even
	// at 50), and so ignores a NextToken in the request.
	return &ListTagsOfResourceOutput{Tags: t.Tags()}, nil
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
func tableNameFromResourceARN(c service.Call, arn string) (string, error) {
	if !strings.HasPrefix(arn, "arn:") {
		return "", apierr.Validation(apierr.MsgARNNoPrefix(arn))
	}
	parts := strings.SplitN(arn, ":", 6) // arn partition service region account resource
	if len(parts) < 6 {
		return "", apierr.Validation(apierr.MsgInvalidTableARN(arn))
	}
	svc, region, account, resource := parts[2], parts[3], parts[4], parts[5]
	switch {
	case svc != "dynamodb":
		return "", apierr.Validation(apierr.MsgARNNotDynamoDB(arn))
	case region != c.Region():
		return "", apierr.Validation(apierr.MsgInvalidTableARN(arn))
	case account != c.Account():
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
	if !tablespec.ValidTableName(name) {
		return "", apierr.Validation(apierr.MsgInvalidTableARN(arn))
	}
	return name, nil
}

// mergeTags returns cur with tags added: a key already present takes the
// new value in place, new keys follow in request order. cur is not
// modified.
func mergeTags(cur, tags []service.TagDesc) []service.TagDesc {
	out := make([]service.TagDesc, len(cur), len(cur)+len(tags))
	copy(out, cur)
	for _, tp := range tags {
		i := 0
		for i < len(out) && out[i].Key != tp.Key {
			i++
		}
		if i < len(out) {
			out[i].Value = tp.Value
		} else {
			out = append(out, tp)
		}
	}
	return out
}
