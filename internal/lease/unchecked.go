//go:build !race

package lease

// checked: without the race detector, pools reuse their values.
var checked = false
