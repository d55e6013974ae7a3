package faults

import (
	"reflect"
	"strings"
)

// The table a control-plane or Streams call names, for the fault rules
// (Stage.CheckCall): by name or by ARN, whichever member the operation has.
// DescribeTable, UpdateTable and the other TableName operations accept a
// table's ARN in place of its name; TagResource, UntagResource,
// ListTagsOfResource and the resource-policy operations take ResourceArn;
// exports TableArn; the Streams API StreamArn; backups BackupArn. Each
// ARN is read for the table it is under
// (arn:<partition>:dynamodb:<region>:<account>:table/<name>[/index/<gsi>
// | /stream/... | /backup/... | /export/...]), so a rule by table name
// matches the call whichever way it names the table. The ARN's region
// and account are not checked here: the operation refuses a foreign ARN
// itself, after the rules.

// targetMembers are the members that name a table, by precedence.
var targetMembers = [...]string{
	"TableName", "GlobalTableName", "SourceTableName",
	"ResourceArn", "TableArn", "SourceTableArn", "StreamArn", "BackupArn",
}

// targetOf returns the table (and index, for an index ARN) a decoded
// input names: its first member of targetMembers that is set, read as
// a name or a DynamoDB ARN. "" when it names none.
func targetOf(in any) (table, index string) {
	v := reflect.ValueOf(in)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return "", ""
	}
	for _, name := range targetMembers {
		f := v.FieldByName(name)
		for f.IsValid() && f.Kind() == reflect.Pointer && !f.IsNil() {
			f = f.Elem()
		}
		if !f.IsValid() || f.Kind() != reflect.String || f.String() == "" {
			continue
		}
		s := f.String()
		if !strings.HasPrefix(s, "arn:") {
			return s, ""
		}
		if t, x, ok := tableOfARN(s); ok {
			return t, x
		}
	}
	return "", ""
}

// tableOfARN reads the table name (and the index of an index ARN) of a
// DynamoDB ARN under a table; ok false for any other ARN.
func tableOfARN(arn string) (table, index string, ok bool) {
	parts := strings.SplitN(arn, ":", 6) // arn partition service region account resource
	if len(parts) < 6 || parts[2] != "dynamodb" {
		return "", "", false
	}
	rest, ok := strings.CutPrefix(parts[5], "table/")
	if !ok {
		return "", "", false
	}
	table, sub, _ := strings.Cut(rest, "/")
	if table == "" {
		return "", "", false
	}
	if x, ok := strings.CutPrefix(sub, "index/"); ok {
		index, _, _ = strings.Cut(x, "/")
	}
	return table, index, true
}
