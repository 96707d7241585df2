package sqlgen

import (
	"time"

	sq "github.com/Masterminds/squirrel"
)

// The users-permissions plugin's statements (users, roles, permissions) and the API tokens',
// on Strapi's tables for them.

// Users-permissions and API token tables, as Strapi names them.
const (
	UsersTable          = "up_users"
	RolesTable          = "up_roles"
	PermissionsTable    = "up_permissions"
	UserRoleLinks       = "up_users_role_links"
	PermissionRoleLinks = "up_permissions_role_links"

	TokensTable          = "strapi_api_tokens"
	TokenPermissions     = "strapi_api_token_permissions"
	TokenPermissionLinks = "strapi_api_token_permissions_token_links"
)

// stamped adds created_at and updated_at, both now, to an insert.
func stamped(d Dialect, ins *Insert, now time.Time) {
	ts := d.Bind(now)
	ins.Set("created_at", ts).Set("updated_at", ts)
}

// countWhere counts the rows of table matching cond.
func countWhere(d Dialect, table string, cond any) Stmt {
	b := sq.Select("COUNT(*)").From(d.Quote(table))
	if cond != nil {
		b = b.Where(cond)
	}
	return build(d, b)
}

// Roles.

// roleCols are the columns a role is read with: id, name, description, type, created_at,
// updated_at.
func roleCols(d Dialect) []string {
	return quoteAll(d, "id", "name", "description", "type", "created_at", "updated_at")
}

// RoleCountByType counts the roles of a type (public, authenticated, ...).
func RoleCountByType(d Dialect, typ string) Stmt {
	return countWhere(d, RolesTable, eq(d, "type", typ))
}

// RoleByType reads the first role of a type (see roleCols).
func RoleByType(d Dialect, typ string) Stmt {
	return build(d, sq.Select(roleCols(d)...).From(d.Quote(RolesTable)).Where(eq(d, "type", typ)).
		OrderBy(d.Quote("id")).Limit(1))
}

// RoleIDByType reads the id of the first role of a type.
func RoleIDByType(d Dialect, typ string) Stmt {
	return build(d, sq.Select(d.Quote("id")).From(d.Quote(RolesTable)).Where(eq(d, "type", typ)).
		OrderBy(d.Quote("id")).Limit(1))
}

// RoleByName reads the first role whose name, lower-cased, is lowerName.
func RoleByName(d Dialect, lowerName string) Stmt {
	return build(d, sq.Select(roleCols(d)...).From(d.Quote(RolesTable)).Where(eqExpr(d, "LOWER("+d.Quote("name")+")", lowerName)).
		OrderBy(d.Quote("id")).Limit(1))
}

// RoleByID reads one role.
func RoleByID(d Dialect, id int64) Stmt {
	return build(d, sq.Select(roleCols(d)...).From(d.Quote(RolesTable)).Where(eq(d, "id", id)))
}

// Roles reads every role, by name then id.
func Roles(d Dialect) Stmt {
	return build(d, sq.Select(roleCols(d)...).From(d.Quote(RolesTable)).OrderBy(quoteAll(d, "name", "id")...))
}

// RoleUserCounts counts the users of each role: role_id, count.
func RoleUserCounts(d Dialect) Stmt {
	return build(d, sq.Select(d.Quote("role_id"), "COUNT(DISTINCT "+d.Quote("user_id")+")").From(d.Quote(UserRoleLinks)).
		GroupBy(d.Quote("role_id")))
}

// RoleInsert adds a role created at now.
func RoleInsert(d Dialect, name, description, typ string, now time.Time) InsertStmt {
	ins := Insert{Table: RolesTable}
	ins.Set("name", name).Set("description", description).Set("type", typ)
	stamped(d, &ins, now)
	return ins.Render(d)
}

// RoleUpdate sets columns of a role (cols and vals pair up) and its updated_at.
func RoleUpdate(d Dialect, id int64, cols []string, vals []any, now time.Time) Stmt {
	u := Update{Table: RolesTable, Columns: append([]string{"updated_at"}, cols...),
		Values: append([]any{d.Bind(now)}, vals...), Key: "id", KeyValue: id}
	return u.Render(d)
}

// RoleUsersMove moves the users of role from to role to.
func RoleUsersMove(d Dialect, from, to int64) Stmt {
	return Update{Table: UserRoleLinks, Columns: []string{"role_id"}, Values: []any{to}, Key: "role_id", KeyValue: from}.Render(d)
}

// RoleDelete removes a role.
func RoleDelete(d Dialect, id int64) Stmt {
	return Delete(d, RolesTable, "id", id)
}

// Role permissions.

// PermissionCount counts every role's permissions.
func PermissionCount(d Dialect) Stmt {
	return countWhere(d, PermissionsTable, nil)
}

// rolePermissions selects from the permissions of a role, aliased p.
func rolePermissions(d Dialect, cols ...string) sq.SelectBuilder {
	return sq.Select(cols...).From(d.Quote(PermissionsTable) + " p").
		Join(d.Quote(PermissionRoleLinks) + " l ON " + Col(d, "l", "permission_id") + " = " + Col(d, "p", "id"))
}

// RoleActions reads the distinct actions granted to a role.
func RoleActions(d Dialect, roleID int64) Stmt {
	return build(d, rolePermissions(d, "DISTINCT "+Col(d, "p", "action")).
		Where(sq.Expr(Col(d, "l", "role_id")+" = ?", roleID)).Where(Col(d, "p", "action")+" IS NOT NULL"))
}

// RolePermissionIDs reads the ids of a role's permissions for one action.
func RolePermissionIDs(d Dialect, roleID int64, action string) Stmt {
	return build(d, rolePermissions(d, Col(d, "p", "id")).
		Where(sq.Expr(Col(d, "l", "role_id")+" = ?", roleID)).Where(sq.Expr(Col(d, "p", "action")+" = ?", action)))
}

// RolePermissionMaxOrder reads the last permission_order of a role's permission links (0
// when it has none).
func RolePermissionMaxOrder(d Dialect, roleID int64) Stmt {
	return maxOrder(d, PermissionRoleLinks, "permission_order", "role_id", roleID)
}

// maxOrder reads the largest order column of a link table's rows whose key column is v
// (0 when there are none).
func maxOrder(d Dialect, table, orderCol, key string, v any) Stmt {
	return build(d, sq.Select("COALESCE(MAX("+d.Quote(orderCol)+"), 0)").From(d.Quote(table)).Where(eq(d, key, v)))
}

// PermissionInsert adds a users-permissions permission for an action.
func PermissionInsert(d Dialect, action string, now time.Time) InsertStmt {
	ins := Insert{Table: PermissionsTable}
	ins.Set("action", action)
	stamped(d, &ins, now)
	return ins.Render(d)
}

// PermissionLink links a permission to a role at position order.
func PermissionLink(d Dialect, permissionID, roleID int64, order float64) Stmt {
	ins := Insert{Table: PermissionRoleLinks}
	ins.Set("permission_id", permissionID).Set("role_id", roleID).Set("permission_order", order)
	return ins.Plain(d)
}

// PermissionUnlink removes a permission's role links.
func PermissionUnlink(d Dialect, permissionID int64) Stmt {
	return Delete(d, PermissionRoleLinks, "permission_id", permissionID)
}

// PermissionDelete removes a permission.
func PermissionDelete(d Dialect, id int64) Stmt {
	return Delete(d, PermissionsTable, "id", id)
}

// Users.

// userSelect selects a user, aliased u, with the columns an account is read with: id,
// username, email, provider, password, reset_password_token, confirmation_token, confirmed,
// blocked, created_at, updated_at and its role's id (NULL without one).
func userSelect(d Dialect) sq.SelectBuilder {
	cols := make([]string, 0, 12)
	for _, c := range []string{"id", "username", "email", "provider", "password", "reset_password_token",
		"confirmation_token", "confirmed", "blocked", "created_at", "updated_at"} {
		cols = append(cols, Col(d, "u", c))
	}
	cols = append(cols, "(SELECT MIN("+Col(d, "l", "role_id")+") FROM "+d.Quote(UserRoleLinks)+" l WHERE "+
		Col(d, "l", "user_id")+" = "+Col(d, "u", "id")+")")
	return sq.Select(cols...).From(d.Quote(UsersTable) + " u")
}

// UserBy reads the first user whose column col (id, email, a token) holds v (see
// userSelect).
func UserBy(d Dialect, col string, v any) Stmt {
	return build(d, userSelect(d).Where(eqExpr(d, Col(d, "u", col), v)).OrderBy(Col(d, "u", "id")).Limit(1))
}

// UserByLogin reads the first local user whose e-mail is email or whose username is
// username, as Strapi's login looks users up.
func UserByLogin(d Dialect, email, username string) Stmt {
	return build(d, userSelect(d).Where(sq.Expr(Col(d, "u", "provider")+" = ?", "local")).
		Where(sq.Or{eqExpr(d, Col(d, "u", "email"), email), eqExpr(d, Col(d, "u", "username"), username)}).
		OrderBy(Col(d, "u", "id")).Limit(1))
}

// UserCountOther counts the users other than except whose column col (username, email)
// holds v.
func UserCountOther(d Dialect, col, v string, except int64) Stmt {
	return countWhere(d, UsersTable, sq.And{eq(d, col, v), sq.Expr(d.Quote("id")+" <> ?", except)})
}

// UserCountNamed counts the users whose username is one of usernames or whose e-mail is
// one of emails.
func UserCountNamed(d Dialect, usernames, emails []string) Stmt {
	return countWhere(d, UsersTable, sq.Or{sq.Eq{d.Quote("username"): usernames}, sq.Eq{d.Quote("email"): emails}})
}

// UserInsert adds a user with columns cols set to vals (they pair up), created at now.
func UserInsert(d Dialect, cols []string, vals []any, now time.Time) InsertStmt {
	ins := Insert{Table: UsersTable, Columns: append([]string(nil), cols...), Values: append([]any(nil), vals...)}
	stamped(d, &ins, now)
	return ins.Render(d)
}

// UserUpdate sets columns of a user (cols and vals pair up) and its updated_at.
func UserUpdate(d Dialect, id int64, cols []string, vals []any, now time.Time) Stmt {
	u := Update{Table: UsersTable, Columns: append(append([]string(nil), cols...), "updated_at"),
		Values: append(append([]any(nil), vals...), d.Bind(now)), Key: "id", KeyValue: id}
	return u.Render(d)
}

// UserDelete removes a user.
func UserDelete(d Dialect, id int64) Stmt {
	return Delete(d, UsersTable, "id", id)
}

// UserRoleUnlink removes a user's role links.
func UserRoleUnlink(d Dialect, userID int64) Stmt {
	return Delete(d, UserRoleLinks, "user_id", userID)
}

// RoleUserMaxOrder reads the last user_order of a role's user links (0 when it has none).
func RoleUserMaxOrder(d Dialect, roleID int64) Stmt {
	return maxOrder(d, UserRoleLinks, "user_order", "role_id", roleID)
}

// UserRoleLink links a user to a role at position order among the role's users.
func UserRoleLink(d Dialect, userID, roleID int64, order float64) Stmt {
	ins := Insert{Table: UserRoleLinks}
	ins.Set("user_id", userID).Set("role_id", roleID).Set("user_order", order)
	return ins.Plain(d)
}

// API tokens.

// tokenSelect selects tokens with the columns a token is read with: id, name, description,
// type, lifespan, expires_at, last_used_at, created_at.
func tokenSelect(d Dialect) sq.SelectBuilder {
	return sq.Select(quoteAll(d, "id", "name", "description", "type", "lifespan", "expires_at", "last_used_at", "created_at")...).
		From(d.Quote(TokensTable))
}

// TokenByAccessKey reads the token whose stored key (its hash) is accessKey.
func TokenByAccessKey(d Dialect, accessKey string) Stmt {
	return build(d, tokenSelect(d).Where(eq(d, "access_key", accessKey)))
}

// TokenByID reads one token.
func TokenByID(d Dialect, id int64) Stmt {
	return build(d, tokenSelect(d).Where(eq(d, "id", id)))
}

// TokenByName reads the token with a name.
func TokenByName(d Dialect, name string) Stmt {
	return build(d, tokenSelect(d).Where(eq(d, "name", name)))
}

// Tokens reads every token, oldest first.
func Tokens(d Dialect) Stmt {
	return build(d, tokenSelect(d).OrderBy(d.Quote("id")))
}

// TokenCountByName counts the tokens with a name.
func TokenCountByName(d Dialect, name string) Stmt {
	return countWhere(d, TokensTable, eq(d, "name", name))
}

// TokenRow is a new token's row.
type TokenRow struct {
	Name, Description, Type string
	AccessKey               string        // the key's hash
	Lifespan                time.Duration // 0: unlimited
	ExpiresAt               time.Time     // zero: never
	CreatedAt               time.Time
}

// TokenInsert adds a token; lifespan is stored in milliseconds, as Strapi stores it.
func TokenInsert(d Dialect, t TokenRow) InsertStmt {
	var lifespan, expires any
	if t.Lifespan > 0 {
		lifespan = t.Lifespan.Milliseconds()
	}
	if !t.ExpiresAt.IsZero() {
		expires = d.Bind(t.ExpiresAt)
	}
	ins := Insert{Table: TokensTable}
	ins.Set("name", t.Name).Set("description", t.Description).Set("type", t.Type).Set("access_key", t.AccessKey).
		Set("lifespan", lifespan).Set("expires_at", expires)
	stamped(d, &ins, t.CreatedAt)
	return ins.Render(d)
}

// TokenTouch records that a token was used at now.
func TokenTouch(d Dialect, id int64, now time.Time) Stmt {
	return Update{Table: TokensTable, Columns: []string{"last_used_at"}, Values: []any{d.Bind(now)}, Key: "id", KeyValue: id}.Render(d)
}

// TokenDelete removes a token.
func TokenDelete(d Dialect, id int64) Stmt {
	return Delete(d, TokensTable, "id", id)
}

// TokenActions reads the distinct actions of a custom token's permissions.
func TokenActions(d Dialect, tokenID int64) Stmt {
	return build(d, sq.Select("DISTINCT "+Col(d, "p", "action")).From(d.Quote(TokenPermissions)+" p").
		Join(d.Quote(TokenPermissionLinks)+" l ON "+Col(d, "l", "api_token_permission_id")+" = "+Col(d, "p", "id")).
		Where(sq.Expr(Col(d, "l", "api_token_id")+" = ?", tokenID)).Where(Col(d, "p", "action")+" IS NOT NULL"))
}

// TokenPermissionIDs reads the ids of a token's permissions.
func TokenPermissionIDs(d Dialect, tokenID int64) Stmt {
	return build(d, sq.Select(d.Quote("api_token_permission_id")).From(d.Quote(TokenPermissionLinks)).
		Where(eq(d, "api_token_id", tokenID)))
}

// TokenPermissionInsert adds a token permission for an action.
func TokenPermissionInsert(d Dialect, action string, now time.Time) InsertStmt {
	ins := Insert{Table: TokenPermissions}
	ins.Set("action", action)
	stamped(d, &ins, now)
	return ins.Render(d)
}

// TokenPermissionLink links a permission to a token at position order.
func TokenPermissionLink(d Dialect, permissionID, tokenID int64, order float64) Stmt {
	ins := Insert{Table: TokenPermissionLinks}
	ins.Set("api_token_permission_id", permissionID).Set("api_token_id", tokenID).Set("api_token_permission_order", order)
	return ins.Plain(d)
}

// TokenUnlinkPermissions removes a token's permission links.
func TokenUnlinkPermissions(d Dialect, tokenID int64) Stmt {
	return Delete(d, TokenPermissionLinks, "api_token_id", tokenID)
}

// TokenPermissionDelete removes a token permission.
func TokenPermissionDelete(d Dialect, id int64) Stmt {
	return Delete(d, TokenPermissions, "id", id)
}
