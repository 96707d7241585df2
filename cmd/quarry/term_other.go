//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package main

// isTerminal is false where Quarry cannot ask: progress is then shown as log lines.
func isTerminal(w any) bool { return false }
