package capacity

import "github.com/dynamoemu/dynamoemu/emulator/internal/service"

// Stage is capacity accounting's stage (service.Stage and
// service.Meter).
type Stage struct{}

// Watches is false: the stage meters what the core reports and takes
// part in no use.
func (Stage) Watches(service.Table) bool { return false }

// Begin admits every use (never called: the stage watches no table).
func (Stage) Begin(*service.TableUse) error { return nil }

// End does nothing (never called: the stage watches no table).
func (Stage) End(*service.TableUse, service.Outcome) {}
