package write

import (
	"reflect"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/schemas"
)

// TestAttributeRules checks each attribute rule's message, path and order, walking a payload
// without a database (testdata/rules: one attribute per rule).
func TestAttributeRules(t *testing.T) {
	s, err := schemas.Load("testdata/rules")
	if err != nil {
		t.Fatal(err)
	}
	w := &Writer{Schema: s}
	m := s.Models["api::thing.thing"]
	// valid fills the required attributes, so that a case shows only its own errors.
	const valid = `"name":"abc","ratio":1,"big":"7","doc":{},"owner":1,"part":{},"parts":[{},{}]`
	type fe struct{ path, msg string }
	cases := []struct {
		name   string
		update bool
		draft  bool
		data   string
		want   []fe
	}{
		{name: "valid", data: `{` + valid + `}`},
		{name: "required absent on create", data: `{}`, want: []fe{
			{"name", "name must be defined."}, {"ratio", "ratio must be defined."}, {"big", "big must be defined."},
			{"doc", "doc must be defined."}, {"owner", "owner must be defined."}, {"part", "part must be defined."},
			{"parts", "parts must be defined."}}},
		{name: "required null on create", data: `{"name":null,"ratio":null,"big":null,"doc":null,"owner":null,"part":null,"parts":null}`, want: []fe{
			{"name", "name must be a `string` type, but the final value was: `null`."},
			{"ratio", "ratio must be a `number` type, but the final value was: `NaN`."},
			{"big", "big must be defined."}, {"doc", "doc must be defined."}, {"owner", "owner must be defined."},
			{"part", "part must be a `object` type, but the final value was: `null`."},
			{"parts", "parts must be a `array` type, but the final value was: `null`."}}},
		{name: "required null on update", update: true, data: `{"big":null,"doc":null,"owner":null}`, want: []fe{
			{"big", "big cannot be null."}, {"doc", "doc cannot be null."}, {"owner", "owner cannot be null."}}},
		{name: "required absent on update", update: true, data: `{}`},
		{name: "drafts skip required and minLength, not lists", draft: true, data: `{"name":"ab","big":null}`, want: []fe{
			{"parts", "parts must be defined."}}},
		{name: "minLength", data: `{` + valid + `,"name":"ab"}`, want: []fe{{"name", "name must be at least 3 characters"}}},
		{name: "maxLength", data: `{` + valid + `,"name":"abcdef"}`, want: []fe{{"name", "name must be at most 5 characters"}}},
		{name: "email", data: `{` + valid + `,"mail":"nope"}`, want: []fe{{"mail", "mail must be a valid email"}}},
		{name: "email empty", data: `{` + valid + `,"mail":""}`, want: []fe{{"mail", "mail cannot be empty"}}},
		{name: "regex", data: `{` + valid + `,"code":"A1"}`, want: []fe{{"code", `code must match the following: "/^[a-z]+$/"`}}},
		{name: "regex skips empty optional", data: `{` + valid + `,"code":""}`},
		{name: "uid pattern", data: `{` + valid + `,"slug":"a b"}`, want: []fe{{"slug", `slug must match the following: "/^[A-Za-z0-9-_.~]*$/"`}}},
		{name: "enumeration", data: `{` + valid + `,"kind":"c"}`, want: []fe{{"kind", "kind must be one of the following values: a, b, "}}},
		{name: "enumeration from number", data: `{` + valid + `,"kind":1}`, want: []fe{{"kind", "kind must be one of the following values: a, b, "}}},
		{name: "integer", data: `{` + valid + `,"count":1.5}`, want: []fe{{"count", "count must be an integer"}}},
		{name: "min", data: `{` + valid + `,"count":-1,"ratio":0.25}`, want: []fe{
			{"count", "count must be greater than or equal to 0"}, {"ratio", "ratio must be greater than or equal to 0.5"}}},
		{name: "max", data: `{` + valid + `,"count":11}`, want: []fe{{"count", "count must be less than or equal to 10"}}},
		{name: "number type", data: `{` + valid + `,"count":"abc"}`, want: []fe{
			{"count", "count must be a `number` type, but the final value was: `NaN` (cast from the value `\"abc\"`)."}}},
		{name: "number cast from string", data: `{` + valid + `,"count":" 7 "}`},
		{name: "boolean type", data: `{` + valid + `,"flag":"yes"}`, want: []fe{
			{"flag", "flag must be a `boolean` type, but the final value was: `\"yes\"`."}}},
		{name: "boolean cast", data: `{` + valid + `,"flag":"TRUE"}`},
		{name: "biginteger type", data: `{` + valid + `,"big":1.5}`, want: []fe{
			{"big", "big must be a `number` type, but the final value was: `1.5`."}}},
		{name: "json NUL", data: `{` + valid + `,"doc":["\u0000"]}`, want: []fe{{"doc", "doc must not contain NUL characters"}}},
		{name: "component type", data: `{` + valid + `,"part":"x"}`, want: []fe{
			{"part", "part must be a `object` type, but the final value was: `\"x\"`."}}},
		{name: "list items", data: `{` + valid + `,"parts":[{},[],1]}`, want: []fe{
			{"parts.1", "parts[1] must be a `object` type, but the final value was: `[]`."},
			{"parts.2", "parts[2] must be a `object` type, but the final value was: `1`."}}},
		{name: "list min items", data: `{` + valid + `,"parts":[{}]}`, want: []fe{{"parts", "parts field must have at least 2 items"}}},
		{name: "list max items", data: `{` + valid + `,"parts":[{},{},{},{}]}`, want: []fe{{"parts", "parts field must have less than or equal to 3 items"}}},
		{name: "zone component", data: `{` + valid + `,"zone":[{"__component":{}},{"__component":5},{"__component":null},{}]}`, want: []fe{
			{"zone.0.__component", "zone[0].__component must be a `string` type, but the final value was: `{}`."},
			{"zone.1.__component", "zone[1].__component must be one of the following values: parts.part"},
			{"zone.2.__component", "zone[2].__component must be a `string` type, but the final value was: `null`."},
			{"zone.3.__component", "zone[3].__component is a required field"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			md := modeCreate
			if c.update {
				md = modeUpdate
			}
			p := &walker{w: w, mode: md, draft: c.draft, rules: w.rules(), linked: map[string][]int64{}}
			_, errs, _ := p.entry(m, decode(t, c.data), nil, objPath{segs: []string{}}, true, nil, false)
			var got []fe
			for _, e := range errs {
				if e.uniq == nil { // uniqueness needs the database
					got = append(got, fe{strings.Join(e.segs, "."), e.msg})
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("errors:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}
