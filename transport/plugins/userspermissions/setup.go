package userspermissions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// Setup brings the users-permissions data to what a first start of Strapi leaves: the
// authenticated and public roles with their default permissions, the e-mail templates and the
// advanced settings.
// It is idempotent and runs with every command.
func Setup(ctx context.Context, db *database.DB, cfg Config, now time.Time) error {
	if err := EnsureRoles(ctx, db, now); err != nil {
		return fmt.Errorf("users-permissions roles: %w", err)
	}
	if err := EnsureEmailTemplates(ctx, db); err != nil {
		return err
	}
	return EnsureAdvanced(ctx, db, cfg.Advanced)
}

// ParsePermissions reads config/permissions.json: {"<role type or name>": [actions…]}.
func ParsePermissions(data []byte) (map[string][]string, error) {
	var m map[string][]string
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("config/permissions.json: must map role names to lists of actions: %w", err)
	}
	return m, nil
}

// ApplyPermissions grants each role the actions config/permissions.json lists (a role that
// does not exist is created, named after its key). It only adds: actions granted otherwise
// (quarry permissions grant, Strapi's defaults) stay. It returns the actions added per role.
func ApplyPermissions(ctx context.Context, db *database.DB, s *schemas.Schema, perms map[string][]string, now time.Time) (map[string][]string, error) {
	roles := make([]string, 0, len(perms))
	for r := range perms {
		roles = append(roles, r)
	}
	sort.Strings(roles)
	out := map[string][]string{}
	for _, name := range roles {
		actions, err := ExpandActions(s, perms[name])
		if err != nil {
			return nil, fmt.Errorf("config/permissions.json role %q: %w", name, err)
		}
		r, err := FindRole(ctx, db, name)
		var id int64
		switch {
		case errors.Is(err, ErrNoRole):
			id, err = CreateRole(ctx, db, db.Dialect, name, "", schemas.SnakeCase(name), now)
			if err != nil {
				return nil, fmt.Errorf("config/permissions.json: create role %q: %w", name, err)
			}
		case err != nil:
			return nil, err
		default:
			id = r.ID
		}
		added, err := Grant(ctx, db, id, actions, now)
		if err != nil {
			return nil, err
		}
		if len(added) > 0 {
			out[name] = added
		}
	}
	return out, nil
}
