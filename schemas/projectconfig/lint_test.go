package projectconfig

import (
	"context"
	"strings"
	"testing"
)

// A config key one typo away from one Quarry reads is named with the key meant (issue 28,
// item 12); known keys and keys far from any pass.
func TestLintConfigKeys(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"config/api.json":      `{"rest":{"defaultLimt":5,"maxLimit":10,"somethingElse":1}}`,
		"config/database.json": `{"connection":{"client":"sqlite","pool":{"mxa":3,"min":1}}}`,
		"config/server.js":     `module.exports = { host: '0.0.0.0', prot: 1337 };`,
	})
	p, err := Load(context.Background(), Options{Dir: dir, LookupEnv: lookup(nil)})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.Lint(), "\n")
	for _, want := range []string{"api.rest.defaultLimt (did you mean defaultLimit?)", "database.connection.pool.mxa (did you mean max?)",
		"server.prot (did you mean port?)", "config/api.json"} {
		if !strings.Contains(got, want) {
			t.Errorf("lint lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"maxLimit", "somethingElse", "host"} {
		if strings.Contains(got, not+" ") {
			t.Errorf("lint names %q:\n%s", not, got)
		}
	}
}
