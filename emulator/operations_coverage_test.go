package emulator

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamsapi"
)

// notYet lists operations of the SDK the emulator does not answer yet,
// each with why; every entry is a gap to close (the report of the branch
// that added the list names them). Empty since the bulk operations
// (emulator/internal/transfers/bulk_ops.go).
var notYet = map[string]string{}

// sdkOperations returns the operation names of an aws-sdk-go-v2 client:
// its exported methods of the shape
// (context.Context, *<Op>Input, ...func(*Options)) (*<Op>Output, error).
func sdkOperations(client any) []string {
	var names []string
	typ := reflect.TypeOf(client)
	for i := range typ.NumMethod() {
		m := typ.Method(i)
		ft := m.Type // receiver first
		if ft.NumIn() != 4 || ft.NumOut() != 2 || !ft.IsVariadic() {
			continue
		}
		in := ft.In(2)
		if in.Kind() != reflect.Pointer || in.Elem().Name() != m.Name+"Input" {
			continue
		}
		names = append(names, m.Name)
	}
	slices.Sort(names)
	return names
}

// TestEveryOperationAnswers: every operation of the DynamoDB and
// DynamoDB Streams clients of the aws-sdk-go-v2 in go.mod has a handler,
// so an operation AWS adds fails this test when the SDK is updated,
// not a user; and apierr.KnownOperation (emulator/internal/apierr/operations.go) names them all.
func TestEveryOperationAnswers(t *testing.T) {
	svc := newTestEmulator(t, Options{}).svc
	ddb := sdkOperations(&dynamodb.Client{})
	if len(ddb) < 50 {
		t.Fatalf("found %d DynamoDB operations by reflection, want the SDK's 50+: %v", len(ddb), ddb)
	}
	for _, name := range ddb {
		if !apierr.KnownOperation(name) {
			t.Errorf("operation %s of the SDK is not in apierr.KnownOperation's list", name)
		}
		if svc.Registered(name) {
			if _, ok := notYet[name]; ok {
				t.Errorf("operation %s has a handler: remove it from notYet", name)
			}
			continue
		}
		if why, ok := notYet[name]; ok {
			t.Logf("operation %s: not yet (%s)", name, why)
			continue
		}
		t.Errorf("operation %s of the SDK has no handler", name)
	}
	streams := sdkOperations(&dynamodbstreams.Client{})
	if len(streams) != 4 {
		t.Errorf("found Streams operations %v, want the four", streams)
	}
	for _, name := range streams {
		if !svc.Registered(streamsapi.TargetPrefix + name) {
			t.Errorf("Streams operation %s of the SDK has no handler", name)
		}
	}
	for _, name := range svc.Operations() {
		if strings.HasPrefix(name, streamsapi.TargetPrefix) || name == "TestEcho" || strings.HasPrefix(name, "Test") {
			continue
		}
		if !slices.Contains(ddb, name) {
			t.Errorf("handler %s is no operation of the SDK's DynamoDB client", name)
		}
	}
}
