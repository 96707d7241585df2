// Package userspermissions owns authentication and authorization: API tokens (minted and stored as
// Strapi stores them: HMAC-SHA512 of the key with API_TOKEN_SALT), the users-permissions
// plugin's users, roles and permissions, its JWTs, and the rate limiting of its auth routes.
package userspermissions

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha512"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// Hash is the stored form of an access key.
func Hash(salt, key string) string {
	m := hmac.New(sha512.New, []byte(salt))
	m.Write([]byte(key))
	return hex.EncodeToString(m.Sum(nil))
}

// Token is a stored API token (never with its key).
type Token struct {
	ID          int64
	Name        string
	Description string
	Type        string
	Lifespan    *time.Duration
	ExpiresAt   *time.Time
	LastUsedAt  *time.Time
	CreatedAt   time.Time
	// Actions are a custom token's permissions.
	Actions []string
}

// ErrUnknown and ErrExpired are the two ways a presented key fails.
var (
	ErrUnknown = errors.New("unknown token")
	ErrExpired = errors.New("token expired")
)

// Lifespans Strapi allows, in days; 0 is unlimited.
var Lifespans = map[int]bool{0: true, 7: true, 30: true, 90: true}

// TokenSpec describes a token to create.
type TokenSpec struct {
	Name        string
	Description string
	Type        string // read-only (default), full-access or custom
	// LifespanDays is 7, 30, 90 or 0 (unlimited).
	LifespanDays int
	// Actions are a custom token's permissions (checked with ExpandActions beforehand).
	Actions []string
}

// ErrTokenNameTaken is CreateToken's answer for a name another token has.
var ErrTokenNameTaken = errors.New("already exists")

// CreateToken mints a 256-hex-character key, stores its hash and returns the key, which is
// never stored or shown again.
func CreateToken(ctx context.Context, db *database.DB, salt string, spec TokenSpec, now time.Time) (string, error) {
	if salt == "" {
		return "", errors.New("API_TOKEN_SALT is not set")
	}
	name := strings.TrimSpace(spec.Name)
	if name == "" {
		return "", errors.New("a token needs a name")
	}
	typ := spec.Type
	if typ == "" {
		typ = ir.TokenReadOnly
	}
	switch typ {
	case ir.TokenReadOnly, ir.TokenFullAccess:
		if len(spec.Actions) > 0 {
			return "", fmt.Errorf("only custom tokens take actions (this one is %s)", typ)
		}
	case ir.TokenCustom:
		if len(spec.Actions) == 0 {
			return "", errors.New("a custom token needs at least one action")
		}
	default:
		return "", fmt.Errorf("token type must be %s, %s or %s", ir.TokenReadOnly, ir.TokenFullAccess, ir.TokenCustom)
	}
	if !Lifespans[spec.LifespanDays] {
		return "", fmt.Errorf("lifespan must be 7, 30, 90 days or 0 (unlimited), got %d", spec.LifespanDays)
	}
	raw := make([]byte, 128)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	key := hex.EncodeToString(raw)
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	var taken int
	if err := tx.GetContext(ctx, &taken, tx.Rebind(`SELECT COUNT(*) FROM strapi_api_tokens WHERE name = ?`), name); err != nil {
		return "", fmt.Errorf("check token name: %w", err)
	}
	if taken > 0 {
		return "", fmt.Errorf("a token named %q %w", name, ErrTokenNameTaken)
	}
	var lifespan, expires any
	if spec.LifespanDays > 0 {
		d := time.Duration(spec.LifespanDays) * 24 * time.Hour
		lifespan = d.Milliseconds()
		expires = db.Dialect.Bind(now.Add(d))
	}
	ts := db.Dialect.Bind(now)
	id, err := insertID(ctx, tx, `INSERT INTO strapi_api_tokens (name, description, type, access_key, lifespan, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		name, spec.Description, typ, Hash(salt, key), lifespan, expires, ts, ts)
	if err != nil {
		return "", fmt.Errorf("store token: %w", err)
	}
	for i, a := range spec.Actions {
		pid, err := insertID(ctx, tx, `INSERT INTO strapi_api_token_permissions (action, created_at, updated_at) VALUES (?, ?, ?)`, a, ts, ts)
		if err != nil {
			return "", fmt.Errorf("store token permission: %w", err)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO strapi_api_token_permissions_token_links (api_token_permission_id, api_token_id, api_token_permission_order) VALUES (?, ?, ?)`),
			pid, id, float64(i+1)); err != nil {
			return "", fmt.Errorf("store token permission: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return "", err
	}
	return key, nil
}

const tokenCols = `id, name, description, type, lifespan, expires_at, last_used_at, created_at`

func scanToken(row interface{ Scan(...any) error }) (*Token, error) {
	var t Token
	var desc, typ sql.NullString
	var lifespan sql.NullInt64
	var exp, used, created any
	if err := row.Scan(&t.ID, &t.Name, &desc, &typ, &lifespan, &exp, &used, &created); err != nil {
		return nil, err
	}
	t.Description, t.Type = desc.String, typ.String
	if t.Type == "" {
		t.Type = ir.TokenReadOnly
	}
	if lifespan.Valid {
		d := time.Duration(lifespan.Int64) * time.Millisecond
		t.Lifespan = &d
	}
	if e := datetime(exp); !e.IsZero() {
		t.ExpiresAt = &e
	}
	if u := datetime(used); !u.IsZero() {
		t.LastUsedAt = &u
	}
	t.CreatedAt = datetime(created)
	return &t, nil
}

func tokenActions(ctx context.Context, db q, id int64) ([]string, error) {
	var out []string
	err := sqlx.SelectContext(ctx, db, &out, db.Rebind(`SELECT DISTINCT p.action FROM strapi_api_token_permissions p
		JOIN strapi_api_token_permissions_token_links l ON l.api_token_permission_id = p.id WHERE l.api_token_id = ? AND p.action IS NOT NULL`), id)
	if err != nil {
		return nil, fmt.Errorf("read token permissions: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

// Lookup finds the token for a presented key, with a custom token's actions. An expired token
// is returned with ErrExpired.
func Lookup(ctx context.Context, db *database.DB, salt, key string, now time.Time) (*Token, error) {
	if salt == "" || key == "" || len(key) > 1024 {
		return nil, ErrUnknown
	}
	t, err := scanToken(db.QueryRowxContext(ctx, db.Rebind(`SELECT `+tokenCols+` FROM strapi_api_tokens WHERE access_key = ?`), Hash(salt, key)))
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrUnknown
		}
		return nil, fmt.Errorf("look up token: %w", err)
	}
	if t.Type == ir.TokenCustom {
		if t.Actions, err = tokenActions(ctx, db, t.ID); err != nil {
			return nil, err
		}
	}
	if t.ExpiresAt != nil && !now.Before(*t.ExpiresAt) {
		return t, ErrExpired
	}
	return t, nil
}

// TouchToken records that a token was used now.
func TouchToken(ctx context.Context, db *database.DB, id int64, now time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`UPDATE strapi_api_tokens SET last_used_at = ? WHERE id = ?`), db.Dialect.Bind(now), id)
	return err
}

// List returns all tokens, oldest first, with custom tokens' actions.
func List(ctx context.Context, db *database.DB) ([]Token, error) {
	rows, err := db.QueryxContext(ctx, `SELECT `+tokenCols+` FROM strapi_api_tokens ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	var out []Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, *t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Type == ir.TokenCustom {
			if out[i].Actions, err = tokenActions(ctx, db, out[i].ID); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// RevokeToken deletes a token (by id or name) and its permissions; the key stops working at
// once (a running server forgets cached look-ups within seconds).
func RevokeToken(ctx context.Context, db *database.DB, idOrName string) (*Token, error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var t *Token
	if id, err := strconv.ParseInt(idOrName, 10, 64); err == nil {
		t, err = scanToken(tx.QueryRowxContext(ctx, tx.Rebind(`SELECT `+tokenCols+` FROM strapi_api_tokens WHERE id = ?`), id))
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
	}
	if t == nil {
		t, err = scanToken(tx.QueryRowxContext(ctx, tx.Rebind(`SELECT `+tokenCols+` FROM strapi_api_tokens WHERE name = ?`), idOrName))
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("no token with id or name %q", idOrName)
		}
		if err != nil {
			return nil, err
		}
	}
	var perms []int64
	if err := sqlx.SelectContext(ctx, tx, &perms, tx.Rebind(`SELECT api_token_permission_id FROM strapi_api_token_permissions_token_links WHERE api_token_id = ?`), t.ID); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM strapi_api_token_permissions_token_links WHERE api_token_id = ?`), t.ID); err != nil {
		return nil, err
	}
	for _, p := range perms {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM strapi_api_token_permissions WHERE id = ?`), p); err != nil {
			return nil, err
		}
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM strapi_api_tokens WHERE id = ?`), t.ID); err != nil {
		return nil, err
	}
	return t, tx.Commit()
}
