package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Resource-based policies: PutResourcePolicy, GetResourcePolicy and
// DeleteResourcePolicy (AWS API reference, API_PutResourcePolicy,
// API_GetResourcePolicy, API_DeleteResourcePolicy). A policy is attached
// to a table or to its latest stream, addressed by ARN, and kept in the
// table's definition (tableMeta.policies), so it is recorded with it:
// replay, persistence and backups carry it, and it goes with the table.
// Documents are checked as JSON policy documents of at most 20 KB; they
// are never enforced (the emulator has no IAM: docs/global-tables.md). AWS applies a
// policy asynchronously; the emulator at once.

func init() {
	register("PutResourcePolicy", putResourcePolicy)
	register("GetResourcePolicy", getResourcePolicy)
	register("DeleteResourcePolicy", deleteResourcePolicy)
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

func putResourcePolicy(c *call, in *PutResourcePolicyInput) (*PutResourcePolicyOutput, error) {
	var cs apierr.Constraints
	apierr.NotNull(&cs, in.ResourceArn, "resourceArn")
	apierr.NotNull(&cs, in.Policy, "policy")
	if in.ResourceArn != nil {
		arnConstraints(&cs, *in.ResourceArn)
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
	t, label, err := c.policyResource(arn)
	if err != nil {
		return nil, err
	}
	var rev string
	err = t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		i := slices.IndexFunc(m.policies, func(p resourcePolicy) bool { return p.Stream == label })
		if err := checkExpectedRevision(arn, in.ExpectedRevisionId, m.policies, i); err != nil {
			return nil, err
		}
		if i >= 0 && m.policies[i].Document == *in.Policy {
			rev = m.policies[i].Revision // idempotent: the same revision
			return nil, nil
		}
		rev = nextRevision(c, m.policies, i)
		p := resourcePolicy{Stream: label, Document: *in.Policy, Revision: rev}
		m.policies = slices.Clone(m.policies)
		if i >= 0 {
			m.policies[i] = p
		} else {
			m.policies = append(m.policies, p)
		}
		return nil, nil
	})
	if err != nil {
		return nil, err
	}
	return &PutResourcePolicyOutput{RevisionId: rev}, nil
}

func getResourcePolicy(c *call, in *GetResourcePolicyInput) (*GetResourcePolicyOutput, error) {
	var cs apierr.Constraints
	apierr.NotNull(&cs, in.ResourceArn, "resourceArn")
	if in.ResourceArn != nil {
		arnConstraints(&cs, *in.ResourceArn)
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	t, label, err := c.policyResource(*in.ResourceArn)
	if err != nil {
		return nil, err
	}
	m := t.snapshot()
	i := slices.IndexFunc(m.policies, func(p resourcePolicy) bool { return p.Stream == label })
	if i < 0 {
		return nil, apierr.New(apierr.ErrPolicyNotFound, apierr.MsgPolicyNotFound(*in.ResourceArn))
	}
	return &GetResourcePolicyOutput{Policy: m.policies[i].Document, RevisionId: m.policies[i].Revision}, nil
}

func deleteResourcePolicy(c *call, in *DeleteResourcePolicyInput) (*DeleteResourcePolicyOutput, error) {
	var cs apierr.Constraints
	apierr.NotNull(&cs, in.ResourceArn, "resourceArn")
	if in.ResourceArn != nil {
		arnConstraints(&cs, *in.ResourceArn)
	}
	if in.ExpectedRevisionId != nil {
		revisionConstraints(&cs, *in.ExpectedRevisionId, "expectedRevisionId")
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	arn := *in.ResourceArn
	t, label, err := c.policyResource(arn)
	if err != nil {
		return nil, err
	}
	var rev string
	err = t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		i := slices.IndexFunc(m.policies, func(p resourcePolicy) bool { return p.Stream == label })
		if i < 0 {
			return nil, apierr.New(apierr.ErrPolicyNotFound, apierr.MsgPolicyNotFound(arn))
		}
		if err := checkExpectedRevision(arn, in.ExpectedRevisionId, m.policies, i); err != nil {
			return nil, err
		}
		rev = m.policies[i].Revision
		m.policies = slices.Delete(slices.Clone(m.policies), i, i+1)
		return nil, nil
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
func nextRevision(c *call, ps []resourcePolicy, i int) string {
	n := c.now.UnixMilli()
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
func (c *call) policyResource(arn string) (*table, string, error) {
	notFound := apierr.ResourceNotFound(apierr.MsgPolicyARNNotFound(arn))
	name, sub, _ := strings.Cut(strings.TrimPrefix(arn, c.tableARN("")), "/")
	if !strings.HasPrefix(arn, "arn:") {
		return nil, "", apierr.Validation(apierr.MsgARNNoPrefix(arn))
	}
	if !strings.HasPrefix(arn, c.tableARN("")) || !validTableName(name) {
		return nil, "", notFound
	}
	t := c.ns.getTable(name)
	if t == nil {
		return nil, "", notFound
	}
	if sub == "" {
		return t, "", nil
	}
	label, ok := strings.CutPrefix(sub, "stream/")
	if !ok || label == "" || label != t.snapshot().streamLabel {
		return nil, "", notFound
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
