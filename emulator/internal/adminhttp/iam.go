package adminhttp

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// The IAM policy mode's endpoint: GET answers the identities, PUT
// replaces them ({"identities": [...]}, as the -iamPolicies file). Under
// the policy mode a key that has an identity needs
// dynamoemu:GetIAMPolicies or dynamoemu:PutIAMPolicies, decided before
// the handler (the emulator's routes).

// IAM is the IAM policy mode as its endpoint reads and replaces it.
type IAM interface {
	// Policies are the identities as last set; the error says the mode
	// is off.
	Policies() (any, error)
	// SetPolicies parses an -iamPolicies file and sets its identities.
	SetPolicies(file []byte) error
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
