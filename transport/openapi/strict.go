package openapi

import (
	"sort"
	"strings"
)

// strict brings the document within what strict OpenAPI 3.0 linters (Redocly's recommended
// rules and the like) accept, without changing what it describes:
//
//   - `nullable` only beside a `type` (3.0.3: nullable adds null to the type given): an
//     allOf of one $ref or alternatives of one type get that type; alternatives of several
//     types get null as one more alternative; a schema of any type lists the types;
//   - alternatives that may overlap (an entry or a relation count, both objects) are anyOf,
//     not oneOf, which promises exactly one match;
//   - no component schema that nothing references.
func strict(doc obj) {
	schemasObj, _ := doc["components"].(obj)["schemas"].(obj)
	var fix func(v any)
	fix = func(v any) {
		switch x := v.(type) {
		case obj:
			for _, k := range sortedKeys(x) {
				fix(x[k])
			}
			fixNullable(x, schemasObj)
		case []any:
			for _, e := range x {
				fix(e)
			}
		}
	}
	fix(doc)
	prune(doc, schemasObj)
}

func sortedKeys(o obj) []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// typeOf is the type a schema (or the component it references) has, "" when none is given.
func typeOf(s any, comps obj) string {
	o, ok := s.(obj)
	if !ok {
		return ""
	}
	if r, ok := o["$ref"].(string); ok {
		return typeOf(comps[strings.TrimPrefix(r, "#/components/schemas/")], comps)
	}
	if t, ok := o["type"].(string); ok {
		return t
	}
	if all, ok := o["allOf"].([]any); ok && len(all) == 1 {
		return typeOf(all[0], comps)
	}
	return ""
}

func fixNullable(o obj, comps obj) {
	if o["nullable"] != true || o["type"] != nil {
		return
	}
	for _, comb := range []string{"allOf", "oneOf", "anyOf"} {
		alts, ok := o[comb].([]any)
		if !ok {
			continue
		}
		t := ""
		for i, a := range alts {
			at := typeOf(a, comps)
			if i == 0 {
				t = at
			} else if at != t {
				t = ""
			}
		}
		switch {
		case t != "":
			o["type"] = t
			if comb == "oneOf" && t == "object" {
				// Two objects may both match (an entry and a relation count): anyOf.
				delete(o, "oneOf")
				o["anyOf"] = alts
			}
		case comb != "allOf":
			delete(o, "nullable")
			o[comb] = append(alts, obj{"type": "object", "nullable": true, "enum": []any{nil}})
		}
		return
	}
	if len(o) == 1 {
		// Any value, null too (a JSON attribute): spelled as the alternatives of each type,
		// since 3.0 has no type for null.
		delete(o, "nullable")
		o["anyOf"] = []any{obj{"type": "object", "nullable": true}, obj{"type": "array", "items": obj{}},
			obj{"type": "string"}, obj{"type": "number"}, obj{"type": "boolean"}}
	}
}

// prune deletes the component schemas that nothing reachable from the paths references.
func prune(doc obj, comps obj) {
	used := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case obj:
			if r, ok := x["$ref"].(string); ok {
				name := strings.TrimPrefix(r, "#/components/schemas/")
				if !used[name] {
					used[name] = true
					walk(comps[name])
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc["paths"])
	for name := range comps {
		if !used[name] {
			delete(comps, name)
		}
	}
}
