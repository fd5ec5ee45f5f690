//go:build !linux

package qwixx_test

import "time"

// threadCPU is unavailable here: the benchmark reports wall-clock times only.
func threadCPU() (time.Duration, bool) { return 0, false }
