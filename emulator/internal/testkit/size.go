package testkit

import "os"

// FullSize reports whether the heavy memory tests run at the size their
// issue names (300 transactions of 1 MB, 8 requests of 16 MB): always
// without the race detector, and with it when DYNAMOEMU_FULLSIZE=1. Under
// the race detector they otherwise run scaled down, still large enough to
// fail if the memory they bound were held.
func FullSize() bool { return !RaceEnabled || os.Getenv("DYNAMOEMU_FULLSIZE") == "1" }
