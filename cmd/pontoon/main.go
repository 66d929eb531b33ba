// Command pontoon is the Pontoon bot's one binary. See doc.go.
package main

import (
	"os"
)

func main() {
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
