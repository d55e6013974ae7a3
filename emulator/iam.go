package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/iam"
	"github.com/dynamoemu/dynamoemu/internal/iampolicy"
)

// The IAM policy mode, opt-in (docs/iam.md). With Options.IAM (and
// Options.Credentials, which authenticate each request), an access key
// listed in IAM.Identities stands for an IAM identity: a user ARN, a
// user id, principal tags and identity-based policies. Every use of a
// table or index by a data-plane request of such a key (each item of a
// batch, each action of a transaction, each PartiQL statement, a Query
// or Scan of an index) is then decided with IAM's logic against the
// identity's policies and the table's resource-based policy
// (PutResourcePolicy's): the IAM stage (emulator/internal/stages/iam)
// with internal/iampolicy. A denied use fails its request with AWS's
// AccessDeniedException. A key of Credentials not listed acts as the
// account's root user: nothing it does is evaluated (the tables'
// set-up, the tests' own checks). The control plane and the Streams API
// are decided too, once per call, on the table's, stream's or backup's
// ARN (the stage's CheckCall).
// adminpath.IAM reads and replaces the identities while the emulator
// runs.

// IAMIdentity is one access key's identity in the IAM policy mode.
type IAMIdentity struct {
	// AccessKeyID is the key, one of Options.Credentials.
	AccessKeyID string `json:"accessKeyId"`
	// ARN is the principal's ARN, as denials name it
	// (arn:aws:iam::ACCOUNT:user/NAME, or a role's); its last path
	// element is ${aws:username}.
	ARN string `json:"arn"`
	// UserID is ${aws:userid} ("": the access key id).
	UserID string `json:"userId,omitempty"`
	// Tags are the principal's tags, ${aws:PrincipalTag/KEY}.
	Tags map[string]string `json:"tags,omitempty"`
	// Keys are condition keys the emulator cannot know, by name, with
	// their value in every request of the identity: a web identity's
	// ("www.amazon.com:user_id", "cognito-identity.amazonaws.com:sub"),
	// which the developer guide's examples use as policy variables. A
	// policy may name them; a key the emulator sets may not be given.
	Keys map[string]string `json:"keys,omitempty"`
	// Policies are the identity-based policy documents (JSON objects).
	Policies []json.RawMessage `json:"policies"`
}

// IAMPolicies configures the IAM policy mode (Options.IAM): the file of
// cmd/dynamoemu's -iamPolicies.
type IAMPolicies struct {
	Identities []IAMIdentity `json:"identities"`
}

// ParseIAMPolicies decodes an -iamPolicies file ({"identities": [...]}),
// unknown members refused.
func ParseIAMPolicies(data []byte) (*IAMPolicies, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var p IAMPolicies
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("not the JSON of an IAM policies file: %w", err)
	}
	if dec.More() {
		return nil, errors.New("not the JSON of an IAM policies file: more after its object")
	}
	return &p, nil
}

// identities checks p against the listed credentials and returns each
// identity, parsed, by access key id.
func (p *IAMPolicies) identities(creds []Credential) (map[string]*iam.Identity, error) {
	if len(creds) == 0 {
		return nil, errors.New("emulator: the IAM policy mode needs Credentials (-credentials): requests must be signed to have an identity")
	}
	known := make(map[string]bool, len(creds))
	for _, c := range creds {
		known[c.AccessKeyID] = true
	}
	out := make(map[string]*iam.Identity, len(p.Identities))
	for i, d := range p.Identities {
		switch {
		case !known[d.AccessKeyID]:
			return nil, fmt.Errorf("emulator: IAM identity %d: access key id %q is not one of the credentials", i+1, d.AccessKeyID)
		case out[d.AccessKeyID] != nil:
			return nil, fmt.Errorf("emulator: IAM identity %d: access key id %q is listed twice", i+1, d.AccessKeyID)
		case !strings.HasPrefix(d.ARN, "arn:aws:iam::") && !strings.HasPrefix(d.ARN, "arn:aws:sts::"):
			return nil, fmt.Errorf("emulator: IAM identity %d (%s): arn %q is not an IAM or STS ARN", i+1, d.AccessKeyID, d.ARN)
		}
		id := &iam.Identity{Principal: iampolicy.Principal{ARN: d.ARN, UserID: d.UserID, Tags: d.Tags}}
		if id.Principal.UserID == "" {
			id.Principal.UserID = d.AccessKeyID
		}
		// aws:username is an IAM user's name alone: IAM sets no
		// aws:username for a role's session or a federated user (IAM
		// User Guide, "IAM policy elements: Variables and tags",
		// "Request information that you can use for policy variables").
		if j := strings.LastIndexByte(d.ARN, '/'); j >= 0 && strings.Contains(d.ARN, ":user/") {
			id.Principal.UserName = d.ARN[j+1:]
		}
		for k, v := range d.Keys {
			if iam.Sets(k) {
				return nil, fmt.Errorf("emulator: IAM identity %d (%s): key %q is one the emulator sets", i+1, d.AccessKeyID, k)
			}
			if id.Keys == nil {
				id.Keys = map[string]string{}
			}
			id.Keys[strings.ToLower(k)] = v
		}
		for j, doc := range d.Policies {
			pol, err := iampolicy.Parse(doc)
			if err == nil {
				err = iam.CheckKeys(pol, id.Keys)
			}
			if err != nil {
				return nil, fmt.Errorf("emulator: IAM identity %d (%s): policy %d: %w", i+1, d.AccessKeyID, j+1, err)
			}
			id.Policies = append(id.Policies, pol)
		}
		out[d.AccessKeyID] = id
	}
	return out, nil
}

// iamMode is an emulator's policy mode: its identities, replaced whole
// by SetIAMPolicies.
type iamMode struct {
	ids     atomic.Pointer[map[string]*iam.Identity]
	src     atomic.Pointer[IAMPolicies] // as given, for GET adminpath.IAM
	disable func()                      // turns the stage off at Close
}

// newIAMMode returns the policy mode of opts (nil: off); opts are valid.
func newIAMMode(opts Options) *iamMode {
	if opts.IAM == nil {
		return nil
	}
	ids, _ := opts.IAM.identities(opts.Credentials) // Validate checked them
	m := &iamMode{disable: iam.Enable()}
	m.ids.Store(&ids)
	m.src.Store(opts.IAM)
	return m
}

// identity is the identity of the access key id key (nil: the root).
func (m *iamMode) identity(key string) *iam.Identity { return (*m.ids.Load())[key] }

// ErrIAMOff: SetIAMPolicies on an emulator made without Options.IAM.
var ErrIAMOff = errors.New("emulator: the IAM policy mode is off (Options.IAM, -iamPolicies)")

// SetIAMPolicies replaces the identities of the IAM policy mode: the
// requests that arrive after it are decided with p.
func (e *Emulator) SetIAMPolicies(p *IAMPolicies) error {
	if e.iam == nil {
		return ErrIAMOff
	}
	ids, err := p.identities(e.opts.Credentials)
	if err != nil {
		return err
	}
	e.iam.ids.Store(&ids)
	e.iam.src.Store(p)
	return nil
}

// The admin endpoint of the IAM policy mode (adminpath.IAM): GET
// answers the identities, PUT replaces them ({"identities": [...]}, as
// the -iamPolicies file). Under the policy mode, a key that has an
// identity needs the action dynamoemu:GetIAMPolicies or
// dynamoemu:PutIAMPolicies (admin_iam.go).

// iamAdmin is the policy mode as its admin endpoint reads and replaces
// it (adminhttp.IAM).
type iamAdmin struct{ e *Emulator }

func (a iamAdmin) Policies() (any, error) {
	if a.e.iam == nil {
		return nil, ErrIAMOff
	}
	return a.e.iam.src.Load(), nil
}

func (a iamAdmin) SetPolicies(file []byte) error {
	p, err := ParseIAMPolicies(file)
	if err != nil {
		return err
	}
	return a.e.SetIAMPolicies(p)
}
