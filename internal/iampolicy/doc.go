// Package iampolicy parses IAM JSON policy documents and evaluates a
// request against them with IAM's logic, for the emulator's opt-in
// policy mode (docs/iam.md).
//
// # Basics
//
// Parse reads a document into a Policy: its statements' Effect,
// Principal, Action or NotAction, Resource or NotResource and
// Condition. A Request is one authorization: who asks (Principal: ARN,
// user name and id, principal tags), the action ("dynamodb:GetItem"),
// the resource ARN and the request's condition keys (Context, single
// or multivalued). Authorize decides a request against the identity's
// policies and the resource's: an explicit Deny in either wins, then an
// Allow in either (a resource policy's statement must name the
// principal), else the request is implicitly denied (IAM User Guide,
// "Policy evaluation logic", same-account requests).
//
// Conditions: the string operators (StringEquals, StringNotEquals,
// StringEqualsIgnoreCase, StringNotEqualsIgnoreCase, StringLike,
// StringNotLike), Bool, Null, IpAddress and NotIpAddress, each with the
// ForAllValues: and ForAnyValue: set qualifiers and the IfExists
// suffix. A multivalued key may stand for every value there is
// (Request.Unbounded: the attributes of a whole-item read). Policy
// variables (${aws:username}, ${aws:PrincipalTag/KEY}, any
// single-valued key of the request) and the escapes ${*}, ${?}, ${$}
// are replaced in Resource elements and condition values; a variable
// with no value makes its element match nothing. Keys lists the keys
// and variables a policy names, for a caller that refuses a policy
// naming one it cannot give.
//
// # Caveats
//
// Only what the emulator can know locally is evaluated: no service
// control policies, permission boundaries, session policies or
// cross-account rules. NotPrincipal, the numeric, date and ARN
// operators are refused by Parse, so that a policy is never evaluated
// with a rule it does not hold. Keys are matched case-insensitively,
// as IAM does; values case-sensitively except by the IgnoreCase
// operators.
package iampolicy
