// Package openapi describes the REST API Quarry serves for an app as an OpenAPI 3.0 document:
// every route (content types' CRUD and localizations, single types, users-permissions,
// upload, i18n) with its query parameters and Strapi v4's response shapes, so that clients'
// tooling can generate typed clients from it as it does from Strapi's documentation plugin.
package openapi

import (
	"encoding/json"
	"strings"

	"github.com/quarrycms/quarry/schemas"
)

// Path is where the server serves the document; Strapi's documentation plugin shows its
// document under /documentation/v1.0.0, and Quarry keeps that place for the JSON.
const Path = "/documentation/v1.0.0/openapi.json"

// Options say which plugins' routes the server mounts.
type Options struct {
	Title   string
	I18n    bool
	Upload  bool
	Users   bool
	Version string // info.version; "1.0.0" when empty
	// Routers are the project's core routers by content-type uid (src/api/*/routes): a type
	// without one has no route, and a router serves its actions under its prefix. Nil: every
	// type's core routes at /<name>.
	Routers map[string]Router
}

// Router is one content type's core router: its prefix ("/v2") and the actions it leaves
// (find, findOne, create, update, delete).
type Router struct {
	Prefix  string
	Actions map[string]bool
}

type obj = map[string]any

// Generate builds the document for a schema.
func Generate(s *schemas.Schema, opt Options) ([]byte, error) {
	g := &gen{s: s, schemas: obj{}, paths: obj{}, opt: opt}
	g.common()
	for _, m := range s.Components {
		g.component(m)
	}
	for _, m := range s.ContentTypes {
		if !strings.HasPrefix(m.UID, "api::") {
			continue
		}
		g.contentType(m)
	}
	if opt.Users {
		g.usersPermissions()
	}
	if opt.Upload {
		g.upload()
	}
	if opt.I18n {
		g.i18n()
	}
	title := opt.Title
	if title == "" {
		title = "Content API"
	}
	version := opt.Version
	if version == "" {
		version = "1.0.0"
	}
	doc := obj{
		"openapi": "3.0.3",
		"info": obj{"title": title, "version": version,
			"description": "The Strapi v4 content API of this app, as Quarry serves it."},
		"servers":    []any{obj{"url": "/api"}},
		"security":   []any{obj{"bearerAuth": []any{}}, obj{}},
		"paths":      g.paths,
		"components": obj{"schemas": g.schemas, "securitySchemes": obj{"bearerAuth": obj{"type": "http", "scheme": "bearer", "description": "An API token or a users-permissions JWT; without one, the public role's permissions apply."}}},
	}
	strict(doc)
	return json.MarshalIndent(doc, "", "  ")
}

type gen struct {
	s       *schemas.Schema
	schemas obj
	paths   obj
	opt     Options
}

func ref(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

// pascal turns "home-page" or "shared.seo" into "HomePage", "SharedSeo".
func pascal(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if r == '-' || r == '_' || r == '.' || r == ' ' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}

func typeName(m *schemas.Model) string {
	if m.Kind == schemas.Component {
		return "Component" + pascal(m.UID)
	}
	return pascal(m.SingularName)
}

func (g *gen) common() {
	g.schemas["Error"] = obj{
		"type": "object", "required": []any{"data", "error"},
		"properties": obj{
			"data": obj{"type": "object", "nullable": true},
			"error": obj{"type": "object", "required": []any{"status", "name", "message"}, "properties": obj{
				"status":  obj{"type": "integer"},
				"name":    obj{"type": "string"},
				"message": obj{"type": "string"},
				"details": obj{"type": "object"},
			}},
		},
	}
	g.schemas["Pagination"] = obj{"type": "object", "properties": obj{
		"page": obj{"type": "integer"}, "pageSize": obj{"type": "integer"}, "pageCount": obj{"type": "integer"},
		"start": obj{"type": "integer"}, "limit": obj{"type": "integer"}, "total": obj{"type": "integer"},
	}}
	g.schemas["ListMeta"] = obj{"type": "object", "properties": obj{"pagination": ref("Pagination")}}
	g.schemas["UploadFile"] = obj{"type": "object", "properties": obj{
		"name": str(), "alternativeText": nstr(), "caption": nstr(),
		"width": nint(), "height": nint(), "formats": obj{"type": "object", "nullable": true, "additionalProperties": ref("UploadFileFormat")},
		"hash": str(), "ext": nstr(), "mime": str(), "size": obj{"type": "number"},
		"url": str(), "previewUrl": nstr(), "provider": str(), "provider_metadata": obj{"type": "object", "nullable": true},
		"createdAt": dateTime(), "updatedAt": dateTime(),
	}}
	g.schemas["UploadFileFormat"] = obj{"type": "object", "properties": obj{
		"name": str(), "hash": str(), "ext": str(), "mime": str(), "path": nstr(),
		"width": obj{"type": "integer"}, "height": obj{"type": "integer"}, "size": obj{"type": "number"}, "url": str(),
	}}
	g.schemas["UploadFileEntry"] = entry("UploadFile")
	g.schemas["UploadFileRelation"] = relationOne("UploadFileEntry")
	g.schemas["UploadFileRelationList"] = relationMany("UploadFileEntry", true)
	g.schemas["RelationCount"] = obj{"type": "object", "required": []any{"attributes"}, "properties": obj{
		"attributes": obj{"type": "object", "required": []any{"count"}, "properties": obj{"count": obj{"type": "integer"}}},
	}}
	flat := obj{"type": "object", "properties": obj{"id": obj{"type": "integer"}}}
	g.schemas["UploadFileFlat"] = obj{"allOf": []any{flat, ref("UploadFile")}}
	g.schemas["RelationRef"] = obj{"oneOf": []any{obj{"type": "integer"}, obj{"type": "string"}}}
	g.schemas["RelationSet"] = obj{"oneOf": []any{
		obj{"type": "integer", "nullable": true},
		obj{"type": "array", "items": ref("RelationRef")},
		obj{"type": "object", "properties": obj{
			"connect":    obj{"type": "array", "items": obj{}},
			"disconnect": obj{"type": "array", "items": obj{}},
			"set":        obj{"type": "array", "items": obj{}},
		}},
	}}
}

func str() obj      { return obj{"type": "string"} }
func nstr() obj     { return obj{"type": "string", "nullable": true} }
func nint() obj     { return obj{"type": "integer", "nullable": true} }
func dateTime() obj { return obj{"type": "string", "format": "date-time"} }

// entry is Strapi's {id, attributes} of one entry.
func entry(attrs string) obj {
	return obj{"type": "object", "required": []any{"id", "attributes"}, "properties": obj{
		"id": obj{"type": "integer"}, "attributes": ref(attrs),
	}}
}

// relationOne is a populated to-one relation or media: {data: entry|null}, or with
// populate[x][count]=true {data: {attributes: {count}}}.
func relationOne(entryName string) obj {
	return obj{"type": "object", "properties": obj{"data": obj{
		"oneOf": []any{ref(entryName), ref("RelationCount")}, "nullable": true}}}
}

// relationMany is a populated to-many relation: {data: [entry…]} or the count; multiple
// media with no file are {data: null}.
func relationMany(entryName string, nullable bool) obj {
	data := obj{"oneOf": []any{obj{"type": "array", "items": ref(entryName)}, ref("RelationCount")}}
	if nullable {
		data["nullable"] = true
	}
	return obj{"type": "object", "properties": obj{"data": data}}
}

// scalar is the JSON a scalar attribute reads as in Strapi v4's answers.
func scalar(a *schemas.Attribute) obj {
	var o obj
	switch a.Type {
	case schemas.Integer:
		o = obj{"type": "integer"}
	case schemas.BigInteger:
		o = obj{"type": "string", "pattern": "^-?[0-9]+$"} // Strapi answers bigints as strings
	case schemas.Float, schemas.Decimal:
		o = obj{"type": "number"}
	case schemas.Boolean:
		o = obj{"type": "boolean"}
	case schemas.Date:
		o = obj{"type": "string", "format": "date"}
	case schemas.DateTime, schemas.Timestamp:
		o = dateTime()
	case schemas.Time:
		o = obj{"type": "string", "pattern": "^[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{3})?$"}
	case schemas.Enumeration:
		values := make([]any, 0, len(a.Enum))
		for _, v := range a.Enum {
			values = append(values, v)
		}
		o = obj{"type": "string", "enum": values}
	case schemas.Email:
		o = obj{"type": "string", "format": "email"}
	case schemas.JSON:
		o = obj{}
	case schemas.Blocks:
		o = obj{"type": "array", "items": obj{"type": "object"}}
	default:
		o = obj{"type": "string"}
	}
	// Required attributes are null in drafts and where an entry predates the rule.
	if !a.System || a.Name == "publishedAt" || a.Name == "locale" {
		if a.Type == schemas.JSON {
			o["nullable"] = true
		} else if _, ok := o["type"]; ok {
			o["nullable"] = true
		}
	}
	return o
}

// attributes builds the read schema of a model's attributes (an entry's "attributes", or a
// component's fields with its id) and the write schema of its "data".
func (g *gen) attributes(m *schemas.Model, component bool) (read, write obj) {
	props, wprops := obj{}, obj{}
	var required []any
	if component {
		props["id"] = obj{"type": "integer"}
		wprops["id"] = obj{"type": "integer"}
	}
	for _, a := range m.Attributes {
		if a.Hidden() {
			continue
		}
		switch a.Type {
		case schemas.Relation:
			if a.Target == nil || a.Target.Kind == schemas.Component {
				continue
			}
			if a.Target == g.s.Files {
				continue
			}
			if !strings.HasPrefix(a.Target.UID, "api::") && a.Target.UID != schemas.UserUID {
				continue
			}
			en := typeName(a.Target) + "Entry"
			if a.IsToMany() {
				props[a.Name] = relationMany(en, false)
			} else {
				props[a.Name] = relationOne(en)
			}
			if !a.System {
				wprops[a.Name] = ref("RelationSet")
			}
		case schemas.Media:
			if a.Multiple {
				props[a.Name] = ref("UploadFileRelationList")
				wprops[a.Name] = obj{"type": "array", "items": obj{"type": "integer"}}
			} else {
				props[a.Name] = ref("UploadFileRelation")
				wprops[a.Name] = obj{"type": "integer", "nullable": true}
			}
		case schemas.ComponentT:
			if len(a.Components) == 0 {
				continue
			}
			c := typeName(a.Components[0])
			if a.Repeatable {
				props[a.Name] = obj{"type": "array", "items": ref(c)}
				wprops[a.Name] = obj{"type": "array", "items": ref(c + "Input")}
			} else {
				props[a.Name] = obj{"allOf": []any{ref(c)}, "nullable": true}
				wprops[a.Name] = obj{"allOf": []any{ref(c + "Input")}, "nullable": true}
			}
		case schemas.DynamicZone:
			var items, witems []any
			for _, c := range a.Components {
				items = append(items, ref(typeName(c)+"Item"))
				witems = append(witems, ref(typeName(c)+"ItemInput"))
			}
			if len(items) == 0 {
				continue
			}
			props[a.Name] = obj{"type": "array", "items": obj{"oneOf": items}}
			wprops[a.Name] = obj{"type": "array", "items": obj{"oneOf": witems}}
		default:
			if !a.IsScalar() {
				continue
			}
			props[a.Name] = scalar(a)
			if !a.System || a.Name == "locale" || a.Name == "publishedAt" {
				w := scalar(a)
				wprops[a.Name] = w
			}
			if a.Required && !a.System {
				required = append(required, a.Name)
			}
		}
	}
	read = obj{"type": "object", "properties": props}
	write = obj{"type": "object", "properties": wprops}
	if len(required) > 0 {
		write["required"] = required
	}
	return read, write
}

func (g *gen) component(m *schemas.Model) {
	name := typeName(m)
	read, write := g.attributes(m, true)
	g.schemas[name] = read
	g.schemas[name+"Input"] = write
	tag := obj{"type": "object", "required": []any{"__component"}, "properties": obj{
		"__component": obj{"type": "string", "enum": []any{m.UID}},
	}}
	g.schemas[name+"Item"] = obj{"allOf": []any{tag, ref(name)}}
	g.schemas[name+"ItemInput"] = obj{"allOf": []any{tag, ref(name + "Input")}}
}

func (g *gen) contentType(m *schemas.Model) {
	name := typeName(m)
	read, write := g.attributes(m, false)
	g.schemas[name] = read
	g.schemas[name+"Entry"] = entry(name)
	g.schemas[name+"Input"] = write
	g.schemas[name+"Request"] = obj{"type": "object", "required": []any{"data"}, "properties": obj{"data": ref(name + "Input")}}
	g.schemas[name+"Response"] = obj{"type": "object", "properties": obj{
		"data": obj{"allOf": []any{ref(name + "Entry")}, "nullable": true},
		"meta": obj{"type": "object"},
	}}
	g.schemas[name+"ListResponse"] = obj{"type": "object", "properties": obj{
		"data": obj{"type": "array", "items": ref(name + "Entry")},
		"meta": ref("ListMeta"),
	}}
	tag := m.DisplayName
	if tag == "" {
		tag = name
	}
	prefix := ""
	enabled := func(string) bool { return true }
	if g.opt.Routers != nil {
		r, ok := g.opt.Routers[m.UID]
		if !ok {
			return // Strapi routes nothing of a type without a router
		}
		prefix = strings.TrimSuffix(r.Prefix, "/")
		enabled = func(a string) bool { return r.Actions[a] }
	}
	single := g.readParams(m, false)
	list := g.readParams(m, true)
	idParam := obj{"name": "id", "in": "path", "required": true, "schema": obj{"type": "integer"}}
	body := obj{"required": true, "content": obj{"application/json": obj{"schema": ref(name + "Request")}}}
	one := ok(ref(name + "Response"))
	add := func(path, method, action string, o obj) {
		if !enabled(action) {
			return
		}
		item, _ := g.paths[path].(obj)
		if item == nil {
			item = obj{}
			g.paths[path] = item
		}
		item[method] = o
	}
	localized := func(path, what string, params []any) {
		g.paths[path] = obj{"post": op(tag, "post"+name+"Localization", "Creates a localization of "+what+".", params,
			obj{"required": true, "content": obj{"application/json": obj{"schema": ref(name + "Input")}}}, ok(ref(name+"Localization")))}
		g.localization(name)
	}
	if m.Kind == schemas.SingleType {
		if m.Localized {
			// locale=all lists the localizations of a single type.
			g.schemas[name+"Response"] = obj{"type": "object", "properties": obj{
				"data": obj{"oneOf": []any{ref(name + "Entry"), obj{"type": "array", "items": ref(name + "Entry")}}, "nullable": true},
				"meta": obj{"type": "object"},
			}}
		}
		p := prefix + "/" + m.SingularName
		add(p, "get", "find", op(tag, "get"+name, "Reads the "+tag+".", single, nil, one))
		add(p, "put", "update", op(tag, "put"+name, "Creates or updates the "+tag+".", g.writeParams(m), body, one))
		add(p, "delete", "delete", op(tag, "delete"+name, "Deletes the "+tag+".", g.writeParams(m), nil, one))
		if m.Localized {
			localized("/"+m.SingularName+"/localizations", "the "+tag, nil)
		}
		return
	}
	p := prefix + "/" + m.PluralName
	add(p, "get", "find", op(tag, "get"+pascal(m.PluralName), "Lists "+tag+" entries.", list, nil, ok(ref(name+"ListResponse"))))
	add(p, "post", "create", op(tag, "post"+name, "Creates a "+tag+" entry.", g.writeParams(m), body, one))
	add(p+"/{id}", "get", "findOne", op(tag, "get"+name+"ById", "Reads one "+tag+" entry.", append([]any{idParam}, single...), nil, one))
	add(p+"/{id}", "put", "update", op(tag, "put"+name+"ById", "Updates a "+tag+" entry (the attributes given).", append([]any{idParam}, g.writeParams(m)...), body, one))
	add(p+"/{id}", "delete", "delete", op(tag, "delete"+name+"ById", "Deletes a "+tag+" entry and returns it.", []any{idParam}, nil, one))
	if m.Localized {
		localized("/"+m.PluralName+"/{id}/localizations", "a "+tag+" entry", []any{idParam})
	}
}

// localization is the raw (unwrapped) entry i18n's localization route answers with: its
// attributes beside its id, its localizations a plain array of such entries.
func (g *gen) localization(name string) {
	read := g.schemas[name].(obj)
	props := obj{"id": obj{"type": "integer"}}
	for k, v := range read["properties"].(obj) {
		props[k] = v
	}
	props["localizations"] = obj{"type": "array", "items": obj{"type": "object"}}
	g.schemas[name+"Localization"] = obj{"type": "object", "properties": props}
}

// readParams are the query parameters of a read (Strapi's qs syntax).
func (g *gen) readParams(m *schemas.Model, list bool) []any {
	// fields and populate are plain strings, as Strapi's documentation plugin declares them
	// (populate=*, populate=author,tags, fields=title,slug); their bracketed forms
	// (populate[author][fields][0]=name) go in the query string as they are.
	ps := []any{
		obj{"name": "fields", "in": "query", "description": "Attributes to return: fields=title,slug (or fields[0]=title&fields[1]=slug).", "schema": str()},
		obj{"name": "populate", "in": "query", "description": "Relations, media, components and dynamic zones to include: populate=*, populate=author,tags (or populate[author][fields][0]=name).", "schema": str()},
	}
	if list || m.Kind == schemas.SingleType {
		if list {
			ps = append(ps,
				obj{"name": "filters", "in": "query", "description": "Filters: filters[title][$containsi]=go, filters[$or][0][views][$gt]=10, through relations: filters[author][name][$eq]=Ann.", "style": "deepObject", "explode": true,
					"schema": obj{"type": "object", "additionalProperties": true}},
				obj{"name": "sort", "in": "query", "description": "Sort: sort=title:desc or sort[0]=title&sort[1]=id:asc.", "schema": obj{"type": "string"}},
				obj{"name": "pagination[page]", "in": "query", "schema": obj{"type": "integer", "minimum": 1}},
				obj{"name": "pagination[pageSize]", "in": "query", "schema": obj{"type": "integer", "minimum": 1}},
				obj{"name": "pagination[start]", "in": "query", "schema": obj{"type": "integer", "minimum": 0}},
				obj{"name": "pagination[limit]", "in": "query", "schema": obj{"type": "integer"}},
				obj{"name": "pagination[withCount]", "in": "query", "schema": obj{"type": "boolean"}},
			)
		}
		if m.DraftAndPublish {
			ps = append(ps, obj{"name": "publicationState", "in": "query", "description": "live (default) or preview (drafts too).",
				"schema": obj{"type": "string", "enum": []any{"live", "preview"}}})
		}
		if m.Localized {
			ps = append(ps, obj{"name": "locale", "in": "query", "description": "A locale code, or all.", "schema": obj{"type": "string"}})
		}
	}
	return ps
}

func (g *gen) writeParams(m *schemas.Model) []any {
	if m.Localized {
		return []any{obj{"name": "locale", "in": "query", "description": "The localization to write.", "schema": obj{"type": "string"}}}
	}
	return []any{}
}

func ok(schema obj) obj {
	return obj{"description": "OK", "content": obj{"application/json": obj{"schema": schema}}}
}

var errorStatuses = []string{"400", "401", "403", "404", "500"}

func op(tag, id, summary string, params []any, body obj, success obj) obj {
	o := obj{"tags": []any{tag}, "operationId": id, "summary": summary, "responses": responses(success)}
	if len(params) > 0 {
		o["parameters"] = params
	}
	if body != nil {
		o["requestBody"] = body
	}
	return o
}

func responses(success obj) obj {
	r := obj{"200": success}
	for _, s := range errorStatuses {
		r[s] = obj{"description": errorText[s], "content": obj{"application/json": obj{"schema": ref("Error")}}}
	}
	return r
}

var errorText = map[string]string{"400": "Bad Request (ValidationError)", "401": "Unauthorized", "403": "Forbidden", "404": "Not Found", "500": "Internal Server Error"}
