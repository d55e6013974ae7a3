package storage

// fullPage is a page of ptPageSlots slots whose slices view arrays of the
// same allocation: a lookup reads a slot's hash and then its partition
// pointer, and in a table of millions of partitions each read of a cold
// page is a cache miss and, over a heap of gigabytes in 4 KB pages, a TLB
// miss. Three allocations put the page header, the hashes and the
// pointers in three places; one puts them within 1.8 KB (issue 25). It
// costs what the three did (1,736 bytes against 80 + 512 + 1,024 + 128).
// A table's last page, shorter, keeps three small slices.
type fullPage struct {
	ppage
	hashes [ptPageSlots]uint32
	parts  [ptPageSlots]*partition
	owned  [ptPageSlots]bool
}

// newFullPage returns an empty page of ptPageSlots slots in one
// allocation (the returned header points into it, keeping all of it).
func newFullPage() *ppage {
	f := new(fullPage)
	f.ppage = ppage{hashes: f.hashes[:], parts: f.parts[:], owned: f.owned[:]}
	return &f.ppage
}
