package emulator

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/lambdaesm"
)

// sendTenant sends method path with body, signed by key for service,
// with the x-tenant-code header tenant; target, when set, is the
// DynamoDB operation's X-Amz-Target.
func (f *mxFixture) sendTenant(t *testing.T, key, tenant, service, method, path, target, body string) mxAnswer {
	req := httptest.NewRequest(method, "http://localhost"+path, strings.NewReader(body))
	req.Host = "localhost"
	req.Header.Set("Content-Type", "application/json")
	if target != "" {
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+target)
	}
	req.Header.Set("x-tenant-code", tenant)
	signFor(t, key, iamSecret, service, "us-east-1")(req, []byte(body))
	rec := httptest.NewRecorder()
	f.e.Handler().ServeHTTP(rec, req)
	return mxAnswer{rec.Code, rec.Header().Get("X-Amzn-ErrorType") + " " + rec.Body.String()}
}

// TestBoundaryTenantHeader: the x-tenant-code header binds a caller the
// configuration binds to no tenant, on the DynamoDB API and at the edge
// (the admin endpoints, Lambda's mapping API) alike, and never widens a
// caller's rights: a key the configuration binds keeps its tenant
// whatever the header names, a cross-tenant key keeps every right.
func TestBoundaryTenantHeader(t *testing.T) {
	f := newMxFixture(t)
	getOwners := `{"TableName":"` + mxTable + `","Key":{"pk":{"S":"ORDER#tenant001"},"sk":{"S":"1"}}}`
	fault := `{"rules":[{"table":"` + mxTable + `","operations":["DescribeLimits"],"fault":"ProvisionedThroughputExceeded"}]}`
	for _, tc := range []struct {
		name, key, tenant, service, method, path, target, body string
		status                                                 int
		refusedAs                                              string // the caller tenant the refusal names ("": not refused)
	}{
		{"an unbound key bound by the header reads another tenant's item", mxUnbound, "tenant002", "dynamodb", http.MethodPost, "/", "GetItem", getOwners, 400, "tenant002"},
		{"an unbound key bound by the header reads its tenant's item", mxUnbound, "tenant001", "dynamodb", http.MethodPost, "/", "GetItem", getOwners, 200, ""},
		{"a bound key naming the owner's tenant", mxOther, "tenant001", "dynamodb", http.MethodPost, "/", "GetItem", getOwners, 400, "tenant002"},
		{"a bound key naming the owner's tenant backs the table up", mxOther, "tenant001", "dynamodb", http.MethodPost, "/", "CreateBackup", `{"TableName":"` + mxTable + `","BackupName":"hdr"}`, 400, "tenant002"},
		{"an unbound key bound by the header installs a fault rule", mxUnbound, "tenant002", "dynamodb", http.MethodPut, "/dynamoemu/faults", "", fault, 400, "tenant002"},
		{"a bound key naming another tenant installs a fault rule", mxOther, "tenant001", "dynamodb", http.MethodPut, "/dynamoemu/faults", "", fault, 400, "tenant002"},
		{"an unbound key bound by the header maps the stream", mxUnbound, "tenant002", "lambda", http.MethodPost, lambdaesm.APIPrefix, "", f.esmBody(), 403, "tenant002"},
		{"a cross-tenant key with the header installs a fault rule", mxAdmin, "tenant002", "dynamodb", http.MethodPut, "/dynamoemu/faults", "", fault, 200, ""},
		{"an unbound key with an empty header installs a fault rule", mxUnbound, "", "dynamodb", http.MethodPut, "/dynamoemu/faults", "", fault, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := f.sendTenant(t, tc.key, tc.tenant, tc.service, tc.method, tc.path, tc.target, tc.body)
			require.Equal(t, tc.status, a.status, a.body)
			if tc.refusedAs == "" {
				require.NotContains(t, a.body, "AccessDenied", a.body)
				return
			}
			require.Contains(t, a.body, "AccessDeniedException", a.body)
			require.Contains(t, a.body, `[conventions B10] caller tenant \"`+tc.refusedAs+`\"`, a.body)
		})
	}
}
