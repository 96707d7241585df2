package schemas

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

// pluginModels returns the upload folder and i18n locale models.
func pluginModels() ([]*pending, error) {
	var out []*pending
	for _, s := range pluginSchemas {
		p, err := readModelData([]byte(s.json), "plugin "+s.uid, s.uid, false)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
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
	a.Target = folder
	return s.linkRelation(s.Files, a)
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
