package userspermissions

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"path"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/plugins"
)

// The users-permissions plugin's content API (Strapi v4 @strapi/plugin-users-permissions):
//
//	POST /api/auth/local                   login {identifier, password} → {jwt, user}
//	POST /api/auth/local/register          register {username, email, password} → {jwt, user}
//	POST /api/auth/forgot-password         {email} → {ok: true}
//	POST /api/auth/reset-password          {code, password, passwordConfirmation} → {jwt, user}
//	POST /api/auth/change-password         {currentPassword, password, passwordConfirmation}
//	GET  /api/auth/email-confirmation      ?confirmation=… → redirect
//	POST /api/auth/send-email-confirmation {email} → {email, sent: true}
//	GET  /api/connect/*                    OAuth providers: none is enabled
//	GET  /api/users, /api/users/count, /api/users/me, /api/users/:id
//	POST /api/users, PUT /api/users/:id, DELETE /api/users/:id
//	GET/POST /api/users-permissions/roles, GET/PUT/DELETE /api/users-permissions/roles/:id
//	GET  /api/users-permissions/permissions
//
// Each route needs its action (plugin::users-permissions.<controller>.<action>) like any
// content-API route. Answers are raw objects, not the {data, meta} envelope. Users are
// rendered through the planner, so password and the private tokens can never be output,
// filtered, sorted or populated.

// Routes are the plugin's content-API routes, mounted on the server's Host.
type Routes struct {
	Host plugins.Host
	Auth *Service
	DB   *database.DB
}

// Mount adds the plugin's routes.
func (s *Routes) Mount(r chi.Router) {
	post := func(action string, limited bool, h plugins.Handler) http.HandlerFunc {
		return s.methods(true, map[string]plugins.Route{http.MethodPost: s.route(action, true, limited, h)})
	}
	r.HandleFunc("/api/auth/local", post(ActLogin, true, s.upLogin))
	r.HandleFunc("/api/auth/local/register", post(ActRegister, true, s.upRegister))
	r.HandleFunc("/api/auth/forgot-password", post(ActForgotPassword, true, s.upForgotPassword))
	r.HandleFunc("/api/auth/reset-password", post(ActResetPassword, true, s.upResetPassword))
	r.HandleFunc("/api/auth/change-password", post(ActChangePassword, true, s.upChangePassword))
	r.HandleFunc("/api/auth/send-email-confirmation", post(ActSendEmailConfirmation, false, s.upSendEmailConfirmation))
	r.HandleFunc("/api/auth/email-confirmation", s.methods(true, map[string]plugins.Route{
		http.MethodGet: s.route(ActEmailConfirmation, false, false, s.upEmailConfirmation)}))
	r.HandleFunc("/api/connect/*", s.methods(true, map[string]plugins.Route{
		http.MethodGet: s.route(ActConnect, false, true, s.upConnect)}))

	r.HandleFunc("/api/users", s.methods(false, map[string]plugins.Route{
		http.MethodGet:  s.route(ActUserFind, false, false, s.upUsersFind),
		http.MethodPost: s.route(ActUserCreate, true, false, s.upUserCreate)}))
	r.HandleFunc("/api/users/count", s.methods(false, map[string]plugins.Route{
		http.MethodGet: s.route(ActUserCount, false, false, s.upUsersCount)}))
	r.HandleFunc("/api/users/me", s.methods(false, map[string]plugins.Route{
		http.MethodGet: s.route(ActUserMe, false, false, s.upMe)}))
	r.HandleFunc("/api/users/{id}", s.methods(false, map[string]plugins.Route{
		http.MethodGet:    s.route(ActUserFindOne, false, false, s.upUserFindOne),
		http.MethodPut:    s.route(ActUserUpdate, true, false, s.upUserUpdate),
		http.MethodDelete: s.route(ActUserDestroy, false, false, s.upUserDestroy)}))

	r.HandleFunc("/api/users-permissions/roles", s.methods(false, map[string]plugins.Route{
		http.MethodGet:  s.route(ActRoleFind, false, false, s.upRoles),
		http.MethodPost: s.route(ActRoleCreate, true, false, s.upRoleCreate)}))
	r.HandleFunc("/api/users-permissions/roles/{id}", s.methods(false, map[string]plugins.Route{
		http.MethodGet:    s.route(ActRoleFindOne, false, false, s.upRole),
		http.MethodPut:    s.route(ActRoleUpdate, true, false, s.upRoleUpdate),
		http.MethodDelete: s.route(ActRoleDelete, false, false, s.upRoleDelete)}))
	r.HandleFunc("/api/users-permissions/permissions", s.methods(false, map[string]plugins.Route{
		http.MethodGet: s.route(ActGetPermissions, false, false, s.upPermissions)}))
}

func (s *Routes) methods(notFoundOtherwise bool, routes map[string]plugins.Route) http.HandlerFunc {
	return plugins.Methods(s.Host, notFoundOtherwise, routes)
}

// route is one method of a route; limited ones run the plugin's rate limit first.
func (s *Routes) route(action string, body, limited bool, h plugins.Handler) plugins.Route {
	rt := plugins.Route{Action: action, Body: body, Serve: h}
	if limited {
		rt.Check = s.rateLimit
	}
	return rt
}

// rateLimit applies the plugin's rate limit (by e-mail, path and client address) and sets
// its X-RateLimit headers.
func (s *Routes) rateLimit(w http.ResponseWriter, r *http.Request, body map[string]any) error {
	email := ""
	if v, ok := body["email"]; ok && v != nil {
		if str, ok := v.(string); ok {
			email = str
		} else {
			email = fmt.Sprint(v)
		}
	}
	if info, on := s.Auth.RateLimit(email, path.Clean(r.URL.Path), s.Host.ClientIP(r)); on {
		h := w.Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(info.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(info.Remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(int64(math.Ceil(float64(info.Reset.UnixMilli())/1000)), 10))
		if !info.Allowed {
			return &apierror.Error{Status: 429, Name: "RateLimitError", Message: "Too many requests, please try again later."}
		}
	}
	return nil
}

// ---- users rendered through the planner ----

// userQuery reads the query of a users route: filters, sort, fields, populate, and (lists)
// top-level start and limit; pagination[...], publicationState and locale do not apply.
func userQuery(raw string, op ir.Op, id string) (*ir.Query, int, int, error) {
	keep := func(k string) bool {
		switch k {
		case "filters", "sort", "fields", "populate":
			return true
		}
		return false
	}
	limitOf := func(n int) int {
		if n >= 0 {
			return max(n, 1)
		}
		return -1
	}
	q, start, limit, err := plugins.Query(raw, schemas.UserUID, op, id, keep, limitOf)
	if q != nil {
		// The plugin's users controller passes no publication state to the entity service:
		// populated draft-and-publish relations under /api/users hold drafts too, and their
		// count counts them.
		q.PublicationState = "preview"
	}
	return q, start, limit, err
}

// userByID is a read of one user with the request's fields and populate.
func (s *Routes) readUser(r *http.Request, id int64, q *ir.Query, who *ir.Caller) (*plan.Plan, *exec.Entry, error) {
	if q == nil {
		var err error
		if q, _, _, err = userQuery(r.URL.RawQuery, ir.FindOne, ""); err != nil {
			return nil, nil, err
		}
	}
	q.Op, q.ID = ir.FindOne, strconv.FormatInt(id, 10)
	return s.Host.ReadOne(r.Context(), s.DB, q, who)
}

// writeUser answers one user as the plugin does (raw, relations flat).
func (s *Routes) writeUser(w http.ResponseWriter, r *http.Request, status int, id int64, q *ir.Query, who *ir.Caller) error {
	pl, e, err := s.readUser(r, id, q, who)
	if err != nil {
		return err
	}
	if e == nil {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	var b envelope.Buf
	b.FlatEntry(pl.Root, e)
	envelope.WriteJSON(w, status, &b)
	return nil
}

// userOnly is a read of a user's scalars (register, login and password answers: Strapi
// sanitizes the user row it has, with nothing populated).
func userOnly() *ir.Query { return &ir.Query{Model: schemas.UserUID} }

// UserJSON is a user as the plugin answers it after a login (scalars, nothing populated):
// the USER of the users-permissions e-mail templates.
func (s *Routes) UserJSON(ctx context.Context, id int64) ([]byte, error) {
	q := userOnly()
	q.Op, q.ID = ir.FindOne, strconv.FormatInt(id, 10)
	pl, e, err := s.Host.ReadOne(ctx, s.DB, q, &ir.Caller{Kind: ir.PublicCaller})
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, errors.New("user vanished")
	}
	var b envelope.Buf
	b.FlatEntry(pl.Root, e)
	return append([]byte(nil), b.Bytes()...), nil
}

// withRole is a read populating the role (create and update answer so; the role is left out
// when the caller may not find roles).
func withRole() *ir.Query {
	return &ir.Query{Model: schemas.UserUID, Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "role"}}}}
}

// writeSession answers {jwt, user} ({user} without a JWT).
func (s *Routes) writeSession(w http.ResponseWriter, r *http.Request, sess Session, who *ir.Caller) error {
	return s.writeSessionOf(w, r, sess, userOnly(), who)
}

// writeSessionOf answers a session with the user read by q.
func (s *Routes) writeSessionOf(w http.ResponseWriter, r *http.Request, sess Session, q *ir.Query, who *ir.Caller) error {
	pl, e, err := s.readUser(r, sess.UserID, q, who)
	if err != nil {
		return err
	}
	if e == nil {
		return errors.New("user vanished")
	}
	var b envelope.Buf
	b.WriteByte('{')
	if sess.JWT != "" {
		b.WriteString(`"jwt":`)
		b.Str(sess.JWT)
		b.WriteByte(',')
	}
	b.WriteString(`"user":`)
	b.FlatEntry(pl.Root, e)
	b.WriteByte('}')
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}

func userID(r *http.Request) (int64, error) { return plugins.ParseID(chi.URLParam(r, "id")) }

// ---- auth routes ----

func (s *Routes) upLogin(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	sess, err := s.Auth.Login(r.Context(), body)
	if err != nil {
		return err
	}
	return s.writeSession(w, r, sess, who)
}

func (s *Routes) upRegister(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	sess, err := s.Auth.Register(r.Context(), body)
	if err != nil {
		return err
	}
	// Strapi answers the user its user service created, which populates the role.
	return s.writeSessionOf(w, r, sess, withRole(), who)
}

func (s *Routes) upForgotPassword(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	if err := s.Auth.ForgotPassword(r.Context(), body); err != nil {
		return err
	}
	var b envelope.Buf
	b.WriteString(`{"ok":true}`)
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}

func (s *Routes) upResetPassword(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	sess, err := s.Auth.ResetPassword(r.Context(), body)
	if err != nil {
		return err
	}
	return s.writeSession(w, r, sess, who)
}

func (s *Routes) upChangePassword(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	sess, err := s.Auth.ChangePassword(r.Context(), who, body)
	if err != nil {
		return err
	}
	return s.writeSession(w, r, sess, who)
}

func (s *Routes) upEmailConfirmation(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	query := map[string]any{}
	if vals, err := url.ParseQuery(r.URL.RawQuery); err == nil {
		if v, ok := vals["confirmation"]; ok && len(v) > 0 {
			query["confirmation"] = v[len(v)-1]
		}
	}
	_, to, err := s.Auth.EmailConfirmation(r.Context(), query)
	if err != nil {
		return err
	}
	http.Redirect(w, r, to, http.StatusFound)
	return nil
}

func (s *Routes) upSendEmailConfirmation(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	email, err := s.Auth.SendEmailConfirmation(r.Context(), body)
	if err != nil {
		return err
	}
	var b envelope.Buf
	b.WriteString(`{"email":`)
	b.Str(email)
	b.WriteString(`,"sent":true}`)
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}

func (s *Routes) upConnect(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	return apierror.Application("This provider is disabled")
}

// ---- users ----

func (s *Routes) upUsersFind(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	q, start, limit, err := userQuery(r.URL.RawQuery, ir.FindMany, "")
	if err != nil {
		return err
	}
	pl, res, err := plugins.List(s.Host, r, s.DB, q, start, limit, who)
	if err != nil {
		return err
	}
	var b envelope.Buf
	b.WriteByte('[')
	for i, e := range res.Entries {
		if i > 0 {
			b.WriteByte(',')
		}
		b.FlatEntry(pl.Root, e)
	}
	b.WriteByte(']')
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}

func (s *Routes) upUsersCount(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	q, _, _, err := userQuery(r.URL.RawQuery, ir.FindMany, "")
	if err != nil {
		return err
	}
	q.Populate, q.Sort = nil, nil
	pl, err := s.Host.Plan(q, who)
	if err != nil {
		return err
	}
	pl.Count = &plan.Select{Model: pl.Model, Where: pl.Root.Where, CountOnly: true, Limit: -1}
	pl.Root.Limit = 1
	res, err := s.Host.Run(r, s.DB, pl)
	if err != nil {
		return err
	}
	var b envelope.Buf
	b.Int(res.Total)
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}

func (s *Routes) upMe(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	if !who.IsUser() {
		return apierror.Unauthorized("Unauthorized")
	}
	return s.writeUser(w, r, http.StatusOK, who.UserID, nil, who)
}

func (s *Routes) upUserFindOne(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	id, err := userID(r)
	if err != nil {
		return err
	}
	return s.writeUser(w, r, http.StatusOK, id, nil, who)
}

func (s *Routes) upUserCreate(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	id, err := s.Auth.CreateUser(r.Context(), body)
	if err != nil {
		return err
	}
	return s.writeUser(w, r, http.StatusCreated, id, withRole(), who)
}

func (s *Routes) upUserUpdate(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	id, err := userID(r)
	if err != nil {
		return err
	}
	if err := s.Auth.UpdateUser(r.Context(), id, body); err != nil {
		return err
	}
	return s.writeUser(w, r, http.StatusOK, id, withRole(), who)
}

func (s *Routes) upUserDestroy(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	id, err := userID(r)
	if err != nil {
		return err
	}
	pl, e, err := s.readUser(r, id, userOnly(), who)
	if err != nil {
		return err
	}
	if e == nil {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if err := s.Auth.DeleteUser(r.Context(), id); err != nil {
		return err
	}
	var b envelope.Buf
	b.FlatEntry(pl.Root, e)
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}

// ---- roles ----

func writeRole(b *envelope.Buf, ro *Role) {
	b.WriteString(`{"id":`)
	b.Int(ro.ID)
	b.WriteString(`,"name":`)
	b.Str(ro.Name)
	b.WriteString(`,"description":`)
	b.Str(ro.Description)
	b.WriteString(`,"type":`)
	b.Str(ro.Type)
	b.WriteString(`,"createdAt":`)
	b.Value(schemas.DateTime, ro.CreatedAt)
	b.WriteString(`,"updatedAt":`)
	b.Value(schemas.DateTime, ro.UpdatedAt)
}

func writeTree(b *envelope.Buf, t PermissionTree) {
	b.WriteByte('{')
	for i, typ := range t {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Key(typ.Name)
		b.WriteString(`{"controllers":{`)
		for j, c := range typ.Controllers {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Key(c.Name)
			b.WriteByte('{')
			for k, a := range c.Actions {
				if k > 0 {
					b.WriteByte(',')
				}
				b.Key(a.Name)
				b.WriteString(`{"enabled":`)
				b.WriteString(strconv.FormatBool(a.Enabled))
				b.WriteString(`,"policy":""}`)
			}
			b.WriteByte('}')
		}
		b.WriteString("}}")
	}
	b.WriteByte('}')
}

func (s *Routes) upRoles(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	roles, err := Roles(r.Context(), s.DB)
	if err != nil {
		return err
	}
	var b envelope.Buf
	b.WriteString(`{"roles":`)
	writeRoleList(&b, roles)
	b.WriteByte('}')
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}

// writeRoleList writes roles as the plugin lists them: each with its number of users.
func writeRoleList(b *envelope.Buf, roles []Role) {
	b.WriteByte('[')
	for i := range roles {
		if i > 0 {
			b.WriteByte(',')
		}
		writeRole(b, &roles[i])
		b.WriteString(`,"nb_users":`)
		b.Int(roles[i].NbUsers)
		b.WriteByte('}')
	}
	b.WriteByte(']')
}

func routeRoleID(r *http.Request) (int64, error) { return plugins.ParseID(chi.URLParam(r, "id")) }

func (s *Routes) upRole(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	id, err := routeRoleID(r)
	if err != nil {
		return err
	}
	ro, tree, err := s.Auth.RoleWithPermissions(r.Context(), id)
	if err != nil {
		return err
	}
	if ro == nil {
		return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Role not found"}
	}
	var b envelope.Buf
	b.WriteString(`{"role":`)
	writeRole(&b, ro)
	b.WriteString(`,"permissions":`)
	writeTree(&b, tree)
	b.WriteString("}}")
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}

func writeOK(w http.ResponseWriter) {
	var b envelope.Buf
	b.WriteString(`{"ok":true}`)
	envelope.WriteJSON(w, http.StatusOK, &b)
}

func (s *Routes) upRoleCreate(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	if err := s.Auth.CreateRole(r.Context(), body); err != nil {
		return err
	}
	writeOK(w)
	return nil
}

func (s *Routes) upRoleUpdate(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	id, err := routeRoleID(r)
	if err != nil {
		return err
	}
	if err := s.Auth.UpdateRole(r.Context(), id, body); err != nil {
		return err
	}
	writeOK(w)
	return nil
}

func (s *Routes) upRoleDelete(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	id, err := routeRoleID(r)
	if err != nil {
		return err
	}
	if err := s.Auth.RemoveRole(r.Context(), id); err != nil {
		return err
	}
	writeOK(w)
	return nil
}

func (s *Routes) upPermissions(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	var b envelope.Buf
	b.WriteString(`{"permissions":`)
	writeTree(&b, s.Auth.Tree(nil))
	b.WriteByte('}')
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}
