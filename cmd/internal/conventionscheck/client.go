package conventionscheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/shapes"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The check's DynamoDB client: four operations (ListTables, DescribeTable,
// ListTagsOfResource, Scan) in DynamoDB's JSON protocol, signed with
// SigV4 (signing.go). It is this small so that the check lives in the
// server's binary ("dynamoemu check") without the AWS SDK, which would
// add about 10 MB to it.

// client calls one DynamoDB endpoint.
type client struct {
	endpoint string // the URL requests are sent to
	region   string
	creds    awsKeys
	http     *http.Client
	now      func() time.Time
}

// apiError is an error answer: DynamoDB's __type (without its namespace)
// and message.
type apiError struct {
	Status  int
	Type    string
	Message string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%s: %s (HTTP %d)", e.Type, e.Message, e.Status)
}

// retryable reports whether an error answer may succeed if sent again.
func (e *apiError) retryable() bool {
	switch e.Type {
	case "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded", "InternalServerError":
		return true
	}
	return e.Status >= 500
}

// newClient is the client for endpoint ("" is AWS's endpoint for region)
// with the credentials of resolveCredentials.
func newClient(endpoint, region, accessKey, secretKey string, getenv func(string) string) (*client, error) {
	local := endpoint != ""
	if endpoint == "" {
		endpoint = "https://dynamodb." + region + ".amazonaws.com"
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--endpoint %q: want an http:// or https:// URL", endpoint)
	}
	creds, err := resolveCredentials(local, accessKey, secretKey, getenv)
	if err != nil {
		return nil, err
	}
	return &client{endpoint: endpoint, region: region, creds: creds, http: &http.Client{Timeout: time.Minute}, now: time.Now}, nil
}

// resolveCredentials picks the keys: --accessKey and --secretKey; else
// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN);
// else, for a --endpoint (local) without AWS_PROFILE, "dynamoemu" (the
// emulator and DynamoDB Local accept any key); else the profile
// AWS_PROFILE (or default) of the shared credentials file
// (AWS_SHARED_CREDENTIALS_FILE, or ~/.aws/credentials), static keys only.
func resolveCredentials(local bool, accessKey, secretKey string, getenv func(string) string) (awsKeys, error) {
	if accessKey != "" {
		return awsKeys{accessKey: accessKey, secretKey: secretKey}, nil
	}
	if id := getenv("AWS_ACCESS_KEY_ID"); id != "" {
		return awsKeys{accessKey: id, secretKey: getenv("AWS_SECRET_ACCESS_KEY"), sessionToken: getenv("AWS_SESSION_TOKEN")}, nil
	}
	profile := getenv("AWS_PROFILE")
	if local && profile == "" {
		return awsKeys{accessKey: "dynamoemu", secretKey: secretKey}, nil
	}
	if c, ok, err := profileCredentials(profile, getenv); err != nil || ok {
		return c, err
	}
	if profile != "" {
		return awsKeys{}, fmt.Errorf("AWS_PROFILE %q: no aws_access_key_id for it in the shared credentials file (the check reads static keys only; give --accessKey and --secretKey)", profile)
	}
	return awsKeys{}, errors.New("no credentials for AWS: give --accessKey and --secretKey, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile in ~/.aws/credentials")
}

// profileCredentials reads profile's static keys from the shared
// credentials file; ok is false when the file or the profile is not there.
func profileCredentials(profile string, getenv func(string) string) (c awsKeys, ok bool, err error) {
	if profile == "" {
		profile = "default"
	}
	file := getenv("AWS_SHARED_CREDENTIALS_FILE")
	if file == "" {
		home := getenv("HOME")
		if home == "" {
			home = getenv("USERPROFILE")
		}
		if home == "" {
			return c, false, nil
		}
		file = filepath.Join(home, ".aws", "credentials")
	}
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return c, false, nil
	} else if err != nil {
		return c, false, err
	}
	defer f.Close()
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = strings.TrimSpace(line[1 : len(line)-1])
			continue
		}
		k, v, found := strings.Cut(line, "=")
		if section != profile || !found {
			continue
		}
		switch strings.TrimSpace(k) {
		case "aws_access_key_id":
			c.accessKey = strings.TrimSpace(v)
		case "aws_secret_access_key":
			c.secretKey = strings.TrimSpace(v)
		case "aws_session_token":
			c.sessionToken = strings.TrimSpace(v)
		}
	}
	return c, c.accessKey != "", sc.Err()
}

// maxAnswer bounds an answer's body: a Scan page is at most 1 MB of items,
// which their JSON may double.
const maxAnswer = 16 << 20

// call sends op with in (marshalled to JSON) and decodes the answer into
// out. Throttling and server errors are sent again, up to five tries.
func (c *client) call(ctx context.Context, op string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	delay := 50 * time.Millisecond
	for try := 1; ; try++ {
		err := c.try(ctx, op, body, out)
		var ae *apiError
		if err == nil || !errors.As(err, &ae) || !ae.retryable() || try == 5 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		delay *= 2
	}
}

func (c *client) try(ctx context.Context, op string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	signV4(req, body, c.creds, c.region, "dynamodb", c.now())
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer+1))
	if err != nil {
		return err
	}
	if len(data) > maxAnswer {
		return fmt.Errorf("%s: answer larger than %d bytes", op, maxAnswer)
	}
	if res.StatusCode != http.StatusOK {
		return errorOf(res.StatusCode, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s: the answer is not DynamoDB's JSON: %w", op, err)
	}
	return nil
}

// errorOf is an error answer's apiError.
func errorOf(status int, data []byte) *apiError {
	var e struct {
		Type     string `json:"__type"`
		Message  string `json:"message"`
		MessageU string `json:"Message"`
	}
	_ = json.Unmarshal(data, &e)
	ae := &apiError{Status: status, Type: e.Type, Message: e.Message}
	if ae.Message == "" {
		ae.Message = e.MessageU
	}
	if i := strings.LastIndexByte(ae.Type, '#'); i >= 0 {
		ae.Type = ae.Type[i+1:]
	}
	if ae.Type == "" {
		ae.Type = http.StatusText(status)
		if ae.Message == "" {
			ae.Message = strings.TrimSpace(string(data[:min(len(data), 200)]))
		}
	}
	return ae
}

func (c *client) listTables(ctx context.Context) ([]string, error) {
	var names []string
	in := map[string]any{}
	for {
		var out struct {
			TableNames             []string
			LastEvaluatedTableName string
		}
		if err := c.call(ctx, "ListTables", in, &out); err != nil {
			return nil, err
		}
		names = append(names, out.TableNames...)
		if out.LastEvaluatedTableName == "" {
			return names, nil
		}
		in["ExclusiveStartTableName"] = out.LastEvaluatedTableName
	}
}

func (c *client) describeTable(ctx context.Context, name string) (shapes.TableDescription, error) {
	var out struct{ Table shapes.TableDescription }
	err := c.call(ctx, "DescribeTable", map[string]string{"TableName": name}, &out)
	return out.Table, err
}

// tags are a table's tags; an endpoint without tagging (an error answer)
// gives none.
func (c *client) tags(ctx context.Context, arn string) map[string]string {
	tags := map[string]string{}
	in := map[string]string{"ResourceArn": arn}
	for {
		var out struct {
			Tags      []shapes.Tag[string]
			NextToken string
		}
		if c.call(ctx, "ListTagsOfResource", in, &out) != nil {
			return tags
		}
		for _, t := range out.Tags {
			tags[t.Key] = t.Value
		}
		if out.NextToken == "" {
			return tags
		}
		in["NextToken"] = out.NextToken
	}
}

// scanAll reads every item of a table (consistent reads). The check keeps
// them all in memory (rules B5 and L1 look items up by key).
func (c *client) scanAll(ctx context.Context, name string) ([]storage.Item, error) {
	var items []storage.Item
	in := map[string]any{"TableName": name, "ConsistentRead": true}
	for {
		var out struct {
			Items            []map[string]attributeValue
			LastEvaluatedKey map[string]json.RawMessage
		}
		if err := c.call(ctx, "Scan", in, &out); err != nil {
			return nil, err
		}
		for _, it := range out.Items {
			item := make(storage.Item, len(it))
			for k, v := range it {
				item[k] = v.value()
			}
			items = append(items, item)
		}
		if len(out.LastEvaluatedKey) == 0 {
			return items, nil
		}
		in["ExclusiveStartKey"] = out.LastEvaluatedKey
	}
}

// attributeValue is an attribute value in DynamoDB's JSON: one member set.
type attributeValue struct {
	S    *string
	N    *string
	B    []byte
	BOOL *bool
	NULL *bool
	SS   []string
	NS   []string
	BS   [][]byte
	L    []attributeValue
	M    map[string]attributeValue
}

// value is a as storage keeps it; a value with no member (which no
// endpoint sends) is NULL.
func (a attributeValue) value() storage.Value {
	switch {
	case a.S != nil:
		return storage.S(*a.S)
	case a.N != nil:
		return storage.N(number(*a.N))
	case a.B != nil:
		return storage.B(a.B)
	case a.BOOL != nil:
		return storage.Bool(*a.BOOL)
	case a.SS != nil:
		return storage.SS(a.SS)
	case a.NS != nil:
		ns := make([]storage.Number, len(a.NS))
		for i, s := range a.NS {
			ns[i] = number(s)
		}
		return storage.NS(ns)
	case a.BS != nil:
		return storage.BS(a.BS)
	case a.L != nil:
		l := make([]storage.Value, len(a.L))
		for i, e := range a.L {
			l[i] = e.value()
		}
		return storage.L(l)
	case a.M != nil:
		m := make(map[string]storage.Value, len(a.M))
		for k, e := range a.M {
			m[k] = e.value()
		}
		return storage.M(m)
	}
	return storage.Null()
}

// number is n as storage keeps numbers; a number the endpoint sent that does
// not parse is kept as it is (rule checks then report it).
func number(s string) storage.Number {
	if n, err := storage.ParseNumber(s); err == nil {
		return n
	}
	return storage.Number(s)
}
