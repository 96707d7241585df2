package sqlgen

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// dialects are the dialects every statement's golden text is pinned for.
var dialects = []struct {
	name string
	d    Dialect
}{{"sqlite", SQLite}, {"postgres", Postgres}}

// statementCase renders one statement for a dialect.
type statementCase struct {
	name   string
	render func(d Dialect) Stmt
}

// golden renders each case for each dialect into testdata/statements/<area>.golden (the
// SQL and its bind values) and compares; -update rewrites the file. One area runs alone
// with -run 'TestStatements/<area>'.
func golden(t *testing.T, area string, cases []statementCase) {
	t.Helper()
	var b strings.Builder
	for _, c := range cases {
		for _, dl := range dialects {
			s := c.render(dl.d)
			fmt.Fprintf(&b, "-- %s (%s)\n%s\n", c.name, dl.name, s.SQL)
			if len(s.Args) > 0 {
				args := make([]string, len(s.Args))
				for i, a := range s.Args {
					args[i] = argText(a)
				}
				fmt.Fprintf(&b, "args: %s\n", strings.Join(args, ", "))
			}
			b.WriteString("\n")
		}
	}
	path := filepath.Join("testdata", "statements", area+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("%s differs from the rendered statements (run with -update and review the diff):\n%s", path, got)
	}
}

// argText shows a bind value with its Go type, which the drivers convert by.
func argText(a any) string {
	if a == nil {
		return "NULL"
	}
	if t, ok := a.(time.Time); ok {
		return "time.Time(" + t.Format(time.RFC3339Nano) + ")"
	}
	return fmt.Sprintf("%T(%#v)", a, a)
}

// insertCase renders an insert that returns its new id.
func insertCase(name string, ins Insert) statementCase {
	return statementCase{name, func(d Dialect) Stmt {
		s := ins.Render(d)
		if !s.ReturnsID {
			s.SQL += " -- id from the driver"
		}
		return s.Stmt
	}}
}

var testNow = time.Date(2026, 11, 24, 9, 30, 0, 123e6, time.UTC)

func TestStatements(t *testing.T) {
	article := &schemas.Model{Table: "articles", ComponentsTable: "articles_cmps", DraftAndPublish: true, Localized: true}
	join := &schemas.Join{Table: "articles_localizations_links", SourceCol: "article_id", TargetCol: "inv_article_id", OrderCol: "article_order"}
	areas := map[string][]statementCase{
		"statement": {
			insertCase("insert", Insert{Table: "things", Columns: []string{"name", "order"}, Values: []any{"a", 1}}),
			insertCase("insert default values", Insert{Table: "things"}),
			{"plain insert", func(d Dialect) Stmt {
				return Insert{Table: "things", Columns: []string{"name"}, Values: []any{"a"}}.Plain(d)
			}},
			{"update", func(d Dialect) Stmt {
				return Update{Table: "things", Columns: []string{"name", "order"}, Values: []any{"b", nil}, Key: "id", KeyValue: int64(3)}.Render(d)
			}},
			{"delete", func(d Dialect) Stmt { return Delete(d, "things", "id", int64(3)) }},
		},
		"corestore": {
			{"get", func(d Dialect) Stmt { return StoreGet(d, "plugin_i18n_default_locale") }},
			{"update", func(d Dialect) Stmt { return StoreUpdate(d, "plugin_i18n_default_locale", `"fr"`, "string") }},
			{"insert", func(d Dialect) Stmt { return StoreInsert(d, "plugin_i18n_default_locale", `"fr"`, "string") }},
			{"delete", func(d Dialect) Stmt { return StoreDelete(d, "plugin_upload_api-folder") }},
		},
		"webhook": {
			{"list", Webhooks},
		},
		"i18n": {
			{"locales", Locales},
			{"add locale", func(d Dialect) Stmt { return LocaleInsert(d, "French (fr)", "fr", testNow) }},
			{"remove locale", func(d Dialect) Stmt { return LocaleDelete(d, "fr") }},
			{"clear localizations", func(d Dialect) Stmt { return LocalizationsClear(d, join, 4) }},
			{"link localization", func(d Dialect) Stmt { return LocalizationLink(d, join, 4, 9, 2) }},
		},
		"userspermissions": {
			{"role count by type", func(d Dialect) Stmt { return RoleCountByType(d, "public") }},
			{"role by type", func(d Dialect) Stmt { return RoleByType(d, "public") }},
			{"role id by type", func(d Dialect) Stmt { return RoleIDByType(d, "public") }},
			{"role by name", func(d Dialect) Stmt { return RoleByName(d, "editors") }},
			{"role by id", func(d Dialect) Stmt { return RoleByID(d, 3) }},
			{"roles", Roles},
			{"role user counts", RoleUserCounts},
			{"insert role", func(d Dialect) Stmt { return RoleInsert(d, "Editors", "They edit.", "editors", testNow).Stmt }},
			{"update role", func(d Dialect) Stmt {
				return RoleUpdate(d, 3, []string{"name", "description"}, []any{"Writers", "They write."}, testNow)
			}},
			{"move role users", func(d Dialect) Stmt { return RoleUsersMove(d, 3, 2) }},
			{"delete role", func(d Dialect) Stmt { return RoleDelete(d, 3) }},
			{"permission count", PermissionCount},
			{"role actions", func(d Dialect) Stmt { return RoleActions(d, 3) }},
			{"role permission ids", func(d Dialect) Stmt { return RolePermissionIDs(d, 3, "api::article.article.find") }},
			{"role permission max order", func(d Dialect) Stmt { return RolePermissionMaxOrder(d, 3) }},
			{"insert permission", func(d Dialect) Stmt { return PermissionInsert(d, "api::article.article.find", testNow).Stmt }},
			{"link permission", func(d Dialect) Stmt { return PermissionLink(d, 12, 3, 4) }},
			{"unlink permission", func(d Dialect) Stmt { return PermissionUnlink(d, 12) }},
			{"delete permission", func(d Dialect) Stmt { return PermissionDelete(d, 12) }},
			{"user by id", func(d Dialect) Stmt { return UserBy(d, "id", int64(5)) }},
			{"user by login", func(d Dialect) Stmt { return UserByLogin(d, "ann@example.com", "Ann@example.com") }},
			{"user count other", func(d Dialect) Stmt { return UserCountOther(d, "email", "ann@example.com", 5) }},
			{"user count named", func(d Dialect) Stmt {
				return UserCountNamed(d, []string{"ann@example.com", "Ann"}, []string{"ann@example.com", "Ann", "ann"})
			}},
			{"insert user", func(d Dialect) Stmt {
				return UserInsert(d, []string{"username", "email", "confirmed"}, []any{"ann", "ann@example.com", true}, testNow).Stmt
			}},
			{"update user", func(d Dialect) Stmt {
				return UserUpdate(d, 5, []string{"confirmed", "confirmation_token"}, []any{true, nil}, testNow)
			}},
			{"delete user", func(d Dialect) Stmt { return UserDelete(d, 5) }},
			{"unlink user role", func(d Dialect) Stmt { return UserRoleUnlink(d, 5) }},
			{"role user max order", func(d Dialect) Stmt { return RoleUserMaxOrder(d, 3) }},
			{"link user role", func(d Dialect) Stmt { return UserRoleLink(d, 5, 3, 8) }},
			{"token by access key", func(d Dialect) Stmt { return TokenByAccessKey(d, "ab12") }},
			{"token by id", func(d Dialect) Stmt { return TokenByID(d, 2) }},
			{"token by name", func(d Dialect) Stmt { return TokenByName(d, "ci") }},
			{"tokens", Tokens},
			{"token count by name", func(d Dialect) Stmt { return TokenCountByName(d, "ci") }},
			{"insert token", func(d Dialect) Stmt {
				return TokenInsert(d, TokenRow{Name: "ci", Description: "", Type: "custom", AccessKey: "ab12",
					Lifespan: 7 * 24 * time.Hour, ExpiresAt: testNow.Add(7 * 24 * time.Hour), CreatedAt: testNow}).Stmt
			}},
			{"insert unlimited token", func(d Dialect) Stmt {
				return TokenInsert(d, TokenRow{Name: "ci", Type: "read-only", AccessKey: "ab12", CreatedAt: testNow}).Stmt
			}},
			{"touch token", func(d Dialect) Stmt { return TokenTouch(d, 2, testNow) }},
			{"delete token", func(d Dialect) Stmt { return TokenDelete(d, 2) }},
			{"token actions", func(d Dialect) Stmt { return TokenActions(d, 2) }},
			{"token permission ids", func(d Dialect) Stmt { return TokenPermissionIDs(d, 2) }},
			{"insert token permission", func(d Dialect) Stmt { return TokenPermissionInsert(d, "api::article.article.find", testNow).Stmt }},
			{"link token permission", func(d Dialect) Stmt { return TokenPermissionLink(d, 9, 2, 1) }},
			{"unlink token permissions", func(d Dialect) Stmt { return TokenUnlinkPermissions(d, 2) }},
			{"delete token permission", func(d Dialect) Stmt { return TokenPermissionDelete(d, 9) }},
		},
		"entry": {
			{"count by id", func(d Dialect) Stmt { return EntryCount(d, article, 7) }},
			{"single entry, live, of a locale", func(d Dialect) Stmt { return SingleEntryID(d, article, true, "fr") }},
			{"single entry, any", func(d Dialect) Stmt { return SingleEntryID(d, article, false, "") }},
			{"component at", func(d Dialect) Stmt { return ComponentAt(d, article, 7, "blocks", 2) }},
		},
	}
	for area, cases := range areas {
		t.Run(area, func(t *testing.T) { golden(t, area, cases) })
	}
}
