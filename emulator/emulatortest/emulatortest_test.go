package emulatortest_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// checkAnswer accepts success (once ListTables is registered) or the
// UnknownOperationException of a framework without operations: either way
// the SDK parsed the answer and verified its crc32.
func checkAnswer(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != "UnknownOperationException" {
		t.Fatalf("got %v, want success or UnknownOperationException", err)
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	client := emulatortest.New(t)
	_, err := client.ListTables(context.Background(), &dynamodb.ListTablesInput{})
	checkAnswer(t, err)
}

func TestNewServer(t *testing.T) {
	t.Parallel()
	url, client := emulatortest.NewServer(t)
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("got URL %q", url)
	}
	_, err := client.ListTables(context.Background(), &dynamodb.ListTablesInput{})
	checkAnswer(t, err)

	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	// GET / is AWS's health answer: 200 "healthy: <host> ".
	if res.StatusCode != 200 || !strings.HasPrefix(string(body), "healthy: ") {
		t.Fatalf("GET /: got %d %s", res.StatusCode, body)
	}
}

func TestParallelClients(t *testing.T) {
	for i := range 8 {
		t.Run("c"+string(rune('0'+i)), func(t *testing.T) {
			t.Parallel()
			client := emulatortest.New(t)
			for range 20 {
				_, err := client.ListTables(context.Background(), &dynamodb.ListTablesInput{})
				checkAnswer(t, err)
			}
		})
	}
}
