package service

import "testing"

// TestUpdateTableCombinations: AWS takes one kind of change per UpdateTable.
func TestUpdateTableCombinations(t *testing.T) {
	const stream = `"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}`
	const pt = `"ProvisionedThroughput":{"ReadCapacityUnits":2,"WriteCapacityUnits":2}`
	cases := []struct {
		name, table, update, msg string // msg "" means accepted
	}{
		{"sse and protection", "prov", `"SSESpecification":{"Enabled":true},"DeletionProtectionEnabled":true`,
			"One or more parameter values were invalid: Server-Side Encryption modification must be the only operation in the request"},
		{"class and throughput", "prov", `"TableClass":"STANDARD",` + pt,
			"One or more parameter values were invalid: TableClass modification must be the only operation in the request"},
		{"protection and throughput", "prov", `"DeletionProtectionEnabled":false,` + pt,
			"One or more parameter values were invalid: DeletionProtection modification must be the only operation in the request"},
		{"protection and billing", "prov", `"DeletionProtectionEnabled":false,"BillingMode":"PAY_PER_REQUEST"`,
			"One or more parameter values were invalid: DeletionProtection modification must be the only operation in the request"},
		{"on-demand limits and stream", "ondemand", `"OnDemandThroughput":{"MaxReadRequestUnits":10},` + stream,
			"One or more parameter values were invalid: OnDemandThroughput can only be combined with BillingMode in an UpdateTable request"},
		{"stream and throughput", "prov", stream + `,` + pt,
			"One or more parameter values were invalid: You cannot modify stream status while updating table IOPS"},
		{"index delete and throughput", "prov", `"GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"abc"}}],` + pt,
			"One or more parameter values were invalid: You cannot create or delete index while updating table IOPS"},
		{"index delete and stream", "prov", `"GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"abc"}}],` + stream,
			"One or more parameter values were invalid: You cannot create or delete index while changing stream status"},
		{"combination on a missing table", "nope", `"DeletionProtectionEnabled":true,` + pt,
			"One or more parameter values were invalid: DeletionProtection modification must be the only operation in the request"},
		{"enable stream without view type", "prov", `"StreamSpecification":{"StreamEnabled":true}`,
			"One or more parameter values were invalid: If stream is being enabled then UpdateViewType is required"},
		{"disable stream with view type", "prov", `"StreamSpecification":{"StreamEnabled":false,"StreamViewType":"KEYS_ONLY"}`,
			"One or more parameter values were invalid: If stream is being disabled, then UpdateViewType must not be specified"},
		{"nothing but multi-region consistency", "prov", `"MultiRegionConsistency":"STRONG"`,
			"At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, " +
				"ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required"},
		{"billing and throughput", "ondemand", `"BillingMode":"PROVISIONED",` + pt, ""},
		{"billing and stream", "prov", `"BillingMode":"PAY_PER_REQUEST",` + stream, ""},
		{"billing and on-demand limits", "prov", `"BillingMode":"PAY_PER_REQUEST","OnDemandThroughput":{"MaxReadRequestUnits":10}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newTablesEmulator(t)
			mustTables(t, e, "CreateTable", `{"TableName":"prov",`+hashOnly+`,"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}}`)
			mustTables(t, e, "CreateTable", `{"TableName":"ondemand",`+hashOnly+`,`+ppr+`}`)
			before := mustTables(t, e, "DescribeTable", `{"TableName":"prov"}`)
			r := tablesDo(t, e, "UpdateTable", `{"TableName":"`+tc.table+`",`+tc.update+`}`)
			if tc.msg == "" {
				if r.status != 200 {
					t.Fatalf("got %d %s %q, want success", r.status, r.typ, r.msg)
				}
				return
			}
			if r.typ != "ValidationException" || r.msg != tc.msg {
				t.Fatalf("got %d %s %q\nwant ValidationException %q", r.status, r.typ, r.msg, tc.msg)
			}
			if after := mustTables(t, e, "DescribeTable", `{"TableName":"prov"}`); after != before {
				t.Fatalf("refused update changed the table:\n%s\n%s", before, after)
			}
		})
	}
}

// TestTableMaxThroughput: above the per-table quota (40000) is
// LimitExceededException for CreateTable and UpdateTable; the quota itself
// is fine.
func TestTableMaxThroughput(t *testing.T) {
	e := newTablesEmulator(t)
	const msgRead = "The requested ReadCapacityUnits, 40001, is above the per table maximum for the account in us-east-1. Per table maximum: 40000."
	const msgWrite = "The requested WriteCapacityUnits, 50000, is above the per table maximum for the account in us-east-1. Per table maximum: 40000."
	cases := []struct{ op, body, msg string }{
		{"CreateTable", `{"TableName":"big",` + hashOnly + `,"ProvisionedThroughput":{"ReadCapacityUnits":40001,"WriteCapacityUnits":1}}`, msgRead},
		{"CreateTable", `{"TableName":"big",` + hashOnly + `,"ProvisionedThroughput":{"ReadCapacityUnits":40000,"WriteCapacityUnits":50000}}`, msgWrite},
		{"CreateTable", `{"TableName":"big",` + hashOnly + `,"ProvisionedThroughput":{"ReadCapacityUnits":40000,"WriteCapacityUnits":40000}}`, ""},
		{"UpdateTable", `{"TableName":"big","ProvisionedThroughput":{"ReadCapacityUnits":40001,"WriteCapacityUnits":1}}`, msgRead},
		{"UpdateTable", `{"TableName":"big","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":50000}}`, msgWrite},
		{"UpdateTable", `{"TableName":"big","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}`, ""},
	}
	for _, tc := range cases {
		r := tablesDo(t, e, tc.op, tc.body)
		switch {
		case tc.msg == "" && r.status != 200:
			t.Errorf("%s %s: %d %s %q, want success", tc.op, tc.body, r.status, r.typ, r.msg)
		case tc.msg != "" && (r.typ != "LimitExceededException" || r.msg != tc.msg):
			t.Errorf("%s %s: %s %q\nwant LimitExceededException %q", tc.op, tc.body, r.typ, r.msg, tc.msg)
		}
	}
}
