package conventionscheck

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// AWS Signature Version 4, as AWS's reference describes it ("Create a
// signed AWS API request", docs.aws.amazon.com/IAM/latest/UserGuide/
// reference_sigv-create-signed-request.html): the request's method, path,
// query, signed headers and payload hash make the canonical request, whose
// hash, under the date, region and service of its scope, is signed with a
// key derived from the secret. The check signs POSTs to one DynamoDB
// endpoint: no query string, a path of "/" (or the endpoint's own).

// awsKeys are the keys a request is signed with.
type awsKeys struct {
	accessKey, secretKey, sessionToken string
}

// signV4 signs req, whose body is body, for service in region at now: it
// sets X-Amz-Date (and X-Amz-Security-Token with a session token) and
// Authorization. Every header set on req before the call is signed, and
// Host and Content-Length.
func signV4(req *http.Request, body []byte, c awsKeys, region, service string, now time.Time) {
	now = now.UTC()
	amzDate := now.Format("20060102T150405Z")
	day := amzDate[:8]
	req.Header.Set("X-Amz-Date", amzDate)
	if c.sessionToken != "" {
		req.Header.Set("X-Amz-Security-Token", c.sessionToken)
	}
	payloadHash := hashHex(body)

	headers := map[string]string{"host": req.Host}
	if req.Host == "" {
		headers["host"] = req.URL.Host
	}
	if req.ContentLength > 0 { // net/http sends it; signed as the AWS SDKs sign it
		headers["content-length"] = strconv.FormatInt(req.ContentLength, 10)
	}
	for k, vs := range req.Header {
		headers[strings.ToLower(k)] = strings.Join(trimAll(vs), ",")
	}
	names := make([]string, 0, len(headers))
	for k := range headers {
		names = append(names, k)
	}
	sort.Strings(names)
	var canon strings.Builder
	for _, k := range names {
		canon.WriteString(k + ":" + headers[k] + "\n")
	}
	signed := strings.Join(names, ";")
	path := req.URL.EscapedPath()
	if path == "" {
		path = "/"
	}
	canonical := strings.Join([]string{req.Method, path, req.URL.RawQuery, canon.String(), signed, payloadHash}, "\n")
	scope := day + "/" + region + "/" + service + "/aws4_request"
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hashHex([]byte(canonical))
	key := hmacSHA256([]byte("AWS4"+c.secretKey), day)
	key = hmacSHA256(key, region)
	key = hmacSHA256(key, service)
	key = hmacSHA256(key, "aws4_request")
	sig := hex.EncodeToString(hmacSHA256(key, toSign))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+c.accessKey+"/"+scope+
		", SignedHeaders="+signed+", Signature="+sig)
}

// hashHex is b's SHA-256 in lower-case hex.
func hashHex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func hmacSHA256(key []byte, s string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(s))
	return m.Sum(nil)
}

// trimAll is vs with each value's outer spaces gone and inner runs of
// spaces made one, as the canonical headers want them.
func trimAll(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strings.Join(strings.Fields(v), " ")
	}
	return out
}
