//go:build nostages

package emulator

// noStages: this build installs no stage (stages_installed.go).
const noStages = true
