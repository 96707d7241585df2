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
