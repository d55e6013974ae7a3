package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Which tables a request touches: every table name, ARN and PartiQL
// statement it holds, wherever it holds them, so that an operation the
// recorder was not written for is judged by the names it carries.

// tableFree are the operations that may name no table: account-wide
// listings and limits. Any other operation that names none is refused,
// since the recorder cannot tell what it touches.
var tableFree = map[string]bool{
	"ListTables": true, "DescribeLimits": true, "DescribeEndpoints": true, "ListStreams": true,
	"ListBackups": true, "ListExports": true, "ListImports": true, "ListGlobalTables": true,
	"ListContributorInsights": true,
}

// nameMembers are the members whose string is a table's name.
var nameMembers = map[string]bool{"TableName": true, "TargetTableName": true, "SourceTableName": true, "GlobalTableName": true}

// statementTable finds the table a PartiQL statement reads or writes:
// after FROM, INTO or UPDATE, quoted ("" an escaped quote) or not.
var statementTable = regexp.MustCompile(`(?i)\b(?:FROM|INTO|UPDATE)\s+("(?:[^"]|"")+"|[A-Za-z0-9_-]+)`)

// touched returns the tables a request of operation op names; an error
// when it cannot tell (a body that is not JSON, an ARN or statement it
// cannot read, an operation that names none but is not table-free).
func touched(op string, body []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("the request is not JSON: %v", err)
	}
	var names []string
	var bad error
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if key == "RequestItems" {
					names = append(names, k)
				}
				walk(k, x)
			}
		case []any:
			for _, x := range v {
				walk(key, x)
			}
		case string:
			switch {
			case nameMembers[key] && strings.HasPrefix(v, "arn:"): // a TableName may be the table's ARN
				n, err := arnTable(v)
				if err != nil || n == "" {
					bad = fmt.Errorf("cannot tell which table %q names", v)
				}
				names = append(names, n)
			case nameMembers[key]:
				names = append(names, v)
			case key == "Statement":
				m := statementTable.FindAllStringSubmatch(v, -1)
				if len(m) == 0 {
					bad = fmt.Errorf("cannot tell which table the statement %q names", v)
				}
				for _, s := range m {
					n := s[1]
					if strings.HasPrefix(n, `"`) {
						n = strings.ReplaceAll(n[1:len(n)-1], `""`, `"`)
					}
					names = append(names, n)
				}
			case strings.HasSuffix(key, "Arn") && strings.HasPrefix(v, "arn:"):
				n, err := arnTable(v)
				if err != nil {
					bad = err
				}
				if n != "" {
					names = append(names, n)
				}
			}
		}
	}
	walk("", v)
	if bad != nil {
		return nil, bad
	}
	if len(names) == 0 && !tableFree[op] {
		return nil, fmt.Errorf("%s names no table the recorder can find", op)
	}
	return names, nil
}

// arnTable is the table a DynamoDB ARN names (table/NAME/…,
// global-table/NAME); "" for another service's ARN (a KMS key, a
// Kinesis stream).
func arnTable(arn string) (string, error) {
	p := strings.SplitN(arn, ":", 6)
	if len(p) != 6 {
		return "", fmt.Errorf("cannot read the ARN %q", arn)
	}
	if p[2] != "dynamodb" {
		return "", nil
	}
	kind, rest, _ := strings.Cut(p[5], "/")
	name, _, _ := strings.Cut(rest, "/")
	if (kind != "table" && kind != "global-table") || name == "" {
		return "", fmt.Errorf("cannot tell which table the ARN %q names", arn)
	}
	return name, nil
}
