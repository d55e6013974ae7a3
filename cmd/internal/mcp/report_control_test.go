package mcp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReportControl: report_control stops and starts collecting the
// access-pattern report, and reset forgets its counts while collecting
// goes on; each answer says whether the report collects, and a stopped
// report counts nothing.
func TestReportControl(t *testing.T) {
	f := newFixture(t, "memory", Options{})
	require.True(t, f.emu.Reports().Reporting())

	require.JSONEq(t, `{"reporting":false,"action":"stop"}`, f.ok("report_control", `{"action":"stop"}`))
	require.False(t, f.emu.Reports().Reporting())

	require.JSONEq(t, `{"reporting":true,"action":"start"}`, f.ok("report_control", `{"action":"start"}`))
	require.True(t, f.emu.Reports().Reporting())

	gets := func() int64 {
		var n int64
		if rep := f.srv.namespaceReport(); rep != nil {
			for _, tb := range rep.Tables {
				for _, r := range tb.Resources {
					n += r.Gets
				}
			}
		}
		return n
	}
	f.ok("create_table", `{"TableName":"Things","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`)
	f.ok("get_item", `{"TableName":"Things","Key":{"pk":{"S":"a"}}}`)
	require.Equal(t, int64(1), gets(), "the get is counted")
	require.JSONEq(t, `{"reporting":true,"action":"reset"}`, f.ok("report_control", `{"action":"reset"}`))
	require.True(t, f.emu.Reports().Reporting())
	require.Zero(t, gets(), "the counts are forgotten")
	f.ok("get_item", `{"TableName":"Things","Key":{"pk":{"S":"a"}}}`)
	require.Equal(t, int64(1), gets(), "collecting goes on after a reset")
	f.ok("report_control", `{"action":"stop"}`)
	f.ok("get_item", `{"TableName":"Things","Key":{"pk":{"S":"a"}}}`)
	require.Equal(t, int64(1), gets(), "a stopped report counts nothing")
}
