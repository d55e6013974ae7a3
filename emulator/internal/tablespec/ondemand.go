package tablespec

import "github.com/dynamoemu/dynamoemu/emulator/internal/apierr"

// OnDemandThroughput as CreateTable and UpdateTable define it, as AWS
// answers (apierr.MsgOnDemandOutOfRange and its siblings say where that
// is recorded): valid only on a PAY_PER_REQUEST table; at creation each
// member at least 1; on update each at least 1 or -1, which removes that
// ceiling, merged member by member over the ceilings stored; an object
// with no members changes nothing.

// removeCeiling is UpdateTable's value that removes a ceiling.
const removeCeiling = -1

// onDemandMember is one member given: its name and value.
type onDemandMember struct {
	name string
	v    int64
}

// onDemandMembers are the members given, read first.
func onDemandMembers(o *OnDemandThroughput) []onDemandMember {
	var out []onDemandMember
	if o.MaxReadRequestUnits != nil {
		out = append(out, onDemandMember{"MaxReadRequestUnits", *o.MaxReadRequestUnits})
	}
	if o.MaxWriteRequestUnits != nil {
		out = append(out, onDemandMember{"MaxWriteRequestUnits", *o.MaxWriteRequestUnits})
	}
	return out
}

// CreateOnDemand checks CreateTable's OnDemandThroughput on a table of
// billing mode mode and returns what the table keeps: nil for none or
// an object with no members (AWS accepts one and stores nothing).
func CreateOnDemand(o *OnDemandThroughput, mode string) (*OnDemandThroughput, error) {
	if o == nil {
		return nil, nil
	}
	ms := onDemandMembers(o)
	if len(ms) == 0 {
		return nil, nil
	}
	if mode == "PROVISIONED" {
		return nil, apierr.Validation(apierr.MsgOnDemandProvisionedCreate(ms[0].name))
	}
	for _, m := range ms {
		if m.v < 1 {
			return nil, apierr.Validation(apierr.MsgOnDemandOutOfRange(m.name))
		}
	}
	c := *o
	return &c, nil
}

// UpdateOnDemand checks UpdateTable's OnDemandThroughput o on a table
// whose billing mode will be mode and merges it over the ceilings
// stored: echo is what UpdateTable answers (a -1 kept as sent), kept
// what the table keeps (a -1 member removed; nil when none is left).
func UpdateOnDemand(o, stored *OnDemandThroughput, mode string) (echo, kept *OnDemandThroughput, err error) {
	ms := onDemandMembers(o)
	if mode == "PROVISIONED" && len(ms) > 0 {
		return nil, nil, apierr.Validation(apierr.MsgOnDemandProvisionedUpdate(ms[0].name))
	}
	for _, m := range ms {
		if m.v < 1 && m.v != removeCeiling {
			return nil, nil, apierr.Validation(apierr.MsgOnDemandOutOfRange(m.name))
		}
	}
	e := OnDemandThroughput{}
	if stored != nil {
		e = *stored
	}
	if o.MaxReadRequestUnits != nil {
		e.MaxReadRequestUnits = o.MaxReadRequestUnits
	}
	if o.MaxWriteRequestUnits != nil {
		e.MaxWriteRequestUnits = o.MaxWriteRequestUnits
	}
	k := e
	if k.MaxReadRequestUnits != nil && *k.MaxReadRequestUnits == removeCeiling {
		k.MaxReadRequestUnits = nil
	}
	if k.MaxWriteRequestUnits != nil && *k.MaxWriteRequestUnits == removeCeiling {
		k.MaxWriteRequestUnits = nil
	}
	if k.MaxReadRequestUnits != nil || k.MaxWriteRequestUnits != nil {
		kept = &k
	}
	if e.MaxReadRequestUnits != nil || e.MaxWriteRequestUnits != nil {
		echo = &e
	}
	return echo, kept, nil
}
