// Package pages checks spec sections 2.1, 3, 4.1 to 4.5 and 8: the page
// object, the page list and its pagination, and the page lifecycle.
package pages

import "github.com/conformance-suite/conformance/internal/framework"

// Register adds the pages specs for target t: reads (reads.go) and the
// write lifecycle (writes.go).
func Register(t *framework.Fixture) {
	registerReads(t)
	registerWrites(t)
}
