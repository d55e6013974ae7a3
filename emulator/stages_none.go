//go:build nostages

package emulator

// noStages: this build installs no stage but capacity's meter, which
// watches no table (stages_installed.go).
const noStages = true
