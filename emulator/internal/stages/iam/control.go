package iam

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/iampolicy"
)

// The control plane and the Streams API: CheckCall decides each call of
// an operation that is not a data-plane one, on the resource its
// declaration names (package boundary: the table, the source table, the
// backup, export or import, the stream, or table/* for one that lists),
// as AWS's Service Authorization Reference for DynamoDB has it
// (docs.aws.amazon.com/service-authorization/latest/reference/
// list_amazondynamodb.html): the action is dynamodb:<operation>, the
// resource the ARN the call is about. It runs once per call, before the
// operation validates its input (its CheckCall hook), as AWS
// authorizes before it validates. The condition keys are the global
// ones (keys.go), the tags the call gives (aws:RequestTag/KEY,
// aws:TagKeys) and, when the table exists, its tags
// (aws:ResourceTag/KEY); the resource-based policies, the table's (or
// its stream's).

// checkCall decides a call of a control-plane or Streams API operation
// of a key with an identity (its CheckCall hook).
func checkCall(c service.Call, op string, in any) error {
	req := requestOf(c.Context())
	kind := c.Declared().On
	if req == nil || kind == boundary.Items || kind == boundary.Nothing {
		return nil
	}
	res, table, stream := controlResource(c, kind, in)
	global := stringField(in, "GlobalTableName")
	if global != "" {
		res = globalTableARN(c, global)
	}
	r := &iampolicy.Request{Principal: &req.id.Principal, Action: "dynamodb:" + op, Resource: res, Context: map[string][]string{}}
	globalKeys(r.Context, c, req)
	requestTags(r.Context, in)
	var rps []*iampolicy.Policy
	if table != "" && global == "" && kind != boundary.Backup && kind != boundary.Export && kind != boundary.Import {
		if t, ok := c.Table(table); ok {
			rps = resourcePolicies(t, stream)
			resourceTags(r.Context, t)
		}
	}
	if err := decide(r, req.id.Policies, rps); err != nil || !globalOnTables(op) {
		return err
	}
	r.Resource = c.TableARN(global) // and on the table of its name, the replica here
	return decide(r, req.id.Policies, nil)
}

// globalOnTables are the legacy global-table operations that AWS's
// Service Authorization Reference authorizes on the global table and on
// its replica tables (global-table* and table*); the others of the
// family, on the global table alone.
func globalOnTables(op string) bool {
	switch op {
	case "CreateGlobalTable", "UpdateGlobalTable", "UpdateGlobalTableSettings":
		return true
	}
	return false
}

// globalTableARN is the ARN of the legacy global table name, as AWS's
// reference writes it: arn:PARTITION:dynamodb::ACCOUNT:global-table/NAME
// (no region: a global table is the account's; the records table's
// global-table-arns.jsonl, with the answers that name it).
func globalTableARN(c service.Call, name string) string {
	partition := "aws"
	if parts := strings.SplitN(c.TableARN(name), ":", 3); len(parts) == 3 {
		partition = parts[1]
	}
	return "arn:" + partition + ":dynamodb::" + c.Account() + ":global-table/" + name
}

// controlResource is the ARN a call of kind is authorized on, with the
// table it names ("" for none) and, for a stream, its label ("*": any).
func controlResource(c service.Call, kind boundary.On, in any) (arn, table, stream string) {
	switch kind {
	case boundary.Table:
		for _, f := range []string{"ResourceArn", "TableArn", "TableName", "GlobalTableName"} {
			if v := stringField(in, f); v != "" {
				return tableResource(c, v)
			}
		}
		return c.TableARN(""), "", ""
	case boundary.NewTable: // CreateTable's table; ImportTable's, table/* (below)
		if v := stringField(in, "TableName"); v != "" {
			return tableResource(c, v)
		}
	case boundary.Source:
		if v := stringField(in, "SourceTableArn"); v != "" {
			return tableResource(c, v)
		}
		return tableResource(c, stringField(in, "SourceTableName"))
	case boundary.Backup, boundary.Export, boundary.Import:
		arn := stringField(in, kind.ARNField())
		return arn, boundary.TableOf(arn), ""
	case boundary.Stream:
		arn := boundary.StreamARN(in)
		table, sub, _ := strings.Cut(afterTable(arn), "/")
		label, _ := strings.CutPrefix(sub, "stream/")
		return arn, table, label
	case boundary.Streams:
		if name := stringField(in, "TableName"); name != "" {
			return c.TableARN(name) + "/stream/*", name, "*"
		}
		return c.TableARN("*") + "/stream/*", "", ""
	}
	return c.TableARN("*"), "", ""
}

// tableResource is the resource of a table named by its name or ARN
// (a stream's ARN, for the resource policy operations, stays one).
func tableResource(c service.Call, v string) (arn, table, stream string) {
	if !strings.HasPrefix(v, "arn:") {
		return c.TableARN(v), v, ""
	}
	table, sub, _ := strings.Cut(afterTable(v), "/")
	label, _ := strings.CutPrefix(sub, "stream/")
	return v, table, label
}

// afterTable is what follows "table/" in a DynamoDB ARN ("" for any
// other string).
func afterTable(arn string) string {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 || parts[2] != "dynamodb" {
		return ""
	}
	rest, _ := strings.CutPrefix(parts[5], "table/")
	if rest == parts[5] {
		return ""
	}
	return rest
}

// Authorize decides action (a service's, "lambda:GetEventSourceMapping")
// on resource for the identity id, with the request's condition keys
// keys (lower case) beside the principal's, against the identity's
// policies alone: the emulator keeps no resource-based policy but the
// tables'. It is how the policy mode decides the calls of Lambda's
// event source mapping API on the emulator's port
// (emulator/stream_handlers.go), with the same evaluator and the same
// AccessDeniedException as DynamoDB's.
func Authorize(id *Identity, action, resource string, keys map[string][]string) error {
	r := &iampolicy.Request{Principal: &id.Principal, Action: action, Resource: resource, Context: map[string][]string{}}
	for k, v := range keys {
		r.Context[k] = v
	}
	principalKeys(r.Context, &id.Principal)
	return decide(r, id.Policies, nil)
}
