package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// cfnTable is a CloudFormation table resource named name, at logical id id.
func cfnTable(id, typ, name string) string {
	props := "      TableName: " + name + "\n"
	if typ == "AWS::Serverless::SimpleTable" {
		return "  " + id + ":\n    Type: " + typ + "\n    Properties:\n" + props + "      PrimaryKey: {Name: pk, Type: String}\n"
	}
	return "  " + id + ":\n    Type: " + typ + "\n    Properties:\n" + props +
		"      BillingMode: PAY_PER_REQUEST\n      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n"
}

// indent indents every line of YAML by two spaces more (resources of a
// serverless.yml's resources.Resources).
func indent(yaml string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(yaml, "\n"), "\n", "\n  ") + "\n"
}

// withLastTable returns the JSON model file src with one more table: a
// copy of the first of list (the member holding the tables) whose name
// is name and whose items (member items, if any) are replaced by item.
func withLastTable(t *testing.T, src []byte, list, name string, edit func(table map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(src, &m))
	tables := m[list].([]any)
	b, err := json.Marshal(tables[0])
	require.NoError(t, err)
	var last map[string]any
	require.NoError(t, json.Unmarshal(b, &last))
	last["TableName"] = name
	if edit != nil {
		edit(last)
	}
	m[list] = append(tables, last)
	out, err := json.Marshal(m)
	require.NoError(t, err)
	return out
}

// badLoads are a -load of each form whose last table (or its item) is
// refused: the forms' names, and the path given to -load.
func badLoads(t *testing.T) map[string]string {
	dir := t.TempDir()
	write := func(name string, src []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, src, 0o644))
		return p
	}
	wb, err := os.ReadFile(blogModel)
	require.NoError(t, err)
	dm, err := os.ReadFile("../../internal/insights/testdata/usersblog.dynamodb_data_model.json")
	require.NoError(t, err)
	bigItem := func(dm []byte) []byte {
		var m map[string]any
		require.NoError(t, json.Unmarshal(dm, &m))
		items := m["items"].(map[string]any)
		for name, list := range items {
			item := list.([]any)[0].(map[string]any)["PutRequest"].(map[string]any)["Item"].(map[string]any)
			item["body"] = map[string]any{"S": strings.Repeat("x", 410*1024)} // past DynamoDB's 400 KB
			items[name] = append(list.([]any), map[string]any{"PutRequest": map[string]any{"Item": item}})
		}
		out, err := json.Marshal(m)
		require.NoError(t, err)
		return out
	}
	cfn := "Resources:\n" + cfnTable("Alpha", "AWS::DynamoDB::Table", "alpha-table") + cfnTable("Zulu", "AWS::DynamoDB::Table", "x")
	sam := "Transform: AWS::Serverless-2016-10-31\nResources:\n" + cfnTable("Alpha", "AWS::Serverless::SimpleTable", "alpha-table") +
		cfnTable("Zulu", "AWS::Serverless::SimpleTable", "x")
	cdkOut := filepath.Join(dir, "cdk.out")
	write("cdk.out/AStack.template.json", []byte(`{"Resources":{"Alpha":{"Type":"AWS::DynamoDB::Table","Properties":{"TableName":"alpha-table","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}}}}`))
	write("cdk.out/BStack.template.json", []byte(`{"Resources":{"Zulu":{"Type":"AWS::DynamoDB::Table","Properties":{"TableName":"x","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}}}}`))
	sls := "service: shop\nprovider: {name: aws}\nresources:\n  Resources:\n" + indent(cfnTable("Alpha", "AWS::DynamoDB::Table", "alpha-table")+
		cfnTable("Zulu", "AWS::DynamoDB::Table", "x"))
	return map[string]string{
		"workbench":              write("model.json", withLastTable(t, wb, "DataModel", "x", nil)),
		"workbench, a bad item":  write("model-item.json", withLastTable(t, wb, "DataModel", "Zulu", func(tb map[string]any) { tb["TableData"] = []any{map[string]any{"PK": map[string]any{"S": ""}}} })),
		"data model":             write("datamodel.json", withLastTable(t, dm, "tables", "x", nil)),
		"data model, a big item": write("datamodel-item.json", bigItem(dm)),
		"cloudformation":         write("template.yaml", []byte(cfn)),
		"sam":                    write("sam.yaml", []byte(sam)),
		"cdk.out":                cdkOut,
		"serverless.yml":         write("serverless.yml", []byte(sls)),
	}
}

// TestLoadAllOrNothing: every -load form whose last table (or an item of
// it) is refused stops the start with nothing made: no table, and with
// -dbPath no file; data already there is left as it was. So does
// "dynamoemu mcp -load".
func TestLoadAllOrNothing(t *testing.T) {
	for form, path := range badLoads(t) {
		t.Run(form, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "db")
			var logs bytes.Buffer
			err := run([]string{"-port", "0", "-mcp=false", "-dbPath", db, "-load", path}, io.Discard, &logs, nil)
			require.Error(t, err, "%s", logs.String())
			t.Log(err)
			_, serr := os.Stat(db)
			require.True(t, os.IsNotExist(serr), "-dbPath made for a load that failed: %v", serr)

			err = runMCP([]string{"-dbPath", db, "-load", path}, strings.NewReader(""), io.Discard, io.Discard)
			require.Error(t, err)
			_, serr = os.Stat(db)
			require.True(t, os.IsNotExist(serr), "dynamoemu mcp: -dbPath made for a load that failed: %v", serr)
		})
	}

	// Data already there: a failed load leaves it, and adds nothing.
	db := t.TempDir()
	srv := startChild(t, "-mcp=false", "-dbPath", db, "-sharedDb")
	require.NoError(t, newClient(srv.url).call(t.Context(), "CreateTable", `{"TableName":"kept","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`, nil))
	srv.stop(t)
	before := dirListing(t, db)
	err := run([]string{"-port", "0", "-mcp=false", "-sharedDb", "-dbPath", db, "-load", badLoads(t)["cloudformation"]}, io.Discard, io.Discard, nil)
	require.ErrorContains(t, err, "nothing was created")
	require.Equal(t, before, dirListing(t, db), "the failed load wrote nothing")
	srv = startChild(t, "-mcp=false", "-dbPath", db, "-sharedDb")
	var tables struct{ TableNames []string }
	require.NoError(t, newClient(srv.url).call(t.Context(), "ListTables", `{}`, &tables))
	require.Equal(t, []string{"kept"}, tables.TableNames)
}

// dirListing is every file under dir with its size.
func dirListing(t *testing.T, dir string) map[string]int64 {
	out := map[string]int64{}
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			out[p] = fi.Size()
		}
		return err
	}))
	return out
}

// TestLoadErrorsNamed: a -load file that is neither YAML nor JSON, a
// JSON model with a syntax error, and an alias bomb are refused with
// the line and column at fault, not as "not JSON".
func TestLoadErrorsNamed(t *testing.T) {
	dir := t.TempDir()
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i := range 8 {
		prev, cur := string(rune('a'+i)), string(rune('b'+i))
		bomb += cur + ": &" + cur + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
	}
	for name, tc := range map[string]struct{ src, want string }{
		"tab.yaml":   {"Resources:\n  T:\n\tType: AWS::DynamoDB::Table\n", "line 3, column 1"},
		"bad.json":   {"{\n  \"ModelName\": \"m\",\n  \"DataModel\": [,]\n}\n", "not JSON: line 3, column 17"},
		"bomb.yaml":  {bomb + "Resources: *i\n", "aliases expand"},
		"other.yaml": {"just: yaml\n", "neither a CloudFormation"},
	} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(tc.src), 0o644))
		err := run([]string{"-port", "0", "-mcp=false", "-load", p}, io.Discard, io.Discard, nil)
		require.ErrorContains(t, err, tc.want, name)
		require.NotContains(t, err.Error(), "workbench", name)
	}
}

// TestLoadNamespaceLog: without -sharedDb the tables go to the
// namespace the mode's clients use, and the log names it and says how
// other keys see them.
func TestLoadNamespaceLog(t *testing.T) {
	tpl := filepath.Join(t.TempDir(), "template.yaml")
	require.NoError(t, os.WriteFile(tpl, []byte("Resources:\n"+cfnTable("Orders", "AWS::DynamoDB::Table", "orders")), 0o644))
	sls := filepath.Join(t.TempDir(), "serverless.yml")
	require.NoError(t, os.WriteFile(sls, []byte("service: s\nprovider: {name: aws, region: ap-northeast-1}\nresources:\n  Resources:\n"+
		indent(cfnTable("Orders", "AWS::DynamoDB::Table", "orders"))), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-load", tpl}, "in namespace local/us-east-1"},
		{[]string{"-load", tpl, "-loadNamespace", "app/eu-west-1"}, "in namespace app/eu-west-1"},
		{[]string{"-load", tpl, "-sharedDb"}, "in the shared database (-sharedDb)"},
		{[]string{"-load", tpl, "-localstack", "-localstackInit", t.TempDir()}, "in namespace test/us-east-1"},
		{[]string{"-load", sls}, "in namespace local/ap-northeast-1"},
	} {
		srv := startChild(t, append([]string{"-mcp=false"}, tc.args...)...)
		srv.stop(t)
		require.Contains(t, srv.logs.String(), tc.want, "%v", tc.args)
		if !strings.Contains(tc.want, "shared") {
			require.Contains(t, srv.logs.String(), "-sharedDb (one database for every key and region)", "%v", tc.args)
		}
	}
	err := run([]string{"-port", "0", "-load", tpl, "-loadNamespace", "nokey"}, io.Discard, io.Discard, nil)
	require.ErrorContains(t, err, "want ACCESSKEY/REGION")
}

// TestLoadDotenvLog: a serverless.yml with useDotenv beside a .env logs
// the .env file as the file its variables came from, and started with
// -loadNamespace the log does not tell the user to start with it.
func TestLoadDotenvLog(t *testing.T) {
	dir := t.TempDir()
	sls := filepath.Join(dir, "serverless.yml")
	env := filepath.Join(dir, ".env")
	require.NoError(t, os.WriteFile(sls, []byte("service: s\nuseDotenv: true\nprovider: {name: aws}\nresources:\n  Resources:\n"+
		indent(cfnTable("Orders", "AWS::DynamoDB::Table", "${env:ORDERS}"))), 0o644))
	require.NoError(t, os.WriteFile(env, []byte("ORDERS=orders-dev\n"), 0o644))
	srv := startChild(t, "-mcp=false", "-load", sls, "-loadNamespace", "test/us-east-1")
	srv.stop(t)
	logs := srv.logs.String()
	require.Contains(t, logs, "table=orders-dev")
	require.Regexp(t, `msg="-load [^"]*serverless.yml: \$\{env:...\} read from [^"]*\.env \(useDotenv\)" file=\S*\.env for=\S*serverless.yml`, logs)
	require.Contains(t, logs, "in namespace test/us-east-1")
	require.NotContains(t, logs, "start with -loadNamespace")
	require.Contains(t, logs, "or start with -sharedDb")
}

// TestLoadNamespaceAWSCLI: -load of a CloudFormation template, then the
// AWS CLI with LocalStack's keys (test/test, us-east-1) lists the tables
// with -localstack and with -sharedDb; with neither, it lists them once
// it does what the log says. CI runs it (.ci/run) where the AWS CLI is
// installed; without AWSCLI_TEST it does not run.
func TestLoadNamespaceAWSCLI(t *testing.T) {
	if os.Getenv("AWSCLI_TEST") == "" {
		t.Skip("set AWSCLI_TEST=1 where the AWS CLI is installed (.ci/run does)")
	}
	aws, err := exec.LookPath("aws")
	require.NoError(t, err, "AWSCLI_TEST is set but aws is not on PATH")
	tpl := filepath.Join(t.TempDir(), "template.yaml")
	require.NoError(t, os.WriteFile(tpl, []byte("Resources:\n"+cfnTable("Orders", "AWS::DynamoDB::Table", "orders")+
		cfnTable("Users", "AWS::DynamoDB::Table", "users")), 0o644))
	list := func(srv *child, env ...string) []string {
		cmd := exec.Command(aws, "--endpoint-url", srv.url, "--output", "json", "dynamodb", "list-tables")
		cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_DEFAULT_REGION=us-east-1",
			"AWS_REGION=us-east-1", "AWS_PAGER=", "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.Output()
		require.NoError(t, err, "aws dynamodb list-tables: %s", out)
		var got struct{ TableNames []string }
		require.NoError(t, json.Unmarshal(out, &got))
		return got.TableNames
	}
	want := []string{"orders", "users"}
	for _, mode := range [][]string{{"-localstack", "-localstackInit", t.TempDir()}, {"-sharedDb"}, {"-loadNamespace", "test/us-east-1"}} {
		srv := startChild(t, append([]string{"-mcp=false", "-load", tpl}, mode...)...)
		require.Equal(t, want, list(srv), "%v", mode)
		srv.stop(t)
	}
	srv := startChild(t, "-mcp=false", "-load", tpl)
	require.Empty(t, list(srv), "neither: keys test see another namespace")
	require.Contains(t, srv.logs.String(), "AWS_ACCESS_KEY_ID=local AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1", "the log says what to do")
	require.Equal(t, want, list(srv, "AWS_ACCESS_KEY_ID=local"), "doing what the log says")
	srv.stop(t)
}
