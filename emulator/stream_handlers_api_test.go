package emulator_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// lambdaCall sends a request of Lambda's REST API to url and returns
// its status, X-Amzn-ErrorType and decoded body.
func lambdaCall(t *testing.T, method, url, body string) (int, string, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out), string(b))
	return resp.StatusCode, resp.Header.Get("X-Amzn-ErrorType"), out
}

// TestLambdaEventSourceMappingAPI: Create, Get, List, Update and Delete
// on Lambda's documented paths, with its statuses and error types, and
// the drain admin endpoint after a write.
func TestLambdaEventSourceMappingAPI(t *testing.T) {
	url, e, db := emulatortest.NewServerWith(t, emulator.Options{})
	h := newHandlerServer(t, nil)
	e.Streams().SetLambdaEndpoint(h.url)
	ctx := context.Background()
	out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("orders"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
	})
	require.NoError(t, err)
	arn := aws.ToString(out.TableDescription.LatestStreamArn)
	base := url + "/2015-03-31/event-source-mappings/"

	status, _, c := lambdaCall(t, http.MethodPost, base, `{"EventSourceArn":"`+arn+`","FunctionName":"fn","StartingPosition":"LATEST",
		"FilterCriteria":{"Filters":[{"Pattern":"{\"eventName\":[\"INSERT\"]}"}]}}`)
	require.Equal(t, http.StatusAccepted, status)
	require.Equal(t, "Creating", c["State"])
	require.EqualValues(t, 100, c["BatchSize"])
	require.EqualValues(t, -1, c["MaximumRetryAttempts"])
	require.EqualValues(t, -1, c["MaximumRecordAgeInSeconds"])
	require.EqualValues(t, 1, c["ParallelizationFactor"])
	require.Equal(t, arn, c["EventSourceArn"])
	require.True(t, strings.HasSuffix(c["FunctionArn"].(string), ":function:fn"), c["FunctionArn"])
	id := c["UUID"].(string)

	status, _, c = lambdaCall(t, http.MethodGet, base+id, "")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "Enabled", c["State"])
	require.Equal(t, "No records processed", c["LastProcessingResult"])

	status, _, c = lambdaCall(t, http.MethodPut, base+id, `{"BatchSize":5,"MaximumRetryAttempts":3}`)
	require.Equal(t, http.StatusAccepted, status)
	require.EqualValues(t, 5, c["BatchSize"])
	require.EqualValues(t, 3, c["MaximumRetryAttempts"])

	status, _, c = lambdaCall(t, http.MethodGet, base+"?FunctionName=fn", "")
	require.Equal(t, http.StatusOK, status)
	require.Len(t, c["EventSourceMappings"], 1)
	_, _, c = lambdaCall(t, http.MethodGet, base+"?FunctionName=other", "")
	require.Empty(t, c["EventSourceMappings"])

	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: map[string]types.AttributeValue{"id": str("a")}})
	require.NoError(t, err)
	status, _, c = adminPost(t, url+adminpath.StreamsDrain, `{"timeout":"30s"}`)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, true, c["drained"])
	require.Equal(t, []string{"a"}, h.delivered())
	_, _, c = lambdaCall(t, http.MethodGet, base+id, "")
	require.Equal(t, "OK", c["LastProcessingResult"])
	st := e.Streams().Mappings()
	require.Len(t, st, 1)
	require.Equal(t, id, st[0].UUID)
	require.EqualValues(t, 1, st[0].Invocations)
	require.EqualValues(t, 0, st[0].FunctionErrors)
	require.Equal(t, 1, st[0].LastBatchSize)
	status, _, c = lambdaCall(t, http.MethodGet, url+adminpath.StreamsMappings, "")
	require.Equal(t, http.StatusOK, status)
	require.Len(t, c["mappings"], 1)

	for _, tc := range []struct{ body, typ string }{
		{`{"EventSourceArn":"` + arn + `","FunctionName":"fn","StartingPosition":"LATEST","BatchSize":0}`, "ValidationException"},
		{`{"EventSourceArn":"` + arn + `","FunctionName":"fn","StartingPosition":"LATEST","BatchSize":10001}`, "ValidationException"},
		{`{"EventSourceArn":"` + arn + `","FunctionName":"fn","StartingPosition":"SOMEWHERE"}`, "ValidationException"},
		{`{"EventSourceArn":"` + arn + `","FunctionName":"fn"}`, "InvalidParameterValueException"},
		{`{"EventSourceArn":"arn:aws:sqs:us-east-1:000000000000:q","FunctionName":"fn","StartingPosition":"LATEST"}`, "InvalidParameterValueException"},
		{`{"EventSourceArn":"` + arn + `","FunctionName":"fn","StartingPosition":"LATEST","FilterCriteria":{"Filters":[{"Pattern":"{\"a\":1}"}]}}`, "InvalidParameterValueException"},
		{`{"EventSourceArn":"` + arn + `","FunctionName":"fn","StartingPosition":"LATEST","MaximumRecordAgeInSeconds":10}`, "InvalidParameterValueException"},
		{`{"EventSourceArn":`, "SerializationException"},
	} {
		status, typ, c := lambdaCall(t, http.MethodPost, base, tc.body)
		require.Equal(t, http.StatusBadRequest, status, tc.body)
		require.Equal(t, tc.typ, typ, tc.body)
		if typ == "ValidationException" { // AWS's request validation: {"message"}
			require.NotEmpty(t, c["message"], tc.body)
			require.NotContains(t, c, "Type", tc.body)
		} else { // Lambda's own: {"Type":"User","Message"}
			require.NotEmpty(t, c["Message"], tc.body)
			require.Equal(t, "User", c["Type"], tc.body)
		}
	}
	status, typ, _ := lambdaCall(t, http.MethodPost, base, `{"EventSourceArn":"`+arn+`","FunctionName":"fn","StartingPosition":"LATEST","BatchSize":0}`)
	require.Equal(t, "ValidationException", typ)
	require.Equal(t, http.StatusBadRequest, status)

	status, _, c = lambdaCall(t, http.MethodDelete, base+id, "")
	require.Equal(t, http.StatusAccepted, status)
	require.Equal(t, "Deleting", c["State"])
	status, typ, c = lambdaCall(t, http.MethodGet, base+id, "")
	require.Equal(t, http.StatusNotFound, status)
	require.Equal(t, "ResourceNotFoundException", typ)
	require.Equal(t, "The resource you requested does not exist.", c["Message"])
	require.Equal(t, "User", c["Type"])
}

// adminPost POSTs a JSON body to an admin endpoint.
func adminPost(t *testing.T, url, body string) (int, string, map[string]any) {
	return lambdaCall(t, http.MethodPost, url, body)
}
