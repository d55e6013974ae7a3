package service

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/stretchr/testify/require"
)

// IAMHooks reach the IAM stage (emulator/internal/stages/iam) from the
// core's tests, as ReportHooks reach the insights stage: the external
// test package (wired_test.go) installs the stage and fills
// them.
var IAMHooks struct {
	// Enable turns the policy mode on; disable turns it off again.
	Enable func() (disable func())
	// Denied returns ctx carrying an identity that no policy allows
	// anything, as the edge puts a request's identity in its context.
	Denied func(ctx context.Context) context.Context
}

// TestPipelineIAM walks every data-plane operation TestPipeline walks
// (pipelineCases, which it holds to the registry) through the IAM
// stage: with the policy mode on, a request whose identity no policy
// allows is refused with AccessDeniedException for its table (each of a
// BatchExecuteStatement's statements with its AccessDenied error), and
// the same request without an identity (a key the mode does not
// evaluate) is answered.
func TestPipelineIAM(t *testing.T) {
	require.NotNil(t, IAMHooks.Enable, "wired_test.go installs the IAM stage")
	t.Cleanup(IAMHooks.Enable())
	for _, op := range dataPlaneOps(newTestService(t, Config{})) {
		tc, ok := pipelineCases[op]
		require.True(t, ok, "data-plane operation %s has no case in pipelineCases", op)
		t.Run(op, func(t *testing.T) {
			p := newPipelineEnv(t, Config{})
			status, body := p.doIn(IAMHooks.Denied(context.Background()), op, tc.body)
			if op == "BatchExecuteStatement" { // each statement answers its own error (BatchStatementError)
				require.Equal(t, http.StatusOK, status, body)
				require.Contains(t, body, `"Code":"AccessDenied"`, "the IAM stage did not decide %s", op)
			} else {
				require.Equal(t, http.StatusBadRequest, status, body)
				require.Contains(t, body, "AccessDeniedException", "the IAM stage did not decide %s", op)
			}
			require.Contains(t, body, "is not authorized to perform: dynamodb:", body)
			require.Contains(t, body, ":table/"+tc.table(), body)
			status, body = p.do(op, tc.body)
			require.Equal(t, http.StatusOK, status, "without an identity: %s", body)
		})
	}
}

// doIn is do with the request's context ctx.
func (p *pipelineEnv) doIn(ctx context.Context, op, body string) (int, string) {
	p.t.Helper()
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("X-Amz-Target", TargetPrefix+op)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", testkit.Auth(pipelineAuthKey, pipelineRegion))
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}
