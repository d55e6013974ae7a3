package emulatortest

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// Fork returns a client of a new branch of the namespace that base's
// requests reach on e: the base's tables and items as they are now,
// forked in O(1) whatever they hold, its writes invisible to the base
// and to every other branch. The branch is dropped when t ends. The
// client is base's (endpoint, HTTP client, retryer) with the branch's
// name as its access key id, which is what selects the branch.
//
// Seed a base once (TestMain, or a parent test), then fork it per test:
//
//	e, base := emulatortest.NewWith(t, emulator.Options{})
//	seed(t, base) // create tables, write items
//	t.Run("one", func(t *testing.T) {
//		t.Parallel()
//		client := emulatortest.Fork(t, e, base)
//		...
//	})
func Fork(t testing.TB, e *emulator.Emulator, base *dynamodb.Client) *dynamodb.Client {
	t.Helper()
	opts := base.Options()
	cred, err := opts.Credentials.Retrieve(context.Background())
	if err != nil {
		t.Fatalf("emulatortest: the base client's credentials: %v", err)
	}
	name := branchName(t)
	if _, err := e.Fork(e.NamespaceID(cred.AccessKeyID, opts.Region), name); err != nil {
		t.Fatalf("emulatortest: %v", err)
	}
	t.Cleanup(func() {
		if err := e.DropBranch(name); err != nil {
			t.Errorf("emulatortest: %v", err)
		}
	})
	return dynamodb.New(opts, func(o *dynamodb.Options) {
		o.Credentials = credentials.NewStaticCredentialsProvider(name, "secret", "")
	})
}

// branchName is a branch name unique in the process: letters and digits
// of the test's name and a sequence number.
func branchName(t testing.TB) string {
	return fmt.Sprintf("Branch%s", uniqueAccessKey(t)[len("AKIA"):])
}
