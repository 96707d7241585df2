package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// rawSchema is schema.json as Strapi writes it; attributes are read separately to keep order.
type rawSchema struct {
	Kind           string `json:"kind"`
	CollectionName string `json:"collectionName"`
	Info           struct {
		SingularName string `json:"singularName"`
		PluralName   string `json:"pluralName"`
		DisplayName  string `json:"displayName"`
		Name         string `json:"name"`
	} `json:"info"`
	Options struct {
		DraftAndPublish bool `json:"draftAndPublish"`
	} `json:"options"`
	PluginOptions struct {
		I18n struct {
			Localized bool `json:"localized"`
		} `json:"i18n"`
	} `json:"pluginOptions"`
	Attributes json.RawMessage `json:"attributes"`
}

// looseNumber is a bound Strapi applies only when it is a JSON number (lodash's isNumber):
// the content-type builder writes a biginteger's min and max as strings, which Strapi boots
// with and ignores.
type looseNumber struct{ v *float64 }

func (n *looseNumber) UnmarshalJSON(b []byte) error {
	var f float64
	if json.Unmarshal(b, &f) == nil {
		n.v = &f
	}
	return nil
}

// looseInt is a length bound Strapi applies only when it is an integer (lodash's isInteger).
type looseInt struct{ v *int }

func (n *looseInt) UnmarshalJSON(b []byte) error {
	var f float64
	if json.Unmarshal(b, &f) == nil && f == math.Trunc(f) && math.Abs(f) < 1<<31 {
		i := int(f)
		n.v = &i
	}
	return nil
}

type rawAttr struct {
	Type          string          `json:"type"`
	Required      bool            `json:"required"`
	Unique        bool            `json:"unique"`
	Private       bool            `json:"private"`
	Default       json.RawMessage `json:"default"`
	Min           looseNumber     `json:"min"`
	Max           looseNumber     `json:"max"`
	MinLength     looseInt        `json:"minLength"`
	MaxLength     looseInt        `json:"maxLength"`
	Regex         string          `json:"regex"`
	Enum          []string        `json:"enum"`
	EnumName      string          `json:"enumName"`
	TargetField   string          `json:"targetField"`
	Relation      string          `json:"relation"`
	Target        string          `json:"target"`
	MappedBy      string          `json:"mappedBy"`
	InversedBy    string          `json:"inversedBy"`
	Multiple      bool            `json:"multiple"`
	AllowedTypes  []string        `json:"allowedTypes"`
	Component     string          `json:"component"`
	Repeatable    bool            `json:"repeatable"`
	Components    []string        `json:"components"`
	CustomField   string          `json:"customField"`
	PluginOptions struct {
		I18n struct {
			Localized *bool `json:"localized"`
		} `json:"i18n"`
	} `json:"pluginOptions"`
}

// Error is a schema problem, naming the file and attribute so a user can fix it.
type Error struct {
	File      string
	Attribute string
	Problem   string
}

func (e *Error) Error() string {
	if e.Attribute != "" {
		return fmt.Sprintf("%s: attribute %q: %s", e.File, e.Attribute, e.Problem)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Problem)
}

type pending struct {
	model *Model
	attrs []namedRaw
}

type namedRaw struct {
	name string
	raw  rawAttr
	src  json.RawMessage
}

// Load reads an app folder (or its src/ folder) and returns the validated schema.
func Load(appDir string) (*Schema, error) { return LoadWith(appDir, Options{}) }

// LoadWith is Load with options (custom fields, the stored columns, warnings).
func LoadWith(appDir string, opts Options) (*Schema, error) {
	src := filepath.Join(appDir, "src")
	if st, err := os.Stat(filepath.Join(appDir, "api")); err == nil && st.IsDir() {
		src = appDir
	}
	if _, err := os.Stat(src); err != nil {
		return nil, fmt.Errorf("load schemas: %w", err)
	}
	var todo []*pending

	ctFiles, err := filepath.Glob(filepath.Join(src, "api", "*", "content-types", "*", "schema.json"))
	if err != nil {
		return nil, fmt.Errorf("load schemas: %w", err)
	}
	sort.Strings(ctFiles)
	for _, f := range ctFiles {
		parts := strings.Split(filepath.ToSlash(f), "/")
		apiName := parts[len(parts)-4]
		ctName := parts[len(parts)-2]
		p, err := readModel(f, "api::"+apiName+"."+ctName, false)
		if err != nil {
			return nil, err
		}
		todo = append(todo, p)
	}
	lp, err := localPluginModels(src, opts.LocalPlugins)
	if err != nil {
		return nil, err
	}
	todo = append(todo, lp...)
	compDir := filepath.Join(src, "components")
	var compFiles []string
	err = filepath.WalkDir(compDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".json") {
			compFiles = append(compFiles, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load components: %w", err)
	}
	sort.Strings(compFiles)
	for _, f := range compFiles {
		rel, _ := filepath.Rel(compDir, f)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) != 2 {
			return nil, &Error{File: f, Problem: "components must be at src/components/<category>/<name>.json"}
		}
		uid := parts[0] + "." + strings.TrimSuffix(parts[1], ".json")
		p, err := readModel(f, uid, true)
		if err != nil {
			return nil, err
		}
		todo = append(todo, p)
	}
	if opts.I18nOff {
		// Without the i18n plugin Strapi never adds locale and localizations: pluginOptions.i18n
		// is inert and every type is served as not localized.
		for _, p := range todo {
			p.model.Localized = false
		}
	}
	up, err := usersPermissionsModels(src)
	if err != nil {
		return nil, err
	}
	pl, err := pluginModels()
	if err != nil {
		return nil, err
	}
	all := append(append(todo, up...), pl...)
	if err := resolveCustomFields(all, opts); err != nil {
		return nil, err
	}
	s, err := build(all)
	if err != nil {
		return nil, err
	}
	return s, s.finishUsersPermissions()
}

// localPluginModels reads the content types of enabled local plugins, as Strapi registers
// the contentTypes their server export declares: by the folder name, which Strapi requires to
// be the singular name, under plugin::<plugin>.<name>, in the table
// <plugin>_<singularName> unless the schema names one.
func localPluginModels(src string, plugins []string) ([]*pending, error) {
	var out []*pending
	for _, name := range plugins {
		var files []string
		for _, dir := range []string{"server", filepath.Join("server", "src"), filepath.Join("dist", "server")} {
			found, err := filepath.Glob(filepath.Join(src, "plugins", name, dir, "content-types", "*", "schema.json"))
			if err != nil {
				return nil, fmt.Errorf("load the plugin %s's content types: %w", name, err)
			}
			if len(found) > 0 {
				files = found
				break
			}
		}
		sort.Strings(files)
		for _, f := range files {
			ct := filepath.Base(filepath.Dir(f))
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, fmt.Errorf("load schema %s: %w", f, err)
			}
			p, err := readModelData(unwrapSchema(data), f, "plugin::"+name+"."+ct, false)
			if err != nil {
				return nil, err
			}
			if p.model.SingularName != ct {
				return nil, &Error{File: f, Problem: fmt.Sprintf("The key of the content-type should be the same as its singularName. Found %s and %s.", ct, p.model.SingularName)}
			}
			var rs struct {
				CollectionName string `json:"collectionName"`
			}
			_ = json.Unmarshal(data, &rs)
			if rs.CollectionName == "" {
				p.model.Table = strings.ToLower(name + "_" + p.model.SingularName)
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// unwrapSchema takes a local plugin's schema file written as the content type object a
// plugin's content-types index exports ({ "schema": { "kind": …, "attributes": … } }), which
// Strapi reads as the schema it holds; other files are the schema itself.
func unwrapSchema(data []byte) []byte {
	var wrapped struct {
		Schema     json.RawMessage `json:"schema"`
		Kind       json.RawMessage `json:"kind"`
		Attributes json.RawMessage `json:"attributes"`
	}
	if json.Unmarshal(data, &wrapped) != nil || len(wrapped.Schema) == 0 || wrapped.Kind != nil || wrapped.Attributes != nil {
		return data
	}
	if t := bytes.TrimSpace(wrapped.Schema); len(t) == 0 || t[0] != '{' {
		return data
	}
	return wrapped.Schema
}

func readModel(file, uid string, component bool) (*pending, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("load schema %s: %w", file, err)
	}
	return readModelData(data, file, uid, component)
}

func readModelData(data []byte, file, uid string, component bool) (*pending, error) {
	var rs rawSchema
	if err := json.Unmarshal(data, &rs); err != nil {
		return nil, jsonError(file, data, err)
	}
	m := &Model{UID: uid, File: file, Table: rs.CollectionName, DraftAndPublish: rs.Options.DraftAndPublish,
		Localized: rs.PluginOptions.I18n.Localized, DisplayName: rs.Info.DisplayName}
	if component {
		m.Kind = Component
		i := strings.IndexByte(uid, '.')
		m.Category, m.SingularName = uid[:i], uid[i+1:]
		m.DraftAndPublish, m.Localized = false, false
		if m.Table == "" {
			return nil, &Error{File: file, Problem: "components must declare collectionName"}
		}
	} else {
		switch rs.Kind {
		case "collectionType":
			m.Kind = CollectionType
		case "singleType":
			m.Kind = SingleType
		default:
			return nil, &Error{File: file, Problem: fmt.Sprintf("kind must be collectionType or singleType, got %q", rs.Kind)}
		}
		m.SingularName, m.PluralName = rs.Info.SingularName, rs.Info.PluralName
		if m.SingularName == "" || m.PluralName == "" {
			return nil, &Error{File: file, Problem: "info.singularName and info.pluralName are required"}
		}
		if m.SingularName == m.PluralName {
			return nil, &Error{File: file, Problem: "info.singularName and info.pluralName must differ"}
		}
		if m.Table == "" {
			m.Table = m.SingularName
		}
	}
	attrs, err := orderedAttrs(rs.Attributes)
	if err != nil {
		return nil, &Error{File: file, Problem: "attributes: " + err.Error()}
	}
	return &pending{model: m, attrs: attrs}, nil
}

// orderedAttrs decodes the attributes object keeping key order, which decides response order.
func orderedAttrs(raw json.RawMessage) ([]namedRaw, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("must be an object")
	}
	var out []namedRaw
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name := tok.(string)
		var src json.RawMessage
		if err := dec.Decode(&src); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var ra rawAttr
		if err := json.Unmarshal(src, &ra); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, namedRaw{name, ra, src})
	}
	return out, nil
}

var reservedNames = map[string]bool{"id": true, "createdAt": true, "updatedAt": true, "publishedAt": true,
	"createdBy": true, "updatedBy": true, "locale": true, "localizations": true, "__component": true}

var validName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

func build(todo []*pending) (*Schema, error) {
	s := &Schema{Models: map[string]*Model{}, byPlural: map[string]*Model{}, bySingular: map[string]*Model{}}
	files := filesModel()
	s.Files = files
	s.Models[files.UID] = files
	tables := map[string]string{files.Table: "plugin::upload.file"}
	for _, p := range todo {
		m := p.model
		if !validName.MatchString(m.Table) {
			return nil, &Error{File: m.File, Problem: fmt.Sprintf("collectionName %q is not a valid table name", m.Table)}
		}
		if other, dup := tables[m.Table]; dup {
			return nil, &Error{File: m.File, Problem: fmt.Sprintf("collectionName %q is already used by %s", m.Table, other)}
		}
		tables[m.Table] = m.UID
		s.Models[m.UID] = m
		if m.Kind == Component {
			s.Components = append(s.Components, m)
			continue
		}
		if m.IsPlugin() {
			s.Plugins = append(s.Plugins, m) // served by the plugin's own routes
			continue
		}
		if m.IsAdmin() {
			continue // a relation target only
		}
		s.ContentTypes = append(s.ContentTypes, m)
		for _, name := range []string{m.PluralName, m.SingularName} {
			if other, dup := s.byPlural[name]; dup {
				return nil, &Error{File: m.File, Problem: fmt.Sprintf("API id %q is already used by %s", name, other.UID)}
			}
			if other, dup := s.bySingular[name]; dup {
				return nil, &Error{File: m.File, Problem: fmt.Sprintf("API id %q is already used by %s", name, other.UID)}
			}
		}
		if m.Kind == CollectionType {
			s.byPlural[m.PluralName] = m
		} else {
			s.bySingular[m.SingularName] = m
		}
	}
	// First pass: scalar facts and references; second pass: relation pairing and joins.
	for _, p := range todo {
		if err := s.buildAttrs(p); err != nil {
			return nil, err
		}
	}
	if err := s.linkFileFolder(); err != nil {
		return nil, err
	}
	models := []*Model{s.Files}
	for _, p := range todo {
		linkMedia(p.model)
		models = append(models, p.model)
	}
	if err := s.linkRelations(models); err != nil {
		return nil, err
	}
	if err := s.checkComponentCycles(); err != nil {
		return nil, err
	}
	for _, m := range s.Models {
		for _, a := range m.Attributes {
			a.JSONKey = JSONKey(a.Name)
		}
	}
	sort.Slice(s.ContentTypes, func(i, j int) bool { return s.ContentTypes[i].UID < s.ContentTypes[j].UID })
	return s, nil
}

func (s *Schema) buildAttrs(p *pending) error {
	m := p.model
	m.byName = map[string]*Attribute{}
	fail := func(attr, problem string) error { return &Error{File: m.File, Attribute: attr, Problem: problem} }
	columns := map[string]string{}
	for _, na := range p.attrs {
		name, ra := na.name, na.raw
		if !validName.MatchString(name) {
			return fail(name, "attribute names must start with a letter and use only letters, digits, - and _")
		}
		if reservedNames[name] {
			return fail(name, "this name is reserved")
		}
		a := &Attribute{Name: name, Type: AttrType(ra.Type), CustomField: ra.CustomField, Required: ra.Required, Unique: ra.Unique,
			Private: ra.Private, Min: ra.Min.v, Max: ra.Max.v, MinLength: ra.MinLength.v, MaxLength: ra.MaxLength.v,
			Enum: ra.Enum, EnumName: ra.EnumName, TargetField: ra.TargetField, Multiple: ra.Multiple, Allowed: ra.AllowedTypes,
			Repeatable: ra.Repeatable, Declared: na.src}
		// Strapi's i18n counts an attribute as localized only when it says so, except relations
		// and uids, which always are; the others are kept equal across localizations.
		a.Localized = m.Localized && (ra.PluginOptions.I18n.Localized != nil && *ra.PluginOptions.I18n.Localized ||
			a.Type == Relation || a.Type == UID)
		if len(ra.Default) > 0 && string(ra.Default) != "null" {
			a.Default = ra.Default
		}
		switch a.Type {
		case String, Text, RichText, Email, Password, UID, Date, Time, DateTime, Timestamp,
			Integer, BigInteger, Float, Decimal, Boolean, JSON, Blocks:
			a.Column = SnakeCase(name)
		case Enumeration:
			a.Column = SnakeCase(name)
			if len(ra.Enum) == 0 {
				return fail(name, "enumeration needs a non-empty enum list")
			}
		case Relation:
			switch RelationKind(ra.Relation) {
			case OneToOne, OneToMany, ManyToOne, ManyToMany:
				a.Relation = RelationKind(ra.Relation)
			case "morphToOne", "morphToMany", "morphOne", "morphMany":
				return fail(name, fmt.Sprintf("polymorphic relation %q is not supported", ra.Relation))
			default:
				return fail(name, fmt.Sprintf("unknown relation kind %q", ra.Relation))
			}
			t, ok := s.Models[ra.Target]
			if !ok || t.Kind == Component {
				return fail(name, fmt.Sprintf("relation target %q does not exist", ra.Target))
			}
			a.Target, a.TargetUID, a.MappedBy, a.InversedBy = t, ra.Target, ra.MappedBy, ra.InversedBy
			if a.MappedBy != "" && a.InversedBy != "" {
				return fail(name, "a relation cannot have both mappedBy and inversedBy")
			}
			if m.Kind == Component && (a.MappedBy != "" || a.InversedBy != "") {
				return fail(name, "relations in components must be unidirectional")
			}
		case Media:
			a.Target, a.TargetUID = s.Files, s.Files.UID
		case ComponentT:
			c, ok := s.Models[ra.Component]
			if !ok || c.Kind != Component {
				return fail(name, fmt.Sprintf("component %q does not exist", ra.Component))
			}
			a.Components = []*Model{c}
		case DynamicZone:
			if m.Kind == Component {
				return fail(name, "dynamic zones are not allowed in components")
			}
			if len(ra.Components) == 0 {
				return fail(name, "a dynamic zone needs a non-empty components list")
			}
			for _, uid := range ra.Components {
				c, ok := s.Models[uid]
				if !ok || c.Kind != Component {
					return fail(name, fmt.Sprintf("component %q does not exist", uid))
				}
				a.Components = append(a.Components, c)
			}
		case "":
			return fail(name, "type is missing")
		default:
			return fail(name, fmt.Sprintf("unknown type %q", ra.Type))
		}
		if ra.Regex != "" {
			re, err := regexp.Compile(ra.Regex)
			if err != nil {
				return fail(name, "regex does not compile: "+err.Error())
			}
			a.Regex, a.RegexSrc = re, ra.Regex
		}
		// A min above max (or minLength above maxLength) is no start-up error: Strapi boots with
		// it, and every value then fails one bound or the other, as its validator has it.
		if a.Column != "" {
			if other, dup := columns[a.Column]; dup {
				return fail(name, fmt.Sprintf("column %q is already used by attribute %q", a.Column, other))
			}
			columns[a.Column] = name
		}
		if a.Type == ComponentT || a.Type == DynamicZone {
			m.ComponentsTable = m.Table + "_components"
		}
		a.Owner = m
		m.Attributes = append(m.Attributes, a)
		m.byName[name] = a
	}
	if m.Kind != Component {
		sys := []*Attribute{
			{Name: "createdAt", Type: DateTime, Column: "created_at", System: true},
			{Name: "updatedAt", Type: DateTime, Column: "updated_at", System: true},
		}
		if m.DraftAndPublish {
			sys = append(sys, &Attribute{Name: "publishedAt", Type: DateTime, Column: "published_at", System: true})
		}
		if m.Localized {
			sys = append(sys, &Attribute{Name: "locale", Type: String, Column: "locale", System: true})
			// i18n's localizations relation links every localization of an entry to the others.
			s := SnakeCase(m.SingularName)
			sys = append(sys, &Attribute{Name: "localizations", Type: Relation, Relation: OneToMany, Target: m,
				TargetUID: m.UID, System: true, Link: &Join{Table: SnakeCase(m.Table + "_localizations_links"),
					SourceCol: s + "_id", TargetCol: "inv_" + s + "_id", OrderCol: s + "_order"}})
		}
		for _, a := range sys {
			a.Owner = m
			m.Attributes = append(m.Attributes, a)
			m.byName[a.Name] = a
		}
	}
	return nil
}

// singular is the snake_case name used in link-table column names.
func (m *Model) singular() string { return SnakeCase(m.SingularName) }

// linkMedia gives m's media attributes their morph link.
func linkMedia(m *Model) {
	for _, a := range m.Attributes {
		if a.Type == Media {
			a.Link = &Join{Table: "files_related_morphs", SourceCol: "related_id", TargetCol: "file_id",
				OrderCol: "order", Morph: true, MorphType: m.UID, MorphField: a.Name}
		}
	}
}

// linkRelations gives every relation attribute of models the link table it reads and writes,
// as Strapi's database metadata does. Strapi builds the relations model by model (buildOrder)
// and attribute by attribute; each owner (inversedBy, or no mappedBy) makes its link table
// and takes it as its joinTable, and when it says inversedBy it then sets the named attribute
// of its target (which must exist and be a relation: Strapi checks nothing else) to the
// inverse view of that table, whatever the named attribute's own mappedBy or target says. The
// last assignment to an attribute wins: an attribute reads the table of the last owner built
// that names it, unless it is itself an owner built after all of those. An owner that ends up
// reading another table keeps its own as Shadowed (made, and filled only through the side it
// names); a mappedBy attribute that no owner names is Unlinked.
func (s *Schema) linkRelations(models []*Model) error {
	order := slices.Clone(models)
	slices.SortStableFunc(order, func(x, y *Model) int {
		rx, kx := buildOrder(x)
		ry, ky := buildOrder(y)
		if rx != ry {
			return rx - ry
		}
		return slices.Compare(kx, ky)
	})
	type view struct {
		join *Join
		by   *Attribute // the owner whose table it is
	}
	views := map[*Attribute]view{}
	own := map[*Attribute]*Join{}
	for _, m := range order {
		for _, a := range m.Attributes {
			if a.Type != Relation || a.System || a.MappedBy != "" {
				continue
			}
			fail := func(problem string) error { return &Error{File: m.File, Attribute: a.Name, Problem: problem} }
			if a.InversedBy != "" && a.Relation == OneToMany {
				return fail("one side of a oneToMany cannot be the owner side in a bidirectional relation") // Strapi refuses to start
			}
			j := ownerJoin(m, a)
			own[a], views[a] = j, view{j, a}
			if a.InversedBy == "" {
				continue
			}
			t := a.Target
			inv, ok := t.Attr(a.InversedBy)
			switch {
			case !ok:
				return fail(fmt.Sprintf("inversedBy attribute %s not found target %s", a.InversedBy, t.UID)) // Strapi's words
			case inv.Type == Media:
				// Strapi's metadata takes media for a (morph) relation and boots; the media
				// attribute still reads its files, and this owner is one-sided.
				continue
			case inv.Type != Relation:
				return fail(fmt.Sprintf("inversedBy attribute %s targets non relational attribute in %s", a.InversedBy, t.UID))
			case inv.System:
				return fail(fmt.Sprintf("inversedBy names %s.%s, which Strapi adds itself", t.UID, a.InversedBy))
			}
			views[inv] = view{&Join{Table: j.Table, SourceCol: j.TargetCol, TargetCol: j.SourceCol,
				OrderCol: j.InvOrderCol, InvOrderCol: j.OrderCol}, a}
		}
	}
	for _, m := range models {
		for _, a := range m.Attributes {
			if a.Type != Relation || a.System {
				continue
			}
			v, ok := views[a]
			if !ok {
				// A mappedBy side no owner names: Strapi boots with it but gives it no link
				// table, and the relation holds nothing (REST leaves it out, GraphQL lists it).
				a.Unlinked = true
				continue
			}
			if b := v.by; b != a && !compatible(b.Relation, a.Relation) && (a.MappedBy != "" || a.Relation != b.Relation) {
				return &Error{File: m.File, Attribute: a.Name, Problem: fmt.Sprintf("relation %s does not match %s on %s.%s", a.Relation, b.Relation, b.Owner.UID, b.Name)}
			}
			a.Link = v.join
			if a.MappedBy == "" && v.join != own[a] {
				// An owner a later owner names (or that names itself): Strapi still makes its
				// table (DDL), but the attribute reads and writes the other's (or its own,
				// the other way round).
				a.Shadowed = own[a]
			}
		}
	}
	return nil
}

// buildOrder places a model in the order Strapi's database metadata builds relations, its
// content-type registry's (Strapi 4.26.2 lists it so on every start): the admin panel's
// types, the plugins' (upload, users-permissions, i18n, then the project's local plugins by
// uid), the project's in the order Node lists their folders (byte order of the api, then of
// the content type), components last; a model's attributes are built in their schema's order.
func buildOrder(m *Model) (int, []string) {
	switch {
	case m.Kind == Component:
		return 3, strings.SplitN(m.UID, ".", 2)
	case strings.HasPrefix(m.UID, "api::"):
		return 2, strings.SplitN(strings.TrimPrefix(m.UID, "api::"), ".", 2)
	}
	if i := slices.Index(registryOrder, m.UID); i >= 0 {
		return 0, []string{fmt.Sprintf("%04d", i)}
	}
	return 1, []string{m.UID}
}

// registryOrder is the start of Strapi 4.26.2's content-type registry: the admin panel's and
// the built-in plugins' types Quarry knows, in the order Strapi registers them.
var registryOrder = []string{"admin::permission", AdminUserUID, "admin::role", FileUID, FolderUID,
	PermissionUID, RoleUID, UserUID, LocaleUID}

func compatible(owner, inverse RelationKind) bool {
	switch owner {
	case OneToOne:
		return inverse == OneToOne
	case ManyToOne:
		return inverse == OneToMany
	case OneToMany:
		return inverse == ManyToOne
	case ManyToMany:
		return inverse == ManyToMany
	}
	return false
}

// ownerJoin names the link table owned by attribute a of model m (Strapi v4's rules).
func ownerJoin(m *Model, a *Attribute) *Join {
	ownerS, targetS := m.singular(), a.Target.singular()
	j := &Join{Table: SnakeCase(m.Table + "_" + a.Name + "_links"), SourceCol: ownerS + "_id", TargetCol: targetS + "_id"}
	if ownerS == targetS {
		j.TargetCol = "inv_" + targetS + "_id"
	}
	if a.Relation == OneToMany || a.Relation == ManyToMany {
		j.OrderCol = targetS + "_order"
	}
	if a.InversedBy != "" && (a.Relation == ManyToOne || a.Relation == ManyToMany) {
		j.InvOrderCol = ownerS + "_order"
		// Strapi prefixes the inverse order column of a self-relation with inv_ only for
		// manyToMany (upload_folders_parent_links keeps folder_order).
		if ownerS == targetS && a.Relation == ManyToMany {
			j.InvOrderCol = "inv_" + ownerS + "_order"
		}
	}
	return j
}

func (s *Schema) checkComponentCycles() error {
	state := map[*Model]int{}
	var visit func(m *Model) error
	visit = func(m *Model) error {
		switch state[m] {
		case 1:
			return &Error{File: m.File, Problem: "components nest into themselves"}
		case 2:
			return nil
		}
		state[m] = 1
		for _, a := range m.Attributes {
			for _, c := range a.Components {
				if err := visit(c); err != nil {
					return err
				}
			}
		}
		state[m] = 2
		return nil
	}
	for _, c := range s.Components {
		if err := visit(c); err != nil {
			return err
		}
	}
	return nil
}

// filesModel is the upload plugin's file type, which every media attribute points at.
func filesModel() *Model {
	m := &Model{UID: FileUID, Kind: CollectionType, Table: "files", SingularName: "file",
		PluralName: "files", DisplayName: "File", byName: map[string]*Attribute{}}
	add := func(name string, t AttrType, col string) {
		a := &Attribute{Name: name, Type: t, Column: col, Owner: m}
		m.Attributes = append(m.Attributes, a)
		m.byName[name] = a
	}
	add("name", String, "name")
	add("alternativeText", String, "alternative_text")
	add("caption", String, "caption")
	add("width", Integer, "width")
	add("height", Integer, "height")
	add("formats", JSON, "formats")
	add("hash", String, "hash")
	add("ext", String, "ext")
	add("mime", String, "mime")
	add("size", Decimal, "size")
	add("url", String, "url")
	add("previewUrl", String, "preview_url")
	add("provider", String, "provider")
	add("provider_metadata", JSON, "provider_metadata")
	// The private folder relation (files_folder_links); its target is set once the folder
	// model is built.
	add("folder", Relation, "")
	m.byName["folder"].Relation, m.byName["folder"].TargetUID, m.byName["folder"].InversedBy = ManyToOne, FolderUID, "files"
	m.byName["folder"].Private = true
	add("folderPath", String, "folder_path")
	m.byName["folderPath"].Private = true
	add("createdAt", DateTime, "created_at")
	add("updatedAt", DateTime, "updated_at")
	m.byName["createdAt"].System = true
	m.byName["updatedAt"].System = true
	return m
}
