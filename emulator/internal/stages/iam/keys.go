package iam

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/iampolicy"
)

// The condition keys the stage sets, and the check that a policy names
// no other. A key AWS sets that the emulator cannot (aws:CurrentTime,
// aws:SourceVpce, aws:PrincipalOrgID, ...) would be absent from every
// request: an Allow that names it would never apply, a Deny never deny.
// So a policy naming one is refused when it is loaded, with its name,
// unless the identity gives the key's value (Identity.Keys: a web
// identity's ${www.amazon.com:user_id}, which the developer guide's
// examples use). The keys checked are the global ones (aws:), DynamoDB's
// and a web identity provider's (a dotted prefix: www.amazon.com:,
// cognito-identity.amazonaws.com:); another service's key (lambda:,
// s3:) is absent from DynamoDB's requests on AWS too, and set by the
// decider of that service's actions.

// dataKeys are DynamoDB's condition keys the stage sets on the data
// plane (docs/iam.md: which request sets which).
var dataKeys = []string{
	"dynamodb:LeadingKeys", "dynamodb:Attributes", "dynamodb:Select", "dynamodb:ReturnValues",
	"dynamodb:ReturnConsumedCapacity", "dynamodb:EnclosingOperation", "dynamodb:FullTableScan",
}

// globalNames are the global condition keys the stage sets on every
// request it decides (aws:SourceIp when the client's address is known).
var globalNames = []string{
	"aws:PrincipalArn", "aws:PrincipalAccount", "aws:PrincipalType", "aws:username", "aws:userid",
	"aws:RequestedRegion", "aws:SecureTransport", "aws:SourceIp", "aws:ResourceAccount", "aws:TagKeys",
}

// taggedPrefixes are the keys the stage sets one per tag: the
// principal's, the table's (its indexes inherit them), a request's
// (CreateTable's, TagResource's).
var taggedPrefixes = []string{"aws:principaltag/", "aws:resourcetag/", "aws:requesttag/"}

// Sets reports whether the stage sets the condition key k (any case).
// It reads the lists: no set of them is built at init, which every start
// of the server paid (22 of the package's 24 init allocations,
// GODEBUG=inittrace=1), and it is asked only as policies and identities
// are loaded.
func Sets(k string) bool {
	for _, names := range [...][]string{dataKeys, globalNames} {
		for _, n := range names {
			if strings.EqualFold(n, k) {
				return true
			}
		}
	}
	l := strings.ToLower(k)
	for _, p := range taggedPrefixes {
		if rest, ok := strings.CutPrefix(l, p); ok && rest != "" {
			return true
		}
	}
	return false
}

// otherService reports whether k is another service's condition key:
// its prefix is neither aws, dynamodb nor a web identity provider's.
func otherService(k string) bool {
	prefix, _, ok := strings.Cut(strings.ToLower(k), ":")
	return ok && prefix != "" && prefix != "aws" && prefix != "dynamodb" && !strings.Contains(prefix, ".")
}

// CheckKeys returns an error naming the first condition key or policy
// variable p names that the stage does not set, given (an identity's
// keys, lower case) does not hold, and that is not another service's.
func CheckKeys(p *iampolicy.Policy, given map[string]string) error {
	for _, k := range p.Keys() {
		if _, ok := given[strings.ToLower(k)]; ok || Sets(k) || otherService(k) {
			continue
		}
		return fmt.Errorf("condition key %q is not one the emulator sets (docs/iam.md lists them); give its value in the identity's keys", k)
	}
	return nil
}

// globalKeys puts the request's global condition keys in ctx: the
// principal's (aws:PrincipalArn, aws:PrincipalAccount,
// aws:PrincipalType, aws:username, aws:userid, aws:PrincipalTag/KEY),
// the request's (aws:RequestedRegion, aws:SecureTransport,
// aws:SourceIp), aws:ResourceAccount, and the identity's own keys.
func globalKeys(ctx map[string][]string, c service.Call, req *request) {
	principalKeys(ctx, &req.id.Principal)
	ctx["aws:requestedregion"] = []string{c.Region()}
	ctx["aws:securetransport"] = []string{fmt.Sprint(req.from.Secure)}
	if req.from.SourceIP != "" {
		ctx["aws:sourceip"] = []string{req.from.SourceIP}
	}
	ctx["aws:resourceaccount"] = []string{c.Account()}
	for k, v := range req.id.Keys {
		ctx[k] = []string{v}
	}
}

// principalKeys puts the principal's global condition keys in ctx:
// aws:PrincipalArn, aws:PrincipalAccount, aws:PrincipalType,
// aws:username, aws:userid, aws:PrincipalTag/KEY.
func principalKeys(ctx map[string][]string, p *iampolicy.Principal) {
	ctx["aws:principalarn"] = []string{p.ARN}
	if a := p.Account(); a != "" {
		ctx["aws:principalaccount"] = []string{a}
	}
	if t := principalType(p.ARN); t != "" {
		ctx["aws:principaltype"] = []string{t}
	}
	if p.UserName != "" {
		ctx["aws:username"] = []string{p.UserName}
	}
	ctx["aws:userid"] = []string{p.UserID}
	for k, v := range p.Tags {
		ctx["aws:principaltag/"+strings.ToLower(k)] = []string{v}
	}
}

// principalType is aws:PrincipalType of a principal's ARN: User for
// an IAM user, AssumedRole for a role (its session's), FederatedUser,
// Account for the root ("": none of them).
func principalType(arn string) string {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 {
		return ""
	}
	res := parts[5]
	switch {
	case res == "root":
		return "Account"
	case strings.HasPrefix(res, "user/"):
		return "User"
	case strings.HasPrefix(res, "assumed-role/"), strings.HasPrefix(res, "role/"):
		return "AssumedRole"
	case strings.HasPrefix(res, "federated-user/"):
		return "FederatedUser"
	}
	return ""
}

// resourceTags puts the table's tags in ctx as aws:ResourceTag/KEY (an
// index inherits its table's: the developer guide's "Using
// attribute-based access control with DynamoDB").
func resourceTags(ctx map[string][]string, t service.Table) {
	for _, tag := range t.Tags() {
		ctx["aws:resourcetag/"+strings.ToLower(tag.Key)] = []string{tag.Value}
	}
}

// requestTags puts the tags a control-plane call gives in ctx:
// aws:RequestTag/KEY and aws:TagKeys for CreateTable's and
// TagResource's Tags, aws:TagKeys for UntagResource's TagKeys (the
// developer guide's ABAC examples 2 and 3).
func requestTags(ctx map[string][]string, in any) {
	v := reflect.ValueOf(in)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	if f := v.FieldByName("Tags"); f.IsValid() && f.CanInterface() {
		if tags, ok := f.Interface().([]service.Tag); ok && tags != nil {
			keys := []string{}
			for _, t := range tags {
				k := deref(t.Key)
				ctx["aws:requesttag/"+strings.ToLower(k)] = []string{deref(t.Value)}
				keys = append(keys, k)
			}
			ctx["aws:tagkeys"] = keys
		}
	}
	if f := v.FieldByName("TagKeys"); f.IsValid() && f.CanInterface() {
		if keys, ok := f.Interface().([]string); ok && keys != nil {
			ctx["aws:tagkeys"] = append([]string{}, keys...)
		}
	}
}
