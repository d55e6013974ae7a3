package wire

// CountDecodes has f told each request decoding and the attribute values
// it decoded, until the test ends (TestDecodeOnce, package wire_test).
func CountDecodes(f func(values int)) (restore func()) {
	decodeCount = f
	return func() { decodeCount = nil }
}
