package sqlgen

import (
	"fmt"
	"strings"

	"quarry/schemas"
)

// Table is one table of the layout: its columns in creation order and its indexes.
type Table struct {
	Name    string
	Columns []Column
	Indexes []Index
	// Foreign keys are declared inline when the table is created; a column added later to an
	// existing table gets none, as ALTER TABLE ADD CONSTRAINT is not portable to SQLite.
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
	Column, RefTable, OnDelete string
}

// Layout lists every table the schema needs, in an order that satisfies foreign keys.
func Layout(d *Dialect, s *schemas.Schema) []Table {
	var out []Table
	models := append([]*schemas.Model{s.Files}, s.ContentTypes...)
	models = append(models, s.Plugins...) // users-permissions, upload folders, i18n locales and their links
	models = append(models, s.Components...)
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
			dt := d.ColumnType(schemas.DateTime)
			t.Columns = append(t.Columns, Column{"created_at", dt}, Column{"updated_at", dt})
			if m.DraftAndPublish {
				t.Columns = append(t.Columns, Column{"published_at", dt})
			}
			t.Columns = append(t.Columns, Column{"created_by_id", "integer"}, Column{"updated_by_id", "integer"})
			if m.Localized {
				t.Columns = append(t.Columns, Column{"locale", "varchar(255)"})
			}
		}
		out = append(out, t)
	}
	seen := map[string]bool{}
	for _, m := range models {
		for _, a := range m.Attributes {
			if a.Type != schemas.Relation || a.MappedBy != "" || seen[a.Link.Table] {
				continue
			}
			seen[a.Link.Table] = true
			j := a.Link
			t := Table{Name: j.Table, Columns: []Column{{"id", "id"}, {j.SourceCol, "integer"}, {j.TargetCol, "integer"}}}
			ord := "double precision"
			if d == SQLite {
				ord = "float"
			}
			if j.OrderCol != "" {
				t.Columns = append(t.Columns, Column{j.OrderCol, ord})
			}
			if j.InvOrderCol != "" {
				t.Columns = append(t.Columns, Column{j.InvOrderCol, ord})
			}
			t.ForeignKeys = []ForeignKey{{j.SourceCol, m.Table, "CASCADE"}, {j.TargetCol, a.Target.Table, "CASCADE"}}
			t.Indexes = []Index{
				{Name: j.Table + "_fk", Columns: []string{j.SourceCol}},
				{Name: j.Table + "_inv_fk", Columns: []string{j.TargetCol}},
				{Name: j.Table + "_unique", Columns: []string{j.SourceCol, j.TargetCol}, Unique: true},
			}
			if j.OrderCol != "" {
				t.Indexes = append(t.Indexes, Index{Name: j.Table + "_order_fk", Columns: []string{j.OrderCol}})
			}
			if j.InvOrderCol != "" {
				t.Indexes = append(t.Indexes, Index{Name: j.Table + "_order_inv_fk", Columns: []string{j.InvOrderCol}})
			}
			out = append(out, t)
		}
		if m.ComponentsTable != "" {
			ct := m.ComponentsTable
			ord := "double precision"
			if d == SQLite {
				ord = "float"
			}
			out = append(out, Table{Name: ct,
				Columns: []Column{{"id", "id"}, {"entity_id", "integer"}, {"component_id", "integer"},
					{"component_type", "varchar(255)"}, {"field", "varchar(255)"}, {"order", ord}},
				ForeignKeys: []ForeignKey{{"entity_id", m.Table, "CASCADE"}},
				Indexes: []Index{
					{Name: ct + "_field_index", Columns: []string{"field"}},
					{Name: ct + "_component_type_index", Columns: []string{"component_type"}},
					{Name: ct + "_entity_fk", Columns: []string{"entity_id"}},
					{Name: ct + "_unique", Columns: []string{"entity_id", "component_id", "field", "component_type"}, Unique: true},
				}})
		}
	}
	ord := "double precision"
	if d == SQLite {
		ord = "float"
	}
	out = append(out, Table{Name: "files_related_morphs",
		Columns: []Column{{"id", "id"}, {"file_id", "integer"}, {"related_id", "integer"},
			{"related_type", "varchar(255)"}, {"field", "varchar(255)"}, {"order", ord}},
		ForeignKeys: []ForeignKey{{"file_id", "files", "CASCADE"}},
		Indexes: []Index{
			{Name: "files_related_morphs_fk", Columns: []string{"file_id"}},
			{Name: "files_related_morphs_order_index", Columns: []string{"order"}},
			{Name: "files_related_morphs_id_column_index", Columns: []string{"related_id"}},
		}})
	out = append(out, uploadTables()...)
	out = append(out, systemTables(d)...)
	out = append(out, coreStoreTable())
	return out
}

// systemTables are Quarry's share of Strapi's system tables: API tokens with their
// permissions (custom tokens). The users-permissions tables come from the plugin's models.
func systemTables(d *Dialect) []Table {
	dt := d.ColumnType(schemas.DateTime)
	return []Table{
		{Name: "strapi_api_tokens", Columns: []Column{{"id", "id"}, {"name", "varchar(255)"}, {"description", "varchar(255)"},
			{"type", "varchar(255)"}, {"access_key", "varchar(255)"}, {"last_used_at", dt}, {"expires_at", dt},
			{"lifespan", "bigint"}, {"created_at", dt}, {"updated_at", dt}, {"created_by_id", "integer"}, {"updated_by_id", "integer"}},
			Indexes: []Index{{Name: "strapi_api_tokens_access_key_index", Columns: []string{"access_key"}}}},
		{Name: "strapi_api_token_permissions", Columns: []Column{{"id", "id"}, {"action", "varchar(255)"},
			{"created_at", dt}, {"updated_at", dt}, {"created_by_id", "integer"}, {"updated_by_id", "integer"}}},
		{Name: "strapi_api_token_permissions_token_links", Columns: []Column{{"id", "id"}, {"api_token_permission_id", "integer"},
			{"api_token_id", "integer"}, {"api_token_permission_order", "float"}},
			ForeignKeys: []ForeignKey{{"api_token_permission_id", "strapi_api_token_permissions", "CASCADE"}, {"api_token_id", "strapi_api_tokens", "CASCADE"}}},
	}
}

// CreateTable renders CREATE TABLE IF NOT EXISTS.
func (d *Dialect) CreateTable(t Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE IF NOT EXISTS %s (", d.Quote(t.Name))
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		if c.Type == "id" {
			b.WriteString(d.idColumn())
			continue
		}
		fmt.Fprintf(&b, "%s %s", d.Quote(c.Name), c.Type)
	}
	for _, fk := range t.ForeignKeys {
		fmt.Fprintf(&b, ", FOREIGN KEY (%s) REFERENCES %s (\"id\") ON DELETE %s", d.Quote(fk.Column), d.Quote(fk.RefTable), fk.OnDelete)
	}
	b.WriteString(")")
	return b.String()
}

// AddColumn renders ALTER TABLE ADD COLUMN for a column missing from an existing table.
func (d *Dialect) AddColumn(table string, c Column) string {
	return fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s %s", d.Quote(table), d.Quote(c.Name), c.Type)
}

// CreateIndex renders CREATE [UNIQUE] INDEX IF NOT EXISTS.
func (d *Dialect) CreateIndex(table string, ix Index) string {
	cols := make([]string, len(ix.Columns))
	for i, c := range ix.Columns {
		cols[i] = d.Quote(c)
	}
	u := ""
	if ix.Unique {
		u = "UNIQUE "
	}
	return fmt.Sprintf("CREATE %sINDEX IF NOT EXISTS %s ON %s (%s)", u, d.Quote(ix.Name), d.Quote(table), strings.Join(cols, ", "))
}

// coreStoreTable is Strapi's core store, where the i18n plugin keeps the default locale and
// users-permissions its advanced settings (the locales table comes from the i18n model).
func coreStoreTable() Table {
	return Table{Name: "strapi_core_store_settings", Columns: []Column{{"id", "id"}, {"key", "varchar(255)"}, {"value", "text"},
		{"type", "varchar(255)"}, {"environment", "varchar(255)"}, {"tag", "varchar(255)"}}}
}

// uploadTables are the indexes Strapi puts on the media library's tables: the tables
// themselves (files, upload_folders and their link tables) come from the schema's models.
func uploadTables() []Table {
	return []Table{
		{Name: "files", Indexes: []Index{
			{Name: "upload_files_folder_path_index", Columns: []string{"folder_path"}},
			{Name: "upload_files_created_at_index", Columns: []string{"created_at"}},
			{Name: "upload_files_updated_at_index", Columns: []string{"updated_at"}},
			{Name: "upload_files_name_index", Columns: []string{"name"}},
			{Name: "upload_files_size_index", Columns: []string{"size"}},
			{Name: "upload_files_ext_index", Columns: []string{"ext"}},
		}},
		{Name: "upload_folders", Indexes: []Index{
			{Name: "upload_folders_path_id_index", Columns: []string{"path_id"}, Unique: true},
			{Name: "upload_folders_path_index", Columns: []string{"path"}, Unique: true},
		}},
	}
}
