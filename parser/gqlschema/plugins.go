package gqlschema

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/schemas"
)

// Root actions of the upload and i18n plugins' own resolvers (not Shadow CRUD).
const (
	ActionUpload             = "upload"
	ActionMultipleUpload     = "multipleUpload"
	ActionUpdateFileInfo     = "updateFileInfo"
	ActionRemoveFile         = "removeFile"
	ActionCreateLocalization = "createLocalization"
)

// GenericMorph is the union of every generated type, the type of a file's `related`
// entries (a morph relation).
const GenericMorph = "GenericMorph"

// Permissions the upload and i18n plugins give their resolvers in resolversConfig (the
// Shadow CRUD default, <uid>.<action>, names no content-API permission for them).
const (
	scopeUploadFind    = "plugin::upload.content-api.find"
	scopeUploadFindOne = "plugin::upload.content-api.findOne"
	scopeUpload        = "plugin::upload.content-api.upload"
	scopeUploadDestroy = "plugin::upload.content-api.destroy"
	scopeListLocales   = "plugin::i18n.locales.listLocales"
)

// pluginModelOrder is the order in which Strapi registers the plugins' content types:
// upload, users-permissions, i18n.
var pluginModelOrder = []string{schemas.FileUID, schemas.FolderUID,
	schemas.PermissionUID, schemas.RoleUID, schemas.UserUID, schemas.LocaleUID}

// IsMorph reports whether a field of a model's output type is the file's `related` morph
// relation, typed [GenericMorph] and served from the upload plugin's links.
func (s *Schema) IsMorph(m *schemas.Model, field string) bool {
	return field == "related" && m != nil && m == s.Content.Files && s.morph
}

// morphField is UploadFile.related, placed before the timestamps as Strapi places it.
func (g *gen) morphField(m *schemas.Model, out []fdef) []fdef {
	if m != g.cs.Files {
		return out
	}
	g.out.morph = true
	f := fdef{name: "related", typ: "[" + GenericMorph + "]"}
	for i, o := range out {
		if o.name == "createdAt" {
			return append(out[:i:i], append([]fdef{f}, out[i:]...)...)
		}
	}
	return append(out, f)
}

// genericMorph adds the GenericMorph union: the components, then the content types, in
// generation order, as Strapi's registry lists them.
func (g *gen) genericMorph() {
	if !g.out.morph {
		return
	}
	u := &def{kind: ast.Union, name: GenericMorph}
	for _, d := range g.defs {
		if d.kind != ast.Object {
			continue
		}
		if ti := g.out.types[d.name]; ti != nil && ti.Role == RoleAttributes {
			u.types = append(u.types, d.name)
		}
	}
	g.defs = append(g.defs, u)
	g.out.types[GenericMorph] = &TypeInfo{Role: RoleGenericMorph}
}

// uploadPlugin adds the upload plugin's FileInfoInput and its mutations: upload,
// multipleUpload, updateFileInfo and removeFile.
func (g *gen) uploadPlugin() {
	files := g.cs.Files
	if files == nil || g.out.models[files] == nil || !g.enabled(files) {
		return
	}
	g.defs = append(g.defs, &def{kind: ast.InputObject, name: "FileInfoInput", fields: []fdef{
		{name: "name", typ: "String"}, {name: "alternativeText", typ: "String"}, {name: "caption", typ: "String"}}})
	resp := TypeName(files) + "EntityResponse"
	add := func(f fdef, action, scope string) {
		g.mut = append(g.mut, f)
		g.out.roots["mutation."+f.name] = &Root{Model: files, Action: action}
		g.pluginScope("Mutation."+f.name, scope)
	}
	add(fdef{name: "upload", typ: resp + "!", args: []adef{{name: "refId", typ: "ID"}, {name: "ref", typ: "String"},
		{name: "field", typ: "String"}, {name: "info", typ: "FileInfoInput"}, {name: "file", typ: "Upload!"}}}, ActionUpload, scopeUpload)
	add(fdef{name: "multipleUpload", typ: "[" + resp + "]!", args: []adef{{name: "refId", typ: "ID"}, {name: "ref", typ: "String"},
		{name: "field", typ: "String"}, {name: "files", typ: "[Upload]!"}}}, ActionMultipleUpload, scopeUpload)
	add(fdef{name: "updateFileInfo", typ: resp + "!", args: []adef{{name: "id", typ: "ID!"}, {name: "info", typ: "FileInfoInput"}}},
		ActionUpdateFileInfo, scopeUpload)
	add(fdef{name: "removeFile", typ: resp, args: []adef{{name: "id", typ: "ID!"}}}, ActionRemoveFile, scopeUploadDestroy)
}

// i18nPlugin adds the locale scalar and the create<Type>Localization mutations of the
// localized types.
func (g *gen) i18nPlugin() {
	g.defs = append(g.defs, &def{kind: ast.Scalar, name: "I18NLocaleCode", desc: descLocale})
	for _, m := range g.models() {
		if !m.Localized || g.out.types[TypeName(m)] == nil {
			continue
		}
		name := "create" + TypeName(m) + "Localization"
		g.mut = append(g.mut, fdef{name: name, typ: TypeName(m) + "EntityResponse",
			args: []adef{{name: "id", typ: "ID"}, {name: "data", typ: TypeName(m) + "Input"}, {name: "locale", typ: "I18NLocaleCode"}}})
		g.out.roots["mutation."+name] = &Root{Model: m, Action: ActionCreateLocalization}
		g.pluginScope("Mutation."+name, m.UID+"."+ActionCreateLocalization)
	}
}

// pluginScopes sets the permissions of the Shadow CRUD resolvers of plugin types whose
// plugins configure them (upload files, i18n locales).
func (g *gen) pluginScopes(m *schemas.Model) {
	switch m.UID {
	case schemas.FileUID:
		g.pluginScope("Query."+FindName(m), scopeUploadFind)
		g.pluginScope("Query."+FindOneName(m), scopeUploadFindOne)
		g.pluginScope("Mutation."+MutationName(ActionCreate, m), scopeUpload)
		g.pluginScope("Mutation."+MutationName(ActionUpdate, m), scopeUpload)
		g.pluginScope("Mutation."+MutationName(ActionDelete, m), scopeUploadDestroy)
	case schemas.LocaleUID:
		g.pluginScope("Query."+FindName(m), scopeListLocales)
		g.pluginScope("Query."+FindOneName(m), scopeListLocales)
	}
}

// pluginScope records a plugin's resolver permission; the app's resolversConfig, applied
// afterwards, overrides it.
func (g *gen) pluginScope(field, scope string) {
	g.out.rconfig[field] = ResolverConfig{Scope: []string{scope}}
}
