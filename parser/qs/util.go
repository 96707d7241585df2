package qs

import (
	"math"
	"strconv"
)

func itoa(i int) string { return strconv.Itoa(i) }

// isArrayIndex reports whether JS treats key as an array index, which puts
// it ahead of all other keys, in numeric order, when an object is
// enumerated: "0".."4294967294" without leading zeros.
func isArrayIndex(key string) bool {
	n := len(key)
	if n == 0 || n > 10 || (key[0] == '0' && n > 1) {
		return false
	}
	for i := 0; i < n; i++ {
		if key[i] < '0' || key[i] > '9' {
			return false
		}
	}
	return n < 10 || key <= "4294967294"
}

// compareIndex orders two array-index keys numerically.
func compareIndex(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// jsCanonicalInt is qs's numeric-key test String(parseInt(s, 10)) === s,
// returning the number. It accepts "-5" but not "05", "-0", "+5" or " 5",
// and only those long digit strings that survive the round trip through a
// float64 ("9007199254740993" does not).
func jsCanonicalInt(s string) (float64, bool) {
	d := s
	neg := false
	if len(d) > 0 && d[0] == '-' {
		neg = true
		d = d[1:]
	}
	// Numbers of 22 digits or more print in exponent form.
	if len(d) == 0 || len(d) > 21 || (d[0] == '0' && (len(d) > 1 || neg)) {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if len(d) <= 15 {
			n = n*10 + uint64(c-'0')
		}
	}
	f := float64(n)
	if len(d) > 15 {
		var err error
		if f, err = strconv.ParseFloat(d, 64); err != nil || fmtNum(f) != d {
			return 0, false
		}
	}
	if neg {
		f = -f
	}
	return f, true
}

// fmtNum is JS String(number) for the integral values qs computes indexes
// with.
func fmtNum(f float64) string {
	if f >= 0 && f < 1<<53 && f == math.Trunc(f) {
		return strconv.FormatInt(int64(f), 10)
	}
	if math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
