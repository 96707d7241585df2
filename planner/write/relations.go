package write

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// relField is the parsed body value of one relation or media attribute.
type relField struct {
	attr *schemas.Attribute
	// set replaces the whole list with ids (arrays, ids, {id}, {set}, null).
	set bool
	ids []int64
	// Otherwise connect/disconnect edit the stored list.
	connect    []connectItem
	disconnect []int64
	strict     bool
}

type posKind int

const (
	posEnd posKind = iota
	posStart
	posBefore
	posAfter
)

// connectItem is one entry of a connect list.
type connectItem struct {
	id     int64
	idText string // the id as the client wrote it, for messages
	kind   posKind
	adjKey string // anchor of before/after: key(id) or an unmatchable key
	adjTxt string
	posRaw any // the position object as sent, for messages
}

func key(id int64) string { return strconv.FormatInt(id, 10) }

// intID reads a relation id: an integral JSON number or an integer string.
func intID(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		if n, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return n, true
		}
		f := numberOf(x)
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f), true
		}
	case string:
		if n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64); err == nil {
			return n, true
		}
	}
	return 0, false
}

// itemID reads an id or an {id} object.
func itemID(v any) (int64, bool) {
	if m, ok := v.(map[string]any); ok {
		return intID(m["id"])
	}
	return intID(v)
}

// parseRelation follows Strapi's toAssocs: ids, arrays, {id}, null and {set} replace the
// list; otherwise {connect, disconnect, options}.
func parseRelation(a *schemas.Attribute, v any) (*relField, bool) {
	rf := &relField{attr: a, strict: true}
	setOf := func(items []any) bool {
		rf.set = true
		for _, it := range items {
			id, ok := itemID(it)
			if !ok {
				return false
			}
			rf.ids = append(rf.ids, id)
		}
		return true
	}
	switch x := v.(type) {
	case nil:
		rf.set = true
		return rf, true
	case []any:
		return rf, setOf(x)
	case string, json.Number:
		return rf, setOf([]any{x})
	case map[string]any:
		if jsTruthy(x["id"]) {
			return rf, setOf([]any{x})
		}
		if s := x["set"]; jsTruthy(s) {
			arr, ok := s.([]any)
			return rf, ok && setOf(arr)
		}
		if c, ok := x["connect"]; ok && c != nil {
			arr, ok := c.([]any)
			if !ok {
				return rf, false
			}
			for _, it := range arr {
				ci, ok := parseConnect(it)
				if !ok {
					return rf, false
				}
				rf.connect = append(rf.connect, ci)
			}
		}
		if d, ok := x["disconnect"]; ok && d != nil {
			arr, isArr := d.([]any)
			if !isArr {
				arr = []any{d}
			}
			for _, it := range arr {
				id, ok := itemID(it)
				if !ok {
					return rf, false
				}
				rf.disconnect = append(rf.disconnect, id)
			}
		}
		if o, ok := x["options"].(map[string]any); ok {
			if s, ok := o["strict"].(bool); ok && !s {
				rf.strict = false
			}
		}
		return rf, true
	}
	return rf, false
}

func parseConnect(v any) (connectItem, bool) {
	id, ok := itemID(v)
	if !ok {
		return connectItem{}, false
	}
	raw := v
	if m, isMap := v.(map[string]any); isMap {
		raw = m["id"]
	}
	ci := connectItem{id: id, idText: jsString(raw)}
	m, isMap := v.(map[string]any)
	if !isMap {
		return ci, true
	}
	pos, ok := m["position"].(map[string]any)
	if !ok {
		return ci, true
	}
	ci.posRaw = pos
	anchor := func(a any) {
		if n, ok := intID(a); ok {
			ci.adjKey = key(n)
		} else {
			ci.adjKey = "\x00" + jsString(a)
		}
		ci.adjTxt = jsString(a)
	}
	switch {
	case jsTruthy(pos["before"]):
		ci.kind = posBefore
		anchor(pos["before"])
	case jsTruthy(pos["after"]):
		ci.kind = posAfter
		anchor(pos["after"])
	case jsTruthy(pos["start"]):
		ci.kind = posStart
	}
	return ci, true
}

// finalTargets computes the list of targets after the write, in order.
func finalTargets(cur []int64, rf *relField, toMany bool) ([]int64, error) {
	if !toMany {
		switch {
		case rf.set:
			if len(rf.ids) == 0 {
				return nil, nil
			}
			return rf.ids[len(rf.ids)-1:], nil
		case len(rf.connect) > 0:
			return []int64{rf.connect[len(rf.connect)-1].id}, nil
		}
		return without(cur, rf.disconnect), nil
	}
	if rf.set {
		return dedupe(rf.ids), nil
	}
	list := without(cur, rf.disconnect)
	if len(rf.connect) == 0 {
		return list, nil
	}
	sorted, err := sortConnect(rf.connect, list, rf.strict)
	if err != nil {
		return nil, err
	}
	for _, c := range sorted {
		list = without(list, []int64{c.id})
		idx := len(list)
		switch c.kind {
		case posStart:
			idx = 0
		case posBefore, posAfter:
			idx = -1
			for i, t := range list {
				if key(t) == c.adjKey {
					idx = i
					break
				}
			}
			if idx < 0 {
				return nil, apierror.Validation("There was a problem connecting relation with id %s at position %s. The list of connect relations is not valid",
					c.idText, jsStringifyCompact(c.posRaw))
			}
			if c.kind == posAfter {
				idx++
			}
		}
		list = append(list[:idx], append([]int64{c.id}, list[idx:]...)...)
	}
	return list, nil
}

// sortConnect orders a connect list so that every item comes after the item it is
// positioned against (Strapi's sortConnectArray), refusing anchors that are neither linked
// nor connected in the same list.
func sortConnect(items []connectItem, initial []int64, strict bool) ([]connectItem, error) {
	inInitial := map[string]bool{}
	for _, t := range initial {
		inInitial[key(t)] = true
	}
	type state struct {
		item     *connectItem
		computed bool
	}
	mapped := map[string]*state{}
	needs := false
	for i := range items {
		c := &items[i]
		if c.adjKey == "" || (!inInitial[c.adjKey] && mapped[c.adjKey] == nil) {
			needs = true
		}
		if mapped[key(c.id)] == nil {
			mapped[key(c.id)] = &state{item: c}
		}
	}
	if !needs {
		return items, nil
	}
	var out []connectItem
	var compute func(c *connectItem, seen map[string]bool) error
	compute = func(c *connectItem, seen map[string]bool) error {
		if c.adjKey != "" && seen[c.adjKey] {
			return apierror.Validation("A circular reference was found in the connect array. One relation is trying to connect before/after another one that is trying to connect before/after it")
		}
		st := mapped[key(c.id)]
		if st.computed {
			return nil
		}
		st.computed = true
		if c.adjKey == "" || inInitial[c.adjKey] {
			out = append(out, *c)
			return nil
		}
		if adj := mapped[c.adjKey]; adj != nil {
			next := map[string]bool{key(c.id): true}
			for k := range seen {
				next[k] = true
			}
			if err := compute(adj.item, next); err != nil {
				return err
			}
			out = append(out, *c)
			return nil
		}
		if strict {
			return apierror.Validation("There was a problem connecting relation with id %s at position %s. The relation with id %s needs to be connected first.",
				c.idText, jsStringifyCompact(c.posRaw), c.adjTxt)
		}
		cc := *c
		cc.kind, cc.adjKey = posEnd, ""
		out = append(out, cc)
		return nil
	}
	for i := range items {
		if err := compute(&items[i], map[string]bool{}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func without(list, drop []int64) []int64 {
	if len(drop) == 0 {
		return append([]int64(nil), list...)
	}
	skip := map[int64]bool{}
	for _, d := range drop {
		skip[d] = true
	}
	out := make([]int64, 0, len(list))
	for _, t := range list {
		if !skip[t] {
			out = append(out, t)
		}
	}
	return out
}

func dedupe(ids []int64) []int64 {
	seen := map[int64]bool{}
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// storeEntry lists the values related to one target type, as Strapi's relation store does.
type storeEntry struct {
	uid   string
	items []any
}

type store struct {
	order []*storeEntry
	byUID map[string]*storeEntry
}

func (s *store) add(uid string, items ...any) {
	e := s.byUID[uid]
	if e == nil {
		e = &storeEntry{uid: uid}
		s.byUID[uid] = e
		s.order = append(s.order, e)
	}
	e.items = append(e.items, items...)
}

// undefinedID stands for an {…} relation item without id.
type undefinedID struct{}

const errInvalidRelations = "Invalid relations"

// buildStore is Strapi's buildRelationsStore: it collects the related ids of every
// relation and media attribute of the payload, components and dynamic zones included.
// It returns the relation test's message when building fails.
func (p *walker) buildStore(m *schemas.Model, data map[string]any) string {
	p.rel = &store{byUID: map[string]*storeEntry{}}
	return p.storeWalk(m, data)
}

func (p *walker) storeWalk(m *schemas.Model, data map[string]any) string {
	if len(data) == 0 {
		return ""
	}
	for _, a := range m.Attributes {
		v := data[a.Name]
		if v == nil {
			continue
		}
		switch a.Type {
		case schemas.Relation, schemas.Media:
			var source []any
			switch x := v.(type) {
			case []any:
				source = x
			case map[string]any:
				var list any
				if c, ok := x["connect"]; ok && c != nil {
					list = c
				} else if s, ok := x["set"]; ok && s != nil {
					list = s
				} else {
					list = []any{}
				}
				arr, ok := list.([]any)
				if !ok {
					return errInvalidRelations
				}
				source = arr
			default:
				source = []any{x}
			}
			items := make([]any, len(source))
			for i, it := range source {
				if o, ok := it.(map[string]any); ok {
					id, has := o["id"]
					if !has {
						id = undefinedID{}
					}
					items[i] = id
				} else {
					items[i] = it
				}
			}
			p.rel.add(a.Target.UID, items...)
		case schemas.ComponentT:
			for _, cv := range castArray(v) {
				if obj, ok := cv.(map[string]any); ok {
					if msg := p.storeWalk(a.Components[0], obj); msg != "" {
						return msg
					}
				}
			}
		case schemas.DynamicZone:
			for _, dv := range castArray(v) {
				if dv == nil {
					return errInvalidRelations
				}
				obj, ok := dv.(map[string]any)
				if !ok || !jsTruthy(obj["__component"]) {
					return "Cannot build relations store from dynamiczone, component identifier is undefined"
				}
				uid, _ := obj["__component"].(string)
				c := p.w.Schema.Models[uid]
				if c == nil || c.Kind != schemas.Component {
					return errInvalidRelations
				}
				if msg := p.storeWalk(c, obj); msg != "" {
					return msg
				}
			}
		}
	}
	return ""
}

func castArray(v any) []any {
	if arr, ok := v.([]any); ok {
		return arr
	}
	return []any{v}
}

// storeKey tells values apart the way lodash's uniqBy does (1 and "1" differ).
func storeKey(v any) string {
	switch x := v.(type) {
	case json.Number:
		return "n" + jsNumberString(numberOf(x))
	case string:
		return "s" + x
	case nil:
		return "null"
	case undefinedID:
		return "undefined"
	}
	return fmt.Sprintf("o%v", v)
}

// checkRelations verifies, with one SELECT per target type, that every related id exists.
// It returns the message of the first failing type, as Strapi's relation test does.
func (p *walker) checkRelations() (string, error) {
	type target struct {
		uid      string
		distinct int // distinct store values; null and 1.5 count but can match no row
		storeIDs []int64
		linkIDs  []int64
	}
	var targets []*target
	byUID := map[string]*target{}
	for _, e := range p.rel.order {
		t := &target{uid: e.uid}
		seen := map[string]bool{}
		for _, it := range e.items {
			k := storeKey(it)
			if seen[k] {
				continue
			}
			seen[k] = true
			t.distinct++
			switch x := it.(type) {
			case nil:
			case json.Number:
				if id, ok := intID(x); ok {
					t.storeIDs = append(t.storeIDs, id)
				}
			case string:
				id, ok := intID(x)
				if !ok {
					return errInvalidRelations, nil
				}
				t.storeIDs = append(t.storeIDs, id)
			default:
				return errInvalidRelations, nil
			}
		}
		targets = append(targets, t)
		byUID[e.uid] = t
	}
	for _, uid := range p.linkedUIDs {
		t := byUID[uid]
		if t == nil {
			t = &target{uid: uid}
			targets = append(targets, t)
			byUID[uid] = t
		}
		t.linkIDs = append(t.linkIDs, p.linked[uid]...)
	}
	for _, t := range targets {
		all := dedupe(append(append([]int64(nil), t.storeIDs...), t.linkIDs...))
		found := map[int64]bool{}
		if len(all) > 0 {
			m := p.w.Schema.Models[t.uid]
			if m == nil {
				return "", fmt.Errorf("write: unknown relation target %s", t.uid)
			}
			ids, err := p.x.existingIDs(m.Table, all)
			if err != nil {
				return "", err
			}
			for _, id := range ids {
				found[id] = true
			}
		}
		count := 0
		for _, id := range dedupe(t.storeIDs) {
			if found[id] {
				count++
			}
		}
		if missing := t.distinct - count; missing > 0 {
			return fmt.Sprintf("%d relation(s) of type %s associated with this entity do not exist", missing, t.uid), nil
		}
		missing := 0
		for _, id := range dedupe(t.linkIDs) {
			if !found[id] {
				missing++
			}
		}
		if missing > 0 {
			return fmt.Sprintf("%d relation(s) of type %s associated with this entity do not exist", missing, t.uid), nil
		}
	}
	return "", nil
}

// lockUniques takes the transaction-scoped lock of every value about to be checked, in a
// stable order, so that no other writer can store one of them between the check and the
// commit (see sqlgen.UniqueLock).
func (p *walker) lockUniques() error {
	if len(p.uniques) == 0 {
		return nil
	}
	keys := make([]sqlgen.UniqueKey, len(p.uniques))
	for i, uc := range p.uniques {
		keys[i] = sqlgen.UniqueKey{Table: uc.model.Table, Column: uc.attr.Column, Value: uc.value}
	}
	for _, s := range sqlgen.UniqueLocks(p.x.db.d, keys) {
		if err := p.x.db.exec(s); err != nil {
			return fmt.Errorf("lock unique value: %w", err)
		}
	}
	return nil
}

// runUniques looks up every pending uniqueness check: one SELECT per string column (all
// values at once), one per value otherwise.
func (p *walker) runUniques() error {
	type group struct {
		m      *schemas.Model
		col    string
		checks []*uniqueCheck
	}
	var groups []*group
	byKey := map[string]*group{}
	db := p.x.db
	if err := p.lockUniques(); err != nil {
		return err
	}
	for _, uc := range p.uniques {
		if _, isStr := uc.value.(string); !isStr {
			var one int
			err := db.get(&one, db.c.UniqueTaken(db.d, uc.model.Table, uc.attr.Column, uc.value, uc.exclude))
			if err == nil {
				uc.conflict = true
			} else if !isNoRows(err) {
				return err
			}
			continue
		}
		k := uc.model.Table + "\x00" + uc.attr.Column
		g := byKey[k]
		if g == nil {
			g = &group{m: uc.model, col: uc.attr.Column}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.checks = append(g.checks, uc)
	}
	for _, g := range groups {
		values := make([]any, len(g.checks))
		for i, uc := range g.checks {
			values[i] = uc.value
		}
		rows, err := db.query(db.c.UniqueHolders(db.d, g.m.Table, g.col, values))
		if err != nil {
			return err
		}
		holders := map[string][]int64{}
		for rows.Next() {
			var id int64
			var v string
			if err := rows.Scan(&id, &v); err != nil {
				rows.Close()
				return err
			}
			holders[v] = append(holders[v], id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, uc := range g.checks {
			for _, id := range holders[uc.value.(string)] {
				if id != uc.exclude {
					uc.conflict = true
				}
			}
		}
	}
	return nil
}
