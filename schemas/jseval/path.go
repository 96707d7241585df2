package jseval

import (
	"path"
	"strings"

	"github.com/dop251/goja"
)

// pathModule is Node's `path` (POSIX flavour), which config files use to place SQLite files
// (`path.join(__dirname, '..', '.tmp/data.db')`). It computes paths only; nothing is read.
func (s *sandbox) pathModule() goja.Value {
	rt := s.rt
	m := rt.NewObject()
	strs := func(c goja.FunctionCall) []string {
		out := make([]string, len(c.Arguments))
		for i, a := range c.Arguments {
			out[i] = a.String()
		}
		return out
	}
	join := func(c goja.FunctionCall) goja.Value {
		var parts []string
		for _, p := range strs(c) {
			if p != "" {
				parts = append(parts, p)
			}
		}
		if len(parts) == 0 {
			return rt.ToValue(".")
		}
		joined := strings.Join(parts, "/")
		return rt.ToValue(normalize(joined))
	}
	resolve := func(c goja.FunctionCall) goja.Value {
		res := ""
		args := strs(c)
		for i := len(args) - 1; i >= 0; i-- {
			if args[i] == "" {
				continue
			}
			res = args[i] + "/" + res
			if strings.HasPrefix(args[i], "/") {
				break
			}
		}
		if !strings.HasPrefix(res, "/") {
			res = s.root + "/" + res
		}
		return rt.ToValue(path.Clean(res))
	}
	m.Set("sep", "/")
	m.Set("delimiter", ":")
	m.Set("join", join)
	m.Set("resolve", resolve)
	m.Set("normalize", func(p string) string { return normalize(p) })
	m.Set("isAbsolute", func(p string) bool { return strings.HasPrefix(p, "/") })
	m.Set("dirname", func(p string) string {
		if p == "" {
			return "."
		}
		return path.Dir(strings.TrimRight(p, "/"))
	})
	m.Set("basename", func(p string, ext goja.Value) string {
		b := path.Base(p)
		if p == "" {
			b = ""
		}
		if ext != nil && !goja.IsUndefined(ext) {
			if e := ext.String(); e != b {
				b = strings.TrimSuffix(b, e)
			}
		}
		return b
	})
	m.Set("extname", extname)
	m.Set("relative", func(from, to string) string {
		r := resolve
		f := r(goja.FunctionCall{Arguments: []goja.Value{rt.ToValue(from)}}).String()
		t := r(goja.FunctionCall{Arguments: []goja.Value{rt.ToValue(to)}}).String()
		return relative(f, t)
	})
	m.Set("posix", m)
	return m
}

// normalize is Node's path.normalize: like path.Clean, but an empty path is "." and a
// trailing slash is kept.
func normalize(p string) string {
	if p == "" {
		return "."
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// extname is Node's path.extname: a leading dot does not start an extension (".env" has none).
func extname(p string) string {
	b := path.Base(p)
	i := strings.LastIndex(b, ".")
	if i <= 0 || strings.Trim(b, ".") == "" {
		return ""
	}
	return b[i:]
}

func relative(from, to string) string {
	if from == to {
		return ""
	}
	fp := strings.Split(strings.Trim(from, "/"), "/")
	tp := strings.Split(strings.Trim(to, "/"), "/")
	if from == "/" {
		fp = nil
	}
	if to == "/" {
		tp = nil
	}
	i := 0
	for i < len(fp) && i < len(tp) && fp[i] == tp[i] {
		i++
	}
	var out []string
	for range fp[i:] {
		out = append(out, "..")
	}
	out = append(out, tp[i:]...)
	return strings.Join(out, "/")
}
