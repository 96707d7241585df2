package sqlgen

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
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
}{{"sqlite", SQLite}, {"postgres", Postgres}, {"mysql", MySQL}}

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
	if v := reflect.ValueOf(a); v.Kind() == reflect.Pointer {
		// The pointed-to value, which the driver binds (an address would differ per run).
		if v.IsNil() {
			return fmt.Sprintf("%T(nil)", a)
		}
		return fmt.Sprintf("%T(%#v)", a, v.Elem().Interface())
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

// explainCase renders the plan request of an entry count, naming the plan text's column.
func explainCase(d Dialect, analyze bool) Stmt {
	ex, col := Explain(d, EntryCount(d, &schemas.Model{Table: "articles"}, 7), analyze)
	if col != "" {
		ex.SQL += " -- plan text in column " + col
	}
	return ex
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
		"explain": {
			{"explain", func(d Dialect) Stmt { return explainCase(d, false) }},
			{"explain analyze", func(d Dialect) Stmt { return explainCase(d, true) }},
		},
		"entry": {
			{"count by id", func(d Dialect) Stmt { return EntryCount(d, article, 7) }},
			{"single entry, live, of a locale", func(d Dialect) Stmt { return SingleEntryID(d, article, true, "fr") }},
			{"single entry, any", func(d Dialect) Stmt { return SingleEntryID(d, article, false, "") }},
			{"component at", func(d Dialect) Stmt { return ComponentAt(d, article, 7, "blocks", 2) }},
		},
	}
	rel := &schemas.Join{Table: "articles_tags_links", SourceCol: "article_id", TargetCol: "tag_id", OrderCol: "tag_order", InvOrderCol: "article_order"}
	cover := &schemas.Join{Table: MorphsTable, MorphType: "api::article.article", MorphField: "cover"}
	areas["write"] = []statementCase{
		{"insert rows", func(d Dialect) Stmt {
			return InsertRows(d, "articles_cmps", []string{"entity_id", "component_id", "component_type", "field", "order"},
				[][]any{{int64(7), int64(1), "shared.seo", "seo", nil}, {int64(7), int64(2), "shared.quote", "blocks", 1.0}})
		}},
		{"delete in", func(d Dialect) Stmt { return DeleteIn(d, "articles_tags_links", "article_id", []int64{7, 8}) }},
		{"ids in", func(d Dialect) Stmt { return IDsIn(d, "tags", []int64{3, 4}) }},
		{"entry columns", func(d Dialect) Stmt { return EntryColumns(d, article, 7, "id", "slug", "published_at") }},
		{"entry draft", func(d Dialect) Stmt { return EntryDraft(d, article, 7) }},
		{"component links", func(d Dialect) Stmt { return ComponentLinks(d, "articles_cmps", 7) }},
		{"components of", func(d Dialect) Stmt { return ComponentsOf(d, "articles_cmps", []int64{7, 8}) }},
		{"clear component links", func(d Dialect) Stmt { return ComponentLinksClear(d, "articles_cmps", 7, "blocks") }},
		{"clear morphs", func(d Dialect) Stmt { return MorphsClear(d, "shared.seo", []int64{1, 2}) }},
		{"relation links", func(d Dialect) Stmt { return RelationLinks(d, rel, 7) }},
		{"relation links, unordered", func(d Dialect) Stmt {
			return RelationLinks(d, &schemas.Join{Table: "articles_author_links", SourceCol: "article_id", TargetCol: "author_id"}, 7)
		}},
		{"relation take over", func(d Dialect) Stmt { return RelationTakeOver(d, rel, []int64{3, 4}, 7) }},
		{"relation reorder", func(d Dialect) Stmt { return RelationReorder(d, rel, []int64{11, 12}, []float64{1, 2}) }},
		{"relation inverse orders", func(d Dialect) Stmt { return RelationInverseOrders(d, rel, []int64{3, 4}) }},
		{"media links", func(d Dialect) Stmt { return MediaLinks(d, cover, 7) }},
		{"clear media links", func(d Dialect) Stmt { return MediaLinksClear(d, cover, 7) }},
		{"unique taken", func(d Dialect) Stmt { return UniqueTaken(d, "articles", "views", int64(12), 7) }},
		{"unique holders", func(d Dialect) Stmt { return UniqueHolders(d, "articles", "slug", []any{"a", "b"}) }},
		{"unique locks", func(d Dialect) Stmt {
			var s Stmt
			for _, l := range UniqueLocks(d, []UniqueKey{{"articles", "slug", "a"}, {"articles", "slug", "a"}}) {
				s.SQL += l.SQL + ";"
				s.Args = append(s.Args, l.Args...)
			}
			return s
		}},
	}
	alt := "A cat"
	width := 640
	areas["upload"] = []statementCase{
		{"file mimes", func(d Dialect) Stmt { return FileMimes(d, []int64{1, 2}) }},
		insertCase("insert file", Insert{}), // replaced below
		{"file by id", func(d Dialect) Stmt { return FileByID(d, 5) }},
		{"update file", func(d Dialect) Stmt {
			return FileUpdate(d, 5, []string{"name", "updated_at"}, []any{"cat.png", testNow})
		}},
		{"delete file", func(d Dialect) Stmt { return FileDelete(d, 5) }},
		{"unlink file from entries", func(d Dialect) Stmt { return FileUnlink(d, MorphsTable, 5) }},
		{"clear file links", func(d Dialect) Stmt { return FileLinksClear(d, "api::article.article", "cover", 7) }},
		{"file links max order", func(d Dialect) Stmt { return FileLinksMaxOrder(d, "api::article.article", "gallery", 7) }},
		{"link file", func(d Dialect) Stmt { return FileLink(d, 5, "api::article.article", "gallery", 7, 3) }},
		{"file links of", func(d Dialect) Stmt { return FileLinksOf(d, []int64{5, 6}) }},
		{"folder files max order", func(d Dialect) Stmt { return FolderFilesMaxOrder(d, 2) }},
		{"file folder link", func(d Dialect) Stmt { return FolderFileLink(d, 5, 2, 4) }},
		{"folder path", func(d Dialect) Stmt { return FolderPath(d, 2) }},
		{"root folder by name", func(d Dialect) Stmt { return RootFolderByName(d, "API Uploads") }},
		{"root folder count", func(d Dialect) Stmt { return RootFolderCount(d, "API Uploads") }},
		{"folder max path id", FolderMaxPathID},
		{"insert folder", func(d Dialect) Stmt {
			s := FolderInsert(d, "API Uploads", 3, "/3", testNow)
			return s.Stmt
		}},
		{"table exists", func(d Dialect) Stmt { return TableExists(d, CoreStoreTable) }},
		{"entries in", func(d Dialect) Stmt { return EntriesIn(d, "articles", []int64{7, 8}, "id", "title") }},
	}
	areas["upload"][1] = statementCase{"insert file", func(d Dialect) Stmt {
		return FileInsert(d, FileRow{Name: "cat.png", AlternativeText: &alt, Width: &width, Formats: `{"thumbnail":{}}`,
			Hash: "cat_ab12", Ext: ".png", Mime: "image/png", Size: 12.5, URL: "/uploads/cat_ab12.png", Provider: "local",
			FolderPath: "/3", Now: testNow}).Stmt
	}}
	areas["datagen"] = []statementCase{
		{"table count", func(d Dialect) Stmt { return TableCount(d, "articles") }},
		{"id sequence reset", func(d Dialect) Stmt {
			s, ok := IDSequenceReset(d, "articles")
			if !ok {
				s.SQL = "-- none"
			}
			return s
		}},
		{"analyze", func(d Dialect) Stmt {
			s, ok := Analyze(d, "articles")
			if !ok {
				s.SQL = "-- none"
			}
			return s
		}},
	}
	for area, cases := range areas {
		t.Run(area, func(t *testing.T) { golden(t, area, cases) })
	}
}

// TestWriteCache checks that statements rendered through the cache are the ones rendered
// afresh, on a miss and on a hit.
func TestWriteCache(t *testing.T) {
	for _, dl := range dialects {
		c := NewWriteCache()
		for range 2 {
			ins := Insert{Table: "articles", Columns: []string{"title", "views"}, Values: []any{"a", 1}}
			if got, want := c.Insert(dl.d, ins), ins.Render(dl.d); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s insert: %v, want %v", dl.name, got, want)
			}
			none := Insert{Table: "articles"}
			if got, want := c.Insert(dl.d, none), none.Render(dl.d); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s insert default values: %v, want %v", dl.name, got, want)
			}
			u := Update{Table: "articles", Columns: []string{"title"}, Values: []any{"b"}, Key: "id", KeyValue: int64(3)}
			if got, want := c.Update(dl.d, u), u.Render(dl.d); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s update: %v, want %v", dl.name, got, want)
			}
			vals := []any{"a", "b", "c"}
			if got, want := c.UniqueHolders(dl.d, "articles", "slug", vals), UniqueHolders(dl.d, "articles", "slug", vals); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s holders: %v, want %v", dl.name, got, want)
			}
			if got, want := c.UniqueTaken(dl.d, "articles", "views", 3, 7), UniqueTaken(dl.d, "articles", "views", 3, 7); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s taken: %v, want %v", dl.name, got, want)
			}
		}
	}
}

func TestPostgresDatabases(t *testing.T) {
	if got, want := PostgresCreateDatabase("quarry_bench_1"), `CREATE DATABASE "quarry_bench_1"`; got != want {
		t.Errorf("create: %s, want %s", got, want)
	}
	if got, want := PostgresDropDatabase("quarry_bench_1"), `DROP DATABASE IF EXISTS "quarry_bench_1" WITH (FORCE)`; got != want {
		t.Errorf("drop: %s, want %s", got, want)
	}
}
