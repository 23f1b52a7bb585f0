// Command jetgen regenerates the jet models in internal/plumbing/db/gen from
// the migrations (`make gen`), on a throw-away private cluster, so it needs
// no database of the developer's.
package main

import (
	"context"
	"fmt"
	"os"
)

func main() {
	dest := "internal/plumbing/db/gen"
	if len(os.Args) > 1 {
		dest = os.Args[1]
	}
	if err := Generate(context.Background(), dest); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Println("gen: jet models written to", dest)
}
