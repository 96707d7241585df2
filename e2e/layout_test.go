package e2e

import (
	"bytes"
	"database/sql"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files (the Strapi schema golden is written from real Strapi by TestBesideStrapi)")

// strapiSchemaGolden is `pg_dump --schema-only` of the database Strapi 4.26.2 creates for
// examples/blog (normalized by normalizeDump). TestBesideStrapi rewrites it from real Strapi
// with -update.
const strapiSchemaGolden = "testdata/strapi_blog_schema.sql"

// pgDump returns the normalized schema-only dump of the database at url.
func pgDump(t *testing.T, url string) string {
	t.Helper()
	bin, err := exec.LookPath("pg_dump")
	if err != nil {
		t.Skip("pg_dump not installed")
	}
	var out, errb bytes.Buffer
	cmd := exec.Command(bin, "--schema-only", "--no-owner", "--no-privileges", pgDumpURL(url))
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("pg_dump: %v\n%s", err, errb.String())
	}
	return normalizeDump(out.String())
}

// pgDumpURL drops the query (pgx options such as sslmode=disable are libpq's too, but keep
// the URL plain for older pg_dump versions).
func pgDumpURL(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[:i]
	}
	return u
}

var blankLines = regexp.MustCompile(`\n{3,}`)

// normalizeDump drops what differs between pg_dump versions and runs (comments, session
// settings, \restrict keys) and keeps the statements.
func normalizeDump(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(line, "--"), strings.HasPrefix(line, `\`), strings.HasPrefix(line, "SET "),
			strings.HasPrefix(line, "SELECT pg_catalog.set_config"):
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return strings.TrimSpace(blankLines.ReplaceAllString(b.String(), "\n\n")) + "\n"
}

// TestFreshSchemaIsStrapis: the tables, columns, indexes, constraints and foreign keys Quarry
// creates on an empty PostgreSQL database are exactly the ones Strapi 4.26.2 creates for the
// same app (a committed dump of Strapi's), so Strapi's schema sync finds nothing to change.
func TestFreshSchemaIsStrapis(t *testing.T) {
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	if admin == "" {
		t.Skip("QUARRY_TEST_POSTGRES_URL not set")
	}
	url := freshPostgres(t, admin)
	quarry(t, []string{"DATABASE_CLIENT=postgres", "DATABASE_URL=" + url}, "locales", "list", "--app", "../examples/blog")
	got := pgDump(t, url)
	want, err := os.ReadFile(strapiSchemaGolden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("Quarry's fresh schema differs from Strapi's (%s):\n%s", strapiSchemaGolden, lineDiff(string(want), got))
	}
	// A second start changes nothing.
	quarry(t, []string{"DATABASE_CLIENT=postgres", "DATABASE_URL=" + url}, "locales", "list", "--app", "../examples/blog")
	if again := pgDump(t, url); again != got {
		t.Errorf("a second start changed the schema:\n%s", lineDiff(got, again))
	}
}

// TestSQLiteIndexesAreStrapis: on SQLite, where knex creates Strapi's unique constraints as
// unique indexes, Quarry creates the same index names, of the same kinds, as Strapi's
// PostgreSQL schema has indexes and unique constraints.
func TestSQLiteIndexesAreStrapis(t *testing.T) {
	golden, err := os.ReadFile(strapiSchemaGolden)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, m := range regexp.MustCompile(`CREATE INDEX (\w+) ON public\.(\w+)`).FindAllStringSubmatch(string(golden), -1) {
		want = append(want, m[2]+" "+m[1]+" index")
	}
	for _, m := range regexp.MustCompile(`ALTER TABLE ONLY public\.(\w+)\s+ADD CONSTRAINT (\w+) UNIQUE`).FindAllStringSubmatch(string(golden), -1) {
		want = append(want, m[1]+" "+m[2]+" unique")
	}
	file := filepath.Join(t.TempDir(), "data.db")
	quarry(t, []string{"DATABASE_CLIENT=sqlite", "DATABASE_FILENAME=" + file}, "locales", "list", "--app", "../examples/blog")
	db, err := sql.Open("sqlite", file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT m.tbl_name, m.name, l."unique" FROM sqlite_master m JOIN pragma_index_list(m.tbl_name) l ON l.name = m.name
		WHERE m.type = 'index' AND m.name NOT LIKE 'sqlite_autoindex%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var tbl, name string
		var unique bool
		if err := rows.Scan(&tbl, &name, &unique); err != nil {
			t.Fatal(err)
		}
		kind := "index"
		if unique {
			kind = "unique"
		}
		got = append(got, tbl+" "+name+" "+kind)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("SQLite indexes differ from Strapi's:\n%s", lineDiff(strings.Join(want, "\n"), strings.Join(got, "\n")))
	}
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	count := map[string]int{}
	for _, l := range strings.Split(want, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(got, "\n") {
		count[l]--
	}
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if count[l] > 0 {
			b.WriteString("- " + l + "\n")
			count[l]--
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if count[l] < 0 {
			b.WriteString("+ " + l + "\n")
			count[l]++
		}
	}
	return b.String()
}

// strapiMariaDBSchemaGolden is Strapi 4.26.2's examples/blog schema on MariaDB (mysql2 client).
const strapiMariaDBSchemaGolden = "testdata/strapi_blog_schema_mariadb.sql"

// TestFreshSchemaIsStrapisOnMariaDB: on MariaDB, the tables Quarry creates on an empty
// database are Strapi's, statement for statement as SHOW CREATE TABLE prints them (column
// types, index and constraint names and kinds, key order, engine and collation), and a second
// start changes nothing. MySQL 8 prints its own spelling (no display widths, native JSON), so
// the comparison runs on MariaDB, the server Strapi's dump comes from.
func TestFreshSchemaIsStrapisOnMariaDB(t *testing.T) {
	admin := os.Getenv("QUARRY_TEST_MYSQL_URL")
	if admin == "" {
		t.Skip("QUARRY_TEST_MYSQL_URL not set")
	}
	url := freshMySQL(t, admin)
	db, err := sql.Open("mysql", mysqlDSN(t, url))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var version string
	if err := db.QueryRow("SELECT VERSION()").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(version, "MariaDB") {
		t.Skipf("server %s is not MariaDB", version)
	}
	env := []string{"DATABASE_CLIENT=mysql", "DATABASE_URL=" + url}
	quarry(t, env, "locales", "list", "--app", "../examples/blog")
	got := showCreateTables(t, db)
	want, err := os.ReadFile(strapiMariaDBSchemaGolden)
	if err != nil {
		t.Fatal(err)
	}
	_, wantBody, _ := strings.Cut(string(want), "\n") // the header comment
	if got != wantBody {
		t.Errorf("Quarry's fresh schema differs from Strapi's (%s):\n%s", strapiMariaDBSchemaGolden, lineDiff(wantBody, got))
	}
	quarry(t, env, "locales", "list", "--app", "../examples/blog")
	if again := showCreateTables(t, db); again != got {
		t.Errorf("a second start changed the schema:\n%s", lineDiff(got, again))
	}
}

// showCreateTables prints every table as SHOW CREATE TABLE does, in name order, without
// the AUTO_INCREMENT counters.
func showCreateTables(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query("SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY CAST(table_name AS BINARY)")
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	counter := regexp.MustCompile(` AUTO_INCREMENT=\d+`)
	var b strings.Builder
	for _, tb := range tables {
		var name, create string
		if err := db.QueryRow("SHOW CREATE TABLE `"+tb+"`").Scan(&name, &create); err != nil {
			t.Fatal(err)
		}
		b.WriteString(counter.ReplaceAllString(create, "") + "\n;\n\n")
	}
	return b.String()
}
