package schemas

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// UIDs of the users-permissions plugin's content types.
const (
	UserUID       = "plugin::users-permissions.user"
	RoleUID       = "plugin::users-permissions.role"
	PermissionUID = "plugin::users-permissions.permission"
)

// The users-permissions plugin's content types, as Strapi v4 declares them. They are real
// models of the schema, so a content type can relate to users (an article's editor) and the
// planner applies the same rules to them as to any type: password and the private token
// fields can never be selected, filtered, sorted or populated, at any depth.
var usersPermissionsSchemas = []struct{ uid, json string }{
	{UserUID, `{
  "kind": "collectionType",
  "collectionName": "up_users",
  "info": {"singularName": "user", "pluralName": "users", "displayName": "User"},
  "options": {"draftAndPublish": false},
  "attributes": {
    "username": {"type": "string", "minLength": 3, "unique": true, "required": true},
    "email": {"type": "email", "minLength": 6, "required": true},
    "provider": {"type": "string"},
    "password": {"type": "password", "minLength": 6, "private": true},
    "resetPasswordToken": {"type": "string", "private": true},
    "confirmationToken": {"type": "string", "private": true},
    "confirmed": {"type": "boolean", "default": false},
    "blocked": {"type": "boolean", "default": false},
    "role": {"type": "relation", "relation": "manyToOne", "target": "plugin::users-permissions.role", "inversedBy": "users"}
  }
}`},
	{RoleUID, `{
  "kind": "collectionType",
  "collectionName": "up_roles",
  "info": {"singularName": "role", "pluralName": "roles", "displayName": "Role"},
  "attributes": {
    "name": {"type": "string", "minLength": 3, "required": true},
    "description": {"type": "string"},
    "type": {"type": "string", "unique": true},
    "permissions": {"type": "relation", "relation": "oneToMany", "target": "plugin::users-permissions.permission", "mappedBy": "role"},
    "users": {"type": "relation", "relation": "oneToMany", "target": "plugin::users-permissions.user", "mappedBy": "role"}
  }
}`},
	{PermissionUID, `{
  "kind": "collectionType",
  "collectionName": "up_permissions",
  "info": {"singularName": "permission", "pluralName": "permissions", "displayName": "Permission"},
  "attributes": {
    "action": {"type": "string", "required": true},
    "role": {"type": "relation", "relation": "manyToOne", "target": "plugin::users-permissions.role", "inversedBy": "permissions"}
  }
}`},
}

// usersPermissionsModels returns the plugin's models, reading the user type from
// src/extensions/users-permissions/content-types/user/schema.json when the app extends it
// (as Strapi allows).
func usersPermissionsModels(src string) ([]*pending, error) {
	var out []*pending
	for _, s := range usersPermissionsSchemas {
		data, file := []byte(s.json), "users-permissions "+s.uid
		if s.uid == UserUID {
			ext := filepath.Join(src, "extensions", "users-permissions", "content-types", "user", "schema.json")
			b, err := os.ReadFile(ext)
			switch {
			case err == nil:
				data, file = b, ext
			case !errors.Is(err, fs.ErrNotExist):
				return nil, fmt.Errorf("load schema %s: %w", ext, err)
			}
		}
		p, err := readModelData(data, file, s.uid, false)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// IsPlugin reports whether a model belongs to a plugin (users-permissions); plugin types have
// no generated REST routes.
func (m *Model) IsPlugin() bool { return len(m.UID) > 8 && m.UID[:8] == "plugin::" }

// Users returns the users-permissions user type.
func (s *Schema) Users() *Model { return s.Models[UserUID] }

// finishUsersPermissions checks an extended user type keeps what the plugin relies on and
// makes its secrets private whatever the extension says.
func (s *Schema) finishUsersPermissions() error {
	u := s.Users()
	need := map[string]AttrType{"username": String, "email": Email, "provider": String, "password": Password,
		"resetPasswordToken": String, "confirmationToken": String, "confirmed": Boolean, "blocked": Boolean, "role": Relation}
	for _, name := range []string{"username", "email", "provider", "password", "resetPasswordToken", "confirmationToken", "confirmed", "blocked", "role"} {
		a, ok := u.Attr(name)
		if !ok || a.Type != need[name] || (name == "role" && (a.Target == nil || a.Target.UID != RoleUID || a.Relation != ManyToOne)) {
			return &Error{File: u.File, Attribute: name, Problem: fmt.Sprintf("the users-permissions user type needs %s of type %s", name, need[name])}
		}
	}
	for _, name := range []string{"password", "resetPasswordToken", "confirmationToken"} {
		a, _ := u.Attr(name)
		a.Private = true
	}
	// A role's users are never reachable through the role over REST (Strapi strips them from
	// output); Strapi's GraphQL schema has them.
	if a, ok := s.Models[RoleUID].Attr("users"); ok {
		a.Private = true
		a.GraphQLVisible = true
	}
	return nil
}
