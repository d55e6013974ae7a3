package sigv4

import "testing"

// BenchmarkCredentialOf reads the credential of an SDK's Authorization
// header, as every request's does.
func BenchmarkCredentialOf(b *testing.B) {
	auth := "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20260101/us-east-1/dynamodb/aws4_request, " +
		"SignedHeaders=accept-encoding;content-length;content-type;host;x-amz-date;x-amz-target, " +
		"Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024"
	for b.Loop() {
		if c, err := CredentialOf(auth, ""); err != nil || c.Region != "us-east-1" {
			b.Fatal(c, err)
		}
	}
}
