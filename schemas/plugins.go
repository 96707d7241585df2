package schemas

import "strings"

// UIDs of the upload and i18n plugins' content types.
const (
	FileUID   = "plugin::upload.file"
	FolderUID = "plugin::upload.folder"
	LocaleUID = "plugin::i18n.locale"
)

// The upload plugin's folders and the i18n plugin's locales, as Strapi v4 declares them.
// Like the users-permissions types they are real models (Strapi's GraphQL plugin generates
// their types and queries, and files link to folders), served by their plugins' own routes;
// their tables are the ones the upload and i18n services fill.
var pluginSchemas = []struct{ uid, json string }{
	{FolderUID, `{
  "kind": "collectionType",
  "collectionName": "upload_folders",
  "info": {"singularName": "folder", "pluralName": "folders", "displayName": "Folder"},
  "attributes": {
    "name": {"type": "string", "min": 1, "required": true},
    "pathId": {"type": "integer", "unique": true, "required": true},
    "parent": {"type": "relation", "relation": "manyToOne", "target": "plugin::upload.folder", "inversedBy": "children"},
    "children": {"type": "relation", "relation": "oneToMany", "target": "plugin::upload.folder", "mappedBy": "parent"},
    "files": {"type": "relation", "relation": "oneToMany", "target": "plugin::upload.file", "mappedBy": "folder"},
    "path": {"type": "string", "min": 1, "required": true}
  }
}`},
	{LocaleUID, `{
  "kind": "collectionType",
  "collectionName": "i18n_locale",
  "info": {"singularName": "locale", "pluralName": "locales", "displayName": "Locale"},
  "attributes": {
    "name": {"type": "string", "min": 1, "max": 50},
    "code": {"type": "string", "unique": true}
  }
}`},
}

// AdminUserUID is the admin panel's user type, which content types may relate to (an
// entry's reviewer): Strapi populates and filters it as any target, with its private fields
// left out, and keeps it out of GraphQL.
const AdminUserUID = "admin::user"

// adminUserSchema is Strapi 4.26's admin user type without its roles (private, and their
// type is the admin panel's own): its table is one of the system tables Quarry creates.
const adminUserSchema = `{
  "kind": "collectionType",
  "collectionName": "admin_users",
  "info": {"singularName": "user", "pluralName": "users", "displayName": "User"},
  "options": {"draftAndPublish": false},
  "attributes": {
    "firstname": {"type": "string", "minLength": 1},
    "lastname": {"type": "string", "minLength": 1},
    "username": {"type": "string"},
    "email": {"type": "email", "minLength": 6, "required": true, "unique": true, "private": true},
    "password": {"type": "password", "minLength": 6, "private": true},
    "resetPasswordToken": {"type": "string", "private": true},
    "registrationToken": {"type": "string", "private": true},
    "isActive": {"type": "boolean", "default": false, "private": true},
    "blocked": {"type": "boolean", "default": false, "private": true},
    "preferedLanguage": {"type": "string"}
  }
}`

// IsAdmin reports whether a model is one of the admin panel's (admin::user): a relation
// target only, with no routes, permissions or GraphQL type.
func (m *Model) IsAdmin() bool { return strings.HasPrefix(m.UID, "admin::") }

// pluginModels returns the upload folder, i18n locale and admin user models.
func pluginModels() ([]*pending, error) {
	var out []*pending
	for _, s := range pluginSchemas {
		p, err := readModelData([]byte(s.json), "plugin "+s.uid, s.uid, false)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	p, err := readModelData([]byte(adminUserSchema), "admin "+AdminUserUID, AdminUserUID, false)
	if err != nil {
		return nil, err
	}
	return append(out, p), nil
}

// Folders returns the upload plugin's folder type.
func (s *Schema) Folders() *Model { return s.Models[FolderUID] }

// Locales returns the i18n plugin's locale type.
func (s *Schema) Locales() *Model { return s.Models[LocaleUID] }

// linkFileFolder gives the file type its private folder relation (files_folder_links), the
// owning side of a folder's files.
func (s *Schema) linkFileFolder() error {
	a, ok := s.Files.Attr("folder")
	if !ok {
		return nil
	}
	folder := s.Folders()
	if folder == nil {
		s.Files.removeAttr("folder")
		return nil
	}
	a.Target = folder // linked with the others (linkRelations)
	return nil
}

func (m *Model) removeAttr(name string) {
	delete(m.byName, name)
	for i, a := range m.Attributes {
		if a.Name == name {
			m.Attributes = append(m.Attributes[:i:i], m.Attributes[i+1:]...)
			return
		}
	}
}
