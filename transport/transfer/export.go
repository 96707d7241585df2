package transfer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/plugins/upload"
	"github.com/quarrycms/quarry/transport/transfer/archive"
)

// StrapiVersion is the version an export's metadata names: the Strapi whose archives Quarry
// writes (`strapi import` checks nothing of it by default).
const StrapiVersion = "4.26.2"

// Export writes the database's content as `strapi export` 4.26 does: the schemas, every
// entry of the content types (the plugins' too, not the admin's) with its components, the
// links of relations and media, the files with their rows, and the core store and webhooks.
// It reads one snapshot of the database (writers go on meanwhile), a page of entries at a
// time.
type Export struct {
	DB     *database.DB
	Schema *schemas.Schema
	Files  *upload.Service // nil: no files are written
	Log    *slog.Logger
	Report Reporter
	Filter Filter
	Now    func() time.Time
}

// page is how many entries an export reads per statement.
const page = 500

type exportRun struct {
	ex  *Export
	ctx context.Context
	tx  *sqlx.Tx
	d   sqlgen.Dialect
	w   *archive.Writer
	res *Result
	n   map[string]int64
}

// Run writes the archive; the caller closes w (or aborts it on an error).
func (ex *Export) Run(ctx context.Context, w *archive.Writer) (*Result, error) {
	if err := ex.Filter.Check(); err != nil {
		return nil, err
	}
	if ex.Log == nil {
		ex.Log = slog.New(slog.DiscardHandler)
	}
	tx, err := ex.DB.Snapshot(ctx)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	r := &exportRun{ex: ex, ctx: ctx, tx: tx, d: ex.DB.Dialect, w: w, res: newResult(), n: map[string]int64{}}
	if err := r.schemas(); err != nil {
		return nil, err
	}
	if err := w.Lines(archive.Schemas).Flush(); err != nil {
		return nil, err
	}
	steps := []struct {
		group, stage string
		fn           func() error
	}{
		{GroupContent, archive.Entities, r.entities},
		{GroupFiles, archive.Assets, r.assets},
		{GroupContent, archive.Links, r.links},
		{GroupConfig, archive.Configuration, r.configuration},
	}
	for _, s := range steps {
		if !ex.Filter.Includes(s.group) || (s.stage == archive.Assets && ex.Files == nil) {
			continue
		}
		if err := s.fn(); err != nil {
			return nil, fmt.Errorf("%s: %w", s.stage, err)
		}
		// Each stage's lines go out when it ends, so that the archive holds the stages in
		// Strapi's order and an import reads it in one pass.
		if err := w.Lines(s.stage).Flush(); err != nil {
			return nil, err
		}
		ex.Report.report(Event{Stage: s.stage, Done: r.n[s.stage], Total: r.n[s.stage], Bytes: r.res.Bytes[s.stage],
			TotalBytes: r.res.Bytes[s.stage], Finished: true})
	}
	return r.res, ctx.Err()
}

// Metadata is what an export's metadata.json says.
func (ex *Export) Metadata() archive.Metadata {
	now := time.Now
	if ex.Now != nil {
		now = ex.Now
	}
	md := archive.Metadata{CreatedAt: archive.Now(now())}
	md.Strapi.Version = StrapiVersion
	return md
}

func (r *exportRun) tick(stage string, bytes int64) {
	r.n[stage]++
	r.res.Counts[stage]++
	r.res.Bytes[stage] += bytes
	r.ex.Report.report(Event{Stage: stage, Done: r.n[stage], Total: -1, Bytes: r.res.Bytes[stage]})
}

func (r *exportRun) query(s sqlgen.Stmt) (*sqlx.Rows, error) {
	for i, a := range s.Args {
		s.Args[i] = r.d.Bind(a)
	}
	return r.tx.QueryxContext(r.ctx, s.SQL, s.Args...)
}

// entityModels are the types whose entries are exported, in Strapi's order (plugins' types,
// then the app's).
func entityModels(s *schemas.Schema) []*schemas.Model {
	out := []*schemas.Model{s.Files}
	out = append(out, s.Plugins...)
	return append(out, s.ContentTypes...)
}

// ---- entities ----

func (r *exportRun) entities() error {
	lw := r.w.Lines(archive.Entities)
	for _, m := range entityModels(r.ex.Schema) {
		cols := scalarColumns(m)
		var after int64
		for {
			rows, err := r.readRows(m, cols, sqlgen.RowsAfter(r.d, m.Table, cols, after, page))
			if err != nil {
				return fmt.Errorf("read %s: %w", m.Table, err)
			}
			if err := r.attachComponents(m, rows); err != nil {
				return err
			}
			for _, row := range rows {
				b, err := marshal(ordered{{"type", m.UID}, {"id", row.id}, {"data", row.data}})
				if err != nil {
					return err
				}
				if err := lw.WriteRaw(b); err != nil {
					return err
				}
				r.tick(archive.Entities, int64(len(b)))
				after = row.id
			}
			if len(rows) < page {
				break
			}
		}
	}
	return nil
}

// scalarColumns are id and the columns of m's scalar attributes.
func scalarColumns(m *schemas.Model) []string {
	cols := []string{"id"}
	for _, a := range m.Attributes {
		if a.Column != "" {
			cols = append(cols, a.Column)
		}
	}
	return cols
}

// exportRow is an entry or component read, its data in attribute order.
type exportRow struct {
	id   int64
	data ordered
}

// readRows runs a statement reading cols (id first) of m's rows and converts each value as
// Strapi's query layer returns it.
func (r *exportRun) readRows(m *schemas.Model, cols []string, s sqlgen.Stmt) ([]*exportRow, error) {
	rows, err := r.query(s)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byCol := map[string]*schemas.Attribute{}
	for _, a := range m.Attributes {
		if a.Column != "" {
			byCol[a.Column] = a
		}
	}
	var out []*exportRow
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		id, err := exec.Normalize(schemas.Integer, vals[0])
		if err != nil {
			return nil, err
		}
		row := &exportRow{id: id.(int64)}
		if m.Kind == schemas.Component {
			row.data = append(row.data, field{"id", row.id})
		}
		for i, c := range cols[1:] {
			a := byCol[c]
			v, err := exportValue(a, vals[i+1])
			if err != nil {
				return nil, fmt.Errorf("%s %d %s: %w", m.Table, row.id, a.Name, err)
			}
			row.data = append(row.data, field{a.Name, v})
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// exportValue is a column's value as Strapi's query layer gives it (and JSON.stringify
// writes it): datetimes as ISO strings with milliseconds, big integers as strings, JSON
// parsed.
func exportValue(a *schemas.Attribute, v any) (any, error) {
	n, err := exec.Normalize(a.Type, v)
	if err != nil || n == nil {
		return nil, err
	}
	switch x := n.(type) {
	case time.Time:
		return archive.Now(x), nil
	case int64:
		if a.Type == schemas.BigInteger {
			return strconv.FormatInt(x, 10), nil
		}
	case json.RawMessage:
		if !json.Valid(x) {
			return string(x), nil
		}
	}
	return n, nil
}

// attachComponents reads the components of a page of rows of m (and theirs) and adds them
// to each row's data under their attribute, in attribute order.
func (r *exportRun) attachComponents(m *schemas.Model, rows []*exportRow) error {
	if m.ComponentsTable == "" || len(rows) == 0 {
		return nil
	}
	ids := make([]int64, len(rows))
	byID := map[int64]*exportRow{}
	for i, row := range rows {
		ids[i] = row.id
		byID[row.id] = row
	}
	q, err := r.query(sqlgen.ComponentLinksOf(r.d, m.ComponentsTable, ids))
	if err != nil {
		return fmt.Errorf("read %s: %w", m.ComponentsTable, err)
	}
	type link struct {
		owner, id  int64
		uid, field string
	}
	var links []link
	want := map[string][]int64{}
	for q.Next() {
		var l link
		if err := q.Scan(&l.owner, &l.id, &l.uid, &l.field); err != nil {
			q.Close()
			return err
		}
		links = append(links, l)
		want[l.uid] = append(want[l.uid], l.id)
	}
	q.Close()
	if err := q.Err(); err != nil {
		return err
	}
	comps := map[string]map[int64]*exportRow{}
	for uid, cids := range want {
		cm, ok := r.ex.Schema.Models[uid]
		if !ok {
			continue
		}
		comps[uid] = map[int64]*exportRow{}
		cols := scalarColumns(cm)
		for len(cids) > 0 {
			n := min(len(cids), page)
			crows, err := r.readRows(cm, cols, sqlgen.RowsIn(r.d, cm.Table, cols, cids[:n]))
			if err != nil {
				return fmt.Errorf("read %s: %w", cm.Table, err)
			}
			if err := r.attachComponents(cm, crows); err != nil {
				return err
			}
			for _, c := range crows {
				comps[uid][c.id] = c
			}
			cids = cids[n:]
		}
	}
	// Group per owner and field, in stored order.
	per := map[int64]map[string][]link{}
	for _, l := range links {
		if per[l.owner] == nil {
			per[l.owner] = map[string][]link{}
		}
		per[l.owner][l.field] = append(per[l.owner][l.field], l)
	}
	for _, row := range rows {
		for _, a := range m.Attributes {
			switch a.Type {
			case schemas.ComponentT:
				ls := per[row.id][a.Name]
				if a.Repeatable {
					list := []any{}
					for _, l := range ls {
						if c := comps[l.uid][l.id]; c != nil {
							list = append(list, c.data)
						}
					}
					row.data = append(row.data, field{a.Name, list})
					continue
				}
				var v any
				if len(ls) > 0 {
					if c := comps[ls[0].uid][ls[0].id]; c != nil {
						v = c.data
					}
				}
				row.data = append(row.data, field{a.Name, v})
			case schemas.DynamicZone:
				list := []any{}
				for _, l := range per[row.id][a.Name] {
					if c := comps[l.uid][l.id]; c != nil {
						d := append(ordered{{"__component", l.uid}}, c.data...)
						list = append(list, d)
					}
				}
				row.data = append(row.data, field{a.Name, list})
			}
		}
	}
	return nil
}

// ---- links ----

func (r *exportRun) links() error {
	lw := r.w.Lines(archive.Links)
	s := r.ex.Schema
	models := append(entityModels(s), s.Components...)
	for _, m := range models {
		for _, a := range m.Attributes {
			if !a.OwnsLink() || Ignored(a.TargetUID) {
				continue
			}
			if err := r.relationLinks(lw, m, a); err != nil {
				return err
			}
		}
	}
	return r.morphLinks(lw)
}

func (r *exportRun) relationLinks(lw *archive.LineWriter, m *schemas.Model, a *schemas.Attribute) error {
	kind := "relation.basic"
	target := a.TargetUID
	if target == "" && a.Target != nil {
		target = a.Target.UID
	}
	if target == m.UID {
		kind = "relation.circular"
	}
	var after int64
	for {
		q, err := r.query(sqlgen.LinkRowsAfter(r.d, a.Link, after, page))
		if err != nil {
			return fmt.Errorf("read %s: %w", a.Link.Table, err)
		}
		n := 0
		for q.Next() {
			var id, src, tgt int64
			var pos, ipos *float64
			if err := q.Scan(&id, &src, &tgt, &pos, &ipos); err != nil {
				q.Close()
				return err
			}
			n++
			after = id
			left := ordered{{"type", m.UID}, {"ref", src}, {"field", a.Name}}
			if a.Link.OrderCol != "" {
				left = append(left, field{"pos", numOrNil(pos)})
			}
			right := ordered{{"type", target}, {"ref", tgt}}
			if a.InversedBy != "" {
				right = append(right, field{"field", a.InversedBy})
			}
			if a.Link.InvOrderCol != "" {
				right = append(right, field{"pos", numOrNil(ipos)})
			}
			if err := r.writeLink(lw, ordered{{"kind", kind}, {"relation", string(a.Relation)}, {"left", left}, {"right", right}}); err != nil {
				q.Close()
				return err
			}
		}
		q.Close()
		if err := q.Err(); err != nil {
			return err
		}
		if n < page {
			return nil
		}
	}
}

func numOrNil(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

func (r *exportRun) writeLink(lw *archive.LineWriter, l ordered) error {
	b, err := marshal(l)
	if err != nil {
		return err
	}
	r.tick(archive.Links, int64(len(b)))
	return lw.WriteRaw(b)
}

// morphLinks writes the media links (files_related_morphs), which Strapi exports from the
// file's side: the upload file's related attribute.
func (r *exportRun) morphLinks(lw *archive.LineWriter) error {
	var after int64
	for {
		q, err := r.query(sqlgen.MorphRowsAfter(r.d, after, page))
		if err != nil {
			return fmt.Errorf("read %s: %w", sqlgen.MorphsTable, err)
		}
		n := 0
		for q.Next() {
			var id, file, related int64
			var typ, fld *string
			var pos *float64
			if err := q.Scan(&id, &file, &related, &typ, &fld, &pos); err != nil {
				q.Close()
				return err
			}
			n++
			after = id
			right := ordered{{"type", deref(typ)}, {"ref", related}, {"field", deref(fld)}, {"pos", numOrNil(pos)}}
			l := ordered{{"kind", "relation.morph"}, {"relation", "morphToMany"},
				{"left", ordered{{"type", schemas.FileUID}, {"ref", file}, {"field", "related"}}}, {"right", right}}
			if err := r.writeLink(lw, l); err != nil {
				q.Close()
				return err
			}
		}
		q.Close()
		if err := q.Err(); err != nil {
			return err
		}
		if n < page {
			return nil
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// ---- files ----

func (r *exportRun) assets() error {
	m := r.ex.Schema.Files
	cols := scalarColumns(m)
	var after int64
	for {
		rows, err := r.readRows(m, cols, sqlgen.RowsAfter(r.d, m.Table, cols, after, page))
		if err != nil {
			return fmt.Errorf("read files: %w", err)
		}
		for _, row := range rows {
			after = row.id
			if err := r.asset(row); err != nil {
				return err
			}
		}
		if len(rows) < page {
			return nil
		}
	}
}

// asset writes one file and its formats: each as assets/metadata/<hash><ext>.json (the row,
// or the format with the file's id, the format's name as type and the file's hash as
// mainHash) followed by assets/uploads/<hash><ext>.
func (r *exportRun) asset(row *exportRow) error {
	get := func(k string) any {
		for _, f := range row.data {
			if f.k == k {
				return f.v
			}
		}
		return nil
	}
	str := func(k string) string { s, _ := get(k).(string); return s }
	meta := append(ordered{{"id", row.id}}, row.data...)
	if err := r.assetFile(upload.Object{Hash: str("hash"), Ext: str("ext"), Mime: str("mime")}, meta); err != nil {
		return err
	}
	raw, _ := get("formats").(json.RawMessage)
	if len(raw) == 0 {
		return nil
	}
	formats, err := decodeOrdered(raw)
	if err != nil {
		return nil
	}
	for _, f := range formats {
		var fm struct {
			Hash string  `json:"hash"`
			Ext  string  `json:"ext"`
			Mime string  `json:"mime"`
			Path *string `json:"path"`
		}
		if json.Unmarshal(f.val, &fm) != nil {
			continue
		}
		kv, err := decodeOrdered(f.val)
		if err != nil {
			continue
		}
		fmeta := ordered{}
		for _, x := range kv {
			fmeta = append(fmeta, field{x.key, x.val})
		}
		fmeta = append(fmeta, field{"type", f.key}, field{"id", row.id}, field{"mainHash", str("hash")})
		o := upload.Object{Hash: fm.Hash, Ext: fm.Ext, Mime: fm.Mime}
		if fm.Path != nil {
			o.Path = *fm.Path
		}
		if err := r.assetFile(o, fmeta); err != nil {
			return err
		}
	}
	return nil
}

func (r *exportRun) assetFile(o upload.Object, meta ordered) error {
	name := o.Hash + o.Ext
	rc, size, err := r.ex.Files.OpenObject(r.ctx, o)
	if err != nil {
		r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("file %s left out: %v", name, err))
		return nil
	}
	defer rc.Close()
	b, err := marshal(meta)
	if err != nil {
		return err
	}
	if err := r.w.Bytes("assets/metadata/"+name+".json", b); err != nil {
		return err
	}
	if err := r.w.File("assets/uploads/"+name, size, rc); err != nil {
		return err
	}
	r.tick(archive.Assets, size)
	return nil
}

// ---- configuration ----

func (r *exportRun) configuration() error {
	lw := r.w.Lines(archive.Configuration)
	write := func(typ string, value ordered) error {
		b, err := marshal(ordered{{"type", typ}, {"value", value}})
		if err != nil {
			return err
		}
		r.tick(archive.Configuration, int64(len(b)))
		return lw.WriteRaw(b)
	}
	q, err := r.query(sqlgen.RowsAfter(r.d, sqlgen.CoreStoreTable, sqlgen.CoreStoreColumns, 0, 1<<31))
	if err != nil {
		return fmt.Errorf("read the core store: %w", err)
	}
	for q.Next() {
		var id int64
		var key, value, typ, env, tag *string
		if err := q.Scan(&id, &key, &value, &typ, &env, &tag); err != nil {
			q.Close()
			return err
		}
		if key != nil && *key == sqlgen.LayoutKey {
			continue // Quarry's record of this database's layout
		}
		// Strapi's export parses the stored value.
		var v any = nil
		if value != nil {
			if json.Valid([]byte(*value)) {
				v = json.RawMessage(*value)
			} else {
				v = *value
			}
		}
		if err := write("core-store", ordered{{"id", id}, {"key", key}, {"value", v}, {"type", typ}, {"environment", env}, {"tag", tag}}); err != nil {
			q.Close()
			return err
		}
	}
	q.Close()
	if err := q.Err(); err != nil {
		return err
	}
	q, err = r.query(sqlgen.Webhooks(r.d))
	if err != nil {
		return fmt.Errorf("read the webhooks: %w", err)
	}
	defer q.Close()
	for q.Next() {
		var id int64
		var name, url *string
		var headers, events nullString
		var enabled any
		if err := q.Scan(&id, &name, &url, &headers, &events, &enabled); err != nil {
			return err
		}
		en, _ := exec.Normalize(schemas.Boolean, enabled)
		if err := write("webhook", ordered{{"id", id}, {"name", name}, {"url", url}, {"headers", rawOr(headers.s)},
			{"events", rawOr(events.s)}, {"enabled", en}}); err != nil {
			return err
		}
	}
	return q.Err()
}

func rawOr(s string) any {
	if s == "" || !json.Valid([]byte(s)) {
		return nil
	}
	return json.RawMessage(s)
}

// ---- ordered JSON ----

// field is one key of an ordered object.
type field struct {
	k string
	v any
}

// ordered is a JSON object that keeps its keys' order (Strapi's archives are read by key,
// but they are also read by people, and a round trip should not reshuffle them).
type ordered []field

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(f.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshal(f.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes v as JSON.stringify would: <, > and & as they are.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}
