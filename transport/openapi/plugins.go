package openapi

import "github.com/quarrycms/quarry/schemas"

func (g *gen) usersPermissions() {
	if u := g.s.Models[schemas.UserUID]; u != nil {
		read, _ := g.attributes(u, false)
		g.schemas["User"] = read
		g.schemas["UserEntry"] = entry("User")
		g.schemas["UserFlat"] = obj{"allOf": []any{obj{"type": "object", "properties": obj{"id": obj{"type": "integer"}}}, ref("User")}}
	} else {
		g.schemas["UserFlat"] = obj{"type": "object", "properties": obj{"id": obj{"type": "integer"}}}
	}
	g.schemas["AuthResponse"] = obj{"type": "object", "properties": obj{"jwt": str(), "user": ref("UserFlat")}}
	g.schemas["Role"] = obj{"type": "object", "properties": obj{
		"id": obj{"type": "integer"}, "name": str(), "description": nstr(), "type": str(),
		"createdAt": dateTime(), "updatedAt": dateTime(), "nb_users": obj{"type": "integer"},
	}}
	tag := "Users-Permissions"
	jsonBody := func(props obj, required ...any) obj {
		s := obj{"type": "object", "properties": props}
		if len(required) > 0 {
			s["required"] = required
		}
		return obj{"required": true, "content": obj{"application/json": obj{"schema": s}}}
	}
	auth, okTrue := ok(ref("AuthResponse")), ok(obj{"type": "object", "properties": obj{"ok": obj{"type": "boolean"}}})
	g.paths["/auth/local"] = obj{"post": op(tag, "login", "Logs a user in with e-mail or username and password.", nil,
		jsonBody(obj{"identifier": str(), "password": str()}, "identifier", "password"), auth)}
	g.paths["/auth/local/register"] = obj{"post": op(tag, "register", "Registers a user.", nil,
		jsonBody(obj{"username": str(), "email": obj{"type": "string", "format": "email"}, "password": str()}, "username", "email", "password"), auth)}
	g.paths["/auth/forgot-password"] = obj{"post": op(tag, "forgotPassword", "Sends a reset-password code by e-mail.", nil,
		jsonBody(obj{"email": obj{"type": "string", "format": "email"}}, "email"), okTrue)}
	g.paths["/auth/reset-password"] = obj{"post": op(tag, "resetPassword", "Sets a new password with a reset code.", nil,
		jsonBody(obj{"code": str(), "password": str(), "passwordConfirmation": str()}, "code", "password", "passwordConfirmation"), auth)}
	g.paths["/auth/change-password"] = obj{"post": op(tag, "changePassword", "Changes the caller's password.", nil,
		jsonBody(obj{"currentPassword": str(), "password": str(), "passwordConfirmation": str()}, "currentPassword", "password", "passwordConfirmation"), auth)}
	g.paths["/auth/send-email-confirmation"] = obj{"post": op(tag, "sendEmailConfirmation", "Sends the e-mail confirmation again.", nil,
		jsonBody(obj{"email": obj{"type": "string", "format": "email"}}, "email"),
		ok(obj{"type": "object", "properties": obj{"email": str(), "sent": obj{"type": "boolean"}}}))}
	g.paths["/auth/email-confirmation"] = obj{"get": op(tag, "emailConfirmation", "Confirms an e-mail address and redirects.",
		[]any{obj{"name": "confirmation", "in": "query", "required": true, "schema": str()}}, nil,
		obj{"description": "Redirect to the configured URL"})}
	userParams := []any{
		obj{"name": "filters", "in": "query", "style": "deepObject", "explode": true, "schema": obj{"type": "object", "additionalProperties": true}},
		obj{"name": "sort", "in": "query", "schema": str()},
		obj{"name": "fields", "in": "query", "schema": str()},
		obj{"name": "populate", "in": "query", "schema": str()},
		obj{"name": "start", "in": "query", "schema": obj{"type": "integer"}},
		obj{"name": "limit", "in": "query", "schema": obj{"type": "integer"}},
	}
	idParam := obj{"name": "id", "in": "path", "required": true, "schema": obj{"type": "integer"}}
	userBody := jsonBody(obj{"username": str(), "email": obj{"type": "string", "format": "email"}, "password": str(),
		"role": obj{"type": "integer"}, "confirmed": obj{"type": "boolean"}, "blocked": obj{"type": "boolean"}})
	user, users := ok(ref("UserFlat")), ok(obj{"type": "array", "items": ref("UserFlat")})
	g.paths["/users"] = obj{
		"get":  op(tag, "getUsers", "Lists users (a raw array, not {data, meta}).", userParams, nil, users),
		"post": op(tag, "postUser", "Creates a user.", nil, userBody, obj{"description": "Created", "content": obj{"application/json": obj{"schema": ref("UserFlat")}}}),
	}
	g.paths["/users/count"] = obj{"get": op(tag, "countUsers", "Counts users.", userParams[:1], nil, ok(obj{"type": "integer"}))}
	g.paths["/users/me"] = obj{"get": op(tag, "getMe", "The caller (a users-permissions JWT).", userParams[2:4], nil, user)}
	g.paths["/users/{id}"] = obj{
		"get":    withNoContent(op(tag, "getUserById", "Reads a user (204 when there is none, as Strapi).", append([]any{idParam}, userParams[2:4]...), nil, user)),
		"put":    op(tag, "putUser", "Updates a user.", []any{idParam}, userBody, user),
		"delete": op(tag, "deleteUser", "Deletes a user and returns it.", []any{idParam}, nil, user),
	}
	g.paths["/users-permissions/roles"] = obj{
		"get": op(tag, "getRoles", "Lists roles with their number of users.", nil, nil,
			ok(obj{"type": "object", "properties": obj{"roles": obj{"type": "array", "items": ref("Role")}}})),
		"post": op(tag, "postRole", "Creates a role.", nil, jsonBody(obj{"name": str(), "description": str(), "type": str(), "permissions": obj{"type": "object"}}, "name"), okTrue),
	}
	g.paths["/users-permissions/roles/{id}"] = obj{
		"get":    op(tag, "getRole", "Reads a role with its permissions.", []any{idParam}, nil, ok(obj{"type": "object", "properties": obj{"role": ref("Role")}})),
		"put":    op(tag, "putRole", "Updates a role.", []any{idParam}, jsonBody(obj{"name": str(), "description": str(), "permissions": obj{"type": "object"}}), okTrue),
		"delete": op(tag, "deleteRole", "Deletes a role.", []any{idParam}, nil, okTrue),
	}
	g.paths["/users-permissions/permissions"] = obj{"get": op(tag, "getPermissions", "Lists every action by plugin and controller.", nil, nil,
		ok(obj{"type": "object", "properties": obj{"permissions": obj{"type": "object"}}}))}
}

func (g *gen) upload() {
	tag := "Upload"
	idParam := obj{"name": "id", "in": "path", "required": true, "schema": obj{"type": "integer"}}
	file := ok(ref("UploadFileFlat"))
	form := obj{"type": "object", "required": []any{"files"}, "properties": obj{
		"files":    obj{"type": "array", "items": obj{"type": "string", "format": "binary"}},
		"fileInfo": obj{"type": "string", "description": `JSON: {"name", "alternativeText", "caption"} (or an array of them)`},
		"ref":      obj{"type": "string", "description": "UID of the entry's content type (api::article.article)"},
		"refId":    obj{"type": "string"},
		"field":    obj{"type": "string", "description": "Media attribute of the entry"},
		"path":     obj{"type": "string"},
	}}
	g.paths["/upload"] = obj{"post": op(tag, "upload", "Uploads files, optionally attached to an entry's media attribute.",
		[]any{obj{"name": "id", "in": "query", "description": "Replace the file with this id.", "schema": obj{"type": "integer"}}},
		obj{"required": true, "content": obj{"multipart/form-data": obj{"schema": form}}},
		ok(obj{"type": "array", "items": ref("UploadFileFlat")}))}
	g.paths["/upload/files"] = obj{"get": op(tag, "getFiles", "Lists files (a raw array).", []any{
		obj{"name": "filters", "in": "query", "style": "deepObject", "explode": true, "schema": obj{"type": "object", "additionalProperties": true}},
		obj{"name": "sort", "in": "query", "schema": str()},
		obj{"name": "start", "in": "query", "schema": obj{"type": "integer"}},
		obj{"name": "limit", "in": "query", "schema": obj{"type": "integer"}},
	}, nil, ok(obj{"type": "array", "items": ref("UploadFileFlat")}))}
	g.paths["/upload/files/{id}"] = obj{
		"get":    op(tag, "getFile", "Reads a file.", []any{idParam}, nil, file),
		"delete": op(tag, "deleteFile", "Deletes a file and returns it.", []any{idParam}, nil, file),
	}
}

func (g *gen) i18n() {
	g.schemas["Locale"] = obj{"type": "object", "properties": obj{
		"id": obj{"type": "integer"}, "name": str(), "code": str(), "isDefault": obj{"type": "boolean"},
		"createdAt": dateTime(), "updatedAt": dateTime(),
	}}
	g.paths["/i18n/locales"] = obj{"get": op("Internationalization", "getLocales", "Lists the locales.", nil, nil,
		ok(obj{"type": "array", "items": ref("Locale")}))}
}

// withNoContent adds the 204 the users-permissions plugin answers for a missing user.
func withNoContent(o obj) obj {
	o["responses"].(obj)["204"] = obj{"description": "No such user"}
	return o
}
