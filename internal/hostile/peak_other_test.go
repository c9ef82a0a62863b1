//go:build !linux

package hostile

// peakRSS is not measured on this platform (memory checks are skipped).
func peakRSS() int64 { return 0 }
