package faults

import (
	"context"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/faults"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Stage is the fault rules' stage (service.Stage, service.Switch and
// service.Hooker).
type Stage struct{}

// Hooks put each call of an operation that is not a data-plane one to
// the rules (checkCall).
func (Stage) Hooks() service.Hooks { return service.Hooks{CheckCall: checkCall} }

// Watches watches every table: whether a rule applies is the injector's
// to say, per use.
func (Stage) Watches(service.Table) bool { return true }

// On reports whether the service has rules.
func (Stage) On(t service.Table) bool { return injector(t.Space()).Active() }

// Begin puts the use to the rules: once, with its key condition, or once
// per partition of a read of several, in order (the first refused fails
// the read).
func (Stage) Begin(u *service.TableUse) error {
	inj := injector(u.Call().Space())
	if !inj.Active() {
		return nil
	}
	parts := u.Parts()
	if parts == nil {
		return decide(inj, u, u.Key())
	}
	for _, kc := range parts {
		if err := decide(inj, u, kc); err != nil {
			return err
		}
	}
	return nil
}

// End does nothing: the rules decide before the use.
func (Stage) End(*service.TableUse, service.Outcome) {}

// checkCall runs the rules on a call of an operation that is not a
// data-plane one, with in its decoded input: one decision per call,
// with the table the input names and no key. Nil when nothing fires.
func checkCall(c service.Call, op string, in any) error {
	inj := injector(c.Space())
	if !inj.Active() {
		return nil
	}
	table, index := targetOf(in)
	f := inj.Decide(faults.Call{Op: op, Table: table, Index: index})
	if f.Delay > 0 {
		if err := sleep(c.Context(), f.Delay); err != nil {
			return err
		}
	}
	if !f.Fails() {
		return nil
	}
	return faultError(f.Kind, f.Message, resource{arn: c.TableARN(table), index: index, own: index != ""})
}

// Setting is the key of a service's fault rules, a *faults.Injector,
// in service.Config.Settings.
var Setting service.SettingOf[*faults.Injector]

// injector returns the service's fault rules: its Setting (nil, which
// has no rules, when there is none).
func injector(sp service.Space) *faults.Injector {
	inj, _ := Setting.Of(sp)
	return inj
}

// decide puts the use of the partition (and sort key) kc names to the
// rules: it sleeps a delay, and returns the error of a fault that fails
// the use (its key narrowed to kc, for the report).
func decide(inj *faults.Injector, u *service.TableUse, kc insights.KeyCondition) error {
	var key storage.Key
	if kc.Partition.IsValid() {
		key.Partition = kc.Partition
		if kc.SortOp == insights.SortEQ {
			key.Sort = kc.Sort
		}
	}
	t := u.Table()
	f := inj.Decide(faults.Call{Op: u.Op(), Table: t.Info().Name, Index: u.Index(), Key: key})
	if f.Delay > 0 {
		if err := sleep(u.Call().Context(), f.Delay); err != nil {
			return err
		}
	}
	if !f.Fails() {
		return nil
	}
	u.Narrow(kc)
	return faultError(f.Kind, f.Message, resource{arn: t.Info().ARN, index: u.Index(), own: u.OwnIndex(), write: u.Write()})
}

// sleep holds the request for d of real time (an injected delay is the
// client's latency), or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// resource is what a fault's ThrottlingReason names: the table's ARN, and
// the index when it has capacity of its own (a GSI, a vector index).
type resource struct {
	arn, index string
	own        bool
	write      bool
}

// faultError is the error of an injected fault of kind k: its class,
// message and, for the throughput errors, a ThrottlingReason naming the
// table or index.
func faultError(k faults.Kind, msg string, r resource) error {
	var reasons []apierr.ThrottlingReason
	switch k {
	case faults.ProvisionedThroughputExceeded:
		reasons = []apierr.ThrottlingReason{r.reason("ProvisionedThroughputExceeded")}
	case faults.Throttling:
		reasons = []apierr.ThrottlingReason{r.reason("KeyRangeThroughputExceeded")}
	}
	return apierr.Fault(k.ErrorType(), msg, reasons)
}

// reason is the ThrottlingReason of the resource for a limit.
func (r resource) reason(limit string) apierr.ThrottlingReason {
	res, arn, dir := "Table", r.arn, "Read"
	if r.own {
		res, arn = "Index", r.arn+"/index/"+r.index
	}
	if r.write {
		dir = "Write"
	}
	return apierr.ThrottlingReason{Reason: res + dir + limit, Resource: arn}
}
