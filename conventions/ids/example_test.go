package ids_test

import (
	"fmt"
	"math/rand"
	"time"

	"github.com/dynamoemu/dynamoemu/conventions/ids"
)

// A generator on a fixed clock and a fixed random source makes the same
// ids on every run, in the order they were made.
func ExampleIDGenerator() {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g := ids.NewIDGenerator(func() time.Time { return at }, rand.New(rand.NewSource(1)))
	a, _ := g.NewString()
	b, _ := g.NewString()
	fmt.Println(a)
	fmt.Println(b)
	fmt.Println(a < b)
	// Output:
	// 01KDVDNA00ABYZR1S1G9JMY5HZ
	// 01KDVDNA00ABYZR1S1GBEMMSVC
	// true
}
