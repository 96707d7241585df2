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

	"golang.org/x/crypto/bcrypt"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
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

// scanUser reads a user's columns (sqlgen's user statements).
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

func oneUser(ctx context.Context, db q, st sqlgen.Stmt) (*Account, error) {
	u, err := scanUser(row(ctx, db, st))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read user: %w", err)
	}
	return u, nil
}

// UserByID returns a user, nil when there is none.
func UserByID(ctx context.Context, db *database.DB, id int64) (*Account, error) {
	return oneUser(ctx, db, sqlgen.UserBy(db.Dialect, "id", id))
}

// userByLogin finds a local user by e-mail (lower-cased) or username, as Strapi's login does.
func userByLogin(ctx context.Context, db *database.DB, identifier string) (*Account, error) {
	return oneUser(ctx, db, sqlgen.UserByLogin(db.Dialect, strings.ToLower(identifier), identifier))
}

// newUser is what Create writes.
type newUser struct {
	Username, Email, Password, Provider string
	Confirmed, Blocked                  bool
	ConfirmationToken                   string
	RoleID                              int64
	Extra                               map[string]any // other columns of an extended user type
}

func insertUser(ctx context.Context, db q, d sqlgen.Dialect, nu newUser, now time.Time) (int64, error) {
	hash, err := HashPassword(nu.Password)
	if err != nil {
		return 0, err
	}
	cols := []string{"username", "email", "provider", "password", "confirmed", "blocked"}
	args := []any{nu.Username, nu.Email, nu.Provider, hash, nu.Confirmed, nu.Blocked}
	if nu.ConfirmationToken != "" {
		cols = append(cols, "confirmation_token")
		args = append(args, nu.ConfirmationToken)
	}
	for c, v := range nu.Extra {
		cols = append(cols, c)
		args = append(args, d.Bind(v)) // datetimes as the dialect stores them
	}
	id, err := database.InsertID(ctx, db, sqlgen.UserInsert(d, cols, args, now))
	if err != nil {
		return 0, fmt.Errorf("create user: %w", err)
	}
	if nu.RoleID > 0 {
		if err := setUserRole(ctx, db, d, id, nu.RoleID); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// setUserRole links a user to one role (a user has at most one).
func setUserRole(ctx context.Context, db q, d sqlgen.Dialect, userID, roleID int64) error {
	if err := run(ctx, db, sqlgen.UserRoleUnlink(d, userID)); err != nil {
		return fmt.Errorf("set role: %w", err)
	}
	var order float64
	if err := get(ctx, db, &order, sqlgen.RoleUserMaxOrder(d, roleID)); err != nil {
		return fmt.Errorf("set role: %w", err)
	}
	if err := run(ctx, db, sqlgen.UserRoleLink(d, userID, roleID, order+1)); err != nil {
		return fmt.Errorf("set role: %w", err)
	}
	return nil
}

// updateUser sets columns of a user (values already validated; password already hashed) and
// its updated_at.
func updateUser(ctx context.Context, db q, d sqlgen.Dialect, id int64, cols []string, vals []any, now time.Time) error {
	if err := run(ctx, db, sqlgen.UserUpdate(d, id, cols, vals, now)); err != nil {
		return fmt.Errorf("update user: %w", err)
	}
	return nil
}

// deleteUser removes a user and every link that points at it.
func deleteUser(ctx context.Context, db q, d sqlgen.Dialect, s *schemas.Schema, id int64) error {
	user := s.Users()
	seen := map[string]bool{}
	models := append(append(append([]*schemas.Model(nil), s.ContentTypes...), s.Components...), s.Plugins...)
	for _, m := range models {
		for _, a := range m.Attributes {
			// The link tables Strapi makes, as their foreign keys cascade: the source column
			// of the user's own (role), the target column of those towards it (article.editor).
			j := a.OwnJoin()
			if j == nil {
				continue
			}
			var cols []string
			if m == user {
				cols = append(cols, j.SourceCol)
			}
			if a.Target == user {
				cols = append(cols, j.TargetCol)
			}
			for _, col := range cols {
				k := j.Table + "\x00" + col
				if seen[k] {
					continue
				}
				seen[k] = true
				if err := run(ctx, db, sqlgen.Delete(d, j.Table, col, id)); err != nil {
					return fmt.Errorf("delete user links: %w", err)
				}
			}
		}
	}
	if err := run(ctx, db, sqlgen.UserDelete(d, id)); err != nil {
		return fmt.Errorf("delete user: %w", err)
	}
	return nil
}
