package transfer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
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

// node is a row an entity's import creates: the entry or one of its components, with the
// components it holds.
type node struct {
	m    *schemas.Model
	data map[string]json.RawMessage
	kids []kid
	// at is when Strapi's import issues the row's INSERT, in database round trips from the
	// entity's start; seq is the node's place in the data (pre-order).
	at, seq int
	id      int64
}

// kid is a component a row holds: a row of the owner's components table.
type kid struct {
	n     *node
	field string
	order any
}

// create inserts one entry with its components and returns its new id. The components are
// created in the order Strapi's import creates them (see plan), then the entry.
func (r *run) create(m *schemas.Model, data map[string]json.RawMessage) (int64, error) {
	seq := 0
	var all []*node
	root, _, err := r.plan(m, data, 0, &seq, &all)
	if err != nil {
		return 0, err
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].at != all[j].at {
			return all[i].at < all[j].at
		}
		return all[i].seq < all[j].seq
	})
	for _, n := range all {
		if err := r.insertNode(n); err != nil {
			return 0, err
		}
		var old json.Number
		if archive.Decode(n.data["id"], &old) == nil {
			if o, err := old.Int64(); err == nil {
				r.mapID(n.m.UID, o, n.id)
			}
		}
	}
	if err := r.insertNode(root); err != nil {
		return 0, err
	}
	return root.id, nil
}

// plan builds the node of a row and of its components (added to all), timing each INSERT as
// Strapi's createComponents issues them: a row's attributes one after the other, the items
// of a repeatable component or a dynamic zone all at once, and the row itself once its
// components are created. A create takes a few round trips (its INSERT, the links of its
// components, the read that returns it), so an item whose components hold components is
// inserted after its siblings that hold none, as in Strapi. It returns when the row's create
// ends.
func (r *run) plan(m *schemas.Model, data map[string]json.RawMessage, start int, seq *int, all *[]*node) (*node, int, error) {
	n := &node{m: m, data: data, seq: *seq}
	*seq++
	t := start
	for _, a := range m.Attributes {
		raw, present := data[a.Name]
		if !present || isNull(raw) || (a.Type != schemas.ComponentT && a.Type != schemas.DynamicZone) {
			continue
		}
		if a.Type == schemas.ComponentT && !a.Repeatable {
			var it map[string]json.RawMessage
			if err := archive.Decode(raw, &it); err != nil {
				return nil, 0, fmt.Errorf("%s: expected a component", a.Name)
			}
			c, end, err := r.plan(a.Components[0], it, t, seq, all)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %w", a.Name, err)
			}
			*all = append(*all, c)
			n.kids = append(n.kids, kid{c, a.Name, nil})
			t = end
			continue
		}
		var items []map[string]json.RawMessage
		if err := archive.Decode(raw, &items); err != nil {
			return nil, 0, fmt.Errorf("%s: expected an array of components", a.Name)
		}
		end := t
		for i, it := range items {
			cm := a.Components[0]
			if a.Type == schemas.DynamicZone {
				var uid string
				json.Unmarshal(it["__component"], &uid)
				cm = nil
				for _, c := range a.Components {
					if c.UID == uid {
						cm = c
					}
				}
				if cm == nil {
					return nil, 0, fmt.Errorf("%s[%d]: component %q is not one of the dynamic zone's", a.Name, i, uid)
				}
			}
			c, e, err := r.plan(cm, it, t, seq, all)
			if err != nil {
				return nil, 0, fmt.Errorf("%s[%d]: %w", a.Name, i, err)
			}
			*all = append(*all, c)
			n.kids = append(n.kids, kid{c, a.Name, float64(i + 1)})
			end = max(end, e)
		}
		t = end
	}
	n.at = t
	trips := 2
	if len(n.kids) > 0 {
		trips++
	}
	return n, t + trips, nil
}

// insertNode inserts a row's columns (a missing attribute gets its default, as Strapi's
// query layer gives it), then the links to the components it holds.
func (r *run) insertNode(n *node) error {
	ins := sqlgen.Insert{Table: n.m.Table}
	for _, a := range n.m.Attributes {
		if a.Column == "" {
			continue
		}
		raw, present := n.data[a.Name]
		if !present {
			if a.Default == nil {
				continue
			}
			raw = a.Default
		}
		v, err := columnValue(a, raw)
		if err != nil {
			return fmt.Errorf("%s: %w", a.Name, err)
		}
		ins.Set(a.Column, v)
	}
	id, err := r.insertID(ins.Render(r.d))
	if err != nil {
		return err
	}
	n.id = id
	if len(n.kids) == 0 {
		return nil
	}
	rows := make([][]any, len(n.kids))
	for i, k := range n.kids {
		rows[i] = []any{id, k.n.id, k.n.m.UID, k.field, k.order}
	}
	for len(rows) > 0 {
		c := min(len(rows), 200)
		if err := r.exec(sqlgen.InsertRows(r.d, n.m.ComponentsTable, []string{"entity_id", "component_id", "component_type", "field", "order"}, rows[:c])); err != nil {
			return fmt.Errorf("link components: %w", err)
		}
		rows = rows[c:]
	}
	return nil
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
