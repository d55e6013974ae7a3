package apierr

import "net/http"

// The answers of SigV4 verification (emulator/internal/sigv4, with
// Options.Credentials). The wording is AWS's, as recorded from DynamoDB's
// own answers:
//
//   - dynalite's server.js (architect/dynalite, its comments record
//     DynamoDB's answers of 2013-06 in the order DynamoDB checks) and its
//     tests run against DynamoDB (test/connection.js: MissingAuthentication
//     Token, IncompleteSignature and "Found both" messages);
//   - the expiry messages with DynamoDB's 15-minute window: a DynamoDB
//     PutItem through aws-sdk-go-v2 (praetorian-inc/chariot-ui#453,
//     2024-08) for "Signature expired", a DynamoDB putItem through the JS
//     SDK (aws/aws-sdk-js#2565, 2019-03) for "Signature not yet current";
//   - the signature mismatch text, canonical string and string-to-sign
//     included: boto/boto#1552 (2013) and vibe-aws#1 (2017), both
//     DynamoDB;
//   - "not a valid key=value pair": a DynamoDB answer quoted in
//     awslabs/fhir-works-on-aws-deployment#379 (2021-07);
//   - the unknown key: DynamoDB's UnrecognizedClientException as SDKs
//     print it (boto/boto3#509 2016, jcabi/jcabi-dynamo#101 2019,
//     pynamodb/PynamoDB#884 2020-11: with the final period).
//
// AWS answered a DynamoDB request from a Lambda after a freeze with "- 5
// min." in aws/aws-sdk-js-v3#7605 (2025-12, quoted with "..." in place of
// the times, so not a verbatim record); no verbatim 2026 record of
// DynamoDB's window was found, so the 15 minutes of the verbatim records
// stand.

// ErrInvalidSignature: a SigV4 signature, date or credential scope that
// does not verify.
var ErrInvalidSignature = &Class{"InvalidSignatureException", nsService, http.StatusBadRequest, false}

// Messages of SigV4 verification. Those with verbs take fmt arguments.
const (
	// MsgSecurityTokenInvalid: an access key id the server does not know
	// (UnrecognizedClientException).
	MsgSecurityTokenInvalid = "The security token included in the request is invalid."
	// MsgSessionTokenInvalid: an X-Amz-Security-Token, which the server
	// never issues (UnrecognizedClientException; AWS's text has no period).
	MsgSessionTokenInvalid = "The security token included in the request is invalid"
	// MsgFoundBoth: query-string and header authentication at once
	// (InvalidSignatureException).
	MsgFoundBoth = "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header."
	// MsgMissingPair: a word of the Authorization header without "="
	// (IncompleteSignatureException): the word, the header.
	MsgMissingPair = "'%s' not a valid key=value pair (missing equal-sign) in Authorization header: '%s'."
	// MsgHeaderRequires: a missing Authorization parameter, one sentence
	// each (IncompleteSignatureException).
	MsgHeaderRequires = "Authorization header requires '%s' parameter. "
	// MsgHeaderRequiresDate: neither X-Amz-Date nor Date.
	MsgHeaderRequiresDate = "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
	// MsgHeaderSuffix ends the Authorization sentences with the header.
	MsgHeaderSuffix = "Authorization=%s"
	// MsgQueryRequires: a missing query-string parameter, one sentence each.
	MsgQueryRequires = "AWS query-string parameters must include '%s'. "
	// MsgQuerySuffix ends the query-string sentences.
	MsgQuerySuffix = "Re-examine the query-string parameters."
	// MsgDateFormat: a date that is not ISO 8601 basic format
	// (IncompleteSignatureException).
	MsgDateFormat = "Date must be in ISO-8601 'basic format'. Got '%s'. See http://en.wikipedia.org/wiki/ISO_8601"
	// MsgSignatureExpired: the request's date, the oldest date accepted,
	// now (InvalidSignatureException).
	MsgSignatureExpired = "Signature expired: %s is now earlier than %s (%s - 15 min.)"
	// MsgSignatureNotYetCurrent: the request's date, the latest date
	// accepted, now (InvalidSignatureException).
	MsgSignatureNotYetCurrent = "Signature not yet current: %s is still later than %s (%s + 15 min.)"
	// MsgHostNotSigned: SignedHeaders without host (InvalidSignatureException).
	MsgHostNotSigned = "'Host' must be a 'SignedHeader' in the AWS Authorization."
	// MsgTargetNotSigned: an API call whose X-Amz-Target the signature
	// does not cover. The emulator's own rule, worded as AWS words the
	// Host rule: no record says what DynamoDB answers such a request, and
	// without it a request seen once (a presigned URL, a logged request)
	// could be replayed within its 15 minutes as any other operation.
	MsgTargetNotSigned = "'X-Amz-Target' must be a 'SignedHeader' in the AWS Authorization."
	// MsgUnsupportedAlgorithm: the algorithm given (IncompleteSignatureException).
	MsgUnsupportedAlgorithm = "Unsupported AWS 'algorithm': '%s' (only AWS4-HMAC-SHA256 for now). "
	// MsgCredentialElements: the Credential given (IncompleteSignatureException).
	MsgCredentialElements = "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '%s'"
	// The credential scope's sentences (InvalidSignatureException), in
	// this order, concatenated.
	MsgScopeRegion     = "Credential should be scoped to a valid region, not '%s'. "
	MsgScopeService    = "Credential should be scoped to correct service: '%s'. "
	MsgScopeTerminator = "Credential should be scoped with a valid terminator: 'aws4_request', not '%s'. "
	MsgScopeDate       = "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '%s' != '%s', from '%s'."
	// MsgSignatureMismatch: the canonical string and the string to sign
	// the server computed (InvalidSignatureException).
	MsgSignatureMismatch = "The request signature we calculated does not match the signature you provided. " +
		"Check your AWS Secret Access Key and signing method. Consult the service documentation for details." +
		"\n\nThe Canonical String for this request should have been\n'%s'\n\nThe String-to-Sign should have been\n'%s'\n"
)
