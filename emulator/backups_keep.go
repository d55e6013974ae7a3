package emulator

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/persist"
)

// With Options.DataDir the service keeps each namespace's backups and
// point-in-time histories beside its DB, in side directories of the
// namespace's directory (persist.SideDir: "backups" and "pitr"), so
// they survive restarts (emulator/internal/backups, emulator/internal/pitr).

// storeKeep returns the service's Keep function over st.
func storeKeep(st *persist.Store) func(id, sub string) (service.Keeper, error) {
	return func(id, sub string) (service.Keeper, error) {
		d, err := st.SideDir(persistName(id), sub)
		if err != nil {
			return nil, err
		}
		return sideKeeper{d}, nil
	}
}

// sideKeeper is a persist.SideDir as a service.Keeper.
type sideKeeper struct{ *persist.SideDir }

func (k sideKeeper) OpenLog(prefix string, first uint64, replay func(uint64, []byte) error) (service.FrameLog, error) {
	l, err := k.SideDir.OpenLog(prefix, first, replay)
	if err != nil {
		return nil, err
	}
	return l, nil
}
