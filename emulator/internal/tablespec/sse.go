package tablespec

import (
	"crypto/sha256"
	"fmt"
)

// DescribeSSE turns an SSESpecification into what DescribeTable
// reports: nothing for the default AWS-owned key, else a KMS key.
func DescribeSSE(s *SSESpecification, region, account string) *SSEDescription {
	if s == nil || s.Enabled == nil || !*s.Enabled {
		return nil
	}
	key := ManagedKeyID(region, account)
	if s.KMSMasterKeyId != nil && *s.KMSMasterKeyId != "" {
		key = *s.KMSMasterKeyId
	}
	arn := key
	if len(key) < 4 || key[:4] != "arn:" {
		arn = "arn:aws:kms:" + region + ":" + account + ":" + keyResource(key)
	}
	return &SSEDescription{Status: "ENABLED", SSEType: "KMS", KMSMasterKeyArn: arn}
}

// keyResource turns a KMS key id or alias name into an ARN resource part.
func keyResource(key string) string {
	if len(key) > 6 && key[:6] == "alias/" {
		return key
	}
	return "key/" + key
}

// ManagedKeyID is the key id of the AWS managed key of DynamoDB
// (aws/dynamodb) in region for account: a UUID, the same for every table
// of that account and region. AWS's SSEDescription names a key ARN,
// arn:aws:kms:<region>:<account>:key/<uuid>, not the alias (API_SSEDescription:
// "The AWS KMS key ARN used for the AWS KMS encryption";
// records/table-answers.jsonl).
func ManagedKeyID(region, account string) string {
	h := sha256.Sum256([]byte("aws/dynamodb " + region + " " + account))
	h[6] = h[6]&0x0f | 0x40 // version 4
	h[8] = h[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// UpdatedSSE is the SSEDescription of UpdateTable's answer to a change
// s (nil: none) of the table's encryption, which was before (nil: the AWS owned
// key), now after: UPDATING, as AWS answers while it re-encrypts (ack-api-quirks
// DDB-TABLE-442's UpdateTable notes, verified 2026-10-09: "SSEDescription.Status
// UPDATING ~22 s"); a return to the AWS owned key names the key being
// left. DescribeTable, from the next request, shows the change done.
func UpdatedSSE(s *SSESpecification, before, after *SSEDescription) *SSEDescription {
	if s == nil {
		return after
	}
	d := after
	if s.Enabled != nil && !*s.Enabled {
		d = before
	}
	if d == nil {
		return nil
	}
	u := *d
	u.Status = "UPDATING"
	return &u
}
