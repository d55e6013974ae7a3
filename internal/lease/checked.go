//go:build race

package lease

// checked: under the race detector, pools check their borrowers.
var checked = true
