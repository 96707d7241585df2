package sqlgen

import "testing"

// TestPostgresLikeValue: only a trailing unpaired backslash changes (it becomes a literal
// one); wildcards and escapes elsewhere are Strapi's.
func TestPostgresLikeValue(t *testing.T) {
	for in, want := range map[string]string{
		`%a%`: `%a%`, `%\`: `%\\`, `%\\`: `%\\`, `%\\\`: `%\\\\`, `\`: `\\`, `a\_b%`: `a\_b%`, ``: ``, `%_%`: `%_%`,
	} {
		if got := Postgres.likeValue(in); got != want {
			t.Errorf("likeValue(%q) = %q, want %q", in, got, want)
		}
	}
}
