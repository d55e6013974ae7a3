package conventionscheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestConventionsCheck runs "dynamoemu check" against an emulator that
// does not enforce anything and holds data written before the rules; with
// DYNAMODB_ENDPOINT set, against that endpoint instead (DynamoDB Local),
// on tables of unique names that it deletes afterwards.
func TestConventionsCheck(t *testing.T) {
	url, _, db := emulatortest.NewServerWith(t, emulator.Options{SharedDB: true})
	ctx := context.Background()
	suffix := ""
	if ep := os.Getenv("DYNAMODB_ENDPOINT"); ep != "" {
		url = ep
		db = dynamodb.New(db.Options(), func(o *dynamodb.Options) {
			o.BaseEndpoint = aws.String(ep)
			o.Credentials = credentials.NewStaticCredentialsProvider("AKIDCHECK", "dynamoemu", "")
		})
		suffix = fmt.Sprintf("-%d", time.Now().UnixNano())
	}
	cmdTable, docsTable, plainTable := "app-order"+suffix+"-command", "docs"+suffix, "plain"+suffix
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	create := func(name string, keys ...string) {
		in := &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest}
		for i, k := range keys {
			kt := types.KeyTypeHash
			if i == 1 {
				kt = types.KeyTypeRange
			}
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(k), AttributeType: types.ScalarAttributeTypeS})
			in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String(k), KeyType: kt})
		}
		if _, err := db.CreateTable(ctx, in); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _, _ = db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}) })
	}
	put := func(table string, item map[string]types.AttributeValue) {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	create(cmdTable, "pk", "sk")
	create(docsTable, "documentVersion")
	create(plainTable, "pk", "sk")
	put(cmdTable, map[string]types.AttributeValue{"pk": s("ORDER#t1"), "sk": s("ORDER#1@1"), "version": n("1")})
	put(cmdTable, map[string]types.AttributeValue{"pk": s("ORDER#t1"), "sk": s("ORDER#2"), "version": n("1")})
	put(cmdTable, map[string]types.AttributeValue{"pk": s("ORDER#t1"), "sk": s("ORDER#1@3"), "version": n("3")})
	put(cmdTable, map[string]types.AttributeValue{"pk": s("ORDER#T1"), "sk": s("ORDER#1@1"), "version": n("1")})
	put(docsTable, map[string]types.AttributeValue{"documentVersion": s("v1"), "content": s("hello")})
	put(docsTable, map[string]types.AttributeValue{"documentVersion": s("latest"), "content": s("bye"), "actualVersion": s("v1")})
	put(plainTable, map[string]types.AttributeValue{"pk": s("anything"), "sk": s("goes@")})

	file := filepath.Join(t.TempDir(), "conventions.json")
	usersTable := "users" + suffix
	cfg := `{"tables":[{"match":"*-command","role":"command"},{"match":"` + docsTable + `","latest":"latest"},` +
		`{"match":"` + usersTable + `","role":"keys"}]}`
	if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err := Run(ctx, []string{"check", "--endpoint", url, "--config", file, "--accessKey", "AKIDCHECK", cmdTable, docsTable, plainTable}, &out, &errOut)
	if !errors.Is(err, ErrViolations) {
		t.Fatalf("got error %v (stderr %s), want ErrViolations", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		cmdTable + "\tA3\terror\tpk=\"ORDER#t1\" sk=\"ORDER#2\"\tcommand sort key \"ORDER#2\" has no @version suffix",
		cmdTable + "\tB5\terror\tpk=\"ORDER#t1\" sk=\"ORDER#1@3\"\t",
		cmdTable + "\tA12\twarn\tpk=\"ORDER#T1\" sk=\"ORDER#1@1\"\t",
		docsTable + "\tL1\terror\tpk=\"latest\" sk=\"\"\tlatest item's content differs",
		"4 violations in 2 tables (1 not opted in): 3 errors, 1 warnings",
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines:\n%s\nwant %d", len(lines), out.String(), len(want))
	}
	for _, w := range want {
		found := false
		for _, l := range lines {
			found = found || strings.HasPrefix(l, w)
		}
		if !found {
			t.Errorf("no line starts with %q in:\n%s", w, out.String())
		}
	}

	// Warnings alone pass, unless --fail-on-warn.
	create(usersTable, "pk", "sk")
	put(usersTable, map[string]types.AttributeValue{"pk": s("USER#MBC"), "sk": s("u1")}) // A12, a warning
	warnOnly := []string{"check", "--endpoint", url, "--config", file, "--accessKey", "AKIDCHECK", plainTable, usersTable}
	out.Reset()
	if err := Run(ctx, warnOnly, &out, &errOut); err != nil {
		t.Fatalf("warnings only: got %v, want success:\n%s", err, out.String())
	}
	if !strings.HasSuffix(out.String(), "1 violations in 1 tables (1 not opted in): 0 errors, 1 warnings\n") {
		t.Errorf("warnings only: got\n%s", out.String())
	}
	failOnWarn := append([]string{"check", "--fail-on-warn"}, warnOnly[1:]...)
	if err := Run(ctx, failOnWarn, &out, &errOut); !errors.Is(err, ErrViolations) {
		t.Fatalf("--fail-on-warn: got %v, want ErrViolations", err)
	}

	// Nothing on stderr, against DynamoDB Local too (whose
	// ListTagsOfResource error the check reads as "no tags").
	if errOut.Len() != 0 {
		t.Errorf("stderr: got %q, want nothing", errOut.String())
	}

	// An endpoint that lists no table (credentials opening another
	// namespace) fails, naming the namespace, instead of passing as
	// "0 violations in 0 tables".
	if os.Getenv("DYNAMODB_ENDPOINT") == "" {
		emptyURL, _, _ := emulatortest.NewServerWith(t, emulator.Options{})
		out.Reset()
		err := Run(ctx, []string{"check", "--endpoint", emptyURL, "--config", file, "--accessKey", "AKIDOTHER", "--region", "eu-west-1"}, &out, &errOut)
		if err == nil || errors.Is(err, ErrViolations) {
			t.Fatalf("empty namespace: got %v, want an error that is not ErrViolations", err)
		}
		for _, want := range []string{"nothing checked", emptyURL, "access key AKIDOTHER", "region eu-west-1", "empty namespace"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("empty namespace: %q does not say %q", err, want)
			}
		}
		if out.Len() != 0 {
			t.Errorf("empty namespace: printed %q, want nothing", out.String())
		}
	}

	if err := Run(ctx, []string{"nope"}, &out, &errOut); err == nil {
		t.Fatal("unknown subcommand: got no error")
	}
}

func TestLoadConventions(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(good, []byte(`{"tables":[{"match":"*-command","role":"command"}]}`), 0o600)
	_ = os.WriteFile(bad, []byte(`{"tables":[{"match":"*-command","role":"commando"}]}`), 0o600)
	tests := []struct {
		file    string
		tables  int
		wantErr error
	}{
		{"", 0, nil},
		{good, 1, nil},
		{bad, 0, conventions.ErrConfig},
		{filepath.Join(dir, "missing.json"), 0, os.ErrNotExist},
	}
	for _, tt := range tests {
		cfg, err := loadConventions(tt.file)
		if !errors.Is(err, tt.wantErr) || (tt.wantErr != nil) != (err != nil) {
			t.Errorf("loadConventions(%q): got error %v, want %v", tt.file, err, tt.wantErr)
			continue
		}
		if got := 0; cfg != nil {
			if got = len(cfg.Tables); got != tt.tables {
				t.Errorf("loadConventions(%q): got %d tables, want %d", tt.file, got, tt.tables)
			}
		}
	}
}

// templateTables creates the six tables of a framework project's CLI
// template module pair on db (order and master, command, data and
// history), none tagged, and returns their names.
func templateTables(t *testing.T, db *dynamodb.Client) []string {
	t.Helper()
	var names []string
	for _, module := range []string{"order", "master"} {
		for _, kind := range []string{"command", "data", "history"} {
			name := "local-demo-" + module + "-" + kind
			_, err := db.CreateTable(t.Context(), &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}}})
			require.NoError(t, err)
			names = append(names, name)
		}
	}
	return names
}

// TestCheckNothingChecked: a check in which no table opts in (no
// --config and no tagged table, or a configuration whose globs match
// none of the tables) checked nothing, and says so with exit status 2
// instead of passing as "0 violations in 6 tables"; once a table is
// tagged, the same command line checks it.
func TestCheckNothingChecked(t *testing.T) {
	url, _, db := emulatortest.NewServerWith(t, emulator.Options{SharedDB: true})
	names := templateTables(t, db)
	typo := filepath.Join(t.TempDir(), "typo.json")
	require.NoError(t, os.WriteFile(typo, []byte(`{"tables":[{"match":"*-comand","role":"command"},{"match":"*-dat","role":"data"}]}`), 0o600))
	for _, tc := range []struct {
		name string
		args []string
		why  string
	}{
		{"no --config", []string{"check", "--endpoint", url}, "no --config was given"},
		{"a configuration matching no table", []string{"check", "--endpoint", url, "--config", typo}, "matches none of them"},
		{"named tables matching no entry", []string{"check", "--endpoint", url, "--config", typo, names[0], names[1]}, "none of the 2 tables"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := Run(t.Context(), tc.args, &out, &errOut)
			require.ErrorIs(t, err, ErrNothingChecked)
			require.Equal(t, ExitError, ExitCode(err), "nothing checked is not a pass")
			require.Contains(t, err.Error(), tc.why)
			require.Contains(t, err.Error(), names[0])
			require.Empty(t, out.String(), "no summary of a check that checked nothing")
		})
	}

	// The table's own tag opts it in, with or without --config.
	desc, err := db.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(names[0])})
	require.NoError(t, err)
	_, err = db.TagResource(t.Context(), &dynamodb.TagResourceInput{ResourceArn: desc.Table.TableArn,
		Tags: []types.Tag{{Key: aws.String(conventions.TagRoles), Value: aws.String("command")}}})
	require.NoError(t, err)
	var out, errOut bytes.Buffer
	require.NoError(t, Run(t.Context(), []string{"check", "--endpoint", url}, &out, &errOut))
	require.Equal(t, "0 violations in 1 tables (5 not opted in): 0 errors, 0 warnings\n", out.String())
}

// TestCheckCounterAtZero: a sequences row stored with seq 0 (written
// behind the rules' back) is reported by rule A8: the framework's
// increment, if_not_exists(seq, 0) + 1, gives 1 first, and the master
// package's copy skips a counter at 0 ("Skipping sequence copy: JCCI
// sequence is 0"). Counters at 1 and further up pass.
func TestCheckCounterAtZero(t *testing.T) {
	url, _, db := emulatortest.NewServerWith(t, emulator.Options{SharedDB: true})
	_, err := db.CreateTable(t.Context(), &dynamodb.CreateTableInput{TableName: aws.String("local-demo-sequences"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}}})
	require.NoError(t, err)
	for sk, seq := range map[string]string{"ORDER#2026": "0", "INVOICE#2026": "1", "QUOTE#2026": "57"} {
		_, err := db.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String("local-demo-sequences"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "SEQ#tenant001"}, "sk": &types.AttributeValueMemberS{Value: sk},
			"seq": &types.AttributeValueMemberN{Value: seq}}})
		require.NoError(t, err)
	}
	cfg := filepath.Join(t.TempDir(), "c.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"tables":[{"match":"*sequences","role":"sequences"}]}`), 0o600))
	var out, errOut bytes.Buffer
	err = Run(t.Context(), []string{"check", "--endpoint", url, "--config", cfg}, &out, &errOut)
	require.ErrorIs(t, err, ErrViolations)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2, out.String())
	require.True(t, strings.HasPrefix(lines[0], "local-demo-sequences\tA8\terror\tpk=\"SEQ#tenant001\" sk=\"ORDER#2026\"\tseq 0 is not a whole number of at least 1"), lines[0])
	require.Equal(t, "1 violations in 1 tables: 1 errors, 0 warnings", lines[1])
}

// TestCheckIndexTenant: the check judges rule B16 on stored items too,
// the tenants known being those of the table's partition keys: an mbc
// row whose index key names acme (CATEGORY#mbc#acme) is reported beside
// acme's own rows; CATEGORY#mbc#toys is the item's own.
func TestCheckIndexTenant(t *testing.T) {
	url, _, db := emulatortest.NewServerWith(t, emulator.Options{SharedDB: true})
	_, err := db.CreateTable(t.Context(), &dynamodb.CreateTableInput{TableName: aws.String("products"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("categoryKey"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("category-index"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("categoryKey"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}})
	require.NoError(t, err)
	for _, row := range [][3]string{{"PRODUCT#mbc", "p1", "CATEGORY#mbc#toys"}, {"PRODUCT#acme", "p2", "CATEGORY#acme#toys"}, {"PRODUCT#mbc", "p3", "CATEGORY#mbc#acme"}} {
		_, err := db.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String("products"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: row[0]}, "sk": &types.AttributeValueMemberS{Value: row[1]},
			"categoryKey": &types.AttributeValueMemberS{Value: row[2]}}})
		require.NoError(t, err)
	}
	cfg := filepath.Join(t.TempDir(), "c.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"tables":[{"match":"products","role":"keys"}]}`), 0o600))
	var out, errOut bytes.Buffer
	err = Run(t.Context(), []string{"check", "--endpoint", url, "--config", cfg}, &out, &errOut)
	require.ErrorIs(t, err, ErrViolations)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2, out.String())
	require.True(t, strings.HasPrefix(lines[0], "products\tB16\terror\tpk=\"PRODUCT#mbc\" sk=\"p3\"\tindex category-index's partition key categoryKey \"CATEGORY#mbc#acme\" names tenant \"acme\""), lines[0])
}
