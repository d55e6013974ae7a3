package apierr

import "net/http"

// Resource-based policies (service/policies.go): PutResourcePolicy,
// GetResourcePolicy and DeleteResourcePolicy, after AWS's API reference
// (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutResourcePolicy.html).
// DynamoDB Local has none of these operations; where no record of AWS's
// wording was found, the message is ours and says so.

// ErrPolicyNotFound: the resource has no policy, or not the revision
// ExpectedRevisionId names (API_PutResourcePolicy, Errors).
var ErrPolicyNotFound = &Class{"PolicyNotFoundException", nsDynamoDB, http.StatusBadRequest, false}

// MaxPolicyBytes is a policy document's maximum size, whitespace counted
// (API_PutResourcePolicy: "The maximum size supported for a
// resource-based policy document is 20 KB").
const MaxPolicyBytes = 20 * 1024

// MsgPolicyNotFound is PolicyNotFoundException's message for a resource
// without a policy (the wording AWS answers GetResourcePolicy with).
func MsgPolicyNotFound(arn string) string {
	return "Resource-based policy not found for the provided ResourceArn: " + arn
}

// MsgPolicyRevisionMismatch is PolicyNotFoundException's message when
// ExpectedRevisionId names another revision (ours: AWS's wording is not
// on record).
func MsgPolicyRevisionMismatch(arn, expected string) string {
	return "Resource-based policy with revision id " + expected + " not found for the provided ResourceArn: " + arn
}

// MsgPolicyExists is PolicyNotFoundException's message for
// ExpectedRevisionId NO_POLICY on a resource that has one (ours).
func MsgPolicyExists(arn string) string {
	return "A resource-based policy already exists for the provided ResourceArn: " + arn
}

// MsgPolicyTooLarge: a document over MaxPolicyBytes (ours).
const MsgPolicyTooLarge = "Resource-based policy document exceeds the maximum allowed size of 20 KB"

// MsgPolicyMalformed: a document that is not a JSON policy (ours); the
// detail says what is wrong.
func MsgPolicyMalformed(detail string) string { return "Invalid policy document: " + detail }

// MsgPolicyARNNotFound: a ResourceArn of no table or stream of the
// namespace (AWS's ResourceNotFoundException wording for ARNs).
func MsgPolicyARNNotFound(arn string) string {
	return "Requested resource not found: ResourceArn: " + arn + " not found"
}
