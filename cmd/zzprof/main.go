package main

import (
	"os"
	"runtime/pprof"

	"github.com/conformance-suite/conformance/internal/cli"
)

func main() {
	f, _ := os.Create(os.Getenv("PROF"))
	_ = pprof.StartCPUProfile(f)
	code := cli.Main(os.Args[1:], os.Stdout, os.Stderr)
	pprof.StopCPUProfile()
	f.Close()
	os.Exit(code)
}
