package conventions

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"github.com/dynamoemu/dynamoemu/emulator/internal/convcheck"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// checkCall is the tenant guard of a call that is not a data-plane one,
// judged on what its operation declares it touches (package boundary):
// one that reads a table as a whole (a copy: a backup, a point-in-time
// or backup restore, an export, a replica; its stream) or changes it as a
// whole (deleted, reconfigured, tagged, its TTL, backups, stream or
// destinations changed, a backup of it deleted, a bulk operation on it
// cancelled) or makes it (CreateTable, ImportTable) is refused to a
// caller bound to a tenant when the table opts in (rule B10; warn mode:
// reported only). A restore makes its target: judged here as CreateTable
// is (by the configuration's entry for its name); its items are judged
// as they are made (service's checkRestored), against its policy.
func checkCall(c service.Call, _ string, in any) error {
	d := c.Declared()
	if !d.Whole() || d.On == boundary.Items {
		return nil
	}
	target := d.Target
	d.Target = false
	judge := func(d boundary.Decl, name string) error {
		if p := policyOf(c, d, name, in); p != nil {
			return p.GuardWhole(req(c), name, wholeWhat(d, c.Op()))
		}
		return nil
	}
	for _, name := range d.Tables(in) {
		if err := judge(d, name); err != nil {
			return err
		}
	}
	if !target {
		return nil
	}
	if name := boundary.Field(in, "TargetTableName"); name != "" {
		return judge(boundary.TableMake, name)
	}
	return nil
}

// policyOf is the policy of the table name a call declared d names (nil:
// it does not opt in). A stream's is its table's as the stream records it
// (a deleted table's stream, or one of a table since made again under
// its name: Stream.Owner); a table that is gone (a backup's, a deleted
// table's point-in-time restore) is judged by the configuration's entry
// for its name when the call reads it, deletes one of its backups (the
// backup still holds every tenant's items) or makes it (CreateTable,
// ImportTable: boundary.NewTable), and not at all when it changes the
// table (there is nothing to change).
func policyOf(c service.Call, d boundary.Decl, name string, in any) *convcheck.Policy {
	if d.On == boundary.Stream {
		arn := boundary.StreamARN(in)
		for _, s := range c.Space().Streams(c.Now()) {
			if s.ARN() != arn {
				continue
			}
			if t, ok := s.Owner().(service.Table); ok {
				return policies.Load(t)
			}
		}
	}
	return tablePolicy(c.Space(), d, name)
}

// tablePolicy is the policy of the table name in sp a call declared d
// names (policyOf: a table that is gone is judged by its name).
func tablePolicy(sp service.Space, d boundary.Decl, name string) *convcheck.Policy {
	if t, ok := sp.Table(name); ok {
		return policies.Load(t)
	}
	if d.Access == boundary.WholeWrite && d.On != boundary.Backup && d.On != boundary.NewTable {
		return nil
	}
	return states.In(sp).st.Named(name)
}

// GuardEdge is the tenant guard of a call the service does not serve (an
// admin endpoint, an operation of Lambda's event source mapping API),
// judged as checkCall judges an operation's: op, made with the access
// key key and the x-tenant-code header hdr ("": none), declared d, reads or changes the table name of sp as a whole
// (an admin action on it is judged as a change); refused to a caller
// bound to a tenant when the table opts in, by its policy or, when it is
// not made yet, by the configuration's entry for its name (rule B10;
// warn mode: reported only).
func GuardEdge(sp service.Space, key, hdr, op string, now time.Time, d boundary.Decl, name string) error {
	if !d.Whole() && d.Access != boundary.Admin {
		return nil
	}
	if d.Access == boundary.Admin {
		d.Access = boundary.WholeWrite
	}
	p := tablePolicy(sp, d, name)
	if _, made := sp.Table(name); p == nil && !made {
		p = states.In(sp).st.Named(name)
	}
	if p == nil {
		return nil
	}
	r := convcheck.Req{Op: op, Now: now, AccessKey: key, TenantHdr: hdr, Log: sp.Log()}
	return p.GuardWhole(r, name, wholeWhat(d, op))
}

// wholeWhat says what a call declared d does to its table, for the
// refusal's message.
func wholeWhat(d boundary.Decl, op string) string {
	switch {
	case d.On == boundary.Stream || d.On == boundary.Mapping:
		return "read the stream of"
	case op == "ExportTableToPointInTime":
		return "export"
	case d.On == boundary.NewTable:
		return "make"
	case d.Access == boundary.WholeWrite:
		return "change as a whole"
	}
	return "copy or read as a whole"
}

// copied is the tenant guard of a restore's source t as the restore
// reads it (a backup's copy: its definition and tags when it was taken;
// a point-in-time restore's: the table now): a whole-table read, refused
// to a caller bound to a tenant when the copy opts in by its tags or the
// configuration's entry for its name (rule B10), as checkCall refuses it
// when the table of that name opts in now. A backup of a table since
// deleted that opted in by its tags alone is judged here.
func copied(c service.Call, t service.Table, tags []service.TagDesc) error {
	name := t.Info().Name
	if p := states.Of(c).st.Restored(name, tagMap(tags)); p != nil {
		return p.GuardWhole(req(c), name, "copy or read as a whole")
	}
	return nil
}
