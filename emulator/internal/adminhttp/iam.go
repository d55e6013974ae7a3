package adminhttp

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// The IAM policy mode's endpoint: GET answers the identities, PUT
// replaces them ({"identities": [...]}, as the -iamPolicies file). A key
// that has an identity may not change them (AccessDeniedException): only
// a key without one, or an admin token.

// IAM is the IAM policy mode as its endpoint reads and replaces it.
type IAM interface {
	// Policies are the identities as last set; the error says the mode
	// is off.
	Policies() (any, error)
	// SetPolicies parses an -iamPolicies file and sets its identities.
	SetPolicies(file []byte) error
	// Identified reports whether r is signed, with no admin token, by an
	// access key that has an identity.
	Identified(r *http.Request) bool
}

// maxIAMBody bounds a PUT body: policies, not data.
const maxIAMBody = 1 << 20

// ServeIAM answers GET and PUT of the IAM path.
func (a *Admin) ServeIAM(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	if _, err := a.IAM.Policies(); err != nil {
		WriteError(w, err)
		return
	}
	if r.Method == http.MethodPut {
		if a.IAM.Identified(r) {
			w.Header().Set("Content-Type", "application/json")
			ae := &apierr.Error{Class: apierr.ErrAccessDenied, Msg: "an access key with an IAM identity may not change the identities"}
			w.WriteHeader(ae.Class.Status)
			_, _ = w.Write(wire.AppendErrorBody(nil, ae))
			return
		}
		body, err := ReadBody(r, maxIAMBody)
		if err != nil {
			err = fmt.Errorf("emulator: IAM policies: %w", err)
		}
		if err == nil {
			err = a.IAM.SetPolicies(body)
		}
		if err != nil {
			WriteError(w, err)
			return
		}
	}
	p, _ := a.IAM.Policies()
	out, err := json.Marshal(p)
	if err != nil {
		WriteError(w, err)
		return
	}
	Write(w, http.StatusOK, string(out))
}
