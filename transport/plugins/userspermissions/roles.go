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

// q is what the store functions need: a database or a transaction.
type q interface {
	sqlx.ExtContext
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

// insertID runs an INSERT … RETURNING id.
func insertID(ctx context.Context, db q, query string, args ...any) (int64, error) {
	var id int64
	err := sqlx.GetContext(ctx, db, &id, db.Rebind(query+` RETURNING id`), args...)
	return id, err
}

// EnsureRoles creates the authenticated and public roles when they are missing and, when no
// permission exists at all, their default permissions (as Strapi's bootstrap does).
func EnsureRoles(ctx context.Context, db *database.DB, now time.Time) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if lock := db.Dialect.UniqueLock(); lock != "" {
		// Several servers starting at once on one database create the roles once.
		if _, err := tx.ExecContext(ctx, sqlgen.Rebind(db.Dialect, lock), int64(7170426517)); err != nil {
			return fmt.Errorf("lock roles: %w", err)
		}
	}
	ts := db.Dialect.Bind(now)
	for _, r := range []struct{ name, desc, typ string }{
		{"Authenticated", "Default role given to authenticated user.", RoleAuthenticated},
		{"Public", "Default role given to unauthenticated user.", RolePublic},
	} {
		var n int
		if err := sqlx.GetContext(ctx, tx, &n, tx.Rebind(`SELECT COUNT(*) FROM up_roles WHERE type = ?`), r.typ); err != nil {
			return fmt.Errorf("read roles: %w", err)
		}
		if n > 0 {
			continue
		}
		if _, err := insertID(ctx, tx, `INSERT INTO up_roles (name, description, type, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			r.name, r.desc, r.typ, ts, ts); err != nil {
			return fmt.Errorf("create role %s: %w", r.typ, err)
		}
	}
	var perms int
	if err := sqlx.GetContext(ctx, tx, &perms, `SELECT COUNT(*) FROM up_permissions`); err != nil {
		return fmt.Errorf("read permissions: %w", err)
	}
	if perms == 0 {
		for _, d := range []struct {
			typ     string
			actions []string
		}{{RoleAuthenticated, defaultAuthenticatedActions}, {RolePublic, defaultPublicActions}} {
			r, err := roleBy(ctx, tx, d.typ)
			if err != nil {
				return err
			}
			if _, err := grant(ctx, tx, db.Dialect.Bind, r.ID, d.actions, now); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

const roleCols = `id, name, description, type, created_at, updated_at`

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
func roleBy(ctx context.Context, db q, name string) (*Role, error) {
	r, err := scanRole(db.QueryRowxContext(ctx, db.Rebind(`SELECT `+roleCols+` FROM up_roles WHERE type = ? ORDER BY id LIMIT 1`), name))
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	r, err = scanRole(db.QueryRowxContext(ctx, db.Rebind(`SELECT `+roleCols+` FROM up_roles WHERE LOWER(name) = ? ORDER BY id LIMIT 1`), strings.ToLower(name)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w %q", ErrNoRole, name)
	}
	return r, err
}

// FindRole finds a role by type (public, authenticated) or name.
func FindRole(ctx context.Context, db *database.DB, name string) (*Role, error) {
	return roleBy(ctx, db, name)
}

// RoleByID finds a role by id; nil when there is none.
func RoleByID(ctx context.Context, db q, id int64) (*Role, error) {
	r, err := scanRole(db.QueryRowxContext(ctx, db.Rebind(`SELECT `+roleCols+` FROM up_roles WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return r, err
}

// Roles lists the roles sorted by name, with their number of users.
func Roles(ctx context.Context, db q) ([]Role, error) {
	rows, err := db.QueryxContext(ctx, `SELECT `+roleCols+` FROM up_roles ORDER BY name, id`)
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
	crows, err := db.QueryxContext(ctx, `SELECT role_id, COUNT(DISTINCT user_id) FROM up_users_role_links GROUP BY role_id`)
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
func CreateRole(ctx context.Context, db q, bind func(any) any, name, description, typ string, now time.Time) (int64, error) {
	if typ == "" {
		typ = schemas.SnakeCase(strings.ToLower(name))
	}
	ts := bind(now)
	return insertID(ctx, db, `INSERT INTO up_roles (name, description, type, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		name, description, typ, ts, ts)
}

// RoleActions lists the actions granted to a role, sorted.
func RoleActions(ctx context.Context, db q, roleID int64) ([]string, error) {
	var out []string
	err := sqlx.SelectContext(ctx, db, &out, db.Rebind(`SELECT DISTINCT p.action FROM up_permissions p
		JOIN up_permissions_role_links l ON l.permission_id = p.id WHERE l.role_id = ? AND p.action IS NOT NULL`), roleID)
	if err != nil {
		return nil, fmt.Errorf("read permissions: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

// grant adds the actions a role lacks and returns those it added.
func grant(ctx context.Context, db q, bind func(any) any, roleID int64, actions []string, now time.Time) ([]string, error) {
	have, err := RoleActions(ctx, db, roleID)
	if err != nil {
		return nil, err
	}
	had := map[string]bool{}
	for _, a := range have {
		had[a] = true
	}
	var order float64
	if err := sqlx.GetContext(ctx, db, &order, db.Rebind(`SELECT COALESCE(MAX(permission_order), 0) FROM up_permissions_role_links WHERE role_id = ?`), roleID); err != nil {
		return nil, err
	}
	ts := bind(now)
	var added []string
	for _, a := range actions {
		if had[a] {
			continue
		}
		had[a] = true
		id, err := insertID(ctx, db, `INSERT INTO up_permissions (action, created_at, updated_at) VALUES (?, ?, ?)`, a, ts, ts)
		if err != nil {
			return nil, fmt.Errorf("grant %s: %w", a, err)
		}
		order++
		if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO up_permissions_role_links (permission_id, role_id, permission_order) VALUES (?, ?, ?)`), id, roleID, order); err != nil {
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
		added, err = grant(ctx, tx, db.Dialect.Bind, roleID, actions, now)
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
		removed, err = revoke(ctx, tx, roleID, actions)
		return err
	})
	if err != nil {
		return nil, err
	}
	return removed, nil
}

func revoke(ctx context.Context, db q, roleID int64, actions []string) ([]string, error) {
	var removed []string
	for _, a := range actions {
		var ids []int64
		err := sqlx.SelectContext(ctx, db, &ids, db.Rebind(`SELECT p.id FROM up_permissions p
			JOIN up_permissions_role_links l ON l.permission_id = p.id WHERE l.role_id = ? AND p.action = ?`), roleID, a)
		if err != nil {
			return nil, fmt.Errorf("revoke %s: %w", a, err)
		}
		for _, id := range ids {
			if _, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM up_permissions_role_links WHERE permission_id = ?`), id); err != nil {
				return nil, err
			}
			if _, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM up_permissions WHERE id = ?`), id); err != nil {
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
func SetRoleActions(ctx context.Context, db q, bind func(any) any, roleID int64, actions []string, now time.Time) error {
	have, err := RoleActions(ctx, db, roleID)
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
	if _, err := revoke(ctx, db, roleID, drop); err != nil {
		return err
	}
	_, err = grant(ctx, db, bind, roleID, actions, now)
	return err
}

// DeleteRole removes a role and its permissions; its users move to the public role.
func DeleteRole(ctx context.Context, db q, roleID, publicID int64) error {
	have, err := RoleActions(ctx, db, roleID)
	if err != nil {
		return err
	}
	if _, err := revoke(ctx, db, roleID, have); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE up_users_role_links SET role_id = ? WHERE role_id = ?`), publicID, roleID); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, db.Rebind(`DELETE FROM up_roles WHERE id = ?`), roleID)
	return err
}
