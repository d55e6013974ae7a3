package globaltables

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Disassociation protection and the settings replication mode of a
// global table (version 2019.11.21). AWS API reference: UpdateTable's
// DisassociationProtectionEnabled ("for the local replica of a
// multi-Region eventual consistency (MREC) global table ... enabled by
// default ... You can't combine this change with any other change in the
// same UpdateTable request"), TableDescription's and ReplicaDescription's
// DisassociationProtectionEnabled and GlobalTableSettingsReplicationMode
// ("ENABLED_WITH_OVERRIDES: This mode is set by default for a same
// account global table"). Every global table of the emulator is of one
// account, so its mode is ENABLED_WITH_OVERRIDES; the protection is the
// replica's own (part.NoDisassociationProtection), kept in its
// definition.

// settingsModeSameAccount is the settings replication mode of a global
// table of one account.
const settingsModeSameAccount = "ENABLED_WITH_OVERRIDES"

// updateDisassociation answers UpdateTable's DisassociationProtectionEnabled
// (the request's only change): it sets the protection of the replica in
// the caller's region.
func updateDisassociation(c service.Call, in *service.UpdateTableInput, v **bool) (*service.TableDescription, error) {
	r := replicators.Of(c)
	r.globalMu.Lock()
	defer r.globalMu.Unlock()
	t, err := c.LookupTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	x, _ := partOf(t.Definition())
	if x.GlobalVersion != globalVersion2019 || len(x.replicaRegions(c.Region(), c.Now())) < 2 {
		return nil, apierr.Validation(apierr.MsgDisassociationNotReplica)
	}
	off := !**v
	err = t.Change(func(e *service.Edit) (func(bool) error, error) {
		y, _ := partOf(e.Definition)
		y.NoDisassociationProtection = off
		setPart(e, y)
		return nil, nil
	})
	if err != nil && !errors.Is(err, storage.ErrNotDurable) {
		return nil, err
	}
	return t.Describe(), nil
}
