package conventions

import (
	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Report is the conventions report of s: the violations seen, the tables
// that follow the conventions (their role, mode and source, and their
// namespace unless the DB is shared), and the configuration's entries
// with how many tables each gave its policy.
func Report(s *service.Service) conventions.Snapshot {
	var names []string
	var checked []conventions.CheckedTable
	for _, sp := range s.Spaces() {
		for _, name := range sp.TableNames() {
			names = append(names, name)
			t, ok := sp.Table(name)
			if !ok {
				continue
			}
			if p := policies.Load(t); p != nil {
				ct := conventions.CheckedTable{Table: name, Roles: p.P.Roles.String(), Mode: p.P.Mode.String(), Source: p.Source}
				if !sp.Shared() {
					ct.Namespace = sp.ID()
				}
				checked = append(checked, ct)
			}
		}
	}
	return states.For(s).st.Snapshot(checked, names)
}

// ResetReport forgets the violations s has seen.
func ResetReport(s *service.Service) { states.For(s).st.ResetReport() }

// Count returns how many violations of rule ("": all) table has had in s
// since the last reset.
func Count(s *service.Service, table, rule string) uint64 { return states.For(s).st.Count(table, rule) }
