package userspermissions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// Role is a users-permissions role (up_roles).
type Role struct {
	ID          int64
	Name        string
	Description string
	Type        string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	NbUsers     int64
}

// Role types Strapi creates on first start.
const (
	RoleAuthenticated = "authenticated"
	RolePublic        = "public"
)

// ErrNoRole is returned when a named role does not exist.
var ErrNoRole = errors.New("no such role")

// q is what the store functions run their statements on: the database or a transaction.
// The statements are sqlgen's, rendered for the dialect the functions are given.
type q interface {
	sqlx.ExtContext
	database.Execer
}

// run runs a statement.
func run(ctx context.Context, db q, st sqlgen.Stmt) error {
	_, err := db.ExecContext(ctx, st.SQL, st.Args...)
	return err
}

// get reads a statement's one row into dest.
func get(ctx context.Context, db q, dest any, st sqlgen.Stmt) error {
	return sqlx.GetContext(ctx, db, dest, st.SQL, st.Args...)
}

// getAll reads a statement's rows into dest, a slice.
func getAll(ctx context.Context, db q, dest any, st sqlgen.Stmt) error {
	return sqlx.SelectContext(ctx, db, dest, st.SQL, st.Args...)
}

// row runs a statement that reads one row.
func row(ctx context.Context, db q, st sqlgen.Stmt) *sqlx.Row {
	return db.QueryRowxContext(ctx, st.SQL, st.Args...)
}

func datetime(v any) time.Time {
	t, err := exec.Normalize(schemas.DateTime, v)
	if err != nil || t == nil {
		return time.Time{}
	}
	return t.(time.Time)
}

func boolean(v any) bool {
	b, err := exec.Normalize(schemas.Boolean, v)
	if err != nil || b == nil {
		return false
	}
	return b.(bool)
}

// EnsureRoles creates the authenticated and public roles when they are missing and, when no
// permission exists at all, their default permissions (as Strapi's bootstrap does).
func EnsureRoles(ctx context.Context, db *database.DB, now time.Time) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	d := db.Dialect
	// Several servers starting at once on one database create the roles once: the second
	// waits for the first's commit, then finds its roles and permissions.
	if err := db.LockUnique(ctx, tx, []sqlgen.UniqueKey{
		{Table: sqlgen.RolesTable, Column: "type", Value: RoleAuthenticated},
		{Table: sqlgen.RolesTable, Column: "type", Value: RolePublic},
	}); err != nil {
		return fmt.Errorf("lock roles: %w", err)
	}
	for _, r := range []struct{ name, desc, typ string }{
		{"Authenticated", "Default role given to authenticated user.", RoleAuthenticated},
		{"Public", "Default role given to unauthenticated user.", RolePublic},
	} {
		var n int
		if err := get(ctx, tx, &n, sqlgen.RoleCountByType(d, r.typ)); err != nil {
			return fmt.Errorf("read roles: %w", err)
		}
		if n > 0 {
			continue
		}
		if _, err := database.InsertID(ctx, tx, sqlgen.RoleInsert(d, r.name, r.desc, r.typ, now)); err != nil {
			return fmt.Errorf("create role %s: %w", r.typ, err)
		}
	}
	var perms int
	if err := get(ctx, tx, &perms, sqlgen.PermissionCount(d)); err != nil {
		return fmt.Errorf("read permissions: %w", err)
	}
	if perms == 0 {
		for _, def := range []struct {
			typ     string
			actions []string
		}{{RoleAuthenticated, defaultAuthenticatedActions}, {RolePublic, defaultPublicActions}} {
			r, err := roleBy(ctx, tx, d, def.typ)
			if err != nil {
				return err
			}
			if _, err := grant(ctx, tx, d, r.ID, def.actions, now); err != nil {
				return err
			}
		}
	}
	return db.Commit(ctx, tx)
}

// scanRole reads a role's columns (sqlgen's role statements).
func scanRole(row interface{ Scan(...any) error }) (*Role, error) {
	var r Role
	var desc, typ sql.NullString
	var ca, ua any
	if err := row.Scan(&r.ID, &r.Name, &desc, &typ, &ca, &ua); err != nil {
		return nil, err
	}
	r.Description, r.Type = desc.String, typ.String
	r.CreatedAt, r.UpdatedAt = datetime(ca), datetime(ua)
	return &r, nil
}

// roleBy finds a role by type, else by name (case-insensitive), else by id.
func roleBy(ctx context.Context, db q, d sqlgen.Dialect, name string) (*Role, error) {
	r, err := scanRole(row(ctx, db, sqlgen.RoleByType(d, name)))
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	r, err = scanRole(row(ctx, db, sqlgen.RoleByName(d, strings.ToLower(name))))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w %q", ErrNoRole, name)
	}
	return r, err
}

// FindRole finds a role by type (public, authenticated) or name.
func FindRole(ctx context.Context, db *database.DB, name string) (*Role, error) {
	return roleBy(ctx, db, db.Dialect, name)
}

// RoleByID finds a role by id; nil when there is none.
func RoleByID(ctx context.Context, db *database.DB, id int64) (*Role, error) {
	r, err := scanRole(row(ctx, db, sqlgen.RoleByID(db.Dialect, id)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return r, err
}

// Roles lists the roles sorted by name, with their number of users.
func Roles(ctx context.Context, db *database.DB) ([]Role, error) {
	st := sqlgen.Roles(db.Dialect)
	rows, err := db.QueryxContext(ctx, st.SQL, st.Args...)
	if err != nil {
		return nil, fmt.Errorf("list roles: %w", err)
	}
	var out []Role
	for rows.Next() {
		r, err := scanRole(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, *r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	counts := map[int64]int64{}
	st = sqlgen.RoleUserCounts(db.Dialect)
	crows, err := db.QueryxContext(ctx, st.SQL, st.Args...)
	if err != nil {
		return nil, fmt.Errorf("count role users: %w", err)
	}
	for crows.Next() {
		var id, n int64
		if err := crows.Scan(&id, &n); err != nil {
			crows.Close()
			return nil, err
		}
		counts[id] = n
	}
	crows.Close()
	for i := range out {
		out[i].NbUsers = counts[out[i].ID]
	}
	return out, crows.Err()
}

// CreateRole adds a role; its type defaults to the snake_case of its name.
func CreateRole(ctx context.Context, db q, d sqlgen.Dialect, name, description, typ string, now time.Time) (int64, error) {
	if typ == "" {
		typ = schemas.SnakeCase(strings.ToLower(name))
	}
	return database.InsertID(ctx, db, sqlgen.RoleInsert(d, name, description, typ, now))
}

// RoleActions lists the actions granted to a role, sorted.
func RoleActions(ctx context.Context, db *database.DB, roleID int64) ([]string, error) {
	return roleActions(ctx, db, db.Dialect, roleID)
}

func roleActions(ctx context.Context, db q, d sqlgen.Dialect, roleID int64) ([]string, error) {
	var out []string
	err := getAll(ctx, db, &out, sqlgen.RoleActions(d, roleID))
	if err != nil {
		return nil, fmt.Errorf("read permissions: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

// grant adds the actions a role lacks and returns those it added.
func grant(ctx context.Context, db q, d sqlgen.Dialect, roleID int64, actions []string, now time.Time) ([]string, error) {
	have, err := roleActions(ctx, db, d, roleID)
	if err != nil {
		return nil, err
	}
	had := map[string]bool{}
	for _, a := range have {
		had[a] = true
	}
	var order float64
	if err := get(ctx, db, &order, sqlgen.RolePermissionMaxOrder(d, roleID)); err != nil {
		return nil, err
	}
	var added []string
	for _, a := range actions {
		if had[a] {
			continue
		}
		had[a] = true
		id, err := database.InsertID(ctx, db, sqlgen.PermissionInsert(d, a, now))
		if err != nil {
			return nil, fmt.Errorf("grant %s: %w", a, err)
		}
		order++
		if err := run(ctx, db, sqlgen.PermissionLink(d, id, roleID, order)); err != nil {
			return nil, fmt.Errorf("grant %s: %w", a, err)
		}
		added = append(added, a)
	}
	return added, nil
}

// Grant gives a role actions (already checked with ExpandActions); it returns those added.
func Grant(ctx context.Context, db *database.DB, roleID int64, actions []string, now time.Time) ([]string, error) {
	var added []string
	err := db.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		added, err = grant(ctx, tx, db.Dialect, roleID, actions, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return added, nil
}

// Revoke takes actions from a role; it returns those removed.
func Revoke(ctx context.Context, db *database.DB, roleID int64, actions []string) ([]string, error) {
	var removed []string
	err := db.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		removed, err = revoke(ctx, tx, db.Dialect, roleID, actions)
		return err
	})
	if err != nil {
		return nil, err
	}
	return removed, nil
}

func revoke(ctx context.Context, db q, d sqlgen.Dialect, roleID int64, actions []string) ([]string, error) {
	var removed []string
	for _, a := range actions {
		var ids []int64
		if err := getAll(ctx, db, &ids, sqlgen.RolePermissionIDs(d, roleID, a)); err != nil {
			return nil, fmt.Errorf("revoke %s: %w", a, err)
		}
		for _, id := range ids {
			if err := run(ctx, db, sqlgen.PermissionUnlink(d, id)); err != nil {
				return nil, err
			}
			if err := run(ctx, db, sqlgen.PermissionDelete(d, id)); err != nil {
				return nil, err
			}
		}
		if len(ids) > 0 {
			removed = append(removed, a)
		}
	}
	return removed, nil
}

// SetRoleActions makes a role's permissions exactly actions (Strapi's role update).
func SetRoleActions(ctx context.Context, db q, d sqlgen.Dialect, roleID int64, actions []string, now time.Time) error {
	have, err := roleActions(ctx, db, d, roleID)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, a := range actions {
		want[a] = true
	}
	var drop []string
	for _, a := range have {
		if !want[a] {
			drop = append(drop, a)
		}
	}
	if _, err := revoke(ctx, db, d, roleID, drop); err != nil {
		return err
	}
	_, err = grant(ctx, db, d, roleID, actions, now)
	return err
}

// DeleteRole removes a role and its permissions; its users move to the public role.
func DeleteRole(ctx context.Context, db q, d sqlgen.Dialect, roleID, publicID int64) error {
	have, err := roleActions(ctx, db, d, roleID)
	if err != nil {
		return err
	}
	if _, err := revoke(ctx, db, d, roleID, have); err != nil {
		return err
	}
	if err := run(ctx, db, sqlgen.RoleUsersMove(d, roleID, publicID)); err != nil {
		return err
	}
	return run(ctx, db, sqlgen.RoleDelete(d, roleID))
}
