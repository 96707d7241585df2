package gqlschema

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/quarrycms/quarry/schemas"
)

// TypeName is the GraphQL type of a content type or component, as Strapi's naming service
// builds it: api::article.article → Article, plugin::upload.file → UploadFile,
// plugin::users-permissions.user → UsersPermissionsUser, shared.seo → ComponentSharedSeo.
func TypeName(m *schemas.Model) string {
	if m.Kind == schemas.Component {
		return schemas.UpperFirst(schemas.CamelCase("component_" + m.UID))
	}
	return pluginPrefix(m.UID) + schemas.UpperFirst(schemas.CamelCase(m.SingularName))
}

// pluralTypeName is TypeName with the plural name, the base of the find query's name.
func pluralTypeName(m *schemas.Model) string {
	return pluginPrefix(m.UID) + schemas.UpperFirst(schemas.CamelCase(m.PluralName))
}

// pluginPrefix is upperFirst(camelCase(plugin)) for plugin::<plugin>.<name> uids.
func pluginPrefix(uid string) string {
	rest, ok := strings.CutPrefix(uid, "plugin::")
	if !ok {
		return ""
	}
	plugin, _, _ := strings.Cut(rest, ".")
	return schemas.UpperFirst(schemas.CamelCase(plugin))
}

// FindName is the collection query (articles), FindOneName the single-entry query (article).
func FindName(m *schemas.Model) string    { return schemas.LowerFirst(pluralTypeName(m)) }
func FindOneName(m *schemas.Model) string { return schemas.LowerFirst(TypeName(m)) }

// MutationName is create<Type>, update<Type> or delete<Type>.
func MutationName(action string, m *schemas.Model) string { return action + TypeName(m) }

// EnumName is the attribute's enumName option when set, else ENUM_<TYPENAME>_<ATTRIBUTE>,
// both upper-cased as JavaScript does.
func EnumName(owner *schemas.Model, a *schemas.Attribute) string {
	if a.EnumName != "" {
		return a.EnumName
	}
	return "ENUM_" + strings.ToUpper(TypeName(owner)) + "_" + strings.ToUpper(a.Name)
}

// DynamicZoneName is <Type><Attribute>DynamicZone, the union of a dynamic zone.
func DynamicZoneName(owner *schemas.Model, a *schemas.Attribute) string {
	return TypeName(owner) + schemas.UpperFirst(schemas.CamelCase(a.Name)) + "DynamicZone"
}

// EnumValueName turns a stored enumeration value into a GraphQL enum member the way Strapi's
// slugify call does (separator "_", case kept): "tech news" → tech_news, "a-b" → a_b.
// Accents are folded to ASCII; a leading digit gets an underscore so the name stays valid
// GraphQL (Strapi would refuse to start there).
func EnumValueName(v string) string {
	v = strings.ReplaceAll(v, "&", " and ")
	var b strings.Builder
	sep := false
	for _, r := range norm.NFD.String(v) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if sep && b.Len() > 0 {
				b.WriteByte('_')
			}
			sep = false
			b.WriteRune(r)
		default:
			sep = true
		}
	}
	s := b.String()
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		s = "_" + s
	}
	return s
}

var graphqlName = regexp.MustCompile(`^[_A-Za-z][_0-9A-Za-z]*$`)

// validName reports whether s can name a GraphQL field. Strapi attribute names may contain
// "-", which GraphQL names may not; such attributes are left out of the schema.
func validName(s string) bool { return graphqlName.MatchString(s) && !strings.HasPrefix(s, "__") }
