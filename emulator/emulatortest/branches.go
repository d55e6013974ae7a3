package emulatortest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// Fork returns a client of a new branch of the namespace that base's
// requests reach on e: the base's tables and items as they are now,
// forked in O(1) whatever they hold, its writes invisible to the base
// and to every other branch. The branch is dropped when t ends. The
// client is base's (endpoint, HTTP client, retryer) with the branch's
// X-Dynamoemu-Branch header (BranchHeader), which selects the branch,
// and, without SharedDB, the branch's name as its access key id, which
// selects it too (so a Streams client made from its Options reaches it).
//
// Seed a base once (TestMain, or a parent test: Seed), then fork it per
// test:
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
	b, err := e.Branches().Fork(e.Branches().NamespaceID(cred.AccessKeyID, opts.Region), name)
	if err != nil {
		t.Fatalf("emulatortest: %v", err)
	}
	ownedBy(t).add(b.Namespace) // the test's stale reads (StaleReads)
	t.Cleanup(func() {
		if err := e.Branches().Drop(name); err != nil {
			t.Errorf("emulatortest: %v", err)
		}
	})
	return dynamodb.New(opts, BranchHeader(name), func(o *dynamodb.Options) {
		if b.AccessKey != "" {
			o.Credentials = credentials.NewStaticCredentialsProvider(b.AccessKey, "secret", "")
		}
	})
}

// BranchHeader is a client option that sends every request to branch
// name (the X-Dynamoemu-Branch header), whatever the client's
// credentials: one server and one key serve every test's branch.
//
//	client := dynamodb.NewFromConfig(cfg, emulatortest.BranchHeader("t1"))
func BranchHeader(name string) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(slices.Clip(o.APIOptions), smithyhttp.AddHeaderValue("X-Dynamoemu-Branch", name))
	}
}

// branchName is a branch name unique in the process: letters and digits
// of the test's name and a sequence number.
func branchName(t testing.TB) string {
	return fmt.Sprintf("Branch%s", uniqueAccessKey(t)[len("AKIA"):])
}
