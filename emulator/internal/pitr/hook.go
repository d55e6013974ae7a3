package pitr

import "github.com/dynamoemu/dynamoemu/emulator/internal/service"

// WantsCommits reports whether the recorder, or the hook it wraps, logs
// the item writes of table id: the table has a history.
func (p *pitrRecorder) WantsCommits(id string) bool {
	if logs := p.logs.Load(); logs != nil && (*logs)[id] != nil {
		return true
	}
	return service.HookWants(p.inner, id)
}
