package transfer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/transport/plugins/upload"
	"github.com/quarrycms/quarry/transport/transfer/archive"
)

// ---- entities ----

type entityLine struct {
	Type string                     `json:"type"`
	ID   json.Number                `json:"id"`
	Data map[string]json.RawMessage `json:"data"`
}

func (r *run) entity(raw json.RawMessage) error {
	var e entityLine
	if err := archive.Decode(raw, &e); err != nil {
		return fmt.Errorf("%w: an entities line: %v", archive.ErrInvalid, err)
	}
	r.done[archive.Entities]++
	defer r.report(archive.Entities, false)
	m, ok := r.im.Schema.Models[e.Type]
	if !ok || m.Kind == schemas.Component || Ignored(e.Type) {
		return nil // Strapi discards the entities of types the destination does not have
	}
	old, err := e.ID.Int64()
	if err != nil {
		return fmt.Errorf("%w: %s entity with id %q", archive.ErrInvalid, e.Type, e.ID)
	}
	id, err := r.create(m, e.Data)
	if err != nil {
		return fmt.Errorf("create %s (id %d in the archive): %w", e.Type, old, err)
	}
	r.mapID(e.Type, old, id)
	r.res.Counts[archive.Entities]++
	return nil
}

func (r *run) mapID(uid string, old, id int64) {
	m := r.ids[uid]
	if m == nil {
		m = map[int64]int64{}
		r.ids[uid] = m
	}
	m[old] = id
}

// compLink is a row of an owner's components table.
type compLink struct {
	id    int64
	uid   string
	field string
	order any
}

// create inserts one entry or component with its components (first, as Strapi's
// createComponents does, in attribute order) and returns its new id.
func (r *run) create(m *schemas.Model, data map[string]json.RawMessage) (int64, error) {
	ins := sqlgen.Insert{Table: m.Table}
	var comps []compLink
	for _, a := range m.Attributes {
		raw, present := data[a.Name]
		if present && isNull(raw) && a.Column == "" {
			continue
		}
		switch {
		case a.Type == schemas.ComponentT && present:
			if a.Repeatable {
				var items []map[string]json.RawMessage
				if err := archive.Decode(raw, &items); err != nil {
					return 0, fmt.Errorf("%s: expected an array of components", a.Name)
				}
				for i, it := range items {
					id, err := r.component(a.Components[0], it)
					if err != nil {
						return 0, fmt.Errorf("%s[%d]: %w", a.Name, i, err)
					}
					comps = append(comps, compLink{id, a.Components[0].UID, a.Name, float64(i + 1)})
				}
				continue
			}
			var it map[string]json.RawMessage
			if err := archive.Decode(raw, &it); err != nil {
				return 0, fmt.Errorf("%s: expected a component", a.Name)
			}
			id, err := r.component(a.Components[0], it)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", a.Name, err)
			}
			comps = append(comps, compLink{id, a.Components[0].UID, a.Name, nil})
		case a.Type == schemas.DynamicZone && present:
			var items []map[string]json.RawMessage
			if err := archive.Decode(raw, &items); err != nil {
				return 0, fmt.Errorf("%s: expected an array of components", a.Name)
			}
			for i, it := range items {
				var uid string
				json.Unmarshal(it["__component"], &uid)
				var cm *schemas.Model
				for _, c := range a.Components {
					if c.UID == uid {
						cm = c
					}
				}
				if cm == nil {
					return 0, fmt.Errorf("%s[%d]: component %q is not one of the dynamic zone's", a.Name, i, uid)
				}
				id, err := r.component(cm, it)
				if err != nil {
					return 0, fmt.Errorf("%s[%d]: %w", a.Name, i, err)
				}
				comps = append(comps, compLink{id, uid, a.Name, float64(i + 1)})
			}
		case a.Column != "":
			if !present {
				// Strapi's query layer gives a missing attribute its default.
				if a.Default == nil {
					continue
				}
				raw = a.Default
			}
			v, err := columnValue(a, raw)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", a.Name, err)
			}
			ins.Set(a.Column, v)
		}
	}
	id, err := r.insertID(ins.Render(r.d))
	if err != nil {
		return 0, err
	}
	if len(comps) > 0 {
		rows := make([][]any, len(comps))
		for i, c := range comps {
			rows[i] = []any{id, c.id, c.uid, c.field, c.order}
		}
		for len(rows) > 0 {
			n := min(len(rows), 200)
			if err := r.exec(sqlgen.InsertRows(r.d, m.ComponentsTable, []string{"entity_id", "component_id", "component_type", "field", "order"}, rows[:n])); err != nil {
				return 0, fmt.Errorf("link components: %w", err)
			}
			rows = rows[n:]
		}
	}
	return id, nil
}

// component creates one component and maps its archive id to the new one (links of
// relations inside components name it).
func (r *run) component(m *schemas.Model, data map[string]json.RawMessage) (int64, error) {
	id, err := r.create(m, data)
	if err != nil {
		return 0, err
	}
	var old json.Number
	if archive.Decode(data["id"], &old) == nil {
		if o, err := old.Int64(); err == nil {
			r.mapID(m.UID, o, id)
		}
	}
	return id, nil
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// columnValue converts an archive value to what the attribute's column stores (before the
// dialect's Bind).
func columnValue(a *schemas.Attribute, raw json.RawMessage) (any, error) {
	if isNull(raw) {
		return nil, nil
	}
	switch a.Type {
	case schemas.JSON, schemas.Blocks:
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return nil, err
		}
		return b.String(), nil
	case schemas.String, schemas.Text, schemas.RichText, schemas.Email, schemas.Password, schemas.UID, schemas.Enumeration:
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, nil
		}
		return string(bytes.TrimSpace(raw)), nil
	case schemas.Boolean:
		var b bool
		if json.Unmarshal(raw, &b) == nil {
			return b, nil
		}
	}
	var v any
	if err := archive.Decode(raw, &v); err != nil {
		return nil, err
	}
	iv := ir.Str("")
	switch x := v.(type) {
	case string:
		iv = ir.Str(x)
	case json.Number:
		iv = ir.Value{Kind: ir.VNumber, S: string(x)}
	case bool:
		iv = ir.Value{Kind: ir.VBool, S: strconv.FormatBool(x)}
	default:
		return nil, fmt.Errorf("a %s cannot hold %s", a.Type, raw)
	}
	out, err := planner.CastValue(a.Type, iv)
	if err != nil {
		return nil, fmt.Errorf("a %s cannot hold %s: %v", a.Type, raw, err)
	}
	return out, nil
}

// ---- links ----

type linkEnd struct {
	Type  string       `json:"type"`
	Ref   json.Number  `json:"ref"`
	Field string       `json:"field"`
	Pos   *json.Number `json:"pos"`
}

type linkLine struct {
	Kind     string  `json:"kind"`
	Relation string  `json:"relation"`
	Left     linkEnd `json:"left"`
	Right    linkEnd `json:"right"`
}

func (r *run) link(raw json.RawMessage) error {
	var l linkLine
	if err := archive.Decode(raw, &l); err != nil {
		return fmt.Errorf("%w: a links line: %v", archive.ErrInvalid, err)
	}
	r.done[archive.Links]++
	defer r.report(archive.Links, false)
	s := r.im.Schema
	lm, ok1 := s.Models[l.Left.Type]
	rm, ok2 := s.Models[l.Right.Type]
	if !ok1 || !ok2 || Ignored(l.Left.Type) || Ignored(l.Right.Type) {
		return nil
	}
	left, lok, err := r.ref(lm, l.Left.Ref)
	if err != nil {
		return err
	}
	right, rok, err := r.ref(rm, l.Right.Ref)
	if err != nil {
		return err
	}
	skip := func(why string) error {
		r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("skipping link %s:%s -> %s:%s (%s)", l.Left.Type, l.Left.Ref, l.Right.Type, l.Right.Ref, why))
		return nil
	}
	if !lok || !rok {
		return skip("an end does not exist")
	}
	pos := func(p *json.Number) any {
		if p == nil {
			return nil
		}
		f, err := p.Float64()
		if err != nil {
			return nil
		}
		return f
	}
	if l.Left.Type == schemas.FileUID && l.Left.Field == "related" {
		r.addLink(sqlgen.MorphsTable, []string{"file_id", "related_id", "related_type", "field", "order"},
			[]any{left, right, l.Right.Type, nullable(l.Right.Field), pos(l.Right.Pos)})
		r.res.Counts[archive.Links]++
		return nil
	}
	a, ok := lm.Attr(l.Left.Field)
	if !ok || a.Type != schemas.Relation || a.Link == nil || a.Link.Morph || a.MappedBy != "" {
		return skip("no such relation in the project")
	}
	j := a.Link
	cols := []string{j.SourceCol, j.TargetCol}
	vals := []any{left, right}
	if j.OrderCol != "" {
		cols, vals = append(cols, j.OrderCol), append(vals, pos(l.Left.Pos))
	}
	if j.InvOrderCol != "" {
		cols, vals = append(cols, j.InvOrderCol), append(vals, pos(l.Right.Pos))
	}
	r.addLink(j.Table, cols, vals)
	r.res.Counts[archive.Links]++
	return nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// ref maps an archive id to the new one; an id the import did not create is kept as it is
// (Strapi does the same) when such a row exists, and reported missing otherwise.
func (r *run) ref(m *schemas.Model, ref json.Number) (int64, bool, error) {
	old, err := ref.Int64()
	if err != nil {
		return 0, false, fmt.Errorf("%w: a link to %s with ref %q", archive.ErrInvalid, m.UID, ref)
	}
	if id, ok := r.ids[m.UID][old]; ok {
		return id, true, nil
	}
	rows, err := r.query(sqlgen.IDsIn(r.d, m.Table, []int64{old}))
	if err != nil {
		return 0, false, err
	}
	defer rows.Close()
	found := rows.Next()
	return old, found, rows.Err()
}

func (r *run) addLink(table string, cols []string, vals []any) {
	b := r.links[table]
	if b == nil || strings.Join(b.cols, ",") != strings.Join(cols, ",") {
		if b != nil {
			r.pendingErr(r.flushLink(table))
		}
		b = &linkBatch{cols: cols}
		r.links[table] = b
	}
	b.rows = append(b.rows, vals)
	if len(b.rows) >= 200 {
		r.pendingErr(r.flushLink(table))
	}
}

// pendingErr keeps the first error of a batched insert until the stage ends.
func (r *run) pendingErr(err error) {
	if err != nil && r.linkErr == nil {
		r.linkErr = err
	}
}

func (r *run) flushLink(table string) error {
	b := r.links[table]
	if b == nil || len(b.rows) == 0 {
		return nil
	}
	err := r.exec(sqlgen.InsertRows(r.d, table, b.cols, b.rows))
	b.rows = b.rows[:0]
	if err != nil {
		return fmt.Errorf("insert links into %s: %w", table, err)
	}
	return nil
}

func (r *run) flushLinks() error {
	if r.linkErr != nil {
		return r.linkErr
	}
	for t := range r.links {
		if err := r.flushLink(t); err != nil {
			return err
		}
	}
	return nil
}

// ---- files ----

// assetMetadata is assets/metadata/<name>.json: the file's row, or, for one of its formats,
// the format with the file's id (type names the format, mainHash the file's hash).
type assetMetadata struct {
	ID       json.Number `json:"id"`
	Hash     string      `json:"hash"`
	Ext      string      `json:"ext"`
	Mime     string      `json:"mime"`
	Path     *string     `json:"path"`
	Type     string      `json:"type"`
	MainHash string      `json:"mainHash"`
}

func (r *run) asset(e *archive.Entry) error {
	name := strings.TrimPrefix(e.Name, "assets/uploads/")
	r.done[archive.Assets]++
	r.bytes += e.Size
	defer r.report(archive.Assets, false)
	raw, ok := r.assetMeta[name]
	delete(r.assetMeta, name)
	var md assetMetadata
	if !ok || json.Unmarshal(raw, &md) != nil || md.Hash == "" {
		// An archive of Strapi before 4.10 has no metadata: the file goes to the uploads
		// under its own name, and no row changes.
		ext := ""
		if i := strings.LastIndexByte(name, '.'); i > 0 {
			ext = name[i:]
		}
		md = assetMetadata{Hash: strings.TrimSuffix(name, ext), Ext: ext}
		ok = false
	}
	o := upload.Object{Hash: md.Hash, Ext: md.Ext, Mime: md.Mime}
	if md.Path != nil {
		o.Path = *md.Path
	}
	url, err := r.stage.Put(r.ctx, o, e)
	if err != nil {
		return fmt.Errorf("store %s: %w", name, err)
	}
	r.res.Counts[archive.Assets]++
	r.res.Bytes[archive.Assets] += e.Size
	if !ok || !r.im.Filter.Includes(GroupContent) {
		return nil
	}
	provider := r.im.Files.ProviderName()
	files := r.im.Schema.Files
	var id int64
	if md.ID != "" {
		old, err := md.ID.Int64()
		if err != nil {
			return fmt.Errorf("%w: %s: id %q", archive.ErrInvalid, name, md.ID)
		}
		if id, ok = r.ids[schemas.FileUID][old]; !ok {
			return nil
		}
	}
	if md.Type == "" {
		u := sqlgen.Update{Table: files.Table, Key: "id", KeyValue: id}
		u.Set("url", url).Set("provider", provider)
		return r.exec(u.Render(r.d))
	}
	// A format: its url is inside the file's formats.
	var st sqlgen.Stmt
	if id != 0 {
		st = sqlgen.EntryColumns(r.d, files, id, "id", "formats")
	} else {
		st = sqlgen.RowsWhereHash(r.d, files.Table, md.MainHash)
	}
	rows, err := r.query(st)
	if err != nil {
		return err
	}
	var formats nullString
	found := rows.Next()
	if found {
		err = rows.Scan(&id, &formats)
	}
	rows.Close()
	if err != nil || !found {
		return err
	}
	updated, ok := setFormatURL([]byte(formats.s), md.Type, url)
	if !ok {
		return nil
	}
	u := sqlgen.Update{Table: files.Table, Key: "id", KeyValue: id}
	u.Set("formats", string(updated)).Set("provider", provider)
	return r.exec(u.Render(r.d))
}

// setFormatURL sets formats[name].url, keeping every key's order (the formats are served as
// stored).
func setFormatURL(formats []byte, name, url string) ([]byte, bool) {
	top, err := decodeOrdered(formats)
	if err != nil {
		return nil, false
	}
	for i, kv := range top {
		if kv.key != name {
			continue
		}
		inner, err := decodeOrdered(kv.val)
		if err != nil {
			return nil, false
		}
		u, _ := json.Marshal(url)
		set := false
		for j := range inner {
			if inner[j].key == "url" {
				inner[j].val, set = u, true
			}
		}
		if !set {
			inner = append(inner, kv2{"url", u})
		}
		top[i].val = encodeOrdered(inner)
		return encodeOrdered(top), true
	}
	return nil, false
}

type kv2 struct {
	key string
	val json.RawMessage
}

func decodeOrdered(b []byte) ([]kv2, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("not an object")
	}
	var out []kv2
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, kv2{t.(string), v})
	}
	return out, nil
}

func encodeOrdered(kvs []kv2) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range kvs {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.key)
		b.Write(k)
		b.WriteByte(':')
		json.Compact(&b, kv.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// ---- configuration ----

type configLine struct {
	Type  string                     `json:"type"`
	Value map[string]json.RawMessage `json:"value"`
}

func (r *run) config(raw json.RawMessage) error {
	var c configLine
	if err := json.Unmarshal(raw, &c); err != nil {
		return fmt.Errorf("%w: a configuration line: %v", archive.ErrInvalid, err)
	}
	r.done[archive.Configuration]++
	defer r.report(archive.Configuration, false)
	str := func(k string) any {
		v := c.Value[k]
		if isNull(v) {
			return nil
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
		return string(bytes.TrimSpace(v))
	}
	js := func(k string) any {
		v := c.Value[k]
		if isNull(v) {
			return nil
		}
		var b bytes.Buffer
		if json.Compact(&b, v) != nil {
			return nil
		}
		return b.String()
	}
	var ins sqlgen.Insert
	switch c.Type {
	case "core-store":
		if str("key") == sqlgen.LayoutKey {
			return nil // the destination's own record
		}
		// Strapi's export parsed the value; its import stores it stringified again.
		ins = sqlgen.Insert{Table: sqlgen.CoreStoreTable}
		ins.Set("key", str("key")).Set("value", js("value")).Set("type", str("type")).
			Set("environment", str("environment")).Set("tag", str("tag"))
	case "webhook":
		var enabled any
		var b bool
		if json.Unmarshal(c.Value["enabled"], &b) == nil {
			enabled = b
		}
		ins = sqlgen.Insert{Table: sqlgen.WebhooksTable}
		ins.Set("name", str("name")).Set("url", str("url")).Set("headers", js("headers")).
			Set("events", js("events")).Set("enabled", enabled)
	default:
		return nil
	}
	if err := r.exec(ins.Plain(r.d)); err != nil {
		return fmt.Errorf("import %s: %w", c.Type, err)
	}
	r.res.Counts[archive.Configuration]++
	return nil
}
