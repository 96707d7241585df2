package sqlgen

import (
	"fmt"
	"strings"

	"github.com/quarrycms/quarry/schemas"
)

// The layout is Strapi v4.26's, table for table: the tables, columns, indexes, unique
// constraints and foreign keys that @strapi/database's metadata and schema builder create,
// under the same names and of the same kinds. A database Strapi created therefore already
// holds all of it, and Strapi's own schema sync finds nothing it does not know in a database
// Quarry created (it drops what it does not know, and fails dropping an index as a
// constraint).

// Table is one table of the layout: its columns in Strapi's order, its indexes (unique ones
// are constraints on PostgreSQL, unique indexes on SQLite and MySQL, as knex creates them)
// and its foreign keys (added after every table exists on PostgreSQL and MySQL, inline on
// SQLite).
type Table struct {
	Name        string
	Columns     []Column
	Indexes     []Index
	ForeignKeys []ForeignKey
}

type Column struct {
	Name string
	Type string // rendered SQL type, or "id" for the primary key
}

type Index struct {
	Name    string
	Columns []string
	Unique  bool
}

type ForeignKey struct {
	Name, Column, RefTable, OnDelete string
}

const adminUsers = "admin_users"

// Layout lists every table the schema needs, Strapi's own system tables included.
func Layout(d Dialect, s *schemas.Schema) []Table {
	var out []Table
	models := append([]*schemas.Model{s.Files}, s.ContentTypes...)
	models = append(models, s.Plugins...) // users-permissions, upload folders, i18n locales and their links
	models = append(models, s.Components...)
	dt := d.ColumnType(schemas.DateTime)
	for _, m := range models {
		t := Table{Name: m.Table, Columns: []Column{{"id", "id"}}}
		for _, a := range m.Attributes {
			if a.Column == "" || a.System {
				continue
			}
			t.Columns = append(t.Columns, Column{a.Column, d.ColumnType(a.Type)})
			if a.Type == schemas.UID {
				t.Indexes = append(t.Indexes, Index{Name: m.Table + "_" + a.Column + "_unique", Columns: []string{a.Column}, Unique: true})
			}
		}
		if m.Kind != schemas.Component {
			t.Columns = append(t.Columns, Column{"created_at", dt}, Column{"updated_at", dt})
			if m.DraftAndPublish {
				t.Columns = append(t.Columns, Column{"published_at", dt})
			}
			if m == s.Files {
				// Before the authors' indexes, in Strapi's order (MySQL lists keys in creation order).
				t.Indexes = append(t.Indexes, uploadFileIndexes...)
			}
			t.addAuthors(d)
			if m.Localized {
				t.Columns = append(t.Columns, Column{"locale", "varchar(255)"})
			}
		}
		if m.Table == "upload_folders" {
			t.Indexes = append(t.Indexes, uploadFolderIndexes...)
		}
		out = append(out, t)
	}
	seen := map[string]bool{}
	for _, m := range models {
		for _, a := range m.Attributes {
			j := a.OwnJoin() // every owner's, shadowed ones too: Strapi makes them all
			if j == nil || seen[j.Table] {
				continue
			}
			seen[j.Table] = true
			out = append(out, linkTable(d, j.Table, j.SourceCol, m.Table, j.TargetCol, a.Target.Table, j.OrderCol, j.InvOrderCol))
		}
		if m.ComponentsTable != "" {
			out = append(out, componentsTable(d, m.Table, m.ComponentsTable))
		}
	}
	out = append(out, Table{Name: "files_related_morphs",
		Columns: []Column{{"id", "id"}, {"file_id", d.refType()}, {"related_id", d.refType()},
			{"related_type", "varchar(255)"}, {"field", "varchar(255)"}, {"order", d.orderType()}},
		ForeignKeys: []ForeignKey{{"files_related_morphs_fk", "file_id", "files", "CASCADE"}},
		Indexes: []Index{
			{Name: "files_related_morphs_fk", Columns: []string{"file_id"}},
			{Name: "files_related_morphs_order_index", Columns: []string{"order"}},
			{Name: "files_related_morphs_id_column_index", Columns: []string{"related_id"}},
		}})
	out = append(out, systemTables(d)...)
	return out
}

// addAuthors adds created_by_id/updated_by_id, the admin users who wrote an entry: Strapi
// keeps them as join columns with an index and a foreign key each.
func (t *Table) addAuthors(d Dialect) {
	for _, c := range []string{"created_by_id", "updated_by_id"} {
		name := t.Name + "_" + c + "_fk"
		t.Columns = append(t.Columns, Column{c, d.refType()})
		t.Indexes = append(t.Indexes, Index{Name: name, Columns: []string{c}})
		t.ForeignKeys = append(t.ForeignKeys, ForeignKey{name, c, adminUsers, "SET NULL"})
	}
}

// linkTable is the join table of a relation, as Strapi's metadata builds it: the order
// column of the targets (to-many) and of the sources (bidirectional many-to-*) when kept.
func linkTable(d Dialect, name, srcCol, srcTable, tgtCol, tgtTable, orderCol, invOrderCol string) Table {
	t := Table{Name: name, Columns: []Column{{"id", "id"}, {srcCol, d.refType()}, {tgtCol, d.refType()}},
		Indexes: []Index{
			{Name: name + "_fk", Columns: []string{srcCol}},
			{Name: name + "_inv_fk", Columns: []string{tgtCol}},
			{Name: name + "_unique", Columns: []string{srcCol, tgtCol}, Unique: true},
		},
		ForeignKeys: []ForeignKey{{name + "_fk", srcCol, srcTable, "CASCADE"}, {name + "_inv_fk", tgtCol, tgtTable, "CASCADE"}}}
	if orderCol != "" {
		t.Columns = append(t.Columns, Column{orderCol, d.orderType()})
		t.Indexes = append(t.Indexes, Index{Name: name + "_order_fk", Columns: []string{orderCol}})
	}
	if invOrderCol != "" {
		t.Columns = append(t.Columns, Column{invOrderCol, d.orderType()})
		t.Indexes = append(t.Indexes, Index{Name: name + "_order_inv_fk", Columns: []string{invOrderCol}})
	}
	return t
}

// componentsTable joins an entry to its components and dynamic-zone items. Strapi names
// its indexes and constraints after the entry's table, not after the join table.
func componentsTable(d Dialect, owner, name string) Table {
	return Table{Name: name,
		Columns: []Column{{"id", "id"}, {"entity_id", d.refType()}, {"component_id", d.refType()},
			{"component_type", "varchar(255)"}, {"field", "varchar(255)"}, {"order", d.orderType()}},
		ForeignKeys: []ForeignKey{{owner + "_entity_fk", "entity_id", owner, "CASCADE"}},
		Indexes: []Index{
			{Name: owner + "_field_index", Columns: []string{"field"}},
			{Name: owner + "_component_type_index", Columns: []string{"component_type"}},
			{Name: owner + "_entity_fk", Columns: []string{"entity_id"}},
			{Name: owner + "_unique", Columns: []string{"entity_id", "component_id", "field", "component_type"}, Unique: true},
		}}
}

// LegacyIndexes are index names earlier Quarry versions created that Strapi does not know:
// Strapi's schema sync would try to drop them (and fail on the unique one, which it drops as
// a constraint). They are dropped where they exist.
func LegacyIndexes(s *schemas.Schema) []string {
	var out []string
	models := append(append(append([]*schemas.Model{s.Files}, s.ContentTypes...), s.Plugins...), s.Components...)
	for _, m := range models {
		if ct := m.ComponentsTable; ct != "" {
			out = append(out, ct+"_field_index", ct+"_component_type_index", ct+"_entity_fk", ct+"_unique")
		}
	}
	return append(out, "strapi_api_tokens_access_key_index")
}

var uploadFileIndexes = []Index{
	{Name: "upload_files_folder_path_index", Columns: []string{"folder_path"}},
	{Name: "upload_files_created_at_index", Columns: []string{"created_at"}},
	{Name: "upload_files_updated_at_index", Columns: []string{"updated_at"}},
	{Name: "upload_files_name_index", Columns: []string{"name"}},
	{Name: "upload_files_size_index", Columns: []string{"size"}},
	{Name: "upload_files_ext_index", Columns: []string{"ext"}},
}

var uploadFolderIndexes = []Index{
	{Name: "upload_folders_path_id_index", Columns: []string{"path_id"}, Unique: true},
	{Name: "upload_folders_path_index", Columns: []string{"path"}, Unique: true},
}

// systemTables are Strapi's own tables (admin users, roles and permissions, API and
// transfer tokens, webhooks, releases, the core store, the schema and migration records).
// Quarry uses some of them; it creates all of them so that a database it created is the
// one Strapi would create, and the created_by_id foreign keys have their target.
func systemTables(d Dialect) []Table {
	dt := d.ColumnType(schemas.DateTime)
	vc, js, txt := "varchar(255)", d.ColumnType(schemas.JSON), d.ColumnType(schemas.Text)
	entity := func(name string, cols ...Column) Table {
		t := Table{Name: name, Columns: append([]Column{{"id", "id"}}, cols...)}
		t.Columns = append(t.Columns, Column{"created_at", dt}, Column{"updated_at", dt})
		t.addAuthors(d)
		return t
	}
	plain := func(name string, cols ...Column) Table {
		return Table{Name: name, Columns: append([]Column{{"id", "id"}}, cols...)}
	}
	schemaJSON, ts := d.systemTypes()
	return []Table{
		entity("admin_permissions", Column{"action", vc}, Column{"action_parameters", js}, Column{"subject", vc},
			Column{"properties", js}, Column{"conditions", js}),
		entity(adminUsers, Column{"firstname", vc}, Column{"lastname", vc}, Column{"username", vc}, Column{"email", vc},
			Column{"password", vc}, Column{"reset_password_token", vc}, Column{"registration_token", vc},
			Column{"is_active", "boolean"}, Column{"blocked", "boolean"}, Column{"prefered_language", vc}),
		entity("admin_roles", Column{"name", vc}, Column{"code", vc}, Column{"description", vc}),
		entity("strapi_api_tokens", Column{"name", vc}, Column{"description", vc}, Column{"type", vc},
			Column{"access_key", vc}, Column{"last_used_at", dt}, Column{"expires_at", dt}, Column{"lifespan", "bigint"}),
		entity("strapi_api_token_permissions", Column{"action", vc}),
		entity("strapi_transfer_tokens", Column{"name", vc}, Column{"description", vc}, Column{"access_key", vc},
			Column{"last_used_at", dt}, Column{"expires_at", dt}, Column{"lifespan", "bigint"}),
		entity("strapi_transfer_token_permissions", Column{"action", vc}),
		plain("strapi_core_store_settings", Column{"key", vc}, Column{"value", txt}, Column{"type", vc},
			Column{"environment", vc}, Column{"tag", vc}),
		plain("strapi_webhooks", Column{"name", vc}, Column{"url", txt}, Column{"headers", js},
			Column{"events", js}, Column{"enabled", "boolean"}),
		entity("strapi_releases", Column{"name", vc}, Column{"released_at", dt}, Column{"scheduled_at", dt},
			Column{"timezone", vc}, Column{"status", vc}),
		entity("strapi_release_actions", Column{"type", vc}, Column{"target_id", d.refType()}, Column{"target_type", vc},
			Column{"content_type", vc}, Column{"locale", vc}, Column{"is_entry_valid", "boolean"}),
		linkTable(d, "admin_permissions_role_links", "permission_id", "admin_permissions", "role_id", "admin_roles", "", "permission_order"),
		linkTable(d, "admin_users_roles_links", "user_id", adminUsers, "role_id", "admin_roles", "role_order", "user_order"),
		linkTable(d, "strapi_api_token_permissions_token_links", "api_token_permission_id", "strapi_api_token_permissions",
			"api_token_id", "strapi_api_tokens", "", "api_token_permission_order"),
		linkTable(d, "strapi_transfer_token_permissions_token_links", "transfer_token_permission_id", "strapi_transfer_token_permissions",
			"transfer_token_id", "strapi_transfer_tokens", "", "transfer_token_permission_order"),
		linkTable(d, "strapi_release_actions_release_links", "release_action_id", "strapi_release_actions",
			"release_id", "strapi_releases", "", "release_action_order"),
		plain("strapi_database_schema", Column{"schema", schemaJSON}, Column{"time", ts}, Column{"hash", vc}),
		plain("strapi_migrations", Column{"name", vc}, Column{"time", ts}),
	}
}

// createTableColumns writes CREATE TABLE IF NOT EXISTS and the columns, leaving the
// parenthesis open for an engine's inline constraints.
func createTableColumns(d Dialect, b *strings.Builder, t Table) {
	fmt.Fprintf(b, "CREATE TABLE IF NOT EXISTS %s (", d.Quote(t.Name))
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		if c.Type == "id" {
			b.WriteString(d.idColumn())
			continue
		}
		fmt.Fprintf(b, "%s %s", d.Quote(c.Name), c.Type)
	}
}

// addColumn renders ALTER TABLE ADD COLUMN for a column missing from an existing table.
func addColumn(d Dialect, table string, c Column) string {
	return fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s %s", d.Quote(table), d.Quote(c.Name), c.Type)
}

// createIndex renders CREATE [UNIQUE] INDEX IF NOT EXISTS.
func createIndex(d Dialect, table string, ix Index) string {
	u := ""
	if ix.Unique {
		u = "UNIQUE "
	}
	return fmt.Sprintf("CREATE %sINDEX IF NOT EXISTS %s ON %s (%s)", u, d.Quote(ix.Name), d.Quote(table), quoteList(d, ix.Columns))
}

// quoteList quotes identifiers and joins them with commas.
func quoteList(d Dialect, idents []string) string {
	q := make([]string, len(idents))
	for i, c := range idents {
		q[i] = d.Quote(c)
	}
	return strings.Join(q, ", ")
}

// commonColumnType is the column type every engine shares for an attribute type.
func commonColumnType(t schemas.AttrType) string {
	switch t {
	case schemas.Text, schemas.RichText:
		return "text"
	case schemas.Integer:
		return "integer"
	case schemas.BigInteger:
		return "bigint"
	case schemas.Decimal:
		return "decimal(10,2)"
	case schemas.Date:
		return "date"
	case schemas.Time:
		// Strapi asks knex for time(3); knex's PostgreSQL column is a plain time.
		return "time"
	case schemas.Boolean:
		return "boolean"
	}
	return "varchar(255)"
}
