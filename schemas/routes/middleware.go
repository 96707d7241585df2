package routes

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A route middleware Quarry runs itself only rewrites the query (the common
// page-populate middleware): anything on ctx beyond query, request.query, params and state
// (ctx.body, ctx.status, ctx.set, ctx.throw, …) means it answers or decorates the response,
// which the core action Quarry runs cannot honour.
var (
	ctxUse     = regexp.MustCompile(`\bctx\s*\.\s*([A-Za-z_$][\w$]*)`)
	requestUse = regexp.MustCompile(`\bctx\s*\.\s*request\s*\.\s*([A-Za-z_$][\w$]*)`)
)

// MiddlewareFile resolves a route middleware name as Strapi does: api::<api>.<name> is
// src/api/<api>/middlewares/<name>.{js,ts}, global::<name> is src/middlewares/<name>.{js,ts}.
// It returns "" for other names (plugin middlewares, inline functions).
func MiddlewareFile(dir string, entry any) (file string, config any) {
	name, _ := entry.(string)
	if o, ok := entry.(map[string]any); ok {
		name, _ = o["name"].(string)
		config = o["config"]
	}
	var base string
	switch {
	case strings.HasPrefix(name, "api::"):
		api, mw, ok := strings.Cut(strings.TrimPrefix(name, "api::"), ".")
		if !ok || api == "" || mw == "" || strings.ContainsAny(mw, `/\`) || strings.ContainsAny(api, `/\`) {
			return "", nil
		}
		base = filepath.Join(dir, "src", "api", api, "middlewares", mw)
	case strings.HasPrefix(name, "global::"):
		mw := strings.TrimPrefix(name, "global::")
		if mw == "" || strings.ContainsAny(mw, `/\`) {
			return "", nil
		}
		base = filepath.Join(dir, "src", "middlewares", mw)
	default:
		return "", nil
	}
	for _, ext := range exts {
		if st, err := os.Stat(base + ext); err == nil && st.Mode().IsRegular() {
			return base + ext, config
		}
	}
	return "", nil
}

// QueryOnly reports whether every middleware of a route's config resolves to a file that
// only touches ctx.query, ctx.request.query, ctx.params and ctx.state, and the route has
// no policies: Quarry can then run them itself.
func QueryOnly(dir string, c RouteConfig) bool {
	if len(c.Policies) > 0 || len(c.Middlewares) == 0 {
		return false
	}
	for _, e := range c.Middlewares {
		f, _ := MiddlewareFile(dir, e)
		if f == "" {
			return false
		}
		src, err := os.ReadFile(f)
		if err != nil || !queryOnlySource(string(src)) {
			return false
		}
	}
	return true
}

func queryOnlySource(src string) bool {
	for _, m := range ctxUse.FindAllStringSubmatch(src, -1) {
		switch m[1] {
		case "query", "params", "state", "request":
		default:
			return false
		}
	}
	for _, m := range requestUse.FindAllStringSubmatch(src, -1) {
		if m[1] != "query" {
			return false
		}
	}
	return true
}
