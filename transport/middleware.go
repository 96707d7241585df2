package transport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// HTTPConfig is what config/middlewares.json configures: Strapi's strapi::security
// (koa-helmet's headers as Strapi sets them up), strapi::cors and strapi::poweredBy. A
// middleware left out of the file is off, as in Strapi; without the file Strapi's default
// stack applies (security and CORS with their defaults, no X-Powered-By).
type HTTPConfig struct {
	Security *SecurityConfig
	CORS     *CORSConfig
	// PoweredBy is the X-Powered-By value; empty sends none.
	PoweredBy string
}

// DefaultHTTPConfig is Strapi's default middleware stack.
func DefaultHTTPConfig() *HTTPConfig {
	return &HTTPConfig{Security: defaultSecurity(), CORS: defaultCORS()}
}

// directive is one Content-Security-Policy directive; Values nil disables a default one.
type directive struct {
	Name   string
	Values []string
}

// SecurityConfig is the resolved helmet configuration.
type SecurityConfig struct {
	// CSP directives in header order; nil: no Content-Security-Policy header.
	CSP     []directive
	Headers [][2]string // the other headers, in helmet's order
	// Special lists path prefixes whose GET responses get Strapi's relaxed CSP (the GraphQL
	// playground, /documentation).
	special []directive
}

// CORSConfig is strapi::cors's configuration.
type CORSConfig struct {
	Origins     []string // "*" or a list
	originOne   string   // a single configured origin string, answered as is
	MaxAge      string
	Credentials bool
	Methods     string
	Headers     string
	Expose      string
}

func defaultCORS() *CORSConfig {
	return &CORSConfig{originOne: "*", MaxAge: "31536000", Credentials: true,
		Methods: "GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS", Headers: "Content-Type,Authorization,Origin,Accept"}
}

// helmetDefaultCSP is helmet 6's default directives.
var helmetDefaultCSP = []directive{
	{"default-src", []string{"'self'"}},
	{"base-uri", []string{"'self'"}},
	{"font-src", []string{"'self'", "https:", "data:"}},
	{"form-action", []string{"'self'"}},
	{"frame-ancestors", []string{"'self'"}},
	{"img-src", []string{"'self'", "data:"}},
	{"object-src", []string{"'none'"}},
	{"script-src", []string{"'self'"}},
	{"script-src-attr", []string{"'none'"}},
	{"style-src", []string{"'self'", "https:", "'unsafe-inline'"}},
	{"upgrade-insecure-requests", []string{}},
}

// strapiCSP is Strapi's security middleware's own directives (before helmet's defaults).
func strapiCSP() []directive {
	return []directive{
		{"connect-src", []string{"'self'", "https:"}},
		{"img-src", []string{"'self'", "data:", "blob:", "https://market-assets.strapi.io"}},
		{"media-src", []string{"'self'", "data:", "blob:"}},
		{"upgrade-insecure-requests", nil},
	}
}

// strapiSpecialCSP is what Strapi concatenates for GET /graphql and /documentation.
var strapiSpecialCSP = []directive{
	{"script-src", []string{"'self'", "'unsafe-inline'", "cdn.jsdelivr.net"}},
	{"img-src", []string{"'self'", "data:", "cdn.jsdelivr.net", "strapi.io"}},
}

func defaultSecurity() *SecurityConfig {
	sc, _ := buildSecurity(nil)
	return sc
}

// buildSecurity resolves Strapi's security config (nil: defaults) into headers.
func buildSecurity(cfg map[string]json.RawMessage) (*SecurityConfig, error) {
	sc := &SecurityConfig{}
	opt := func(names ...string) (json.RawMessage, bool) {
		for _, n := range names {
			if v, ok := cfg[n]; ok && string(v) != "null" {
				return v, true
			}
		}
		return nil, false
	}
	// enabled reads a helmet switch: absent → def; false → off; true or an object → on.
	enabled := func(def bool, names ...string) (bool, map[string]json.RawMessage) {
		v, ok := opt(names...)
		if !ok {
			return def, nil
		}
		var b bool
		if json.Unmarshal(v, &b) == nil {
			return b, nil
		}
		var m map[string]json.RawMessage
		json.Unmarshal(v, &m)
		return true, m
	}
	str := func(m map[string]json.RawMessage, key, def string) string {
		var s string
		if v, ok := m[key]; ok && json.Unmarshal(v, &s) == nil {
			return s
		}
		return def
	}
	// Content-Security-Policy: Strapi's directives merged over by the config's, then helmet's
	// defaults for what is left.
	if on, m := enabled(true, "contentSecurityPolicy"); on {
		useDefaults := true
		if v, ok := m["useDefaults"]; ok {
			json.Unmarshal(v, &useDefaults)
		}
		dirs := strapiCSP()
		if raw, ok := m["directives"]; ok {
			user, err := orderedDirectives(raw)
			if err != nil {
				return nil, fmt.Errorf("strapi::security contentSecurityPolicy.directives: %w", err)
			}
			dirs = mergeDirectives(dirs, user)
		}
		sc.CSP = resolveCSP(dirs, useDefaults)
		sc.special = resolveCSP(concatDirectives(dirs, strapiSpecialCSP), useDefaults)
	}
	add := func(k, v string) { sc.Headers = append(sc.Headers, [2]string{k, v}) }
	if on, m := enabled(false, "crossOriginEmbedderPolicy"); on {
		add("Cross-Origin-Embedder-Policy", str(m, "policy", "require-corp"))
	}
	if on, m := enabled(false, "crossOriginOpenerPolicy"); on {
		add("Cross-Origin-Opener-Policy", str(m, "policy", "same-origin"))
	}
	if on, m := enabled(false, "crossOriginResourcePolicy"); on {
		add("Cross-Origin-Resource-Policy", str(m, "policy", "same-origin"))
	}
	if on, _ := enabled(false, "originAgentCluster"); on {
		add("Origin-Agent-Cluster", "?1")
	}
	if on, m := enabled(true, "referrerPolicy"); on {
		policy := "no-referrer"
		if v, ok := m["policy"]; ok {
			var list []string
			if json.Unmarshal(v, &list) == nil && len(list) > 0 {
				policy = strings.Join(list, ",")
			} else {
				policy = str(m, "policy", policy)
			}
		}
		add("Referrer-Policy", policy)
	}
	if on, m := enabled(true, "strictTransportSecurity", "hsts"); on {
		maxAge := int64(31536000)
		if v, ok := m["maxAge"]; ok {
			var f float64
			if json.Unmarshal(v, &f) != nil || f < 0 {
				return nil, fmt.Errorf("strapi::security hsts.maxAge must be a positive integer")
			}
			maxAge = int64(f)
		}
		h := "max-age=" + strconv.FormatInt(maxAge, 10)
		inc := true
		if v, ok := m["includeSubDomains"]; ok {
			json.Unmarshal(v, &inc)
		}
		if inc {
			h += "; includeSubDomains"
		}
		var preload bool
		if v, ok := m["preload"]; ok {
			json.Unmarshal(v, &preload)
		}
		if preload {
			h += "; preload"
		}
		add("Strict-Transport-Security", h)
	}
	if on, _ := enabled(true, "xContentTypeOptions", "noSniff"); on {
		add("X-Content-Type-Options", "nosniff")
	}
	if on, m := enabled(true, "xDnsPrefetchControl", "dnsPrefetchControl"); on {
		v := "off"
		if raw, ok := m["allow"]; ok {
			var allow bool
			if json.Unmarshal(raw, &allow) == nil && allow {
				v = "on"
			}
		}
		add("X-DNS-Prefetch-Control", v)
	}
	if on, _ := enabled(true, "xDownloadOptions", "ieNoOpen"); on {
		add("X-Download-Options", "noopen")
	}
	if on, m := enabled(true, "xFrameOptions", "frameguard"); on {
		add("X-Frame-Options", strings.ToUpper(str(m, "action", "sameorigin")))
	}
	if on, m := enabled(true, "xPermittedCrossDomainPolicies", "permittedCrossDomainPolicies"); on {
		add("X-Permitted-Cross-Domain-Policies", str(m, "permittedPolicies", "none"))
	}
	if on, _ := enabled(false, "xXssProtection", "xssFilter"); on {
		add("X-XSS-Protection", "0")
	}
	return sc, nil
}

// orderedDirectives decodes a directives object keeping key order; null disables one.
func orderedDirectives(raw json.RawMessage) ([]directive, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("must be an object")
	}
	var out []directive
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		name := dashify(k.(string))
		d := directive{Name: name}
		switch x := v.(type) {
		case nil:
		case string:
			d.Values = []string{x}
		case []any:
			d.Values = []string{}
			for _, e := range x {
				s, ok := e.(string)
				if !ok || strings.ContainsAny(s, ";,") {
					return nil, fmt.Errorf("invalid value for %s", name)
				}
				d.Values = append(d.Values, s)
			}
		default:
			return nil, fmt.Errorf("invalid value for %s", name)
		}
		out = append(out, d)
	}
	return out, nil
}

func dashify(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('-')
			b.WriteRune(r + 'a' - 'A')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mergeDirectives applies the config's directives over Strapi's as lodash's defaultsDeep
// does: the config's values win index by index, Strapi's longer lists keep their tail.
func mergeDirectives(base, user []directive) []directive {
	out := append([]directive(nil), user...)
	idx := map[string]int{}
	for i, d := range out {
		idx[d.Name] = i
	}
	for _, d := range base {
		i, ok := idx[d.Name]
		if !ok {
			out = append(out, d)
			continue
		}
		u := out[i]
		if u.Values != nil && d.Values != nil && len(d.Values) > len(u.Values) {
			out[i].Values = append(append([]string{}, u.Values...), d.Values[len(u.Values):]...)
		}
	}
	return out
}

// concatDirectives appends extra values to directives (Strapi's mergeConfig for special paths).
func concatDirectives(base, extra []directive) []directive {
	out := make([]directive, len(base))
	for i, d := range base {
		out[i] = directive{Name: d.Name, Values: d.Values}
	}
	for _, e := range extra {
		found := false
		for i := range out {
			if out[i].Name == e.Name && out[i].Values != nil {
				out[i].Values = append(append([]string{}, out[i].Values...), e.Values...)
				found = true
			}
		}
		if !found {
			out = append(out, e)
		}
	}
	return out
}

// resolveCSP adds helmet's defaults for directives neither set nor disabled.
func resolveCSP(dirs []directive, useDefaults bool) []directive {
	var out []directive
	seen := map[string]bool{}
	for _, d := range dirs {
		seen[d.Name] = true
		if d.Values != nil {
			out = append(out, d)
		}
	}
	if useDefaults {
		for _, d := range helmetDefaultCSP {
			if !seen[d.Name] {
				out = append(out, d)
			}
		}
	}
	return out
}

func cspHeader(dirs []directive) string {
	parts := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if len(d.Values) == 0 {
			parts = append(parts, d.Name)
			continue
		}
		parts = append(parts, d.Name+" "+strings.Join(d.Values, " "))
	}
	return strings.Join(parts, ";")
}

// ParseHTTPConfig reads config/middlewares.json (nil: Strapi's defaults): a list of
// middleware names or {"name": …, "config": {…}} objects.
func ParseHTTPConfig(data []byte) (*HTTPConfig, error) {
	if data == nil {
		return DefaultHTTPConfig(), nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("config/middlewares.json: must be a list of middlewares: %w", err)
	}
	hc := &HTTPConfig{}
	for _, raw := range list {
		var name string
		var cfg map[string]json.RawMessage
		if json.Unmarshal(raw, &name) != nil {
			var obj struct {
				Name   string                     `json:"name"`
				Config map[string]json.RawMessage `json:"config"`
			}
			if err := json.Unmarshal(raw, &obj); err != nil {
				return nil, fmt.Errorf("config/middlewares.json: %s is neither a name nor {name, config}", raw)
			}
			name, cfg = obj.Name, obj.Config
		}
		var err error
		switch name {
		case "strapi::security":
			hc.Security, err = buildSecurity(cfg)
		case "strapi::cors":
			hc.CORS, err = buildCORS(cfg)
		case "strapi::poweredBy":
			hc.PoweredBy = "Strapi <strapi.io>"
			if v, ok := cfg["poweredBy"]; ok {
				json.Unmarshal(v, &hc.PoweredBy)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("config/middlewares.json: %w", err)
		}
	}
	return hc, nil
}

// listOrString reads a value given as a list of strings or one comma-separated string.
func listOrString(v json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s, true
	}
	var l []string
	if json.Unmarshal(v, &l) == nil {
		return strings.Join(l, ","), true
	}
	return "", false
}

func buildCORS(cfg map[string]json.RawMessage) (*CORSConfig, error) {
	c := defaultCORS()
	// `enabled` is ignored, as Strapi ignores it (with a warning): remove strapi::cors from
	// the list to turn CORS off.
	if v, ok := cfg["origin"]; ok {
		var list []string
		var s string
		switch {
		case json.Unmarshal(v, &list) == nil:
			c.Origins, c.originOne = list, ""
		case json.Unmarshal(v, &s) == nil:
			parts := strings.Split(s, ",")
			if len(parts) > 1 {
				c.originOne = ""
				for _, p := range parts {
					c.Origins = append(c.Origins, strings.TrimSpace(p))
				}
			} else {
				c.originOne = s
			}
		default:
			return nil, fmt.Errorf("strapi::cors origin must be a string or a list of strings")
		}
	}
	if v, ok := cfg["maxAge"]; ok {
		var f float64
		var s string
		switch {
		case json.Unmarshal(v, &f) == nil:
			c.MaxAge = strconv.FormatFloat(f, 'f', -1, 64)
			if f == 0 {
				c.MaxAge = ""
			}
		case json.Unmarshal(v, &s) == nil:
			c.MaxAge = s
		}
	}
	if v, ok := cfg["credentials"]; ok {
		json.Unmarshal(v, &c.Credentials)
	}
	for key, dst := range map[string]*string{"methods": &c.Methods, "headers": &c.Headers, "expose": &c.Expose} {
		if v, ok := cfg[key]; ok {
			s, ok := listOrString(v)
			if !ok {
				return nil, fmt.Errorf("strapi::cors %s must be a string or a list of strings", key)
			}
			*dst = s
		}
	}
	return c, nil
}

// allowOrigin is Strapi's origin function: "" refuses (no CORS headers).
func (c *CORSConfig) allowOrigin(reqOrigin string) string {
	if reqOrigin == "" {
		return "*"
	}
	if c.Origins != nil {
		for _, o := range c.Origins {
			if o == reqOrigin {
				return reqOrigin
			}
		}
		return ""
	}
	return c.originOne
}

// httpMiddleware sets the security headers on every response and answers CORS, as Strapi's
// strapi::security, strapi::cors and strapi::poweredBy middlewares do.
func (s *Server) httpMiddleware(next http.Handler) http.Handler {
	hc := s.HTTP
	if hc == nil {
		hc = DefaultHTTPConfig()
	}
	gqlPath := s.GraphQLPath
	if gqlPath == "" {
		gqlPath = "/graphql"
	}
	var csp, special string
	if sc := hc.Security; sc != nil && sc.CSP != nil {
		csp, special = cspHeader(sc.CSP), cspHeader(sc.special)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if sc := hc.Security; sc != nil {
			if csp != "" {
				v := csp
				if r.Method == http.MethodGet && (strings.HasPrefix(r.URL.Path, gqlPath) || strings.HasPrefix(r.URL.Path, "/documentation")) {
					v = special
				}
				h.Set("Content-Security-Policy", v)
			}
			for _, kv := range sc.Headers {
				h.Set(kv[0], kv[1])
			}
		}
		if hc.PoweredBy != "" {
			h.Set("X-Powered-By", hc.PoweredBy)
		}
		if c := hc.CORS; c != nil {
			h.Add("Vary", "Origin")
			reqOrigin := r.Header.Get("Origin")
			origin := c.allowOrigin(reqOrigin)
			if origin != "" {
				if c.Credentials && origin == "*" {
					origin = reqOrigin
				}
				if r.Method != http.MethodOptions {
					h["Access-Control-Allow-Origin"] = []string{origin}
					if c.Credentials {
						h.Set("Access-Control-Allow-Credentials", "true")
					}
					if c.Expose != "" {
						h.Set("Access-Control-Expose-Headers", c.Expose)
					}
				} else if r.Header.Get("Access-Control-Request-Method") != "" {
					// Preflight: answered here, never routed.
					h["Access-Control-Allow-Origin"] = []string{origin}
					if c.Credentials {
						h.Set("Access-Control-Allow-Credentials", "true")
					}
					if c.MaxAge != "" {
						h.Set("Access-Control-Max-Age", c.MaxAge)
					}
					if c.Methods != "" {
						h.Set("Access-Control-Allow-Methods", c.Methods)
					}
					allow := c.Headers
					if allow == "" {
						allow = r.Header.Get("Access-Control-Request-Headers")
					}
					if allow != "" {
						h.Set("Access-Control-Allow-Headers", allow)
					}
					w.WriteHeader(http.StatusNoContent)
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}
