//go:build !nostages

package emulator

// noStages is true in a build with the nostages tag, which installs no
// stage: "no stage watching", what BenchmarkOps measures with -tags
// nostages. The emulator's stage settings do nothing in such a build.
const noStages = false
