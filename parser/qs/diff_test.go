package qs

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestDifferential compares Parse with the real qs on random queries built
// from the syntax that drives qs's merge rules. It needs node and qs:
//
//	dir=$(mktemp -d) && (cd "$dir" && npm init -y >/dev/null && npm install qs@6.17.1)
//	QS_DIR="$dir" go test -run TestDifferential ./parser/qs/
//
// QS_DIFF_N sets the number of cases (default 20000), QS_DIFF_SEED the seed.
func TestDifferential(t *testing.T) {
	dir := os.Getenv("QS_DIR")
	if dir == "" {
		t.Skip("QS_DIR not set; see the comment on TestDifferential")
	}
	n := 20000
	if s := os.Getenv("QS_DIFF_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seed := uint64(1)
	if s := os.Getenv("QS_DIFF_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	r := rand.New(rand.NewPCG(seed, 42))

	type jsOpts struct {
		Depth              int  `json:"depth"`
		ArrayLimit         int  `json:"arrayLimit"`
		ParameterLimit     int  `json:"parameterLimit"`
		StrictNullHandling bool `json:"strictNullHandling"`
	}
	type tc struct {
		In   string `json:"in"`
		Opts jsOpts `json:"opts"`
	}
	cases := make([]tc, n)
	for i := range cases {
		o := jsOpts{Depth: 20, ArrayLimit: 100, ParameterLimit: 1000, StrictNullHandling: true}
		if r.IntN(3) == 0 {
			o = jsOpts{
				Depth:              r.IntN(5) - 1,
				ArrayLimit:         r.IntN(5) - 1,
				ParameterLimit:     1 + r.IntN(12),
				StrictNullHandling: r.IntN(2) == 0,
			}
		}
		cases[i] = tc{In: randomQuery(r, o.ArrayLimit), Opts: o}
	}
	in, _ := json.Marshal(cases)
	cmd := exec.Command("node", "testdata/gen_reference.js", "--stdin")
	cmd.Env = append(os.Environ(), "QS_ANY_VERSION=1")
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	fails := 0
	for i, c := range cases {
		opt := Options{Depth: c.Opts.Depth, ArrayLimit: c.Opts.ArrayLimit, ParameterLimit: c.Opts.ParameterLimit, StrictNullHandling: c.Opts.StrictNullHandling}
		if got := mustParse(t, c.In, opt); got != want[i] {
			t.Errorf("Parse(%q, %+v)\n got %s\nwant %s", c.In, opt, got, want[i])
			if fails++; fails > 20 {
				t.Fatal("too many failures")
			}
		}
	}
}

func randomQuery(r *rand.Rand, arrayLimit int) string {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	idx := func() string {
		switch r.IntN(4) {
		case 0:
			return strconv.Itoa(r.IntN(4))
		case 1:
			return strconv.Itoa(arrayLimit + r.IntN(3) - 1)
		case 2:
			return pick("99", "100", "101", "4294967294", "4294967295", "9007199254740993", "01", "-1", "1e2")
		}
		return strconv.Itoa(r.IntN(120))
	}
	name := func() string {
		switch r.IntN(10) {
		case 0:
			return idx()
		case 1:
			return pick("toString", "__proto__", "constructor", "hasOwnProperty", "valueOf", "prototype")
		case 2:
			return pick("", " ", "=", "$eq", "é", "%", "+", "%5B", "%5D", "%20", "%C3%A9", "%E2%82", "[", "]")
		}
		return pick("a", "b", "c")
	}
	var sb strings.Builder
	parts := 1 + r.IntN(7)
	for p := 0; p < parts; p++ {
		if p > 0 {
			sb.WriteString(pick("&", "&", "&", "&&"))
		}
		if r.IntN(6) != 0 {
			sb.WriteString(pick("a", "a", "b", "0", "1", "", "[]", "[0]", "__proto__", "%61"))
		}
		for g := r.IntN(5); g > 0; g-- {
			switch r.IntN(12) {
			case 0:
				sb.WriteString("[]")
			case 1:
				sb.WriteString(pick("[", "]", "x", "[[", "]]"))
			case 2:
				sb.WriteString("%5B" + name() + "%5D")
			case 3:
				sb.WriteString("[" + idx() + "]")
			default:
				sb.WriteString("[" + name() + "]")
			}
		}
		switch r.IntN(8) {
		case 0: // no '=': null
		case 1:
			sb.WriteString("=")
		case 2:
			sb.WriteString("=" + pick("%", "%zz", "a%E2%82%AC", "%C0%80", "x+y", "=", "]=", "%5D=", "toString", "%F0%9F%98%80"))
		default:
			sb.WriteString("=" + pick("x", "y", "1", "2", "z"))
		}
	}
	// Occasionally repeat a part many times to cross ArrayLimit.
	if r.IntN(20) == 0 {
		s := sb.String()
		k := 1 + r.IntN(110)
		return strings.Repeat(s+"&", k) + s
	}
	return sb.String()
}
