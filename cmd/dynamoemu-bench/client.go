package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// client speaks the DynamoDB JSON protocol over plain HTTP: a POST to /
// with X-Amz-Target and a fixed, unsigned SigV4-shaped Authorization
// header (the servers measured read the access key from it and check
// its shape, not its signature). It uses no SDK, so that the client's own
// cost per request stays small beside the server's (the tool reports it,
// client-cpu).
type client struct {
	url       string
	accessKey string
	http      *http.Client
}

func newClient(url, accessKey string, conns int) *client {
	tr := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        conns,
		MaxIdleConnsPerHost: conns,
		MaxConnsPerHost:     conns,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
	}
	return &client{url: url, accessKey: accessKey, http: &http.Client{Transport: tr, Timeout: 60 * time.Second}}
}

// apiError is a DynamoDB error answer.
type apiError struct {
	Status  int
	Type    string `json:"__type"`
	Message string `json:"message"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, e.Type, e.Message)
}

// call sends body to operation op and returns the answer's body, or an
// *apiError for a non-200 answer. buf, if not nil, is reused for the body.
func (c *client) call(op string, body []byte, buf *bytes.Buffer) ([]byte, error) {
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header["Content-Type"] = []string{"application/x-amz-json-1.0"}
	req.Header["X-Amz-Target"] = []string{"DynamoDB_20120810." + op}
	req.Header["X-Amz-Date"] = []string{"20260101T000000Z"}
	req.Header["Authorization"] = []string{"AWS4-HMAC-SHA256 Credential=" + c.accessKey +
		"/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0"}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	buf.Reset()
	if _, err := io.Copy(buf, res.Body); err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		e := &apiError{Status: res.StatusCode}
		json.Unmarshal(buf.Bytes(), e)
		return nil, e
	}
	return buf.Bytes(), nil
}

// callJSON calls op with in (marshalled) and decodes the answer into out
// (nil: ignored).
func (c *client) callJSON(op string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	resp, err := c.call(op, body, nil)
	if err != nil {
		return err
	}
	if out != nil {
		return json.Unmarshal(resp, out)
	}
	return nil
}
