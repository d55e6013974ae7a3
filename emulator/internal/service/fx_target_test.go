package service

import "testing"

func TestFxTargetOf(t *testing.T) {
	s := func(v string) *string { return &v }
	const arn = "arn:aws:dynamodb:us-east-1:000000000000:table/"
	tests := []struct {
		name      string
		in        any
		table, ix string
	}{
		{"name", &DescribeTableInput{TableName: s("T1")}, "T1", ""},
		{"table ARN", &DescribeTableInput{TableName: s(arn + "T1")}, "T1", ""},
		{"resource ARN", &TagResourceInput{ResourceArn: s(arn + "T2")}, "T2", ""},
		{"index ARN", &TagResourceInput{ResourceArn: s(arn + "T2/index/G")}, "T2", "G"},
		{"stream ARN", &DescribeStreamInput{StreamArn: s(arn + "T3/stream/2026-01-01T00:00:00.000")}, "T3", ""},
		{"backup ARN", &DescribeBackupInput{BackupArn: s(arn + "T4/backup/01700000000000-abcdef12")}, "T4", ""},
		{"another service", &TagResourceInput{ResourceArn: s("arn:aws:kinesis:us-east-1:000000000000:stream/T5")}, "", ""},
		{"not a table", &TagResourceInput{ResourceArn: s("arn:aws:dynamodb:us-east-1:000000000000:global-table/T6")}, "", ""},
		{"short", &TagResourceInput{ResourceArn: s("arn:aws:dynamodb")}, "", ""},
		{"nothing", &ListTablesInput{}, "", ""},
		{"not a struct", 3, "", ""},
	}
	for _, tc := range tests {
		table, ix := fxTargetOf(tc.in)
		if table != tc.table || ix != tc.ix {
			t.Errorf("%s: got %q %q, want %q %q", tc.name, table, ix, tc.table, tc.ix)
		}
	}
}
