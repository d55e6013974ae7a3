//go:build !nostages

package emulator

// noStages is true in a build with the nostages tag, which installs no
// stage: what the instruction counts measure as "no stage watching"
// (emulator/internal/benchmarks/instructions.sh, TAGS=nostages). The
// emulator's stage settings do nothing in such a build.
const noStages = false
