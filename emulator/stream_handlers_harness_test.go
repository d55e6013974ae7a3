package emulator_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// The stream handlers' tests run a small handler server in the Lambda
// Invoke API's shape (as serverless-offline's lambda port serves it):
// it records every event it is sent and answers as the test says.

// lambdaRecord is one record of the event Lambda sends.
type lambdaRecord struct {
	EventID        string `json:"eventID"`
	EventName      string `json:"eventName"`
	EventVersion   string `json:"eventVersion"`
	EventSource    string `json:"eventSource"`
	AwsRegion      string `json:"awsRegion"`
	EventSourceARN string `json:"eventSourceARN"`
	Dynamodb       struct {
		ApproximateCreationDateTime json.Number               `json:"ApproximateCreationDateTime"`
		Keys                        map[string]map[string]any `json:"Keys"`
		NewImage                    map[string]map[string]any `json:"NewImage"`
		OldImage                    map[string]map[string]any `json:"OldImage"`
		SequenceNumber              string                    `json:"SequenceNumber"`
		SizeBytes                   int                       `json:"SizeBytes"`
		StreamViewType              string                    `json:"StreamViewType"`
	} `json:"dynamodb"`
	UserIdentity map[string]any `json:"userIdentity"` // a deletion by TTL's (a map: its keys exactly)
}

// id is the record's key attribute "id".
func (r lambdaRecord) id() string { return r.Dynamodb.Keys["id"]["S"].(string) }

// invocation is one call the handler server got: the event's records,
// and with a tumbling window the window's members.
type invocation struct {
	Path    string
	Records []lambdaRecord
	Window  *struct{ Start, End string } `json:"window"`
	State   map[string]any               `json:"state"`
	ShardID string                       `json:"shardId"`
	Final   bool                         `json:"isFinalInvokeForWindow"`
	Early   bool                         `json:"isWindowTerminatedEarly"`
}

// ids are the ids of the invocation's records, in order.
func (iv invocation) ids() []string {
	out := make([]string, len(iv.Records))
	for i, r := range iv.Records {
		out[i] = r.id()
	}
	return out
}

// reply is the handler's answer to one invocation.
type reply struct {
	status    int    // 0: 200
	funcError string // X-Amz-Function-Error
	body      string
}

// handlerServer is the function: answer says what it replies to the
// n-th invocation (from 0); failures are the invocation records POSTed
// to /failures.
type handlerServer struct {
	url    string
	answer func(n int, iv invocation) reply

	mu       sync.Mutex
	calls    []invocation
	failures []map[string]any
	called   chan struct{} // a value per invocation, if the test made it
}

func newHandlerServer(t *testing.T, answer func(n int, iv invocation) reply) *handlerServer {
	h := &handlerServer{answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		if r.URL.Path == "/failures" {
			var doc map[string]any
			require.NoError(t, json.Unmarshal(body, &doc))
			h.mu.Lock()
			h.failures = append(h.failures, doc)
			h.mu.Unlock()
			return
		}
		var iv invocation
		require.NoError(t, json.Unmarshal(body, &iv))
		iv.Path = r.URL.Path
		h.mu.Lock()
		n := len(h.calls)
		h.calls = append(h.calls, iv)
		called := h.called
		h.mu.Unlock()
		rep := reply{}
		if h.answer != nil {
			rep = h.answer(n, iv)
		}
		if rep.funcError != "" {
			w.Header().Set("X-Amz-Function-Error", rep.funcError)
		}
		if rep.status == 0 {
			rep.status = http.StatusOK
		}
		w.WriteHeader(rep.status)
		_, _ = io.WriteString(w, rep.body)
		if called != nil {
			select {
			case called <- struct{}{}:
			default:
			}
		}
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

func (h *handlerServer) invocations() []invocation {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]invocation(nil), h.calls...)
}

func (h *handlerServer) failureDocs() []map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]map[string]any(nil), h.failures...)
}

// batches are the ids of every invocation, in order.
func (h *handlerServer) batches() [][]string {
	var out [][]string
	for _, iv := range h.invocations() {
		out = append(out, iv.ids())
	}
	return out
}

// delivered are the ids of every record of every invocation.
func (h *handlerServer) delivered() []string {
	var out []string
	for _, b := range h.batches() {
		out = append(out, b...)
	}
	return out
}

// handlerEnv is an emulator with a table "orders" (key "id", a stream
// of NEW_AND_OLD_IMAGES) whose functions are invoked at h.
type handlerEnv struct {
	e   *emulator.Emulator
	db  *dynamodb.Client
	h   *handlerServer
	arn string // the table's stream ARN
}

func newHandlerEnv(t *testing.T, answer func(n int, iv invocation) reply) *handlerEnv {
	return newHandlerEnvWith(t, emulator.Options{}, answer)
}

// newHandlerEnvWith is newHandlerEnv of an emulator made with opts.
func newHandlerEnvWith(t *testing.T, opts emulator.Options, answer func(n int, iv invocation) reply) *handlerEnv {
	if opts.StreamRetryBackoff == 0 {
		opts.StreamRetryBackoff = time.Millisecond // retries at once: the tests count them, not their waits
	}
	e, db := emulatortest.NewWith(t, opts)
	ctx := context.Background()
	out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("orders"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	require.NoError(t, err)
	h := newHandlerServer(t, answer)
	e.Streams().SetLambdaEndpoint(h.url)
	return &handlerEnv{e: e, db: db, h: h, arn: aws.ToString(out.TableDescription.LatestStreamArn)}
}

// mapping creates a mapping of the table's stream to function "fn"
// from TRIM_HORIZON, edited by edit.
func (env *handlerEnv) mapping(t *testing.T, edit func(m *emulator.EventSourceMapping)) string {
	m := emulator.EventSourceMapping{EventSourceArn: aws.String(env.arn), FunctionName: aws.String("fn"),
		StartingPosition: aws.String("TRIM_HORIZON")}
	if edit != nil {
		edit(&m)
	}
	id, err := env.e.Streams().CreateMapping(m)
	require.NoError(t, err)
	return id
}

// put writes an item of id with the attributes attrs (DynamoDB JSON).
func (env *handlerEnv) put(t *testing.T, id string, attrs map[string]types.AttributeValue) {
	item := map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id}}
	for k, v := range attrs {
		item[k] = v
	}
	_, err := env.db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: item})
	require.NoError(t, err)
}

func (env *handlerEnv) del(t *testing.T, id string) {
	_, err := env.db.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String("orders"),
		Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id}}})
	require.NoError(t, err)
}

func (env *handlerEnv) drain(t *testing.T) {
	require.NoError(t, env.e.Streams().Drain(context.Background()))
}

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func num(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }

// failOn answers a function error for any batch holding one of ids.
func failOn(ids ...string) func(int, invocation) reply {
	return func(_ int, iv invocation) reply {
		for _, id := range iv.ids() {
			for _, bad := range ids {
				if id == bad {
					return reply{funcError: "Unhandled", body: `{"errorMessage":"bad record ` + strings.ReplaceAll(id, `"`, "") + `"}`}
				}
			}
		}
		return reply{body: "null"}
	}
}
