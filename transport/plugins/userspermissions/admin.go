package userspermissions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/sqlgen"
)

// invalidRole is roleRef's id for a role given as a string that is no id: yup lets any string
// through and Strapi's relation lookup answers "Invalid relations".
const invalidRole = -1

// roleRef reads the role of a user body: an id, or {connect: [{id}], disconnect: [...]}, with
// the errors Strapi's yup schema gives (role ids are strapiID: non-negative integers, or any
// string). present is false when the body has no usable role.
func roleRef(body map[string]any, c *checker, required bool) (id int64, present bool) {
	v, has := body["role"]
	if !has {
		if required {
			c.value([]string{"role"}, "role", nil, false, write.RuleRequired)
		}
		return 0, false
	}
	switch x := v.(type) {
	case nil:
		c.value([]string{"role"}, "role", nil, true, ruleObject)
		return 0, false
	case map[string]any:
		if !required {
			// Updating a user's role takes both lists.
			d, has := x["disconnect"]
			c.value([]string{"role", "disconnect"}, "role.disconnect", d, has, write.RuleArray, write.RuleRequired)
		}
		conn, hasConn := x["connect"].([]any)
		if !hasConn {
			c.addAt([]string{"role", "connect"}, "role.connect is a required field")
			return 0, false
		}
		if len(conn) == 0 {
			c.addAt([]string{"role", "connect"}, "Users must have a role")
			return 0, false
		}
		ok := true
		for i, item := range conn {
			obj, _ := item.(map[string]any)
			if !c.value([]string{"role", "connect", strconv.Itoa(i), "id"}, fmt.Sprintf("role.connect[%d].id", i), obj["id"], true, ruleRoleID) {
				ok = false
				continue
			}
			id, _ = roleID(obj["id"])
		}
		// The last connected role wins, as users have one.
		return id, ok
	}
	if !c.value([]string{"role"}, "role", v, true, ruleRoleID) {
		return 0, false
	}
	return roleID(v)
}

// relationError is how Strapi's user update refuses a role it cannot connect: a
// ValidationError whose one detail has an empty path.
func relationError(msg string) error {
	return apierror.Fields([]apierror.FieldError{{Path: []string{}, Message: msg, Name: "ValidationError"}})
}

// roleID reads one role id; a string that is not an id is invalidRole.
func roleID(v any) (int64, bool) {
	if n, ok := strapiID(v); ok {
		return n, true
	}
	if _, isStr := v.(string); isStr {
		return invalidRole, true
	}
	return 0, false
}

func boolField(body map[string]any, key string, c *checker) (bool, bool) {
	v, has := body[key]
	if !has || !c.value([]string{key}, key, v, true, write.RuleBoolean) {
		return false, false
	}
	return v.(bool), true
}

func (s *Service) usernameTaken(ctx context.Context, username string, except int64) (bool, error) {
	var n int
	err := get(ctx, s.DB, &n, sqlgen.UserCountOther(s.DB.Dialect, "username", username, except))
	return n > 0, err
}

// claimIdentities locks, in tx, the username and e-mail a user row is about to hold and
// checks again that no other row holds them: the checks before the transaction give
// Strapi's errors in Strapi's order, this one keeps two concurrent requests from both
// passing them. Both are locked lower-cased in one key space, since registration compares
// usernames with e-mails.
func (s *Service) claimIdentities(ctx context.Context, tx *sqlx.Tx, except int64, username, email string, uniqueEmail bool, emailMsg, usernameMsg string) error {
	var keys []sqlgen.UniqueKey
	for _, v := range []string{username, email} {
		if v != "" {
			keys = append(keys, sqlgen.UniqueKey{Table: sqlgen.UsersTable, Column: "identity", Value: strings.ToLower(v)})
		}
	}
	if err := s.DB.LockUnique(ctx, tx, keys); err != nil {
		return err
	}
	count := func(col, v string) (bool, error) {
		var n int
		err := get(ctx, tx, &n, sqlgen.UserCountOther(s.DB.Dialect, col, v, except))
		return n > 0, err
	}
	if email != "" && uniqueEmail {
		if taken, err := count("email", email); err != nil {
			return err
		} else if taken {
			return apierror.Application(emailMsg)
		}
	}
	if username != "" {
		if taken, err := count("username", username); err != nil {
			return err
		} else if taken {
			return apierror.Application(usernameMsg)
		}
	}
	return nil
}

func (s *Service) emailTaken(ctx context.Context, email string, except int64) (bool, error) {
	var n int
	err := get(ctx, s.DB, &n, sqlgen.UserCountOther(s.DB.Dialect, "email", email, except))
	return n > 0, err
}

// CreateUser is POST /api/users: {username, email, password, role, confirmed?, blocked?} and
// the attributes an app's extension adds (their defaults when absent).
func (s *Service) CreateUser(ctx context.Context, body map[string]any) (int64, error) {
	adv, err := s.Advanced(ctx)
	if err != nil {
		return 0, err
	}
	c := s.checker()
	email, _ := c.email(body, "email", true)
	username, _ := c.str(body, "username", true)
	password, _ := c.str(body, "password", true)
	roleID, _ := roleRef(body, &c, true)
	if err := c.err(); err != nil {
		return 0, err
	}
	email = strings.ToLower(email)
	if adv.UniqueEmail {
		taken, err := s.emailTaken(ctx, email, 0)
		if err != nil {
			return 0, err
		}
		if taken {
			return 0, apierror.Application("Email already taken")
		}
	}
	// The entity validator's errors are answered as ApplicationError by this route.
	v := s.checker()
	confirmed, _ := boolField(body, "confirmed", &v)
	blocked, _ := boolField(body, "blocked", &v)
	if v.min("username", username, 3) {
		v.column("username", username)
	}
	v.column("email", email)
	v.password("password", password)
	if err := v.err(); err != nil {
		return 0, apierror.Application(err.(*apierror.Error).Message)
	}
	if taken, err := s.usernameTaken(ctx, username, 0); err != nil {
		return 0, err
	} else if taken {
		return 0, apierror.Application("This attribute must be unique")
	}
	if roleID == invalidRole {
		return 0, apierror.Application("Invalid relations")
	}
	if r, err := RoleByID(ctx, s.DB, roleID); err != nil {
		return 0, err
	} else if r == nil {
		return 0, apierror.Application("1 relation(s) of type plugin::users-permissions.role associated with this entity do not exist")
	}
	var id int64
	if s.Events != nil {
		// As Strapi's user service adds the user: the entity service's create through the one
		// write path, so an extension's attributes get every rule of a create (required,
		// min, max, ...) and a refused one stores nothing; the controller answers the
		// validator's message as ApplicationError.
		data := s.extensionData(body, false, nil)
		data["username"], data["email"], data["password"], data["provider"] = username, email, password, "local"
		data["confirmed"], data["blocked"] = confirmed, blocked
		data["role"] = json.Number(strconv.FormatInt(roleID, 10))
		err = s.Events.InTx(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
			if err := s.claimIdentities(ctx, tx, 0, username, email, adv.UniqueEmail, "Email already taken", "This attribute must be unique"); err != nil {
				return err
			}
			res, err := s.Events.Apply(ctx, &ir.Query{Model: schemas.UserUID, Op: ir.Create, Via: ir.ViaEntityService, Data: data,
				Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "role"}}}}, ir.System)
			if err != nil {
				var ae *apierror.Error
				if errors.As(err, &ae) && ae.Status == 400 && ae.Name == "ValidationError" {
					return apierror.Application(ae.Message)
				}
				return err
			}
			id = res.ID
			return nil
		})
		return id, err
	}
	now := s.now().UTC().Truncate(time.Millisecond)
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		if err := s.claimIdentities(ctx, tx, 0, username, email, adv.UniqueEmail, "Email already taken", "This attribute must be unique"); err != nil {
			return err
		}
		id, err = insertUser(ctx, tx, s.DB.Dialect, newUser{Username: username, Email: email, Password: password,
			Provider: "local", Confirmed: confirmed, Blocked: blocked, RoleID: roleID}, now)
		if err != nil {
			return err
		}
		return s.writeExtension(ctx, tx, id, s.extensionData(body, true, nil), now, true)
	})
	if err != nil {
		return 0, err
	}
	return id, s.announceUser(ctx, write.EntryCreate, id)
}

// UpdateUser is PUT /api/users/:id: the plugin's attributes (not the reset and confirmation
// tokens), and those an app's extension adds.
func (s *Service) UpdateUser(ctx context.Context, id int64, body map[string]any) error {
	u, err := UserByID(ctx, s.DB, id)
	if err != nil {
		return err
	}
	if u == nil {
		return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "User not found"}
	}
	adv, err := s.Advanced(ctx)
	if err != nil {
		return err
	}
	c := s.checker()
	email, hasEmail := c.email(body, "email", false)
	if hasEmail {
		c.min("email", email, 1)
	}
	username, hasUsername := c.str(body, "username", false)
	if hasUsername {
		c.min("username", username, 1)
	}
	password, hasPassword := c.str(body, "password", false)
	if hasPassword {
		c.min("password", password, 1)
	}
	roleID, hasRole := roleRef(body, &c, false)
	if err := c.err(); err != nil {
		return err
	}
	if hasUsername {
		if taken, err := s.usernameTaken(ctx, username, id); err != nil {
			return err
		} else if taken {
			return apierror.Application("Username already taken")
		}
	}
	if hasEmail {
		email = strings.ToLower(email)
		if adv.UniqueEmail {
			if taken, err := s.emailTaken(ctx, email, id); err != nil {
				return err
			} else if taken {
				return apierror.Application("Email already taken")
			}
		}
	}
	v := s.checker()
	var cols []string
	var vals []any
	if hasUsername && v.min("username", username, 3) && v.column("username", username) {
		cols, vals = append(cols, "username"), append(vals, username)
	}
	if hasEmail && v.column("email", email) {
		cols, vals = append(cols, "email"), append(vals, email)
	}
	if hasPassword && v.password("password", password) {
		hash, err := HashPassword(password)
		if err != nil {
			return err
		}
		cols, vals = append(cols, "password"), append(vals, hash)
	}
	if b, ok := boolField(body, "confirmed", &v); ok {
		cols, vals = append(cols, "confirmed"), append(vals, b)
	}
	if b, ok := boolField(body, "blocked", &v); ok {
		cols, vals = append(cols, "blocked"), append(vals, b)
	}
	if err := v.err(); err != nil {
		return err
	}
	if hasRole {
		if roleID == invalidRole {
			return relationError("Invalid relations")
		}
		if r, err := RoleByID(ctx, s.DB, roleID); err != nil {
			return err
		} else if r == nil {
			return relationError("1 relation(s) of type plugin::users-permissions.role associated with this entity do not exist")
		}
	}
	ext := s.extensionData(body, false, nil)
	// Strapi's update writes the body as it comes: provider too (not on create).
	if p, ok := body["provider"].(string); ok {
		cols, vals = append(cols, "provider"), append(vals, p)
	}
	now := s.now().UTC().Truncate(time.Millisecond)
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		var claimUser, claimEmail string
		if hasUsername {
			claimUser = username
		}
		if hasEmail {
			claimEmail = email
		}
		if err := s.claimIdentities(ctx, tx, id, claimUser, claimEmail, adv.UniqueEmail, "Email already taken", "Username already taken"); err != nil {
			return err
		}
		if err := updateUser(ctx, tx, s.DB.Dialect, id, cols, vals, now); err != nil {
			return err
		}
		if hasRole {
			if err := setUserRole(ctx, tx, s.DB.Dialect, id, roleID); err != nil {
				return err
			}
		}
		return s.writeExtension(ctx, tx, id, ext, now, false)
	})
	if err != nil {
		return err
	}
	return s.announceUser(ctx, write.EntryUpdate, id)
}

// DeleteUser is DELETE /api/users/:id; found is false when there was no such user.
func (s *Service) DeleteUser(ctx context.Context, id int64) error {
	return s.DB.InTx(ctx, func(tx *sqlx.Tx) error { return deleteUser(ctx, tx, s.DB.Dialect, s.Schema, id) })
}

// ---- roles ----

// PermissionTree is Strapi's permissions object: {"api::article": {"controllers":
// {"article": {"find": {"enabled": true, "policy": ""}}}}}, in a stable order.
type PermissionTree []PermissionType

type PermissionType struct {
	Name        string // api::article, plugin::users-permissions
	Controllers []PermissionController
}

type PermissionController struct {
	Name    string
	Actions []PermissionAction
}

type PermissionAction struct {
	Name    string
	Enabled bool
}

// Tree groups every known action, marking those granted.
func (s *Service) Tree(granted map[string]bool) PermissionTree {
	var tree PermissionTree
	types := map[string]int{}
	for _, a := range Actions(s.Schema) {
		i := strings.LastIndexByte(a, '.')
		j := strings.LastIndexByte(a[:i], '.')
		if i < 0 || j < 0 {
			continue
		}
		typ, ctrl, act := a[:j], a[j+1:i], a[i+1:]
		ti, ok := types[typ]
		if !ok {
			ti = len(tree)
			types[typ] = ti
			tree = append(tree, PermissionType{Name: typ})
		}
		t := &tree[ti]
		ci := -1
		for k := range t.Controllers {
			if t.Controllers[k].Name == ctrl {
				ci = k
			}
		}
		if ci < 0 {
			t.Controllers = append(t.Controllers, PermissionController{Name: ctrl})
			ci = len(t.Controllers) - 1
		}
		t.Controllers[ci].Actions = append(t.Controllers[ci].Actions, PermissionAction{Name: act, Enabled: granted[a]})
	}
	for i := range tree {
		for j := range tree[i].Controllers {
			orderActions(s.Schema, tree[i].Name, &tree[i].Controllers[j])
		}
		orderPluginControllers(&tree[i])
	}
	return tree
}

// actionRank is an action's place in pluginActions (Strapi's order for the plugins Quarry
// serves).
var actionRank = func() map[string]int {
	m := make(map[string]int, len(pluginActions))
	for i, a := range pluginActions {
		m[a] = i
	}
	return m
}()

// orderPluginControllers puts a built-in plugin's controllers in Strapi's order; a local
// plugin's stay sorted by name (Quarry does not know its controllers' key order).
func orderPluginControllers(t *PermissionType) {
	first := func(c PermissionController) (int, bool) {
		r, ok := actionRank[t.Name+"."+c.Name+"."+c.Actions[0].Name]
		return r, ok
	}
	for _, c := range t.Controllers {
		if _, ok := first(c); !ok {
			return
		}
	}
	slices.SortStableFunc(t.Controllers, func(a, b PermissionController) int {
		ra, _ := first(a)
		rb, _ := first(b)
		return ra - rb
	})
}

// orderActions puts a controller's actions in the order Strapi lists them: the keys of the
// controller object. For a project controller made by createCoreController those are its
// extension object's keys, then the core actions it does not define (find, findOne, create,
// update, delete; a single type's find, update, delete), then i18n's createLocalization,
// which the plugin adds last. A built-in plugin's follow pluginActions. Where Quarry does not
// know the keys (a controller file it could not read, a local plugin's controller) the
// actions stay sorted by name.
func orderActions(s *schemas.Schema, typ string, c *PermissionController) {
	uid := typ + "." + c.Name
	var order []string
	switch {
	case strings.HasPrefix(typ, "api::"):
		if s.ControllerKeysUnknown[uid] {
			return
		}
		order = append(order, s.ControllerKeys[uid]...)
		core := routes.CoreActions
		if m := s.Models[uid]; m != nil && m.Kind == schemas.SingleType {
			core = []string{"find", "update", "delete"}
		}
		order = append(order, core...)
		order = append(order, "createLocalization")
	default:
		for _, a := range c.Actions {
			if _, ok := actionRank[uid+"."+a.Name]; !ok {
				return
			}
		}
		slices.SortStableFunc(c.Actions, func(a, b PermissionAction) int {
			return actionRank[uid+"."+a.Name] - actionRank[uid+"."+b.Name]
		})
		return
	}
	rank := map[string]int{}
	for _, a := range order {
		if _, ok := rank[a]; !ok {
			rank[a] = len(rank)
		}
	}
	// An action outside the known keys (none is expected) goes after them, by name as before.
	slices.SortStableFunc(c.Actions, func(a, b PermissionAction) int {
		ra, oka := rank[a.Name]
		rb, okb := rank[b.Name]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
}

// treeActions reads the enabled actions of a permissions object from a request body.
func treeActions(v any) []string {
	types, _ := v.(map[string]any)
	var out []string
	for typ, tv := range types {
		tm, _ := tv.(map[string]any)
		ctrls, _ := tm["controllers"].(map[string]any)
		for ctrl, cv := range ctrls {
			acts, _ := cv.(map[string]any)
			for act, av := range acts {
				am, _ := av.(map[string]any)
				if en, _ := am["enabled"].(bool); en {
					out = append(out, typ+"."+ctrl+"."+act)
				}
			}
		}
	}
	return out
}

// RoleWithPermissions is GET /api/users-permissions/roles/:id.
func (s *Service) RoleWithPermissions(ctx context.Context, id int64) (*Role, PermissionTree, error) {
	r, err := RoleByID(ctx, s.DB, id)
	if err != nil || r == nil {
		return nil, nil, err
	}
	list, err := RoleActions(ctx, s.DB, id)
	if err != nil {
		return nil, nil, err
	}
	granted := map[string]bool{}
	for _, a := range list {
		granted[a] = true
	}
	return r, s.Tree(granted), nil
}

func roleNotFound() error {
	return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Role not found"}
}

// knownOnly drops actions Quarry does not know (a body may carry Strapi's whole tree).
func (s *Service) knownOnly(actions []string) []string {
	known := map[string]bool{}
	for _, a := range Actions(s.Schema) {
		known[a] = true
	}
	var out []string
	for _, a := range actions {
		if known[a] {
			out = append(out, a)
		}
	}
	return out
}

// CreateRole is POST /api/users-permissions/roles: {name, description, type?, permissions}.
func (s *Service) CreateRole(ctx context.Context, body map[string]any) error {
	if len(body) == 0 {
		return apierror.Validation("Request body cannot be empty")
	}
	c := s.checker()
	name, _ := c.str(body, "name", true)
	if name != "" {
		if c.min("name", name, 3) {
			c.column("name", name)
		}
	}
	desc, _ := c.str(body, "description", false)
	typ, _ := c.str(body, "type", false)
	c.column("description", desc)
	c.column("type", typ)
	if err := c.err(); err != nil {
		return err
	}
	err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		id, err := CreateRole(ctx, tx, s.DB.Dialect, name, desc, typ, s.now())
		if err != nil {
			return err
		}
		_, err = grant(ctx, tx, s.DB.Dialect, id, s.knownOnly(treeActions(body["permissions"])), s.now())
		return err
	})
	if err != nil {
		return err
	}
	s.changed(ctx)
	return nil
}

// UpdateRole is PUT /api/users-permissions/roles/:role: name, description and the complete
// permissions object.
func (s *Service) UpdateRole(ctx context.Context, id int64, body map[string]any) error {
	if len(body) == 0 {
		return apierror.Validation("Request body cannot be empty")
	}
	r, err := RoleByID(ctx, s.DB, id)
	if err != nil {
		return err
	}
	if r == nil {
		return roleNotFound()
	}
	c := s.checker()
	var cols []string
	var vals []any
	if name, ok := c.str(body, "name", false); ok && c.min("name", name, 3) && c.column("name", name) {
		cols, vals = append(cols, "name"), append(vals, name)
	}
	if desc, ok := c.str(body, "description", false); ok && c.column("description", desc) {
		cols, vals = append(cols, "description"), append(vals, desc)
	}
	if err := c.err(); err != nil {
		return err
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := run(ctx, tx, sqlgen.RoleUpdate(s.DB.Dialect, id, cols, vals, s.now())); err != nil {
			return fmt.Errorf("update role: %w", err)
		}
		if p, ok := body["permissions"]; ok {
			return SetRoleActions(ctx, tx, s.DB.Dialect, id, s.knownOnly(treeActions(p)), s.now())
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.changed(ctx)
	return nil
}

// RemoveRole is DELETE /api/users-permissions/roles/:role; the public role stays.
func (s *Service) RemoveRole(ctx context.Context, id int64) error {
	pub, err := roleBy(ctx, s.DB, s.DB.Dialect, RolePublic)
	if err != nil {
		return err
	}
	if id == pub.ID {
		return apierror.Application("Cannot delete public role")
	}
	r, err := RoleByID(ctx, s.DB, id)
	if err != nil {
		return err
	}
	if r == nil {
		return roleNotFound()
	}
	if err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error { return DeleteRole(ctx, tx, s.DB.Dialect, id, pub.ID) }); err != nil {
		return err
	}
	s.changed(ctx)
	return nil
}

// DeleteRoleTo is the role service's deleteRole(id, publicRoleID): the role and its
// permissions go, its users move to publicID.
func (s *Service) DeleteRoleTo(ctx context.Context, id, publicID int64) error {
	r, err := RoleByID(ctx, s.DB, id)
	if err != nil {
		return err
	}
	if r == nil {
		return roleNotFound()
	}
	if err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error { return DeleteRole(ctx, tx, s.DB.Dialect, id, publicID) }); err != nil {
		return err
	}
	s.changed(ctx)
	return nil
}
