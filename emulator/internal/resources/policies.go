package resources

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Resource-based policies: PutResourcePolicy, GetResourcePolicy and
// DeleteResourcePolicy (AWS API reference, API_PutResourcePolicy,
// API_GetResourcePolicy, API_DeleteResourcePolicy). A policy is attached
// to a table or to its latest stream, addressed by ARN, and kept in the
// table's definition (the feature's slot: service.Definition.Slot), so it is
// recorded with it:
// replay, persistence and backups carry it, and it goes with the table.
// Documents are checked as JSON policy documents of at most 20 KB; they
// are enforced only in the IAM policy mode, on the data plane (the IAM
// stage reads a table's from this slot: docs/iam.md). AWS applies a
// policy asynchronously; the emulator at once.

// Policies is the feature of resource-based policies (service.Config.Features).
type Policies struct{}

// Name is the key of the policies in a table's definition and record.
func (Policies) Name() string { return policiesSlot }

// policiesSlot is the feature's slot: a JSON list of resourcePolicy.
const policiesSlot = "policies"

// Register installs PutResourcePolicy, GetResourcePolicy and
// DeleteResourcePolicy.
func (Policies) Register(r service.Registrar) {
	service.Op(r, "PutResourcePolicy", boundary.TableWrite, putResourcePolicy)
	service.Op(r, "GetResourcePolicy", boundary.TableDescribe, getResourcePolicy)
	service.Op(r, "DeleteResourcePolicy", boundary.TableWrite, deleteResourcePolicy)
}

// policiesOf decodes the table's policies from its slot.
func policiesOf(slot json.RawMessage) ([]resourcePolicy, error) {
	if slot == nil {
		return nil, nil
	}
	var ps []resourcePolicy
	if err := json.Unmarshal(slot, &ps); err != nil {
		return nil, fmt.Errorf("resource policies of a table: %w", err)
	}
	return ps, nil
}

// changePolicies applies fn to the table's policies and stores what it
// returns (none: the slot goes).
func changePolicies(t service.Table, fn func(ps []resourcePolicy) ([]resourcePolicy, error)) error {
	return changeSlot(t, policiesSlot, func(old json.RawMessage) (json.RawMessage, error) {
		ps, err := policiesOf(old)
		if err != nil {
			return nil, err
		}
		if ps, err = fn(ps); err != nil {
			return nil, err
		}
		if len(ps) == 0 {
			return nil, nil
		}
		return json.Marshal(ps)
	})
}

// changeSlot changes the slot name of t's definition through the one
// funnel of definition changes (service.Table.Change): fn gets the slot
// (nil: none) and returns the new one (nil: the slot goes) or an error,
// which leaves the definition as it was.
func changeSlot(t service.Table, name string, fn func(old json.RawMessage) (json.RawMessage, error)) error {
	return t.Change(func(e *service.Edit) (func(bool) error, error) {
		slot, err := fn(e.Slot(name))
		if err != nil {
			return nil, err
		}
		e.SetSlot(name, slot)
		return nil, nil
	})
}

// noPolicyRevision is the ExpectedRevisionId that asks for a resource
// without a policy (API_PutResourcePolicy).
const noPolicyRevision = "NO_POLICY"

// resourcePolicy is a policy attached to the table (stream "") or to its
// stream of that label.
type resourcePolicy struct {
	Stream   string `json:"stream,omitempty"` // a stream's label; "" for the table
	Document string `json:"doc"`
	Revision string `json:"rev"`
}

// PutResourcePolicyInput is the PutResourcePolicy request.
type PutResourcePolicyInput struct {
	ResourceArn                     *string `json:"ResourceArn"`
	Policy                          *string `json:"Policy"`
	ExpectedRevisionId              *string `json:"ExpectedRevisionId"`
	ConfirmRemoveSelfResourceAccess *bool   `json:"ConfirmRemoveSelfResourceAccess"`
}

// PutResourcePolicyOutput is the PutResourcePolicy response.
type PutResourcePolicyOutput struct {
	RevisionId string `json:"RevisionId,omitempty"`
}

// GetResourcePolicyInput is the GetResourcePolicy request.
type GetResourcePolicyInput struct {
	ResourceArn *string `json:"ResourceArn"`
}

// GetResourcePolicyOutput is the GetResourcePolicy response.
type GetResourcePolicyOutput struct {
	Policy     string `json:"Policy,omitempty"`
	RevisionId string `json:"RevisionId,omitempty"`
}

// DeleteResourcePolicyInput is the DeleteResourcePolicy request.
type DeleteResourcePolicyInput struct {
	ResourceArn        *string `json:"ResourceArn"`
	ExpectedRevisionId *string `json:"ExpectedRevisionId"`
}

// DeleteResourcePolicyOutput is the DeleteResourcePolicy response: the
// revision of the policy deleted.
type DeleteResourcePolicyOutput struct {
	RevisionId string `json:"RevisionId,omitempty"`
}

func putResourcePolicy(c service.Call, in *PutResourcePolicyInput) (*PutResourcePolicyOutput, error) {
	var cs apierr.Constraints
	apierr.NotNull(&cs, in.ResourceArn, "resourceArn")
	apierr.NotNull(&cs, in.Policy, "policy")
	if in.ResourceArn != nil {
		apierr.ResourceARNConstraints(&cs, *in.ResourceArn)
	}
	if in.ExpectedRevisionId != nil {
		revisionConstraints(&cs, *in.ExpectedRevisionId, "expectedRevisionId")
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	if err := validatePolicyDocument(*in.Policy); err != nil {
		return nil, err
	}
	arn := *in.ResourceArn
	t, label, err := policyResource(c, arn)
	if err != nil {
		return nil, err
	}
	var rev string
	err = changePolicies(t, func(ps []resourcePolicy) ([]resourcePolicy, error) {
		i := slices.IndexFunc(ps, func(p resourcePolicy) bool { return p.Stream == label })
		if err := checkExpectedRevision(arn, in.ExpectedRevisionId, ps, i); err != nil {
			return nil, err
		}
		if i >= 0 && ps[i].Document == *in.Policy {
			rev = ps[i].Revision // idempotent: the same revision
			return ps, nil
		}
		rev = nextRevision(c, ps, i)
		p := resourcePolicy{Stream: label, Document: *in.Policy, Revision: rev}
		if i >= 0 {
			ps[i] = p
		} else {
			ps = append(ps, p)
		}
		return ps, nil
	})
	if err != nil {
		return nil, err
	}
	return &PutResourcePolicyOutput{RevisionId: rev}, nil
}

func getResourcePolicy(c service.Call, in *GetResourcePolicyInput) (*GetResourcePolicyOutput, error) {
	var cs apierr.Constraints
	apierr.NotNull(&cs, in.ResourceArn, "resourceArn")
	if in.ResourceArn != nil {
		apierr.ResourceARNConstraints(&cs, *in.ResourceArn)
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	t, label, err := policyResource(c, *in.ResourceArn)
	if err != nil {
		return nil, err
	}
	ps, err := policiesOf(t.Definition().Slot(policiesSlot))
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(ps, func(p resourcePolicy) bool { return p.Stream == label })
	if i < 0 {
		return nil, apierr.New(apierr.ErrPolicyNotFound, apierr.MsgPolicyNotFound(*in.ResourceArn))
	}
	return &GetResourcePolicyOutput{Policy: ps[i].Document, RevisionId: ps[i].Revision}, nil
}

func deleteResourcePolicy(c service.Call, in *DeleteResourcePolicyInput) (*DeleteResourcePolicyOutput, error) {
	var cs apierr.Constraints
	apierr.NotNull(&cs, in.ResourceArn, "resourceArn")
	if in.ResourceArn != nil {
		apierr.ResourceARNConstraints(&cs, *in.ResourceArn)
	}
	if in.ExpectedRevisionId != nil {
		revisionConstraints(&cs, *in.ExpectedRevisionId, "expectedRevisionId")
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	arn := *in.ResourceArn
	t, label, err := policyResource(c, arn)
	if err != nil {
		return nil, err
	}
	var rev string
	err = changePolicies(t, func(ps []resourcePolicy) ([]resourcePolicy, error) {
		i := slices.IndexFunc(ps, func(p resourcePolicy) bool { return p.Stream == label })
		if i < 0 {
			return nil, apierr.New(apierr.ErrPolicyNotFound, apierr.MsgPolicyNotFound(arn))
		}
		if err := checkExpectedRevision(arn, in.ExpectedRevisionId, ps, i); err != nil {
			return nil, err
		}
		rev = ps[i].Revision
		return slices.Delete(ps, i, i+1), nil
	})
	if err != nil {
		return nil, err
	}
	return &DeleteResourcePolicyOutput{RevisionId: rev}, nil
}

// revisionConstraints checks a revision id member: 1 to 255 characters
// (API_PutResourcePolicy, ExpectedRevisionId).
func revisionConstraints(cs *apierr.Constraints, rev, path string) {
	if len(rev) < 1 {
		cs.Add(apierr.Quote(rev), path, apierr.LenGE(1))
	}
	if len(rev) > 255 {
		cs.Add(apierr.Quote(rev), path, apierr.LenLE(255))
	}
}

// checkExpectedRevision applies ExpectedRevisionId (nil: none) to the
// policies, of which i is the resource's (-1: none): NO_POLICY wants
// none, any other value the current revision; else PolicyNotFoundException.
func checkExpectedRevision(arn string, expected *string, ps []resourcePolicy, i int) error {
	switch {
	case expected == nil:
		return nil
	case *expected == noPolicyRevision:
		if i >= 0 {
			return apierr.New(apierr.ErrPolicyNotFound, apierr.MsgPolicyExists(arn))
		}
		return nil
	case i < 0:
		return apierr.New(apierr.ErrPolicyNotFound, apierr.MsgPolicyNotFound(arn))
	case ps[i].Revision != *expected:
		return apierr.New(apierr.ErrPolicyNotFound, apierr.MsgPolicyRevisionMismatch(arn, *expected))
	}
	return nil
}

// nextRevision returns a new RevisionId: AWS's are decimal strings of
// the epoch milliseconds of the change (e.g. "1709841168699"); one is
// never reused for the same resource, even within a millisecond.
func nextRevision(c service.Call, ps []resourcePolicy, i int) string {
	n := c.Now().UnixMilli()
	if i >= 0 {
		if prev, err := strconv.ParseInt(ps[i].Revision, 10, 64); err == nil && prev >= n {
			n = prev + 1
		}
	}
	return strconv.FormatInt(n, 10)
}

// policyResource resolves a policy's ResourceArn: a table of this
// namespace ("arn:aws:dynamodb:<region>:<account>:table/<name>") or its
// latest stream (".../stream/<label>"). It returns the table and the
// stream's label ("" for the table).
func policyResource(c service.Call, arn string) (service.Table, string, error) {
	notFound := apierr.ResourceNotFound(apierr.MsgPolicyARNNotFound(arn))
	name, sub, _ := strings.Cut(strings.TrimPrefix(arn, c.TableARN("")), "/")
	if !strings.HasPrefix(arn, "arn:") {
		return service.Table{}, "", apierr.Validation(apierr.MsgARNNoPrefix(arn))
	}
	if !strings.HasPrefix(arn, c.TableARN("")) {
		return service.Table{}, "", notFound
	}
	t, ok := c.Table(name) // an invalid name names no table
	if !ok {
		// A table ARN of this account and region naming no table: AWS
		// names the table, as DescribeTable does (moto's aws_verified
		// resource policy tests, us-east-1: Put, Get and Delete;
		// records/table-answers.jsonl).
		return service.Table{}, "", apierr.ResourceNotFound(apierr.MsgTableNotFound(name))
	}
	if sub == "" {
		return t, "", nil
	}
	label, ok := strings.CutPrefix(sub, "stream/")
	if !ok || label == "" || label != t.StreamLabel() {
		return service.Table{}, "", notFound
	}
	return t, label, nil
}

// validatePolicyDocument checks a policy document as AWS's policy
// grammar has it (IAM User Guide, "Grammar of the IAM JSON policy
// language"): at most 20 KB, one JSON object with an optional Version of
// 2012-10-17 or 2008-10-17, an optional Id, and a Statement: one
// statement or a non-empty list of them, each with an Effect of Allow or
// Deny, Action or NotAction, and (a resource-based policy) Principal or
// NotPrincipal. The wording of AWS's errors is not on record: the
// messages are ours, the class (ValidationException) AWS's.
func validatePolicyDocument(doc string) error {
	if len(doc) > apierr.MaxPolicyBytes {
		return apierr.Validation(apierr.MsgPolicyTooLarge)
	}
	bad := func(format string, args ...any) error {
		return apierr.Validation(apierr.MsgPolicyMalformed(fmt.Sprintf(format, args...)))
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(doc)))
	dec.UseNumber()
	var top map[string]any
	if err := dec.Decode(&top); err != nil {
		return bad("not a JSON object")
	}
	if dec.More() {
		return bad("text after the policy object")
	}
	for k, v := range top {
		switch k {
		case "Version":
			if v != "2012-10-17" && v != "2008-10-17" {
				return bad("Version must be 2012-10-17 or 2008-10-17")
			}
		case "Id":
			if _, ok := v.(string); !ok {
				return bad("Id must be a string")
			}
		case "Statement":
		default:
			return bad("unknown element %s", k)
		}
	}
	var stmts []any
	switch s := top["Statement"].(type) {
	case map[string]any:
		stmts = []any{s}
	case []any:
		stmts = s
	default:
		return bad("Statement is missing or not an object or a list")
	}
	if len(stmts) == 0 {
		return bad("Statement is empty")
	}
	for i, s := range stmts {
		st, ok := s.(map[string]any)
		if !ok {
			return bad("statement %d is not an object", i+1)
		}
		if e := st["Effect"]; e != "Allow" && e != "Deny" {
			return bad("statement %d: Effect must be Allow or Deny", i+1)
		}
		if (st["Action"] == nil) == (st["NotAction"] == nil) {
			return bad("statement %d: exactly one of Action and NotAction is required", i+1)
		}
		if (st["Principal"] == nil) == (st["NotPrincipal"] == nil) {
			return bad("statement %d: exactly one of Principal and NotPrincipal is required", i+1)
		}
		if st["Resource"] != nil && st["NotResource"] != nil {
			return bad("statement %d: Resource and NotResource exclude each other", i+1)
		}
		for k := range st {
			switch k {
			case "Sid", "Effect", "Action", "NotAction", "Principal", "NotPrincipal", "Resource", "NotResource", "Condition":
			default:
				return bad("statement %d: unknown element %s", i+1, k)
			}
		}
	}
	return nil
}
