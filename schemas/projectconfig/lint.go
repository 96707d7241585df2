package projectconfig

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
)

// knownKeys are the keys of the settings Quarry reads, by path: a key next to them that is
// one or two edits from one of them is a typo that Strapi, and Quarry, would silently ignore.
var knownKeys = map[string][]string{
	"api":                 {"rest", "responses"},
	"api.rest":            {"prefix", "defaultLimit", "maxLimit", "withCount"},
	"api.responses":       {"privateAttributes"},
	"server":              {"host", "port", "app", "url", "proxy", "cron", "admin", "emitErrors", "transfer", "webhooks", "dirs", "logger", "http"},
	"database":            {"connection", "settings"},
	"database.connection": {"client", "connection", "pool", "debug", "acquireConnectionTimeout", "useNullAsDefault", "replicas"},
	"database.connection.connection": {"connectionString", "host", "port", "database", "user", "password", "schema", "ssl", "filename",
		"charset", "timezone", "socketPath"},
	"database.connection.pool": {"min", "max", "acquireTimeoutMillis", "createTimeoutMillis", "destroyTimeoutMillis", "idleTimeoutMillis",
		"reapIntervalMillis", "createRetryIntervalMillis", "propagateCreateError", "afterCreate"},
	"admin":          {"auth", "apiToken", "transfer", "url", "serveAdminPanel", "autoOpen", "watchIgnoreFiles", "host", "port", "flags", "forgotPassword", "rateLimit"},
	"admin.apiToken": {"salt"},
}

// Lint names the keys of the project's config files that look like typos of keys Quarry
// reads (`{"rest":{"defaultLimt":5}}`), with the key meant, as the schema files' typos are
// named: the setting would otherwise pass silently and not apply.
func (p *Project) Lint() []string {
	var out []string
	paths := make([]string, 0, len(knownKeys))
	for k := range knownKeys {
		paths = append(paths, k)
	}
	sort.Strings(paths)
	for _, path := range paths {
		segs := strings.Split(path, ".")
		v, ok := p.merged[segs[0]]
		for _, s := range segs[1:] {
			if !ok {
				break
			}
			m, isMap := v.(map[string]any)
			if !isMap {
				ok = false
				break
			}
			v, ok = m[s]
		}
		m, isMap := v.(map[string]any)
		if !ok || !isMap {
			continue
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		known := knownKeys[path]
		for _, k := range keys {
			if near := nearKey(k, known); near != "" {
				out = append(out, fmt.Sprintf("%s: unknown key %s.%s (did you mean %s?); it is ignored, as Strapi ignores it",
					strings.Join(p.Files(segs[0]), ", "), path, k, near))
			}
		}
	}
	return out
}

// nearKey is the known key within two edits of k (one for short keys), "" when k is known
// or none is near.
func nearKey(k string, known []string) string {
	best, bestD := "", 3
	for _, c := range known {
		if c == k {
			return ""
		}
		d := levenshtein.ComputeDistance(strings.ToLower(k), strings.ToLower(c))
		if swapped(strings.ToLower(k), strings.ToLower(c)) {
			d = 1 // two neighbours swapped, the commonest typo, is one edit
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	if bestD > 2 || len(k) <= 3 && bestD > 1 {
		return ""
	}
	return best
}

// swapped tells whether b is a with two neighbouring letters swapped.
func swapped(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i+1 < len(a); i++ {
		if a[i] != b[i] {
			return a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
		}
	}
	return false
}
