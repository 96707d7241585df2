package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport/plugins/userspermissions"
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

// upHandler serves one users-permissions route once the caller is allowed.
type upHandler func(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error

// upRoute is one route: its action, whether it reads a body, whether it is rate limited.
type upRoute struct {
	action  string
	body    bool
	limited bool
	h       upHandler
}

// mountUsersPermissions adds the plugin's routes.
func (s *Server) mountUsersPermissions(r chi.Router) {
	post := func(action string, limited bool, h upHandler) http.HandlerFunc {
		return s.upMethods(true, map[string]upRoute{http.MethodPost: {action, true, limited, h}})
	}
	r.HandleFunc("/api/auth/local", post(userspermissions.ActLogin, true, s.upLogin))
	r.HandleFunc("/api/auth/local/register", post(userspermissions.ActRegister, true, s.upRegister))
	r.HandleFunc("/api/auth/forgot-password", post(userspermissions.ActForgotPassword, true, s.upForgotPassword))
	r.HandleFunc("/api/auth/reset-password", post(userspermissions.ActResetPassword, true, s.upResetPassword))
	r.HandleFunc("/api/auth/change-password", post(userspermissions.ActChangePassword, true, s.upChangePassword))
	r.HandleFunc("/api/auth/send-email-confirmation", post(userspermissions.ActSendEmailConfirmation, false, s.upSendEmailConfirmation))
	r.HandleFunc("/api/auth/email-confirmation", s.upMethods(true, map[string]upRoute{
		http.MethodGet: {userspermissions.ActEmailConfirmation, false, false, s.upEmailConfirmation}}))
	r.HandleFunc("/api/connect/*", s.upMethods(true, map[string]upRoute{
		http.MethodGet: {userspermissions.ActConnect, false, true, s.upConnect}}))

	r.HandleFunc("/api/users", s.upMethods(false, map[string]upRoute{
		http.MethodGet:  {userspermissions.ActUserFind, false, false, s.upUsersFind},
		http.MethodPost: {userspermissions.ActUserCreate, true, false, s.upUserCreate}}))
	r.HandleFunc("/api/users/count", s.upMethods(false, map[string]upRoute{
		http.MethodGet: {userspermissions.ActUserCount, false, false, s.upUsersCount}}))
	r.HandleFunc("/api/users/me", s.upMethods(false, map[string]upRoute{
		http.MethodGet: {userspermissions.ActUserMe, false, false, s.upMe}}))
	r.HandleFunc("/api/users/{id}", s.upMethods(false, map[string]upRoute{
		http.MethodGet:    {userspermissions.ActUserFindOne, false, false, s.upUserFindOne},
		http.MethodPut:    {userspermissions.ActUserUpdate, true, false, s.upUserUpdate},
		http.MethodDelete: {userspermissions.ActUserDestroy, false, false, s.upUserDestroy}}))

	r.HandleFunc("/api/users-permissions/roles", s.upMethods(false, map[string]upRoute{
		http.MethodGet:  {userspermissions.ActRoleFind, false, false, s.upRoles},
		http.MethodPost: {userspermissions.ActRoleCreate, true, false, s.upRoleCreate}}))
	r.HandleFunc("/api/users-permissions/roles/{id}", s.upMethods(false, map[string]upRoute{
		http.MethodGet:    {userspermissions.ActRoleFindOne, false, false, s.upRole},
		http.MethodPut:    {userspermissions.ActRoleUpdate, true, false, s.upRoleUpdate},
		http.MethodDelete: {userspermissions.ActRoleDelete, false, false, s.upRoleDelete}}))
	r.HandleFunc("/api/users-permissions/permissions", s.upMethods(false, map[string]upRoute{
		http.MethodGet: {userspermissions.ActGetPermissions, false, false, s.upPermissions}}))
}

// upMethods dispatches by method. Unknown methods get 404 on the auth routes (as Strapi
// answers there) and 405 elsewhere.
func (s *Server) upMethods(notFoundOtherwise bool, routes map[string]upRoute) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rt, ok := routes[r.Method]
		if !ok {
			if notFoundOtherwise {
				s.notFound(w, r)
			} else {
				methodNotAllowed(w, r)
			}
			return
		}
		if err := s.upServe(w, r, rt); err != nil {
			s.writeError(w, r, err)
		}
	}
}

func (s *Server) upServe(w http.ResponseWriter, r *http.Request, rt upRoute) error {
	who, err := s.Authenticate(r)
	if err != nil {
		return err
	}
	if !who.Can(rt.action) {
		return apierror.Forbidden()
	}
	var body map[string]any
	if rt.body {
		if body, err = s.plainBody(w, r); err != nil {
			return err
		}
	}
	if rt.limited {
		email := ""
		if v, ok := body["email"]; ok && v != nil {
			if str, ok := v.(string); ok {
				email = str
			} else {
				email = fmt.Sprint(v)
			}
		}
		if info, on := s.Auth.RateLimit(email, path.Clean(r.URL.Path), s.clientIP(r)); on {
			h := w.Header()
			h.Set("X-RateLimit-Limit", strconv.Itoa(info.Limit))
			h.Set("X-RateLimit-Remaining", strconv.Itoa(info.Remaining))
			h.Set("X-RateLimit-Reset", strconv.FormatInt(int64(math.Ceil(float64(info.Reset.UnixMilli())/1000)), 10))
			if !info.Allowed {
				return &apierror.Error{Status: 429, Name: "RateLimitError", Message: "Too many requests, please try again later."}
			}
		}
	}
	return rt.h(w, r, who, body)
}

// clientIP is koa's ctx.request.ip: with server.proxy, the first address of
// X-Forwarded-For; otherwise (or without the header) the connection's address.
func (s *Server) clientIP(r *http.Request) string {
	if s.TrustProxy {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			first, _, _ := strings.Cut(xff, ",")
			if first = strings.TrimSpace(first); first != "" {
				return first
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// plainBody decodes the plugin's unwrapped bodies: a JSON object (anything else counts as
// empty, as koa-body leaves it) or an URL-encoded form; an empty body is {}.
func (s *Server) plainBody(w http.ResponseWriter, r *http.Request) (map[string]any, error) {
	limit := s.MaxBody
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "application/x-www-form-urlencoded" && s.FormMaxBody > 0 {
		limit = s.FormMaxBody
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &apierror.Error{Status: 413, Name: "PayloadTooLargeError", Message: "request entity too large", NoDetails: true}
		}
		return nil, apierror.Validation("Unreadable request body")
	}
	out := map[string]any{}
	if len(bytes.TrimSpace(raw)) == 0 {
		return out, nil
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "application/x-www-form-urlencoded" {
		vals, err := url.ParseQuery(string(raw))
		if err != nil {
			return nil, apierror.Validation("Invalid form body")
		}
		for k, v := range vals {
			if len(v) > 0 {
				out[k] = v[len(v)-1]
			}
		}
		return out, nil
	}
	if err := syntaxError(raw); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, apierror.Validation("Unreadable request body")
	}
	if obj, ok := v.(map[string]any); ok {
		return obj, nil
	}
	return out, nil
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
	return pluginQuery(raw, schemas.UserUID, op, id, keep, limitOf)
}

// userByID is a read of one user with the request's fields and populate.
func (s *Server) readUser(r *http.Request, id int64, q *ir.Query, who *ir.Caller) (*plan.Plan, *exec.Entry, error) {
	if q == nil {
		var err error
		if q, _, _, err = userQuery(r.URL.RawQuery, ir.FindOne, ""); err != nil {
			return nil, nil, err
		}
	}
	q.Op, q.ID = ir.FindOne, strconv.FormatInt(id, 10)
	return s.readOne(r.Context(), s.DB, q, who)
}

// writeUser answers one user as the plugin does (raw, relations flat).
func (s *Server) writeUser(w http.ResponseWriter, r *http.Request, status int, id int64, q *ir.Query, who *ir.Caller) error {
	pl, e, err := s.readUser(r, id, q, who)
	if err != nil {
		return err
	}
	if e == nil {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	var b buf
	b.flatEntry(pl.Root, e)
	writeJSON(w, status, &b)
	return nil
}

// userOnly is a read of a user's scalars (register, login and password answers: Strapi
// sanitizes the user row it has, with nothing populated).
func userOnly() *ir.Query { return &ir.Query{Model: schemas.UserUID} }

// userJSON is a user as the plugin answers it after a login (scalars, nothing populated):
// the USER of the users-permissions e-mail templates.
func (s *Server) userJSON(ctx context.Context, id int64) ([]byte, error) {
	q := userOnly()
	q.Op, q.ID = ir.FindOne, strconv.FormatInt(id, 10)
	pl, e, err := s.readOne(ctx, s.DB, q, &ir.Caller{Kind: ir.PublicCaller})
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, errors.New("user vanished")
	}
	var b buf
	b.flatEntry(pl.Root, e)
	return append([]byte(nil), b.Bytes()...), nil
}

// withRole is a read populating the role (create and update answer so; the role is left out
// when the caller may not find roles).
func withRole() *ir.Query {
	return &ir.Query{Model: schemas.UserUID, Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "role"}}}}
}

// writeSession answers {jwt, user} ({user} without a JWT).
func (s *Server) writeSession(w http.ResponseWriter, r *http.Request, sess userspermissions.Session, who *ir.Caller) error {
	pl, e, err := s.readUser(r, sess.UserID, userOnly(), who)
	if err != nil {
		return err
	}
	if e == nil {
		return errors.New("user vanished")
	}
	var b buf
	b.WriteByte('{')
	if sess.JWT != "" {
		b.WriteString(`"jwt":`)
		b.Str(sess.JWT)
		b.WriteByte(',')
	}
	b.WriteString(`"user":`)
	b.flatEntry(pl.Root, e)
	b.WriteByte('}')
	writeJSON(w, http.StatusOK, &b)
	return nil
}

// flatEntry writes an entry as plugins answer: {"id":…, fields…, relation: {…}|[…]}.
func (b *buf) flatEntry(s *plan.Select, e *exec.Entry) { b.flatObject(s, e, false) }

// flatObject writes an entry, component or (dz) dynamic-zone item without the attributes
// wrapper.
func (b *buf) flatObject(s *plan.Select, e *exec.Entry, dz bool) {
	b.WriteString(`{"id":`)
	b.Int(e.ID)
	if dz {
		b.WriteString(`,"__component":`)
		b.Str(s.Model.UID)
	}
	b.fieldsWith(s, e, true, b.flatChild)
	b.WriteByte('}')
}

func (b *buf) flatChild(c *plan.Child, k exec.Kid) {
	a := c.Attr
	if c.Count {
		b.WriteString(`{"count":`)
		b.Int(k.Count)
		b.WriteByte('}')
		return
	}
	switch {
	case a.Type == schemas.DynamicZone || a.IsToMany():
		b.WriteByte('[')
		for i, e := range k.Entries {
			if i > 0 {
				b.WriteByte(',')
			}
			b.flatObject(k.Steps[i], e, a.Type == schemas.DynamicZone)
		}
		b.WriteByte(']')
	case len(k.Entries) == 0:
		b.WriteString("null")
	default:
		b.flatEntry(k.Steps[0], k.Entries[0])
	}
}

func userID(r *http.Request) (int64, error) {
	id, err := planner.ParseID(chi.URLParam(r, "id"))
	if err != nil {
		return 0, apierror.InvalidParam("id")
	}
	return id, nil
}

// ---- auth routes ----

func (s *Server) upLogin(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	sess, err := s.Auth.Login(r.Context(), body)
	if err != nil {
		return err
	}
	return s.writeSession(w, r, sess, who)
}

func (s *Server) upRegister(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	sess, err := s.Auth.Register(r.Context(), body)
	if err != nil {
		return err
	}
	return s.writeSession(w, r, sess, who)
}

func (s *Server) upForgotPassword(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	if err := s.Auth.ForgotPassword(r.Context(), body); err != nil {
		return err
	}
	var b buf
	b.WriteString(`{"ok":true}`)
	writeJSON(w, http.StatusOK, &b)
	return nil
}

func (s *Server) upResetPassword(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	sess, err := s.Auth.ResetPassword(r.Context(), body)
	if err != nil {
		return err
	}
	return s.writeSession(w, r, sess, who)
}

func (s *Server) upChangePassword(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	sess, err := s.Auth.ChangePassword(r.Context(), who, body)
	if err != nil {
		return err
	}
	return s.writeSession(w, r, sess, who)
}

func (s *Server) upEmailConfirmation(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
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

func (s *Server) upSendEmailConfirmation(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	email, err := s.Auth.SendEmailConfirmation(r.Context(), body)
	if err != nil {
		return err
	}
	var b buf
	b.WriteString(`{"email":`)
	b.Str(email)
	b.WriteString(`,"sent":true}`)
	writeJSON(w, http.StatusOK, &b)
	return nil
}

func (s *Server) upConnect(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	return apierror.Application("This provider is disabled")
}

// ---- users ----

func (s *Server) upUsersFind(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	q, start, limit, err := userQuery(r.URL.RawQuery, ir.FindMany, "")
	if err != nil {
		return err
	}
	pl, res, err := s.pluginList(r, q, start, limit, who)
	if err != nil {
		return err
	}
	var b buf
	b.WriteByte('[')
	for i, e := range res.Entries {
		if i > 0 {
			b.WriteByte(',')
		}
		b.flatEntry(pl.Root, e)
	}
	b.WriteByte(']')
	writeJSON(w, http.StatusOK, &b)
	return nil
}

func (s *Server) upUsersCount(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	q, _, _, err := userQuery(r.URL.RawQuery, ir.FindMany, "")
	if err != nil {
		return err
	}
	q.Populate, q.Sort = nil, nil
	pl, err := s.Planner.Read(q, who)
	if err != nil {
		return err
	}
	pl.Count = &plan.Select{Model: pl.Model, Where: pl.Root.Where, CountOnly: true, Limit: -1}
	pl.Root.Limit = 1
	res, err := s.run(r.Context(), s.DB, pl, r)
	if err != nil {
		return err
	}
	var b buf
	b.Int(res.Total)
	writeJSON(w, http.StatusOK, &b)
	return nil
}

func (s *Server) upMe(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	if !who.IsUser() {
		return apierror.Unauthorized("Unauthorized")
	}
	return s.writeUser(w, r, http.StatusOK, who.UserID, nil, who)
}

func (s *Server) upUserFindOne(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	id, err := userID(r)
	if err != nil {
		return err
	}
	return s.writeUser(w, r, http.StatusOK, id, nil, who)
}

func (s *Server) upUserCreate(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	id, err := s.Auth.CreateUser(r.Context(), body)
	if err != nil {
		return err
	}
	return s.writeUser(w, r, http.StatusCreated, id, withRole(), who)
}

func (s *Server) upUserUpdate(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	id, err := userID(r)
	if err != nil {
		return err
	}
	if err := s.Auth.UpdateUser(r.Context(), id, body); err != nil {
		return err
	}
	return s.writeUser(w, r, http.StatusOK, id, withRole(), who)
}

func (s *Server) upUserDestroy(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
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
	var b buf
	b.flatEntry(pl.Root, e)
	writeJSON(w, http.StatusOK, &b)
	return nil
}

// ---- roles ----

func (b *buf) role(ro *userspermissions.Role) {
	b.WriteString(`{"id":`)
	b.Int(ro.ID)
	b.WriteString(`,"name":`)
	b.Str(ro.Name)
	b.WriteString(`,"description":`)
	b.Str(ro.Description)
	b.WriteString(`,"type":`)
	b.Str(ro.Type)
	b.WriteString(`,"createdAt":`)
	b.value(schemas.DateTime, ro.CreatedAt)
	b.WriteString(`,"updatedAt":`)
	b.value(schemas.DateTime, ro.UpdatedAt)
}

func (b *buf) tree(t userspermissions.PermissionTree) {
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

func (s *Server) upRoles(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	roles, err := userspermissions.Roles(r.Context(), s.DB)
	if err != nil {
		return err
	}
	var b buf
	b.WriteString(`{"roles":[`)
	for i := range roles {
		if i > 0 {
			b.WriteByte(',')
		}
		b.role(&roles[i])
		b.WriteString(`,"nb_users":`)
		b.Int(roles[i].NbUsers)
		b.WriteByte('}')
	}
	b.WriteString("]}")
	writeJSON(w, http.StatusOK, &b)
	return nil
}

func roleID(r *http.Request) (int64, error) {
	id, err := planner.ParseID(chi.URLParam(r, "id"))
	if err != nil {
		return 0, apierror.InvalidParam("id")
	}
	return id, nil
}

func (s *Server) upRole(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	id, err := roleID(r)
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
	var b buf
	b.WriteString(`{"role":`)
	b.role(ro)
	b.WriteString(`,"permissions":`)
	b.tree(tree)
	b.WriteString("}}")
	writeJSON(w, http.StatusOK, &b)
	return nil
}

func writeOK(w http.ResponseWriter) {
	var b buf
	b.WriteString(`{"ok":true}`)
	writeJSON(w, http.StatusOK, &b)
}

func (s *Server) upRoleCreate(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	if err := s.Auth.CreateRole(r.Context(), body); err != nil {
		return err
	}
	writeOK(w)
	return nil
}

func (s *Server) upRoleUpdate(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error {
	id, err := roleID(r)
	if err != nil {
		return err
	}
	if err := s.Auth.UpdateRole(r.Context(), id, body); err != nil {
		return err
	}
	writeOK(w)
	return nil
}

func (s *Server) upRoleDelete(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	id, err := roleID(r)
	if err != nil {
		return err
	}
	if err := s.Auth.RemoveRole(r.Context(), id); err != nil {
		return err
	}
	writeOK(w)
	return nil
}

func (s *Server) upPermissions(w http.ResponseWriter, r *http.Request, who *ir.Caller, _ map[string]any) error {
	var b buf
	b.WriteString(`{"permissions":`)
	b.tree(s.Auth.Tree(nil))
	b.WriteByte('}')
	writeJSON(w, http.StatusOK, &b)
	return nil
}
