package projectcode

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/qs"
)

// queryStringReference is QueryString as it was written first: the JSON decoded into a tree
// (decodeOrdered), then walked. QueryString must answer as it does for every JSON.
func queryStringReference(query json.RawMessage) string {
	var v any
	if err := decodeOrdered(query, &v); err != nil {
		return ""
	}
	var parts []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case nil:
			if prefix != "" {
				parts = append(parts, url.QueryEscape(prefix))
			}
		case *ordered:
			for i, k := range x.keys {
				p := k
				if prefix != "" {
					p = prefix + "[" + k + "]"
				}
				walk(p, x.vals[i])
			}
		case []any:
			for i, e := range x {
				walk(prefix+"["+strconv.Itoa(i)+"]", e)
			}
		case string:
			parts = append(parts, url.QueryEscape(prefix)+"="+url.QueryEscape(x))
		case json.Number:
			parts = append(parts, url.QueryEscape(prefix)+"="+x.String())
		case bool:
			parts = append(parts, url.QueryEscape(prefix)+"="+strconv.FormatBool(x))
		}
	}
	walk("", v)
	return strings.Join(parts, "&")
}

var queryStringSeeds = []string{
	`{"filters":{"views":{"$gte":0},"title":{"$contains":"a b&c=d"}},"pagination":{"pageSize":"10"},"sort":"id","populate":["tags","author"]}`,
	`{"populate":{"tags":{"fields":["name"]},"x":null},"a":true,"b":false,"c":-1.5e+3,"d":[],"e":{}}`,
	`{"":{"a":"1"},"k":[[1,2],{"z":null}],"ünï":"çödé","esc":"\"\\\/\b\f\n\r\t\u0001\u00e9\ud83d\ude00\ud800"}`,
	` { "a" : [ 1 , "x" ] , "b" : null } `,
	`"top"`, `12`, `null`, `true`, `[]`, `["a",{"b":"c"}]`, `{}`,
	"{\"inv\":\"\xff\xfe\"}", `{"a":"~-_. +%"}`,
}

func TestQueryString(t *testing.T) {
	for _, in := range queryStringSeeds {
		if got, want := QueryString(json.RawMessage(in)), queryStringReference(json.RawMessage(in)); got != want {
			t.Errorf("QueryString(%s)\n got %q\nwant %q", in, got, want)
		}
	}
	want := "filters%5Bviews%5D%5B%24gte%5D=0&filters%5Btitle%5D%5B%24contains%5D=a+b%26c%3Dd&pagination%5BpageSize%5D=10&sort=id&populate%5B0%5D=tags&populate%5B1%5D=author"
	if got := QueryString(json.RawMessage(queryStringSeeds[0])); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, in := range []string{``, `{`, `{"a":}`, `{"a" 1}`, `[1,]`, `{"a":"1",}`, `"abc`, `-`, `1.`, `1e`, `tru`, `{"a":"\x01"}`} {
		if got := QueryString(json.RawMessage(in)); got != "" {
			t.Errorf("QueryString(%q) = %q, want \"\" for JSON that does not parse", in, got)
		}
	}
}

// FuzzQueryString checks QueryString against the tree-building reference on valid JSON (the
// only JSON it is given: JSON.stringify's).
func FuzzQueryString(f *testing.F) {
	for _, s := range queryStringSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) {
			return
		}
		if got, want := QueryString(json.RawMessage(in)), queryStringReference(json.RawMessage(in)); got != want {
			t.Fatalf("QueryString(%q)\n got %q\nwant %q", in, got, want)
		}
	})
}

// TestJSRequest checks that the request object built with goja's API is the one JSON.parse
// made of the request's JSON: same keys in the same order, same values and types (the
// caller aside).
func TestJSRequest(t *testing.T) {
	r := goja.New()
	same, err := r.RunString(`(function (a, b) {
		function walk(x, y, path) {
			if (typeof x !== typeof y) throw new Error(path + ': ' + typeof x + ' vs ' + typeof y);
			if (x === null || typeof x !== 'object') { if (x !== y && !(x !== x && y !== y)) throw new Error(path + ': ' + x + ' vs ' + y); return; }
			if (Array.isArray(x) !== Array.isArray(y)) throw new Error(path + ': array');
			if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) throw new Error(path + ': prototype');
			var kx = Reflect.ownKeys(x), ky = Reflect.ownKeys(y);
			if (kx.join('\u0000') !== ky.join('\u0000')) throw new Error(path + ': keys ' + JSON.stringify(kx) + ' vs ' + JSON.stringify(ky));
			kx.forEach(function (k) {
				var dx = Object.getOwnPropertyDescriptor(x, k), dy = Object.getOwnPropertyDescriptor(y, k);
				if (dx.writable !== dy.writable || dx.enumerable !== dy.enumerable || dx.configurable !== dy.configurable) throw new Error(path + '.' + String(k) + ': descriptor');
				walk(x[k], y[k], path + '.' + String(k));
			});
		}
		walk(a, b, 'req');
	})`)
	if err != nil {
		t.Fatal(err)
	}
	compare, _ := goja.AssertFunction(same)
	queries := []string{
		"", "pagination[pageSize]=10&sort=id&populate[0]=tags",
		"filters[title][$eq]=%C3%A9t%C3%A9&filters[$or][0][a]=1&filters[$or][1][b]=2&a&b=&c[]=x&c[]=y",
		"x=%FF%FE&%FF=1&__proto__[a]=1&constructor=2&0=a&1[2]=b", "a[b][c][d][e][f]=deep&arr[5]=five&arr[0]=zero",
	}
	callers := []*ir.Caller{nil, {Kind: ir.PublicCaller}, {Kind: ir.UserCaller, UserID: 42}, {Kind: ir.TokenCaller, TokenID: 7, TokenType: "full-access"}, {Kind: ir.UserCaller, UserID: 1<<53 + 1}}
	for _, raw := range queries {
		root, err := qs.Parse(raw, qs.StrapiOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, who := range callers {
			req := request{Method: "GET", URL: "/api/articles?" + raw, Path: "/api/ärticles\xff", Querystring: raw,
				Headers: map[string]string{"host": "example.com", "x-b": "2", "authorization": "Bearer x", "x-a": "bad\xffutf8", "__proto__": "p", "ünï": "v"},
				IP:      "127.0.0.1", Params: map[string]string{"id": "3", "slug": "\xe9t\xe9"}, Query: root.AppendJSON(nil), Body: json.RawMessage("null")}
			if who != nil && who.Kind == ir.UserCaller {
				req.UserID = who.UserID
			}
			b, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			parse, _ := goja.AssertFunction(r.Get("JSON").ToObject(r).Get("parse"))
			parsed, err := parse(goja.Undefined(), r.ToValue(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			// The caller is there for ctx.state.auth, made in the sandbox when it is read
			// (TestServeContext checks it).
			got := jsRequest(r, &req, root, who)
			for _, k := range []string{"authKind", "authId", "authType"} {
				if err := got.Delete(k); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := compare(goja.Undefined(), got, parsed); err != nil {
				t.Errorf("query %q, caller %+v: %v", raw, who, err)
			}
		}
	}
}
