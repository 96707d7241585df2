package userspermissions

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"golang.org/x/crypto/bcrypt"

	"github.com/quarrycms/quarry/schemas"
)

// Account is a users-permissions user as the plugin's logic needs it. It carries the password
// hash and tokens, so it is never written to a response: responses go through the planner,
// which cannot select private fields.
type Account struct {
	ID                 int64
	Username           string
	Email              string
	Provider           string
	PasswordHash       string
	ResetPasswordToken string
	ConfirmationToken  string
	Confirmed          bool
	Blocked            bool
	RoleID             int64 // 0: none
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

// bcryptCost is Strapi's (bcryptjs with 10 rounds).
const bcryptCost = 10

// bcryptInput is what bcrypt hashes: bcryptjs, which Strapi uses, silently keeps the first 72
// bytes; doing the same keeps hashes written by Strapi verifiable.
func bcryptInput(pw string) []byte {
	b := []byte(pw)
	if len(b) > 72 {
		b = b[:72]
	}
	return b
}

// HashPassword hashes a password with bcrypt.
func HashPassword(pw string) (string, error) {
	h, err := bcrypt.GenerateFromPassword(bcryptInput(pw), bcryptCost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// CheckPassword reports whether pw matches a stored bcrypt hash.
func CheckPassword(hash, pw string) bool {
	if hash == "" {
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), bcryptInput(pw)) == nil
}

// dummyHash is compared against when no user matches, so a login takes as long whether or not
// the identifier exists.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("quarry-no-such-user"), bcryptCost)

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

const userCols = `u.id, u.username, u.email, u.provider, u.password, u.reset_password_token, u.confirmation_token,
	u.confirmed, u.blocked, u.created_at, u.updated_at, (SELECT MIN(l.role_id) FROM up_users_role_links l WHERE l.user_id = u.id)`

func scanUser(row interface{ Scan(...any) error }) (*Account, error) {
	var u Account
	var username, email, provider, pw, rpt, ct sql.NullString
	var confirmed, blocked, ca, ua any
	var role sql.NullInt64
	if err := row.Scan(&u.ID, &username, &email, &provider, &pw, &rpt, &ct, &confirmed, &blocked, &ca, &ua, &role); err != nil {
		return nil, err
	}
	u.Username, u.Email, u.Provider, u.PasswordHash = username.String, email.String, provider.String, pw.String
	u.ResetPasswordToken, u.ConfirmationToken = rpt.String, ct.String
	u.Confirmed, u.Blocked = boolean(confirmed), boolean(blocked)
	u.CreatedAt, u.UpdatedAt = datetime(ca), datetime(ua)
	u.RoleID = role.Int64
	return &u, nil
}

func oneUser(ctx context.Context, db q, where string, args ...any) (*Account, error) {
	u, err := scanUser(db.QueryRowxContext(ctx, db.Rebind(`SELECT `+userCols+` FROM up_users u WHERE `+where+` ORDER BY u.id LIMIT 1`), args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read user: %w", err)
	}
	return u, nil
}

// UserByID returns a user, nil when there is none.
func UserByID(ctx context.Context, db q, id int64) (*Account, error) {
	return oneUser(ctx, db, `u.id = ?`, id)
}

// userByLogin finds a local user by e-mail (lower-cased) or username, as Strapi's login does.
func userByLogin(ctx context.Context, db q, identifier string) (*Account, error) {
	return oneUser(ctx, db, `u.provider = 'local' AND (u.email = ? OR u.username = ?)`, strings.ToLower(identifier), identifier)
}

// newUser is what Create writes.
type newUser struct {
	Username, Email, Password, Provider string
	Confirmed, Blocked                  bool
	ConfirmationToken                   string
	RoleID                              int64
	Extra                               map[string]any // other columns of an extended user type
}

func insertUser(ctx context.Context, db q, bind func(any) any, nu newUser, now time.Time) (int64, error) {
	hash, err := HashPassword(nu.Password)
	if err != nil {
		return 0, err
	}
	ts := bind(now)
	cols := []string{"username", "email", "provider", "password", "confirmed", "blocked", "created_at", "updated_at"}
	args := []any{nu.Username, nu.Email, nu.Provider, hash, nu.Confirmed, nu.Blocked, ts, ts}
	if nu.ConfirmationToken != "" {
		cols = append(cols, "confirmation_token")
		args = append(args, nu.ConfirmationToken)
	}
	for c, v := range nu.Extra {
		cols = append(cols, c)
		args = append(args, v)
	}
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = `"` + c + `"`
	}
	id, err := insertID(ctx, db, `INSERT INTO up_users (`+strings.Join(quoted, ", ")+`) VALUES (`+strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ")+`)`, args...)
	if err != nil {
		return 0, fmt.Errorf("create user: %w", err)
	}
	if nu.RoleID > 0 {
		if err := setUserRole(ctx, db, id, nu.RoleID); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// setUserRole links a user to one role (a user has at most one).
func setUserRole(ctx context.Context, db q, userID, roleID int64) error {
	if _, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM up_users_role_links WHERE user_id = ?`), userID); err != nil {
		return fmt.Errorf("set role: %w", err)
	}
	var order float64
	if err := sqlx.GetContext(ctx, db, &order, db.Rebind(`SELECT COALESCE(MAX(user_order), 0) FROM up_users_role_links WHERE role_id = ?`), roleID); err != nil {
		return fmt.Errorf("set role: %w", err)
	}
	if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO up_users_role_links (user_id, role_id, user_order) VALUES (?, ?, ?)`), userID, roleID, order+1); err != nil {
		return fmt.Errorf("set role: %w", err)
	}
	return nil
}

// updateUser sets columns of a user (values already validated; password already hashed) and
// its updated_at.
func updateUser(ctx context.Context, db q, bind func(any) any, id int64, cols []string, vals []any, now time.Time) error {
	set := make([]string, 0, len(cols)+1)
	for _, c := range cols {
		set = append(set, `"`+c+`" = ?`)
	}
	set = append(set, `updated_at = ?`)
	args := append(append([]any(nil), vals...), bind(now), id)
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE up_users SET `+strings.Join(set, ", ")+` WHERE id = ?`), args...); err != nil {
		return fmt.Errorf("update user: %w", err)
	}
	return nil
}

// deleteUser removes a user and every link that points at it.
func deleteUser(ctx context.Context, db q, s *schemas.Schema, id int64) error {
	user := s.Users()
	seen := map[string]bool{}
	models := append(append(append([]*schemas.Model(nil), s.ContentTypes...), s.Components...), s.Plugins...)
	for _, m := range models {
		for _, a := range m.Attributes {
			if a.Type != schemas.Relation || a.Link == nil || a.Link.Morph {
				continue
			}
			var col string
			switch {
			case m == user && a.MappedBy == "":
				col = a.Link.SourceCol // links the user owns (role)
			case a.Target == user && a.MappedBy == "":
				col = a.Link.TargetCol // links towards the user (article.editor)
			default:
				continue
			}
			k := a.Link.Table + "\x00" + col
			if seen[k] {
				continue
			}
			seen[k] = true
			if _, err := db.ExecContext(ctx, db.Rebind(fmt.Sprintf(`DELETE FROM "%s" WHERE "%s" = ?`, a.Link.Table, col)), id); err != nil {
				return fmt.Errorf("delete user links: %w", err)
			}
		}
	}
	if _, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM up_users WHERE id = ?`), id); err != nil {
		return fmt.Errorf("delete user: %w", err)
	}
	return nil
}
