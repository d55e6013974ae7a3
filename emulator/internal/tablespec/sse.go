package tablespec

// DescribeSSE turns an SSESpecification into what DescribeTable
// reports: nothing for the default AWS-owned key, else a KMS key.
func DescribeSSE(s *SSESpecification, region, account string) *SSEDescription {
	if s == nil || s.Enabled == nil || !*s.Enabled {
		return nil
	}
	key := "alias/aws/dynamodb" // the AWS managed key
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
