package faults

import (
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// arnInput is an input that names its table by ResourceArn, as the
// tagging and resource-policy operations' do.
type arnInput struct{ ResourceArn *string }

func TestTargetOf(t *testing.T) {
	s := func(v string) *string { return &v }
	const arn = "arn:aws:dynamodb:us-east-1:000000000000:table/"
	tests := []struct {
		name      string
		in        any
		table, ix string
	}{
		{"name", &service.DescribeTableInput{TableName: s("T1")}, "T1", ""},
		{"table ARN", &service.DescribeTableInput{TableName: s(arn + "T1")}, "T1", ""},
		{"resource ARN", &arnInput{ResourceArn: s(arn + "T2")}, "T2", ""},
		{"index ARN", &arnInput{ResourceArn: s(arn + "T2/index/G")}, "T2", "G"},
		{"stream ARN", &struct{ StreamArn *string }{StreamArn: s(arn + "T3/stream/2026-01-01T00:00:00.000")}, "T3", ""},
		{"backup ARN", &struct{ BackupArn *string }{BackupArn: s(arn + "T4/backup/01700000000000-abcdef12")}, "T4", ""},
		{"another service", &arnInput{ResourceArn: s("arn:aws:kinesis:us-east-1:000000000000:stream/T5")}, "", ""},
		{"not a table", &arnInput{ResourceArn: s("arn:aws:dynamodb:us-east-1:000000000000:global-table/T6")}, "", ""},
		{"short", &arnInput{ResourceArn: s("arn:aws:dynamodb")}, "", ""},
		{"nothing", &service.ListTablesInput{}, "", ""},
		{"not a struct", 3, "", ""},
	}
	for _, tc := range tests {
		table, ix := targetOf(tc.in)
		if table != tc.table || ix != tc.ix {
			t.Errorf("%s: got %q %q, want %q %q", tc.name, table, ix, tc.table, tc.ix)
		}
	}
}

// FuzzTableOfARN: any ARN reads as a table without '/' (and an index
// without '/') or as none, never a panic.
func FuzzTableOfARN(f *testing.F) {
	for _, s := range []string{"arn:aws:dynamodb:us-east-1:1:table/T", "arn:aws:dynamodb:r:a:table/T/index/G/x",
		"arn:aws:dynamodb:r:a:table/", "arn:aws:dynamodb:r:a:table//index/G", "arn:aws:kinesis:r:a:stream/S", "arn:::::", "arn"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arn string) {
		table, index, ok := tableOfARN(arn)
		if !ok && (table != "" || index != "") {
			t.Fatalf("%q: not ok but %q %q", arn, table, index)
		}
		if ok && (table == "" || strings.Contains(table, "/") || strings.Contains(index, "/")) {
			t.Fatalf("%q: got %q %q", arn, table, index)
		}
	})
}
