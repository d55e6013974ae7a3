package conformance

// Control plane: CreateTable, DescribeTable, ListTables, DeleteTable, UpdateTable,
// DescribeLimits, DescribeEndpoints.

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func ks(elems ...string) []types.KeySchemaElement {
	var out []types.KeySchemaElement
	for i := 0; i+1 < len(elems); i += 2 {
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(elems[i]), KeyType: types.KeyType(elems[i+1])})
	}
	return out
}

func ads(elems ...string) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	for i := 0; i+1 < len(elems); i += 2 {
		out = append(out, types.AttributeDefinition{AttributeName: aws.String(elems[i]), AttributeType: types.ScalarAttributeType(elems[i+1])})
	}
	return out
}

func pt(r, w int64) *types.ProvisionedThroughput {
	return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(r), WriteCapacityUnits: aws.Int64(w)}
}

func TestCreateTableValidation(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	good := func() *dynamodb.CreateTableInput {
		return &dynamodb.CreateTableInput{
			KeySchema:            ks("pk", "HASH"),
			AttributeDefinitions: ads("pk", "S"),
			BillingMode:          types.BillingModePayPerRequest,
		}
	}
	tests := []struct {
		name   string
		mod    func(in *dynamodb.CreateTableInput)
		code   string
		msg    string // "" checks the code only (AWS's wording not pinned down here)
		differ string // AWSDiffers reason, if any
	}{
		{name: "name too short", mod: func(in *dynamodb.CreateTableInput) { in.TableName = aws.String("ab") }, code: "ValidationException"},
		{name: "name too long", mod: func(in *dynamodb.CreateTableInput) { in.TableName = aws.String(strings.Repeat("a", 256)) }, code: "ValidationException"},
		{name: "name with space", mod: func(in *dynamodb.CreateTableInput) { in.TableName = aws.String("has space") }, code: "ValidationException"},
		{name: "name with slash", mod: func(in *dynamodb.CreateTableInput) { in.TableName = aws.String("a/b/c") }, code: "ValidationException"},
		{name: "extra attribute definition", mod: func(in *dynamodb.CreateTableInput) { in.AttributeDefinitions = ads("pk", "S", "x", "S") },
			code: "ValidationException", msg: "One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions",
			differ: "DynamoDB Local words it \"The number of attributes in key schema must match the number of attributes defined in attribute definitions.\""},
		{name: "hash key not defined", mod: func(in *dynamodb.CreateTableInput) { in.AttributeDefinitions = ads("x", "S") },
			code: "ValidationException", msg: "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [pk], AttributeDefinitions: [x]",
			differ: "DynamoDB Local words it \"Hash Key not specified in Attribute Definitions.  Type unknown.\""},
		{name: "duplicate attribute definition", mod: func(in *dynamodb.CreateTableInput) { in.AttributeDefinitions = ads("pk", "S", "pk", "N") },
			code: "ValidationException", msg: "Attribute Name is duplicated: pk",
			differ: "DynamoDB Local words it \"Cannot have two attributes with the same name\"; AWS's wording is quoted in reports of real CreateTable errors"},
		{name: "duplicate attribute definition code", mod: func(in *dynamodb.CreateTableInput) { in.AttributeDefinitions = ads("pk", "S", "pk", "N") },
			code: "ValidationException"},
		{name: "invalid attribute type", mod: func(in *dynamodb.CreateTableInput) { in.AttributeDefinitions = ads("pk", "BOOL") }, code: "ValidationException"},
		{name: "only range key", mod: func(in *dynamodb.CreateTableInput) { in.KeySchema = ks("pk", "RANGE") },
			code: "ValidationException", msg: "Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
			differ: "DynamoDB Local words it \"No Hash Key specified in schema.  All Dynamo DB tables must have exactly one hash key\""},
		{name: "only range key code", mod: func(in *dynamodb.CreateTableInput) { in.KeySchema = ks("pk", "RANGE") },
			code: "ValidationException"},
		{name: "two hash keys", mod: func(in *dynamodb.CreateTableInput) {
			in.KeySchema = ks("pk", "HASH", "sk", "HASH")
			in.AttributeDefinitions = ads("pk", "S", "sk", "S")
		}, code: "ValidationException", msg: "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
			differ: "DynamoDB Local words it \"Too many hash keys specified.  All Dynamo DB tables must have exactly one hash key\""},
		{name: "two hash keys code", mod: func(in *dynamodb.CreateTableInput) {
			in.KeySchema = ks("pk", "HASH", "sk", "HASH")
			in.AttributeDefinitions = ads("pk", "S", "sk", "S")
		}, code: "ValidationException"},
		// Two definitions, so that no definition-count rule fires first
		// (AWS checks the count before the names; DynamoDB Local after).
		{name: "same name for hash and range", mod: func(in *dynamodb.CreateTableInput) {
			in.KeySchema = ks("pk", "HASH", "pk", "RANGE")
			in.AttributeDefinitions = ads("pk", "S", "x", "S")
		},
			code: "ValidationException", msg: "Both the Hash Key and the Range Key element in the KeySchema have the same name",
			differ: "DynamoDB Local words it \"Two keys can not have the same name\""},
		{name: "empty key schema", mod: func(in *dynamodb.CreateTableInput) { in.KeySchema = []types.KeySchemaElement{} }, code: "ValidationException"},
		{name: "three keys", mod: func(in *dynamodb.CreateTableInput) {
			in.KeySchema = ks("pk", "HASH", "a", "RANGE", "b", "RANGE")
		}, code: "ValidationException"},
		{name: "invalid key type", mod: func(in *dynamodb.CreateTableInput) { in.KeySchema = ks("pk", "PRIMARY") }, code: "ValidationException"},
		{name: "empty key attribute name", mod: func(in *dynamodb.CreateTableInput) {
			in.KeySchema = ks("", "HASH")
			in.AttributeDefinitions = ads("", "S")
		}, code: "ValidationException"},
		{name: "provisioned without throughput", mod: func(in *dynamodb.CreateTableInput) { in.BillingMode = types.BillingModeProvisioned },
			code: "ValidationException", msg: "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED",
			differ: "DynamoDB Local words it \"No provisioned throughput specified for the table\""},
		{name: "no billing mode no throughput", mod: func(in *dynamodb.CreateTableInput) { in.BillingMode = "" },
			code: "ValidationException", msg: "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED",
			differ: "DynamoDB Local words it \"No provisioned throughput specified for the table\""},
		{name: "pay per request with throughput", mod: func(in *dynamodb.CreateTableInput) { in.ProvisionedThroughput = pt(1, 1) },
			code: "ValidationException", msg: "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
			differ: "DynamoDB Local accepts throughput with PAY_PER_REQUEST"},
		{name: "zero read capacity", mod: func(in *dynamodb.CreateTableInput) { in.BillingMode = ""; in.ProvisionedThroughput = pt(0, 1) }, code: "ValidationException"},
		{name: "zero write capacity", mod: func(in *dynamodb.CreateTableInput) { in.BillingMode = ""; in.ProvisionedThroughput = pt(1, 0) }, code: "ValidationException"},
		{name: "throughput above table max", mod: func(in *dynamodb.CreateTableInput) {
			in.BillingMode = ""
			in.ProvisionedThroughput = pt(1000000000000, 1)
		}, code: "LimitExceededException", differ: throughputQuotaDiffer},
		{name: "throughput just above table quota", mod: func(in *dynamodb.CreateTableInput) {
			in.BillingMode = ""
			in.ProvisionedThroughput = pt(40001, 1)
		}, code: "LimitExceededException", differ: throughputQuotaDiffer,
			msg: "The requested ReadCapacityUnits, 40001, is above the per table maximum for the account in us-east-1. Per table maximum: 40000."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.differ != "" {
				AWSDiffers(t, tc.differ)
			}
			in := good()
			in.TableName = aws.String(uniqueName(t))
			tc.mod(in)
			_, err := c.CreateTable(ctx(t), in)
			if err == nil {
				deleteTable(t, c, *in.TableName)
			}
			requireAPIError(t, err, tc.code, tc.msg)
		})
	}
}

func TestCreateTableNameBoundaries(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	suffix := strings.ToLower(uniqueKey(t))
	for _, name := range []string{
		"a.b",              // shortest
		"Az09_.-" + suffix, // every allowed character class
		strings.Repeat("x", 255-len(suffix)) + suffix, // longest
	} {
		t.Run(fmt.Sprint(len(name)), func(t *testing.T) {
			if name == "a.b" {
				name = "a" + suffix[:1] + "b" // keep it 3 long but unlikely to collide
			}
			got := createTable(t, c, &dynamodb.CreateTableInput{TableName: aws.String(name), KeySchema: ks("pk", "HASH"), AttributeDefinitions: ads("pk", "S")})
			if d := mustDescribe(t, c, got); *d.TableName != name {
				t.Fatalf("TableName = %q, want %q", *d.TableName, name)
			}
		})
	}
}

func TestCreateTableExisting(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := hashTable(t, c)
	_, err := c.CreateTable(ctx(t), &dynamodb.CreateTableInput{
		TableName: &name, KeySchema: ks("pk", "HASH"), AttributeDefinitions: ads("pk", "S"), BillingMode: types.BillingModePayPerRequest,
	})
	requireAPIError(t, err, "ResourceInUseException", "")
}

func TestCreateTableExistingMessage(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local says \"Cannot create preexisting table\"")
	c := newClient(t)
	name := hashTable(t, c)
	_, err := c.CreateTable(ctx(t), &dynamodb.CreateTableInput{
		TableName: &name, KeySchema: ks("pk", "HASH"), AttributeDefinitions: ads("pk", "S"), BillingMode: types.BillingModePayPerRequest,
	})
	requireAPIError(t, err, "ResourceInUseException", "Table already exists: "+name)
}

var tableArnRE = regexp.MustCompile(`^arn:aws:dynamodb:[a-z0-9-]+:[0-9]{12}:table/(.+)$`)

func TestCreateTableDescription(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tests := []struct {
		name     string
		in       *dynamodb.CreateTableInput
		billing  types.BillingMode // "" = no BillingModeSummary; PROVISIONED: none or PROVISIONED
		read     int64
		write    int64
		protects bool
	}{
		{
			name:    "hash pay per request",
			in:      &dynamodb.CreateTableInput{KeySchema: ks("id", "HASH"), AttributeDefinitions: ads("id", "N"), BillingMode: types.BillingModePayPerRequest},
			billing: types.BillingModePayPerRequest,
		},
		{
			name:  "hash range provisioned",
			in:    &dynamodb.CreateTableInput{KeySchema: ks("p", "HASH", "s", "RANGE"), AttributeDefinitions: ads("s", "B", "p", "S"), ProvisionedThroughput: pt(5, 7)},
			read:  5,
			write: 7,
		},
		{
			name:     "deletion protected",
			in:       &dynamodb.CreateTableInput{KeySchema: ks("p", "HASH"), AttributeDefinitions: ads("p", "S"), BillingMode: types.BillingModeProvisioned, ProvisionedThroughput: pt(1, 2), DeletionProtectionEnabled: aws.Bool(true)},
			read:     1,
			write:    2,
			protects: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			before := time.Now().Add(-time.Minute)
			tc.in.TableName = aws.String(uniqueName(t))
			out, err := c.CreateTable(ctx(t), tc.in)
			mustNoError(t, err)
			t.Cleanup(func() { deleteTable(t, c, *tc.in.TableName) })
			// CreateTable's answer says CREATING, as AWS's does
			// (TestCreateTableAnswersCreating; DynamoDB Local's says ACTIVE);
			// DescribeTable's, next, ACTIVE (AWS's may still say CREATING).
			answer := out.TableDescription.TableStatus
			if answer != types.TableStatusCreating && answer != types.TableStatusActive {
				t.Errorf("CreateTable's TableStatus = %s, want CREATING", answer)
			}
			for _, d := range []*types.TableDescription{out.TableDescription, mustDescribe(t, c, *tc.in.TableName)} {
				if *d.TableName != *tc.in.TableName {
					t.Errorf("TableName = %q, want %q", *d.TableName, *tc.in.TableName)
				}
				if m := tableArnRE.FindStringSubmatch(aws.ToString(d.TableArn)); m == nil || m[1] != *tc.in.TableName {
					t.Errorf("TableArn = %q, want arn:aws:dynamodb:REGION:ACCOUNT:table/%s", aws.ToString(d.TableArn), *tc.in.TableName)
				}
				if d != out.TableDescription && d.TableStatus != types.TableStatusActive && !(target(t).Oracle == OracleAWS && d.TableStatus == types.TableStatusCreating) {
					t.Errorf("TableStatus = %s, want ACTIVE", d.TableStatus)
				}
				if got, want := fmt.Sprint(keySchemaString(d.KeySchema)), fmt.Sprint(keySchemaString(tc.in.KeySchema)); got != want {
					t.Errorf("KeySchema = %s, want %s", got, want)
				}
				if got, want := attrDefsString(d.AttributeDefinitions), attrDefsString(tc.in.AttributeDefinitions); got != want {
					t.Errorf("AttributeDefinitions = %s, want %s", got, want)
				}
				if aws.ToInt64(d.ItemCount) != 0 || aws.ToInt64(d.TableSizeBytes) != 0 {
					t.Errorf("ItemCount, TableSizeBytes = %d, %d, want 0, 0", aws.ToInt64(d.ItemCount), aws.ToInt64(d.TableSizeBytes))
				}
				if d.CreationDateTime == nil || d.CreationDateTime.Before(before) || d.CreationDateTime.After(time.Now().Add(time.Minute)) {
					t.Errorf("CreationDateTime = %v, want about now", d.CreationDateTime)
				}
				switch {
				case tc.billing == "" && d.BillingModeSummary != nil && d.BillingModeSummary.BillingMode != types.BillingModeProvisioned:
					t.Errorf("BillingModeSummary = %+v, want none", *d.BillingModeSummary)
				case tc.billing != "" && (d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode != tc.billing):
					t.Errorf("BillingModeSummary = %+v, want %s", d.BillingModeSummary, tc.billing)
				}
				if d.ProvisionedThroughput == nil {
					t.Errorf("ProvisionedThroughput missing")
				} else {
					p := d.ProvisionedThroughput
					if aws.ToInt64(p.ReadCapacityUnits) != tc.read || aws.ToInt64(p.WriteCapacityUnits) != tc.write || aws.ToInt64(p.NumberOfDecreasesToday) != 0 {
						t.Errorf("ProvisionedThroughput = %d/%d (decreases %d), want %d/%d (0)", aws.ToInt64(p.ReadCapacityUnits), aws.ToInt64(p.WriteCapacityUnits), aws.ToInt64(p.NumberOfDecreasesToday), tc.read, tc.write)
					}
				}
				if aws.ToBool(d.DeletionProtectionEnabled) != tc.protects {
					t.Errorf("DeletionProtectionEnabled = %v, want %v", aws.ToBool(d.DeletionProtectionEnabled), tc.protects)
				}
			}
		})
	}
}

func keySchemaString(k []types.KeySchemaElement) string {
	var parts []string
	for _, e := range k {
		parts = append(parts, aws.ToString(e.AttributeName)+":"+string(e.KeyType))
	}
	return strings.Join(parts, ",")
}

func attrDefsString(a []types.AttributeDefinition) string {
	var parts []string
	for _, e := range a {
		parts = append(parts, aws.ToString(e.AttributeName)+":"+string(e.AttributeType))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func TestTableArnRegion(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local puts region \"ddblocal\" and account 000000000000 in ARNs")
	if !isolatedNamespaces(t) {
		t.Skip("needs fake credentials to choose the region")
	}
	c := newClient(t, withRegion("eu-west-3"))
	name := hashTable(t, c)
	arn := aws.ToString(mustDescribe(t, c, name).TableArn)
	if !strings.HasPrefix(arn, "arn:aws:dynamodb:eu-west-3:") {
		t.Fatalf("TableArn = %q, want region eu-west-3", arn)
	}
}

func TestDescribeTableCounts(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := hashTable(t, c)
	mustPut(t, c, name, item{"pk": s("a"), "v": s("12345")})
	mustPut(t, c, name, item{"pk": s("bb"), "n": n("1")})
	d := mustDescribe(t, c, name)
	if target(t).Oracle == OracleAWS {
		t.Skip("AWS updates ItemCount and TableSizeBytes about every six hours")
	}
	// Sizes: "pk"(2)+"a"(1)+"v"(1)+"12345"(5) = 9; "pk"(2)+"bb"(2)+"n"(1)+1 digit(2) = 7.
	if aws.ToInt64(d.ItemCount) != 2 || aws.ToInt64(d.TableSizeBytes) != 16 {
		t.Fatalf("ItemCount, TableSizeBytes = %d, %d, want 2, 16", aws.ToInt64(d.ItemCount), aws.ToInt64(d.TableSizeBytes))
	}
}

func TestDescribeTableMissing(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := uniqueName(t)
	_, err := c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &name})
	requireAPIError(t, err, "ResourceNotFoundException", "")
	t.Run("message", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local says \"Cannot do operations on a non-existent table\"")
		requireAPIError(t, err, "ResourceNotFoundException", "Requested resource not found: Table: "+name+" not found")
	})
}

func TestDescribeTableInvalidName(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	_, err := c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: aws.String("x")})
	requireAPIError(t, err, "ValidationException", "")
}

func TestDeleteTable(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := hashTable(t, c)
	mustPut(t, c, name, item{"pk": s("a")})
	out, err := c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
	mustNoError(t, err)
	if *out.TableDescription.TableName != name {
		t.Errorf("TableName = %q, want %q", *out.TableDescription.TableName, name)
	}
	if target(t).Oracle == OracleAWS {
		dynamodb.NewTableNotExistsWaiter(c).Wait(ctx(t), &dynamodb.DescribeTableInput{TableName: &name}, 10*time.Minute)
	}
	_, err = c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &name})
	requireAPIError(t, err, "ResourceNotFoundException", "")
	_, err = c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
	requireAPIError(t, err, "ResourceNotFoundException", "")

	// A table created again under the same name starts empty.
	createTable(t, c, &dynamodb.CreateTableInput{TableName: &name, KeySchema: ks("pk", "HASH"), AttributeDefinitions: ads("pk", "S")})
	requireItem(t, mustGet(t, c, name, item{"pk": s("a")}), nil)
}

func TestDeleteTableMissingMessage(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local says \"Cannot do operations on a non-existent table\"")
	c := newClient(t)
	name := uniqueName(t)
	_, err := c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
	requireAPIError(t, err, "ResourceNotFoundException", "Requested resource not found: Table: "+name+" not found")
}

func TestDeletionProtection(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.DeletionProtectionEnabled = aws.Bool(true)
	name := createTable(t, c, in)
	_, err := c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
	requireValidation(t, err, "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
	mustDescribe(t, c, name)

	out, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, DeletionProtectionEnabled: aws.Bool(false)})
	mustNoError(t, err)
	if aws.ToBool(out.TableDescription.DeletionProtectionEnabled) {
		t.Fatalf("DeletionProtectionEnabled = true after turning it off")
	}
	_, err = c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
	mustNoError(t, err)
}

func TestUpdateTable(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.ProvisionedThroughput = pt(5, 7)
	name := createTable(t, c, in)

	_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name})
	requireValidation(t, err, "")
	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, ProvisionedThroughput: pt(5, 7)})
	requireValidation(t, err, "")

	wait := func() {
		if target(t).Oracle == OracleAWS {
			dynamodb.NewTableExistsWaiter(c).Wait(ctx(t), &dynamodb.DescribeTableInput{TableName: &name}, 10*time.Minute)
		}
	}
	out, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, ProvisionedThroughput: pt(3, 9)})
	mustNoError(t, err)
	wait()
	if p := mustDescribe(t, c, name).ProvisionedThroughput; aws.ToInt64(p.ReadCapacityUnits) != 3 || aws.ToInt64(p.WriteCapacityUnits) != 9 {
		t.Fatalf("after update: throughput %d/%d, want 3/9", aws.ToInt64(p.ReadCapacityUnits), aws.ToInt64(p.WriteCapacityUnits))
	}
	if *out.TableDescription.TableName != name {
		t.Fatalf("TableName = %q", *out.TableDescription.TableName)
	}

	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, BillingMode: types.BillingModePayPerRequest})
	mustNoError(t, err)
	wait()
	d := mustDescribe(t, c, name)
	if d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Fatalf("BillingModeSummary = %+v, want PAY_PER_REQUEST", d.BillingModeSummary)
	}
	if p := d.ProvisionedThroughput; aws.ToInt64(p.ReadCapacityUnits) != 0 || aws.ToInt64(p.WriteCapacityUnits) != 0 {
		t.Fatalf("on demand: throughput %d/%d, want 0/0", aws.ToInt64(p.ReadCapacityUnits), aws.ToInt64(p.WriteCapacityUnits))
	}

	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, BillingMode: types.BillingModeProvisioned})
	requireValidation(t, err, "")

	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, DeletionProtectionEnabled: aws.Bool(true)})
	mustNoError(t, err)
	if !aws.ToBool(mustDescribe(t, c, name).DeletionProtectionEnabled) {
		t.Fatalf("DeletionProtectionEnabled = false after turning it on")
	}
}

func TestUpdateTableMissing(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := uniqueName(t)
	_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, DeletionProtectionEnabled: aws.Bool(true)})
	requireAPIError(t, err, "ResourceNotFoundException", "")
}

func TestListTables(t *testing.T) {
	t.Parallel()
	if !isolatedNamespaces(t) {
		t.Skip("exact ListTables needs a namespace of its own (fake credentials)")
	}
	c := newClient(t, withAccessKey(uniqueKey(t)))
	out, err := c.ListTables(ctx(t), &dynamodb.ListTablesInput{})
	mustNoError(t, err)
	if len(out.TableNames) != 0 || out.LastEvaluatedTableName != nil {
		t.Fatalf("new namespace lists %v (last %v), want nothing", out.TableNames, out.LastEvaluatedTableName)
	}
	var names []string
	for _, nm := range []string{"t_c", "T-b", "t.a", "t_b", "ta9", "t-a"} {
		names = append(names, createTable(t, c, &dynamodb.CreateTableInput{TableName: aws.String(nm), KeySchema: ks("pk", "HASH"), AttributeDefinitions: ads("pk", "S")}))
	}
	sort.Strings(names) // by UTF-8 bytes: uppercase first
	out, err = c.ListTables(ctx(t), &dynamodb.ListTablesInput{})
	mustNoError(t, err)
	if fmt.Sprint(out.TableNames) != fmt.Sprint(names) || out.LastEvaluatedTableName != nil {
		t.Fatalf("ListTables = %v (last %v), want %v", out.TableNames, aws.ToString(out.LastEvaluatedTableName), names)
	}

	tests := []struct {
		limit int32
		start string
		want  []string
		last  string
	}{
		{limit: 2, want: names[:2], last: names[1]},
		{limit: 2, start: names[1], want: names[2:4], last: names[3]},
		{limit: 2, start: names[3], want: names[4:6]}, // a full last page has no LastEvaluatedTableName
		{limit: 2, start: names[5], want: nil},
		{limit: 6, want: names},
		{limit: 5, want: names[:5], last: names[4]},
		{limit: 100, start: "t_a", want: []string{"t_b", "t_c", "ta9"}}, // start need not exist
		{start: "T-b", want: names[1:]},
	}
	for _, tc := range tests {
		in := &dynamodb.ListTablesInput{}
		if tc.limit > 0 {
			in.Limit = aws.Int32(tc.limit)
		}
		if tc.start != "" {
			in.ExclusiveStartTableName = aws.String(tc.start)
		}
		out, err := c.ListTables(ctx(t), in)
		mustNoError(t, err)
		if fmt.Sprint(out.TableNames) != fmt.Sprint(tc.want) || aws.ToString(out.LastEvaluatedTableName) != tc.last {
			t.Errorf("ListTables(limit %d, start %q) = %v, last %q; want %v, last %q", tc.limit, tc.start, out.TableNames, aws.ToString(out.LastEvaluatedTableName), tc.want, tc.last)
		}
	}

	// The paginator, as users page, sees every table once.
	var all []string
	p := dynamodb.NewListTablesPaginator(c, &dynamodb.ListTablesInput{Limit: aws.Int32(4)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx(t))
		mustNoError(t, err)
		all = append(all, page.TableNames...)
	}
	if fmt.Sprint(all) != fmt.Sprint(names) {
		t.Fatalf("paginated = %v, want %v", all, names)
	}

	// Another access key sees none of them.
	other, err := newClient(t, withAccessKey(uniqueKey(t))).ListTables(ctx(t), &dynamodb.ListTablesInput{})
	mustNoError(t, err)
	if len(other.TableNames) != 0 {
		t.Fatalf("other namespace lists %v", other.TableNames)
	}
}

func TestListTablesValidation(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tests := []struct {
		name string
		in   *dynamodb.ListTablesInput
		msg  string
	}{
		{"limit zero", &dynamodb.ListTablesInput{Limit: aws.Int32(0)}, ""},
		{"limit 101", &dynamodb.ListTablesInput{Limit: aws.Int32(101)}, ""},
		{"short start name", &dynamodb.ListTablesInput{ExclusiveStartTableName: aws.String("a")}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.ListTables(ctx(t), tc.in)
			requireValidation(t, err, tc.msg)
		})
	}
}

func TestDescribeLimits(t *testing.T) {
	t.Parallel()
	out, err := newClient(t).DescribeLimits(ctx(t), &dynamodb.DescribeLimitsInput{})
	mustNoError(t, err)
	got := []int64{aws.ToInt64(out.AccountMaxReadCapacityUnits), aws.ToInt64(out.AccountMaxWriteCapacityUnits), aws.ToInt64(out.TableMaxReadCapacityUnits), aws.ToInt64(out.TableMaxWriteCapacityUnits)}
	if target(t).Oracle == OracleAWS {
		if got[2] <= 0 || got[0] < got[2] {
			t.Fatalf("limits %v", got)
		}
		return
	}
	if fmt.Sprint(got) != fmt.Sprint([]int64{80000, 80000, 40000, 40000}) {
		t.Fatalf("limits (account r/w, table r/w) = %v, want [80000 80000 40000 40000]", got)
	}
}

func TestDescribeEndpoints(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers UnknownOperationException to DescribeEndpoints")
	out, err := newClient(t).DescribeEndpoints(ctx(t), &dynamodb.DescribeEndpointsInput{})
	mustNoError(t, err)
	if len(out.Endpoints) != 1 || aws.ToString(out.Endpoints[0].Address) == "" || out.Endpoints[0].CachePeriodInMinutes != 1440 {
		t.Fatalf("Endpoints = %+v, want one address cached 1440 minutes", out.Endpoints)
	}
}

// throughputQuotaDiffer: AWS refuses throughput above the default per-table
// quota with LimitExceededException (wording from a public report quoting AWS).
const throughputQuotaDiffer = `DynamoDB Local answers ValidationException "Cannot increase provisioned throughput to more than 40,000 units per table"`
