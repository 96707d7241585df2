package qs

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

type refCase struct {
	In   string `json:"in"`
	Opts *struct {
		Depth              int  `json:"depth"`
		ArrayLimit         int  `json:"arrayLimit"`
		ParameterLimit     int  `json:"parameterLimit"`
		StrictNullHandling bool `json:"strictNullHandling"`
	} `json:"opts"`
	Out string `json:"out"`
}

func (c refCase) options() Options {
	if c.Opts == nil {
		return StrapiOptions()
	}
	return Options{
		Depth:              c.Opts.Depth,
		ArrayLimit:         c.Opts.ArrayLimit,
		ParameterLimit:     c.Opts.ParameterLimit,
		StrictNullHandling: c.Opts.StrictNullHandling,
	}
}

func loadRef(t testing.TB, name string) []refCase {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var cases []refCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func mustParse(t testing.TB, in string, opt Options) string {
	t.Helper()
	o, err := Parse(in, opt)
	if err != nil {
		t.Fatalf("Parse(%q): %v", in, err)
	}
	return o.String()
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// TestReferenceCorpus checks Parse against qs 6.17.1's output for the
// Strapi options (testdata/gen_reference.js).
func TestReferenceCorpus(t *testing.T) {
	cases := loadRef(t, "qs_reference.json")
	if len(cases) < 150 {
		t.Fatalf("corpus has only %d cases", len(cases))
	}
	for _, c := range cases {
		if strings.HasPrefix(c.In, "?") {
			t.Fatalf("corpus input %q starts with '?', which Parse strips and qs does not", c.In)
		}
		if got := mustParse(t, c.In, StrapiOptions()); got != c.Out {
			t.Errorf("Parse(%q)\n got %s\nwant %s", clip(c.In), clip(got), clip(c.Out))
		}
	}
}

// TestReferenceOptions checks non-Strapi option values against qs.
func TestReferenceOptions(t *testing.T) {
	for _, c := range loadRef(t, "qs_reference_opts.json") {
		if got := mustParse(t, c.In, c.options()); got != c.Out {
			t.Errorf("Parse(%q, %+v)\n got %s\nwant %s", c.In, c.options(), got, c.Out)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", `{}`},
		{"leading ? tolerated", "?a=b", `{"a":"b"}`},
		{"only one ? stripped", "??a=b", `{"?a":"b"}`},
		{"no = is null", "a", `{"a":null}`},
		{"empty value", "a=", `{"a":""}`},
		{"split at first =", "a=b=c", `{"a":"b=c"}`},
		{"split at ]= before =", "a[b=c]=d", `{"a":{"b=c":"d"}}`},
		{"encoded ]= also splits", "a%5Bb=c%5D=d", `{"a":{"b=c":"d"}}`},
		{"plus is space", "a+b=c+d", `{"a b":"c d"}`},
		{"encoded plus", "a=%2B", `{"a":"+"}`},
		{"malformed percent keeps string", "a=%E2%82%AC%", `{"a":"%E2%82%AC%"}`},
		{"malformed keeps plus replacement", "a=x+%", `{"a":"x %"}`},
		{"malformed still rewrites brackets", "a=%5B%", `{"a":"[%"}`},
		{"invalid utf-8 escape", "a=%C0%80", `{"a":"%C0%80"}`},
		{"surrogate escape", "a=%ED%A0%80", `{"a":"%ED%A0%80"}`},
		{"utf-8 escape", "a=%E2%82%AC", `{"a":"€"}`},
		{"encoded brackets nest", "a%5Bb%5D=c", `{"a":{"b":"c"}}`},
		{"double-encoded bracket is literal", "a%255B=1", `{"a%5B":"1"}`},
		{"empty keys skipped", "=x&&a=1&", `{"a":"1"}`},
		{"nesting", "a[b][c]=d", `{"a":{"b":{"c":"d"}}}`},
		{"push", "a[]=b&a[]=c", `{"a":["b","c"]}`},
		{"push null", "a[]", `{"a":[null]}`},
		{"indexes", "a[0]=x&a[1]=y", `{"a":["x","y"]}`},
		{"sparse compacted", "a[1]=b&a[3]=c", `{"a":["b","c"]}`},
		{"out of order indexes keep index order", "a[1]=b&a[0]=c", `{"a":["c","b"]}`},
		{"push after hole goes last", "a[2]=b&a[]=c", `{"a":["c","b"]}`},
		{"index 99 is an array", "a[99]=x", `{"a":["x"]}`},
		{"index 100 is an object", "a[100]=x", `{"a":{"100":"x"}}`},
		{"index 101 is an object", "a[101]=x", `{"a":{"101":"x"}}`},
		{"mixed index and key", "a[0]=b&a[x]=c", `{"a":{"0":"b","x":"c"}}`},
		{"key then index, index first", "a[x]=c&a[0]=b", `{"a":{"0":"b","x":"c"}}`},
		{"non-canonical indexes are keys", "a[01]=x&a[-1]=y", `{"a":{"01":"x","-1":"y"}}`},
		{"duplicates combine", "a=1&a=2", `{"a":["1","2"]}`},
		{"duplicate nulls", "a&a=1", `{"a":[null,"1"]}`},
		{"duplicate index combines inside", "a[0]=x&a[0]=y", `{"a":[["x","y"]]}`},
		{"scalar then object", "a=1&a[b]=2", `{"a":["1",{"b":"2"}]}`},
		{"object then scalar (strictMerge)", "a[b]=x&a=y", `{"a":[{"b":"x"},"y"]}`},
		{"conflict pair grows", "a[b]=x&a=y&a[c]=z", `{"a":{"0":{"b":"x"},"1":"y","c":"z"}}`},
		{"null merged into object is ignored", "a[b]=1&a", `{"a":{"b":"1"}}`},
		{"null then object", "a&a[b]=1", `{"a":[null,{"b":"1"}]}`},
		{"integer flat keys merge first", "1[a]=x&1=y", `{"1":["y",{"a":"x"}]}`},
		{"js key order", "b=1&2=x&1=y&a=1", `{"1":"y","2":"x","b":"1","a":"1"}`},
		{"big index keys are not array indexes", "a[4294967295]=x&a[5]=y", `{"a":{"5":"y","4294967295":"x"}}`},
		{"overflow appends", "a[100]=x&a=y", `{"a":{"100":"x","101":"y"}}`},
		{"text after groups ignored", "a[b]c[d]=e", `{"a":{"b":{"d":"e"}}}`},
		{"nested group is one key", "a[b[c]]=d", `{"a":{"b[c]":"d"}}`},
		{"unterminated group is literal", "a[b=c", `{"a":{"[b":"c"}}`},
		{"leading group without parent", "[a]=b", `{"a":"b"}`},
		{"bare push key", "[]=a&[]=b", `{"0":"a","1":"b"}`},
		{"push over push flattens", "a[][]=x", `{"a":["x"]}`},
		{"proto parent dropped", "__proto__[x]=1&b=2", `{"b":"2"}`},
		{"proto segment dropped", "a[toString]=1&a[hasOwnProperty][x]=2&b=2", `{"b":"2"}`},
		{"prototype is not on Object.prototype", "a[prototype]=x", `{"a":{"prototype":"x"}}`},
		{"json escaping", "a=%22%5C%0A%01%7F%3C", `{"a":"\"\\\n\u0001` + "\x7f" + `<"}`},
		{"raw unicode", "ключ=значение", `{"ключ":"значение"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustParse(t, tt.in, StrapiOptions()); got != tt.want {
				t.Errorf("Parse(%q)\n got %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestDepth(t *testing.T) {
	key := func(n int, tail string) string {
		var sb strings.Builder
		sb.WriteString("a")
		for i := 0; i < n; i++ {
			sb.WriteString("[b]")
		}
		sb.WriteString(tail)
		return sb.String() + "=x"
	}
	// 20 groups nest; the 21st and everything after it is one literal key.
	got := mustParse(t, key(20, "[c][d]"), StrapiOptions())
	want := `{"a":` + strings.Repeat(`{"b":`, 20) + `{"[c][d]":"x"}` + strings.Repeat("}", 21)
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	// A prototype name past the depth limit is part of the literal key.
	got = mustParse(t, key(20, "[toString]"), StrapiOptions())
	if !strings.Contains(got, `"[toString]":"x"`) {
		t.Errorf("got %s", got)
	}
	opt := StrapiOptions()
	opt.Depth = 0
	if got := mustParse(t, "a[b][c]=d", opt); got != `{"a[b][c]":"d"}` {
		t.Errorf("depth 0: got %s", got)
	}
}

func TestLimits(t *testing.T) {
	opt := StrapiOptions()
	opt.ParameterLimit = 2
	if got := mustParse(t, "a=1&b=2&c=3", opt); got != `{"a":"1","b":"2"}` {
		t.Errorf("parameter limit: got %s", got)
	}
	if got := mustParse(t, "&&c=3", opt); got != `{}` {
		t.Errorf("empty parts count toward the limit: got %s", got)
	}
	opt = StrapiOptions()
	opt.StrictNullHandling = false
	if got := mustParse(t, "a&b[]", opt); got != `{"a":"","b":[""]}` {
		t.Errorf("strictNullHandling off: got %s", got)
	}
	// Large enough to outgrow the initial node slabs.
	var big strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&big, "k%d[a][b][c][d][e]=%d&", i, i)
	}
	o, _ := Parse(big.String(), StrapiOptions())
	if v, _ := o.Get("k999"); o.Len() != 1000 || v.String() != `{"a":{"b":{"c":{"d":{"e":"999"}}}}}` {
		t.Errorf("big query: %d keys, k999 = %v", o.Len(), v)
	}
	var many strings.Builder
	for i := 0; i < 101; i++ {
		many.WriteString("a[]=x&")
	}
	o, _ = Parse(many.String(), StrapiOptions())
	if a, _ := o.Get("a"); a.Kind != ObjectKind || a.Obj.Len() != 101 {
		t.Errorf("101 pushes should become an object, got %s", a)
	}
}

func TestAPI(t *testing.T) {
	if _, err := Parse("a=1", Options{}); err != ErrParameterLimit {
		t.Errorf("zero Options: err = %v", err)
	}
	o, err := Parse("b=1&a[0]=x&a[1]&c[d]=e", StrapiOptions())
	if err != nil {
		t.Fatal(err)
	}
	if o.Len() != 3 || strings.Join(o.Keys, ",") != "b,a,c" {
		t.Fatalf("keys %v", o.Keys)
	}
	a, ok := o.Get("a")
	if !ok || a.Kind != Array || len(a.Arr) != 2 || a.Arr[0].Str != "x" || a.Arr[1].Kind != Null {
		t.Fatalf("a = %v", a)
	}
	c, _ := o.Get("c")
	if d, ok := c.Obj.Get("d"); !ok || d.Kind != String || d.Str != "e" {
		t.Fatalf("c.d = %v", d)
	}
	if _, ok := o.Get("zz"); ok {
		t.Fatal("Get of a missing key")
	}
	var nilObj *Object
	if _, ok := nilObj.Get("a"); ok || nilObj.Len() != 0 {
		t.Fatal("nil Object")
	}
	out, err := json.Marshal(struct{ Q *Object }{o})
	if err != nil || string(out) != `{"Q":{"b":"1","a":["x",null],"c":{"d":"e"}}}` {
		t.Fatalf("json.Marshal: %s %v", out, err)
	}
	if a.String() != `["x",null]` || ObjectKind.String() != "object" {
		t.Fatal("String")
	}
	// Results are independent of each other even though builders are pooled.
	o2, _ := Parse("a=other", StrapiOptions())
	if o.String() != `{"b":"1","a":["x",null],"c":{"d":"e"}}` || o2.String() != `{"a":"other"}` {
		t.Fatal("results share state")
	}
}

func countNodes(v *Value) int {
	n := 1
	switch v.Kind {
	case Array:
		for _, e := range v.Arr {
			n += countNodes(e)
		}
	case ObjectKind:
		n += countObject(v.Obj)
	}
	return n
}

func countObject(o *Object) int {
	n := 0
	for _, v := range o.Vals {
		n += countNodes(v)
	}
	return n
}

// checkInvariants verifies the structural promises of a parse result.
func checkInvariants(t *testing.T, in string, opt Options, o *Object) {
	t.Helper()
	out := o.String()
	if !json.Valid([]byte(out)) {
		t.Fatalf("Parse(%q) rendered invalid JSON %q", in, out)
	}
	// Each node stems from at least one byte of input, except the root and
	// the wrappers that at most double the nodes of one parameter.
	if n, limit := countObject(o), 2*len(in)+2; n > limit {
		t.Fatalf("Parse(%q): %d nodes for %d bytes", in, n, len(in))
	}
	if n, limit := countObject(o), opt.ParameterLimit*2*(opt.Depth+3); n > limit {
		t.Fatalf("Parse(%q): %d nodes exceeds parameter bound %d", in, n, limit)
	}
	var walk func(o *Object)
	walk = func(o *Object) {
		if len(o.Keys) != len(o.Vals) {
			t.Fatalf("Parse(%q): %d keys but %d values", in, len(o.Keys), len(o.Vals))
		}
		if o.index != nil && len(o.index) != len(o.Keys) {
			t.Fatalf("Parse(%q): %d keys but %d index entries", in, len(o.Keys), len(o.index))
		}
		idx := true
		for i, k := range o.Keys {
			v, ok := o.Get(k)
			if !ok || v == nil || v != o.Vals[i] {
				t.Fatalf("Parse(%q): key %q missing", in, k)
			}
			if isArrayIndex(k) {
				if !idx || (i > 0 && compareIndex(o.Keys[i-1], k) >= 0) {
					t.Fatalf("Parse(%q): keys out of JS order: %q", in, o.Keys)
				}
			} else {
				idx = false
			}
			walkValue(v, walk)
		}
	}
	walk(o)
}

func walkValue(v *Value, f func(*Object)) {
	switch v.Kind {
	case Array:
		for _, e := range v.Arr {
			walkValue(e, f)
		}
	case ObjectKind:
		f(v.Obj)
	}
}

func FuzzParse(f *testing.F) {
	for _, c := range loadRef(f, "qs_reference.json") {
		f.Add(c.In)
	}
	for _, c := range loadRef(f, "qs_reference_opts.json") {
		f.Add(c.In)
	}
	small := Options{Depth: 3, ArrayLimit: 3, ParameterLimit: 20, StrictNullHandling: true}
	f.Fuzz(func(t *testing.T, in string) {
		for _, opt := range []Options{StrapiOptions(), small} {
			o, err := Parse(in, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, in, opt, o)
		}
	})
}

const benchQuery = "filters[$or][0][title][$containsi]=graphql&filters[$or][1][author][name][$eq]=Kai%20Doe" +
	"&filters[category][slug][$in][0]=tech&filters[category][slug][$in][1]=news&filters[publishedAt][$notNull]=true" +
	"&populate[author][populate][0]=avatar&populate[author][fields][0]=name&populate[category][fields][0]=slug" +
	"&populate[cover]=true&sort[0]=publishedAt:desc&sort[1]=title:asc" +
	"&pagination[page]=2&pagination[pageSize]=25&fields[0]=title&fields[1]=slug&locale=en"

func BenchmarkParse(b *testing.B) {
	opt := StrapiOptions()
	b.ReportAllocs()
	b.SetBytes(int64(len(benchQuery)))
	for b.Loop() {
		if _, err := Parse(benchQuery, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// The same query as a qs.stringify'd client (axios, @strapi/client) sends
// it: brackets percent-encoded.
func BenchmarkParseEncoded(b *testing.B) {
	q := strings.NewReplacer("[", "%5B", "]", "%5D", "$", "%24").Replace(benchQuery)
	opt := StrapiOptions()
	b.ReportAllocs()
	b.SetBytes(int64(len(q)))
	for b.Loop() {
		if _, err := Parse(q, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAllowDots compares form-body parsing (FormOptions: qs's defaults with allowDots) with
// qs 6.15.1's qs.parse(s, { allowDots: true }) under Node, as co-body calls it.
func TestAllowDots(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a.b=c&a.d[e]=f&x.y.z=1", `{"a":{"b":"c","d":{"e":"f"}},"x":{"y":{"z":"1"}}}`},
		{".a=2&a..b=3", `{"a":"2","a.":{"b":"3"}}`},
		{"a.b=1&a[b]=2", `{"a":{"b":["1","2"]}}`},
		{"name=Ann+Lee&tags[]=x&tags[]=y&n.o.p.q.r.s.t=deep", `{"name":"Ann Lee","tags":["x","y"],"n":{"o":{"p":{"q":{"r":{"s":{"[t]":"deep"}}}}}}}`},
		{"a.b%2Ec=1", `{"a":{"b":{"c":"1"}}}`},
	} {
		got, err := Parse(c.in, FormOptions())
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}
