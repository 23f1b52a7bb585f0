// Command gen regenerates internal/db/gen from the migrations (`make gen`).
package main

import (
	"context"
	"fmt"
	"os"

	"agora/internal/db/jetgen"
)

func main() {
	dest := "internal/db/gen"
	if len(os.Args) > 1 {
		dest = os.Args[1]
	}
	if err := jetgen.Generate(context.Background(), dest); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Println("gen: jet models written to", dest)
}
