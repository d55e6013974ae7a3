package conventions

import (
	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/convcheck"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ChecksWrites checks the writes of a table that opted in, in a storage
// transaction for its updates too when it keeps a latest item (rule L1
// reads other items) or is a data table whose rows have command rows
// (rule B18 reads the command table).
func (Stage) ChecksWrites(t service.Table) service.WriteCheck {
	p := policies.Load(t)
	switch {
	case p == nil:
		return service.NoWriteCheck
	case p.P.Latest != "", p.P.CommandTable(t.Info().Name) != "":
		return service.CheckWritesReading
	}
	return service.CheckWrites
}

// WriteLocks adds the command table rule B18 reads with the writes of a
// data table, when its namespace has one.
func (Stage) WriteLocks(dst []*storage.Table, t service.Table) []*storage.Table {
	return convcheck.CommandLock(dst, policies.Load(t), t.Storage())
}

// CheckWrite runs the rules on one write and returns the error that
// refuses it, or nil.
func (Stage) CheckWrite(c service.Call, w *service.Write) error {
	p := policies.Load(w.Table)
	if p == nil {
		return nil
	}
	return p.Check(req(c), write(p, w))
}

// ops are the rules' names of the seam's write ops.
var ops = [...]conventions.Op{service.WritePut: conventions.OpPut, service.WriteUpdate: conventions.OpUpdate,
	service.WriteDelete: conventions.OpDelete}

// write describes w for the rules: its table's key names and GSIs'
// partition keys (rule B16), and, when w's check may read its table, the
// lookups of its transaction (Exists: rule B5; Get, on a table that
// keeps a latest item: rule L1).
func write(p *convcheck.Policy, w *service.Write) conventions.Write {
	t := w.Table
	ks := t.Schema()
	cond := convcheck.Cond{Text: w.Condition, Names: w.Names, Guard: w.CreateOnly}
	if w.Cond != nil && w.Condition == nil { // a PartiQL WHERE clause: rule L1 evaluates it
		compiled := w.Cond
		cond.Holds = func(it storage.Item) bool { ok, err := compiled.Eval(it); return err == nil && ok }
	}
	cw := p.Write(t.Info().Name, conventions.Key{PK: ks.Partition.Name, SK: ks.Sort.Name}, ops[w.Op], w.Key, w.Old, w.New, cond)
	for _, g := range t.Definition().Indexes().GSIList() {
		pk, _ := g.Keys()
		cw.IndexKeys = append(cw.IndexKeys, conventions.IndexKey{Index: g.Name(), Attr: pk})
	}
	cw.Position = w.Position()
	if w.Reads() {
		cw.Exists = func(pk, sk string) bool { return w.Exists(ks.StringKey(pk, sk)) }
		if cw.Policy.Latest != "" {
			cw.Get = func(pk, sk string) storage.Item { return w.Get(ks.StringKey(pk, sk)) }
		}
		cw = convcheck.WithCommand(cw, w)
	}
	return cw
}

// NewWriteBatch begins the checks of a BatchWriteItem's writes (each
// checked as it is made) or of a transaction's (checked together).
func (Stage) NewWriteBatch(c service.Call, transaction bool) service.WriteBatch {
	return &batch{r: req(c), tx: transaction}
}

// batch is the checks of one request's writes.
type batch struct {
	r  convcheck.Req
	tx bool
	b  convcheck.Batch
}

// Add checks w (a batch's) or keeps it for Settle (a transaction's).
func (b *batch) Add(w *service.Write) {
	p := policies.Load(w.Table)
	if p == nil {
		return
	}
	if b.tx {
		b.b.Add(p, b.r, write(p, w))
	} else {
		b.b.Check(p, b.r, write(p, w))
	}
}

// Settle records the violations and returns the error that refuses the
// writes, or nil.
func (b *batch) Settle() error { return b.b.Settle(b.r) }
