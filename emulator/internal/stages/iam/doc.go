// Package iam is the stage of the request pipeline that evaluates IAM
// policies, the emulator's opt-in policy mode (docs/iam.md): it plugs
// into the service core through the stage seam
// (emulator/internal/service/stage.go), wired in emulator/features.go
// first of the stages, so that a request IAM denies reaches no fault
// rule, throttler or report.
//
// The edge (emulator) authenticates a request and, when its access key
// has an Identity, puts it in the request's context (With). Begin then
// decides every use of a table or index by a data-plane request (each
// item of a batch, each action of a transaction, each PartiQL
// statement, each partition of a PartiQL IN list) against the
// identity's policies and the table's resource-based policy
// (PutResourcePolicy's, read from the table's definition) with
// internal/iampolicy, and refuses a denied use with AWS's
// AccessDeniedException. The condition keys are set as IAM sets them
// (keys.go, context.go; names.go reads the attributes a request names,
// partiql.go a PartiQL statement's), and a policy naming a key the
// stage does not set is refused when it is loaded (CheckKeys). CheckCall (control.go) decides each call of
// the control plane and the Streams API the same way, on the ARN of the
// table, stream or backup it names, before the operation validates it.
// Authorize (control.go) decides an action of another service, Lambda's
// event source mapping API on the emulator's port, with the same
// evaluator and denial. A request without an identity is not
// evaluated: the stage is a Switch, on only while an emulator of the
// process has the policy mode on (Enable).
//
// The stage keeps no state of its own per request: a request's context
// carries its PartiQL statements once parsed and keyed (sync.Once, read
// by the request's uses). The parsed resource policies and statements
// are cached by text (bounded maps, each behind a mutex, a leaf lock).
package iam
