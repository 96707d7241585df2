package e2e

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestHostileInput sends requests an attacker would send to a live server on each database
// and checks that every one gets the expected status with Strapi's error envelope, that no
// secret (password hashes, reset and confirmation tokens, private attributes, the JWT secret)
// appears in any answer, and that the database is exactly as it was.

// qp builds a query string from raw key/value pairs, percent-encoding both.
func qp(kv ...string) string {
	var parts []string
	for i := 0; i+1 < len(kv); i += 2 {
		parts = append(parts, url.QueryEscape(kv[i])+"="+url.QueryEscape(kv[i+1]))
	}
	return strings.Join(parts, "&")
}

type hostile struct {
	name   string
	as     string // "": no credentials; "user": a user's JWT; "full": full-access token; "ro": read-only token; "bearer:…": that header value
	method string
	path   string
	body   string
	status int
	// errName is the envelope's error name for 4xx answers ("" for 405's plain text).
	errName string
	// msg, when set, must appear in the error message.
	msg string
	// gql, when set, makes the case a GraphQL request: the document is POSTed (sent as a
	// query string with method GET) to /graphql with vars, raw JSON, as its variables. Its
	// answer is checked for GraphQL's error format unless errName asks for Strapi's
	// envelope (refused credentials, oversized bodies); code is the extensions.code one of
	// its errors must have ("" for an answer without errors).
	gql, vars, code string
	// headers are sent as they are ("Content-Type: text/plain" replaces the JSON type).
	headers []string
	// text, when set, is the exact plain-text body expected (Apollo's refusals).
	text string
}

// gqlNoBody is Apollo Server's refusal of a POST it cannot read.
const gqlNoBody = "POST body missing, invalid Content-Type, or JSON object has no keys."

const hostilePermissions = `{
  "public": ["api::article.article.find", "api::article.article.findOne", "api::writer.writer.find", "api::page.page.find"],
  "authenticated": ["api::article.article.find", "api::article.article.findOne", "api::writer.writer.find", "api::tag.tag.find"]
}`

const hostilePlugins = `{
  "users-permissions": {"config": {"jwtSecret": "` + testJWTSecret + `", "ratelimit": {"max": 100000}}},
  "graphql": {"config": {"depthLimit": 10}}
}`

func hostileCases(now int64) []hostile {
	jwt := func(header, payload string) string {
		return "bearer:Bearer " + signJWT(testJWTSecret, header, payload)
	}
	hs := `{"alg":"HS256","typ":"JWT"}`
	valid := fmt.Sprintf(`{"id":1,"iat":%d,"exp":%d}`, now, now+3600)
	noneTok := strings.Join(strings.Split(signJWT("", `{"alg":"none","typ":"JWT"}`, valid), ".")[:2], ".")
	tampered := func() string {
		t := signJWT(testJWTSecret, hs, valid)
		p := strings.Split(t, ".")
		p[1] = strings.TrimRight(jsonB64(fmt.Sprintf(`{"id":2,"iat":%d,"exp":%d}`, now, now+3600)), "=")
		return "bearer:Bearer " + strings.Join(p, ".")
	}()
	deepFilter := "filters" + strings.Repeat("[$and][0]", 30) + "[title][$eq]"
	deepPopulate := "populate" + strings.Repeat("[author][populate][articles][populate]", 12) + "[author]"
	deepJSON := strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)
	bigIn := []string{}
	for i := 0; i < 300; i++ {
		bigIn = append(bigIn, fmt.Sprintf("filters[id][$in][%d]", i), fmt.Sprint(i))
	}
	V := "ValidationError"
	inv := "Invalid parameter "
	arts := "/api/articles?"
	return append([]hostile{
		// ---- SQL injection in filter values (bound parameters: they match nothing) ----
		{name: "value or-true", path: arts + qp("filters[title][$eq]", "' OR 1=1--"), status: 200},
		{name: "value drop table", path: arts + qp("filters[title][$eq]", "x'; DROP TABLE articles;--"), status: 200},
		{name: "value contains quote", path: arts + qp("filters[title][$contains]", "%' OR '1'='1"), status: 200},
		{name: "value startsWith backslash", path: arts + qp("filters[title][$startsWith]", `\'`), status: 200},
		{name: "value union", path: arts + qp("filters[title][$eqi]", "x' UNION SELECT password FROM up_users--"), status: 200},
		{name: "value pg_sleep", path: arts + qp("filters[title][$eq]", "x' AND pg_sleep(5)--"), status: 200},
		{name: "value in list injection", path: arts + qp("filters[title][$in][0]", "a') OR ('1'='1", "filters[title][$in][1]", "b"), status: 200},
		{name: "value notIn injection", path: arts + qp("filters[title][$notIn][0]", "') OR 1=1--"), status: 200},
		{name: "value null-ish injection", path: arts + qp("filters[title][$null]", "true' --"), status: 200},
		{name: "value NUL byte", path: arts + qp("filters[title][$eq]", "a\x00b"), status: 400, errName: V, msg: "NUL"},
		{name: "value NUL contains", path: arts + qp("filters[author][name][$containsi]", "\x00"), status: 400, errName: V, msg: "NUL"},
		{name: "populate filter NUL", path: arts + qp("populate[author][filters][name][$eq]", "\x00"), status: 400, errName: V, msg: "NUL"},
		{name: "users filter NUL", as: "full", path: "/api/users?" + qp("filters[email][$eq]", "a\x00"), status: 400, errName: V, msg: "NUL"},
		{name: "locale NUL", path: "/api/pages?" + qp("locale", "en\x00"), status: 400, errName: V},
		{name: "key NUL", path: arts + qp("filters[title\x00][$eq]", "x"), status: 400, errName: V, msg: inv},
		{name: "sort NUL", path: arts + qp("sort", "title\x00"), status: 400, errName: V, msg: inv},
		{name: "login NUL", method: "POST", path: "/api/auth/local", body: `{"identifier":"ann\u0000","password":"x"}`, status: 400, errName: V, msg: "NUL"},
		{name: "reset code NUL", method: "POST", path: "/api/auth/reset-password", body: `{"code":"\u0000","password":"secret-pw","passwordConfirmation":"secret-pw"}`, status: 400, errName: V, msg: "NUL"},
		{name: "confirmation NUL", path: "/api/auth/email-confirmation?" + qp("confirmation", "\x00"), status: 400, errName: V, msg: "NUL"},
		{name: "id value or-true", path: arts + qp("filters[id][$eq]", "1 OR 1=1"), status: 400, errName: V},
		// ---- bodies another site's page can post without a CORS preflight write nothing ----
		{name: "create as text/plain", as: "full", method: "POST", path: "/api/tags", body: `{"data":{"name":"csrf"}}`, headers: []string{"Content-Type: text/plain"}, status: 400, errName: V, msg: `Missing "data" payload`},
		{name: "create untyped", as: "full", method: "POST", path: "/api/tags", body: `{"data":{"name":"csrf"}}`, headers: []string{"Content-Type:"}, status: 400, errName: V, msg: `Missing "data" payload`},
		{name: "create as form", as: "full", method: "POST", path: "/api/tags", body: `data[name]=csrf`, headers: []string{"Content-Type: application/x-www-form-urlencoded"}, status: 400, errName: V, msg: `Missing "data" payload`},
		{name: "update as text/plain", as: "full", method: "PUT", path: "/api/articles/1", body: `{"data":{"title":"csrf"}}`, headers: []string{"Content-Type: text/plain;charset=UTF-8"}, status: 400, errName: V, msg: `Missing "data" payload`},
		// ---- integers past 32 bits (PostgreSQL's integer columns refuse them) ----
		{name: "integer filter over 32 bits", path: arts + qp("filters[views][$eq]", "99999999999999"), status: 400, errName: V, msg: "views"},
		{name: "id filter over 32 bits", path: arts + qp("filters[author][id][$in][0]", "99999999999"), status: 400, errName: V, msg: "id"},
		{name: "path id over 32 bits", path: "/api/articles/99999999999", status: 400, errName: V, msg: inv + "id"},
		{name: "update id over 32 bits", as: "full", method: "PUT", path: "/api/articles/2147483648", body: `{"data":{"title":"xxxx"}}`, status: 400, errName: V, msg: inv + "id"},
		{name: "delete id over 32 bits", as: "full", method: "DELETE", path: "/api/articles/2147483648", status: 400, errName: V, msg: inv + "id"},
		{name: "user id over 32 bits", as: "full", path: "/api/users/99999999999", status: 400, errName: V},
		{name: "role id over 32 bits", as: "full", path: "/api/users-permissions/roles/99999999999", status: 400, errName: V},
		{name: "file id over 32 bits", as: "full", path: "/api/upload/files/99999999999", status: 400, errName: V},
		{name: "relation id over 32 bits", as: "full", method: "POST", path: "/api/articles", body: `{"data":{"title":"abcd","author":99999999999}}`, status: 400, errName: V},
		{name: "id in injection", path: arts + qp("filters[id][$in][0]", "1) OR (1=1"), status: 400, errName: V},
		{name: "number injection", path: arts + qp("filters[views][$gt]", "0; DELETE FROM articles"), status: 400, errName: V},
		{name: "between injection", path: arts + qp("filters[views][$between][0]", "0", "filters[views][$between][1]", "1 OR 1=1"), status: 400, errName: V},
		{name: "date injection", path: arts + qp("filters[createdAt][$lt]", "2020-01-01' OR '1'='1"), status: 400, errName: V},
		{name: "datetime function", path: arts + qp("filters[eventAt][$gt]", "now()"), status: 400, errName: V},
		{name: "boolean injection", path: arts + qp("filters[featured][$eq]", "true OR 1=1"), status: 200},
		{name: "relation value injection", path: arts + qp("filters[author][name][$eq]", "x' OR '1'='1"), status: 200},
		{name: "nested or injection", path: arts + qp("filters[$or][0][title][$eq]", "x' OR 1=1--", "filters[$or][1][summary][$null]", "true"), status: 200},
		{name: "users value injection", as: "full", path: "/api/users?" + qp("filters[username][$eq]", "' OR '1'='1"), status: 200},
		{name: "page locale injection", path: "/api/pages?" + qp("locale", "en' OR '1'='1"), status: 200},
		{name: "page locale list injection", path: "/api/pages?" + qp("locale[0]", "en", "locale[1]", "') OR 1=1--"), status: 200},

		// ---- SQL injection in filter keys and operators ----
		{name: "key or-true", path: arts + qp("filters[title' OR '1'='1][$eq]", "x"), status: 400, errName: V, msg: inv},
		{name: "key paren", path: arts + qp("filters[id) OR (1=1][$eq]", "1"), status: 400, errName: V, msg: inv},
		{name: "key quote", path: arts + qp(`filters[title"][$eq]`, "x"), status: 400, errName: V, msg: inv},
		{name: "key semicolon", path: arts + qp("filters[title;DROP TABLE articles][$eq]", "x"), status: 400, errName: V, msg: inv},
		{name: "key comment", path: arts + qp("filters[title--][$eq]", "x"), status: 400, errName: V, msg: inv},
		{name: "operator injection", path: arts + qp("filters[title][$eq' OR 1=1--]", "x"), status: 400, errName: V},
		{name: "operator raw sql", path: arts + qp("filters[title][= 'x' OR 1=1 --]", "x"), status: 400, errName: V},
		{name: "relation key injection", path: arts + qp("filters[author][name; DROP TABLE writers][$eq]", "x"), status: 400, errName: V, msg: inv},
		{name: "or key injection", path: arts + qp("filters[$or][0][title\"--][$eq]", "x"), status: 400, errName: V, msg: inv},
		{name: "proto key", path: arts + qp("filters[__proto__][polluted]", "1"), status: 200},
		{name: "constructor key", path: arts + qp("filters[constructor][prototype][x]", "1"), status: 200}, // qs drops prototype keys
		{name: "filters scalar", path: arts + qp("filters", "1=1"), status: 400, errName: V, msg: inv},
		{name: "or as object", path: arts + qp("filters[$or][title][$eq]", "x"), status: 400, errName: V},
		{name: "unknown logical", path: arts + qp("filters[$where]", "1=1"), status: 400, errName: V},
		{name: "raw operator", path: arts + qp("filters[title][$raw]", "1=1"), status: 400, errName: V},

		// ---- sort ----
		{name: "sort semicolon", path: arts + qp("sort", "title;DROP TABLE articles"), status: 400, errName: V},
		{name: "sort paren", path: arts + qp("sort", "title:desc,id) DESC--"), status: 400, errName: V},
		{name: "sort subquery", path: arts + qp("sort[0]", "(SELECT password FROM up_users)"), status: 400, errName: V},
		{name: "sort quote", path: arts + qp("sort", "title:asc'"), status: 400, errName: V},
		{name: "sort function", path: arts + qp("sort", "RANDOM()"), status: 400, errName: V},
		{name: "sort pg_sleep", path: arts + qp("sort", "id:asc;SELECT pg_sleep(5)"), status: 400, errName: V},
		{name: "sort relation injection", path: arts + qp("sort", "author.name'--"), status: 400, errName: V},
		{name: "sort object", path: arts + qp("sort[title]", "asc' --"), status: 400, errName: V},
		{name: "sort operator key", path: arts + qp("sort[$gt]", "x"), status: 400, errName: V},

		// ---- fields ----
		{name: "fields comma", path: arts + qp("fields[0]", "title,password"), status: 400, errName: V, msg: inv},
		{name: "fields star", path: arts + qp("fields[0]", "*"), status: 200}, // every visible field, as Strapi
		{name: "fields from", path: arts + qp("fields[0]", "title FROM up_users--"), status: 400, errName: V, msg: inv},
		{name: "fields subquery", path: arts + qp("fields[0]", "(select 1)"), status: 400, errName: V, msg: inv},
		{name: "fields proto", path: arts + qp("fields[__proto__]", "x"), status: 200},

		// ---- populate ----
		{name: "populate injection", path: arts + qp("populate", "author;DROP TABLE writers"), status: 200},
		{name: "populate field injection", path: arts + qp("populate[author][fields][0]", "name'--"), status: 400, errName: V, msg: inv},
		{name: "populate filter injection", path: arts + qp("populate[author][filters][name][$eq]", "' OR 1=1--"), status: 200},
		{name: "populate sort injection", path: arts + qp("populate[author][sort]", "name;DROP TABLE writers"), status: 400, errName: V},
		{name: "populate operator key", path: arts + qp("populate[0][$ne]", "x"), status: 400, errName: V, msg: inv},
		{name: "populate star public", path: arts + qp("populate", "*"), status: 200},
		{name: "populate count injection", path: arts + qp("populate[tags][count]", "true' OR 1=1"), status: 400, errName: V, msg: inv},

		// ---- pagination ----
		{name: "page injection", path: arts + qp("pagination[page]", "1;DROP TABLE articles"), status: 400, errName: V},
		{name: "pageSize injection", path: arts + qp("pagination[pageSize]", "-1 OR 1=1"), status: 400, errName: V},
		{name: "start union", path: arts + qp("pagination[start]", "0 UNION SELECT 1"), status: 400, errName: V},
		{name: "limit huge", path: arts + qp("pagination[limit]", "999999999999999999999999"), status: 400, errName: V},
		{name: "page huge", path: arts + qp("pagination[page]", "99999999999"), status: 200},
		{name: "page overflow", path: arts + qp("pagination[page]", "9223372036854775807", "pagination[pageSize]", "100"), status: 200},
		{name: "start overflow", path: arts + qp("pagination[start]", "9223372036854775807"), status: 200},
		{name: "withCount injection", path: arts + qp("pagination[withCount]", "true'--"), status: 400, errName: V},
		{name: "mixed pagination", path: arts + qp("pagination[page]", "1", "pagination[limit]", "1"), status: 400, errName: V},
		{name: "publicationState injection", path: arts + qp("publicationState", "preview' OR 1=1"), status: 400, errName: V},
		{name: "users start injection", as: "full", path: "/api/users?" + qp("start", "0;DROP TABLE up_users"), status: 400, errName: V},
		{name: "users limit injection", as: "full", path: "/api/users?" + qp("limit", "1 OR 1=1"), status: 400, errName: V},

		// ---- ids in paths ----
		{name: "id or-true", path: "/api/articles/" + url.PathEscape("1 OR 1=1"), status: 400, errName: V},
		{name: "id semicolon", path: "/api/articles/" + url.PathEscape("1;DROP TABLE articles"), status: 400, errName: V},
		{name: "id negative", path: "/api/articles/-1", status: 400, errName: V},
		{name: "id hex", path: "/api/articles/0x1", status: 400, errName: V},
		{name: "id huge", path: "/api/articles/99999999999999999999999", status: 400, errName: V},
		{name: "id quote put", as: "full", method: "PUT", path: "/api/articles/" + url.PathEscape("1'"), body: `{"data":{"title":"Hacked"}}`, status: 400, errName: V},
		{name: "id injection delete", as: "full", method: "DELETE", path: "/api/articles/" + url.PathEscape("1 OR 1=1"), status: 400, errName: V},
		{name: "user id injection", as: "full", path: "/api/users/" + url.PathEscape("1 OR 1=1"), status: 400, errName: V},
		{name: "user id injection delete", as: "full", method: "DELETE", path: "/api/users/" + url.PathEscape("1;DELETE FROM up_users"), status: 400, errName: V},
		{name: "role id injection", as: "full", path: "/api/users-permissions/roles/" + url.PathEscape("1 OR 1=1"), status: 400, errName: V},
		{name: "path traversal", path: "/api/../../etc/passwd", status: 404, errName: "NotFoundError"},
		{name: "unknown collection", path: "/api/up_users", status: 404, errName: "NotFoundError"},
		{name: "plugin type via generic route", path: "/api/roles", status: 404, errName: "NotFoundError"},

		// ---- private fields, directly ----
		{name: "filter secret", path: arts + qp("filters[secret][$eq]", "x"), status: 400, errName: V, msg: inv + "secret"},
		{name: "filter password", path: arts + qp("filters[password][$startsWith]", "$2"), status: 400, errName: V, msg: inv + "password"},
		{name: "sort secret", path: arts + qp("sort", "secret"), status: 400, errName: V, msg: inv + "secret"},
		{name: "sort password", path: arts + qp("sort", "password:desc"), status: 400, errName: V, msg: inv + "password"},
		{name: "fields secret", path: arts + qp("fields[0]", "secret"), status: 400, errName: V, msg: inv + "secret"},
		{name: "fields password", as: "full", path: arts + qp("fields[0]", "password"), status: 400, errName: V, msg: inv + "password"},
		{name: "writer email filter", path: "/api/writers?" + qp("filters[email][$startsWith]", "w"), status: 400, errName: V, msg: inv + "email"},
		{name: "users password filter", as: "full", path: "/api/users?" + qp("filters[password][$startsWith]", "$2"), status: 400, errName: V, msg: inv + "password"},
		{name: "users password sort", as: "full", path: "/api/users?" + qp("sort", "password"), status: 400, errName: V, msg: inv + "password"},
		{name: "users password fields", as: "full", path: "/api/users?" + qp("fields[0]", "password"), status: 400, errName: V, msg: inv + "password"},
		{name: "users reset token fields", as: "full", path: "/api/users?" + qp("fields[0]", "resetPasswordToken"), status: 400, errName: V, msg: inv + "resetPasswordToken"},
		{name: "users confirmation token filter", as: "full", path: "/api/users?" + qp("filters[confirmationToken][$notNull]", "true"), status: 400, errName: V, msg: inv + "confirmationToken"},
		{name: "users count password", as: "full", path: "/api/users/count?" + qp("filters[password][$startsWith]", "$2a"), status: 400, errName: V, msg: inv + "password"},
		{name: "me password fields", as: "user", path: "/api/users/me?" + qp("fields[0]", "password"), status: 400, errName: V, msg: inv + "password"},
		{name: "user findOne reset filter", as: "full", path: "/api/users/1?" + qp("filters[resetPasswordToken][$null]", "false"), status: 400, errName: V, msg: inv},

		// ---- private fields through relations ----
		{name: "editor password", as: "full", path: arts + qp("filters[editor][password][$startsWith]", "$2a"), status: 400, errName: V, msg: inv + "password"},
		{name: "editor reset token", as: "full", path: arts + qp("filters[editor][resetPasswordToken][$notNull]", "true"), status: 400, errName: V, msg: inv + "resetPasswordToken"},
		{name: "editor confirmation token", as: "full", path: arts + qp("filters[editor][confirmationToken][$null]", "false"), status: 400, errName: V, msg: inv + "confirmationToken"},
		{name: "editor password sort", as: "full", path: arts + qp("sort", "editor.password"), status: 400, errName: V, msg: inv + "password"},
		{name: "editor password populate fields", as: "full", path: arts + qp("populate[editor][fields][0]", "password"), status: 400, errName: V, msg: inv + "password"},
		{name: "editor password populate filter", as: "full", path: arts + qp("populate[editor][filters][password][$startsWith]", "$"), status: 400, errName: V, msg: inv + "password"},
		{name: "editor password populate sort", as: "full", path: arts + qp("populate[editor][sort]", "password"), status: 400, errName: V, msg: inv + "password"},
		{name: "editor role users password", as: "full", path: arts + qp("filters[editor][role][users][password][$startsWith]", "$"), status: 400, errName: V, msg: inv + "users"},
		{name: "editor or password", as: "full", path: arts + qp("filters[editor][$or][0][password][$eq]", "x"), status: 400, errName: V, msg: inv + "password"},
		{name: "or editor password", as: "full", path: arts + qp("filters[$or][0][editor][password][$eq]", "x"), status: 400, errName: V, msg: inv + "password"},
		{name: "not editor password", as: "full", path: arts + qp("filters[$not][editor][password][$eq]", "x"), status: 400, errName: V, msg: inv + "password"},
		{name: "and nested editor reset", as: "full", path: arts + qp("filters[$and][0][$or][0][editor][resetPasswordToken][$eq]", "x"), status: 400, errName: V, msg: inv + "resetPasswordToken"},
		{name: "author articles secret", path: arts + qp("filters[author][articles][secret][$eq]", "x"), status: 400, errName: V, msg: inv + "secret"},
		{name: "author articles password", path: arts + qp("filters[author][articles][password][$null]", "false"), status: 400, errName: V, msg: inv + "password"},
		{name: "author email", path: arts + qp("filters[author][email][$contains]", "@"), status: 400, errName: V, msg: inv + "email"},
		{name: "sort author email", path: arts + qp("sort", "author.email"), status: 400, errName: V, msg: inv + "email"},
		{name: "populate author email", path: arts + qp("populate[author][fields][0]", "email"), status: 400, errName: V, msg: inv + "email"},
		{name: "deep relation secret", path: "/api/writers?" + qp("filters[articles][author][articles][secret][$eq]", "x"), status: 400, errName: V, msg: inv + "secret"},
		{name: "users role users password", as: "full", path: "/api/users?" + qp("filters[role][users][password][$startsWith]", "$"), status: 400, errName: V, msg: inv + "users"},
		{name: "users populate role users", as: "full", path: "/api/users?" + qp("populate[role][populate][users][fields][0]", "password"), status: 200},
		{name: "populate editor deep star", as: "full", path: arts + qp("populate[editor][populate][role][populate]", "*"), status: 200},

		// ---- relations the caller may not find ----
		{name: "public editor filter", path: arts + qp("filters[editor][id][$eq]", "1"), status: 400, errName: V, msg: inv + "editor"},
		{name: "public editor sort", path: arts + qp("sort", "editor.username"), status: 400, errName: V, msg: inv + "editor"},
		{name: "public editor populate", path: arts + qp("populate", "editor"), status: 200},
		{name: "public tags filter", path: arts + qp("filters[tags][name][$eq]", "x"), status: 400, errName: V, msg: inv + "tags"},
		{name: "user editor filter", as: "user", path: arts + qp("filters[editor][username][$eq]", "ann"), status: 400, errName: V, msg: inv + "editor"},
		{name: "user editor populate", as: "user", path: arts + qp("populate[editor][fields][0]", "username"), status: 200},
		{name: "readonly users me", as: "ro", path: "/api/users/me", status: 403, errName: "ForbiddenError"},

		// ---- routes the caller may not use ----
		{name: "public users list", path: "/api/users", status: 403, errName: "ForbiddenError"},
		{name: "public users create", method: "POST", path: "/api/users", body: `{"username":"evil","email":"evil@x.io","password":"evil-pw","role":1}`, status: 403, errName: "ForbiddenError"},
		{name: "public users delete", method: "DELETE", path: "/api/users/1", status: 403, errName: "ForbiddenError"},
		{name: "user updates other user", as: "user", method: "PUT", path: "/api/users/2", body: `{"blocked":true}`, status: 403, errName: "ForbiddenError"},
		{name: "user escalates own role", as: "user", method: "PUT", path: "/api/users/1", body: `{"role":2}`, status: 403, errName: "ForbiddenError"},
		{name: "public roles", path: "/api/users-permissions/roles", status: 403, errName: "ForbiddenError"},
		{name: "user creates role", as: "user", method: "POST", path: "/api/users-permissions/roles", body: `{"name":"pwned","permissions":{}}`, status: 403, errName: "ForbiddenError"},
		{name: "public create article", method: "POST", path: "/api/articles", body: `{"data":{"title":"Hacked"}}`, status: 403, errName: "ForbiddenError"},
		{name: "readonly create", as: "ro", method: "POST", path: "/api/tags", body: `{"data":{"name":"x"}}`, status: 403, errName: "ForbiddenError"},
		{name: "change password public", method: "POST", path: "/api/auth/change-password", body: `{"currentPassword":"x","password":"y","passwordConfirmation":"y"}`, status: 403, errName: "ForbiddenError"},

		// ---- forged, expired and malformed JWTs ----
		{name: "alg none", as: "bearer:Bearer " + noneTok + ".", path: "/api/users/me", status: 401, errName: "UnauthorizedError", msg: "Missing or invalid credentials"},
		{name: "alg none no dot", as: "bearer:Bearer " + noneTok, path: "/api/articles", status: 401, errName: "UnauthorizedError"},
		{name: "alg None casing", as: "bearer:Bearer " + strings.Join(strings.Split(signJWT("", `{"alg":"None","typ":"JWT"}`, valid), ".")[:2], ".") + ".", path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "tampered payload", as: tampered, path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "expired", as: jwt(hs, fmt.Sprintf(`{"id":1,"iat":%d,"exp":%d}`, now-7200, now-60)), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "not yet valid (nbf)", as: jwt(hs, fmt.Sprintf(`{"id":1,"iat":%d,"exp":%d,"nbf":%d}`, now, now+3600, now+600)), path: "/api/users/me", status: 401, errName: "UnauthorizedError", msg: "Missing or invalid credentials"},
		{name: "nbf not a number", as: jwt(hs, fmt.Sprintf(`{"id":1,"iat":%d,"exp":%d,"nbf":"soon"}`, now, now+3600)), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "nbf past is fine", as: jwt(hs, fmt.Sprintf(`{"id":1,"iat":%d,"exp":%d,"nbf":%d}`, now-60, now+3600, now-60)), path: "/api/users/me", status: 200},
		{name: "no exp", as: jwt(hs, fmt.Sprintf(`{"id":1,"iat":%d}`, now)), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "wrong secret", as: "bearer:Bearer " + signJWT("not-the-secret", hs, valid), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "alg HS512 header", as: jwt(`{"alg":"HS512","typ":"JWT"}`, valid), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "alg RS256 confusion", as: jwt(`{"alg":"RS256","typ":"JWT"}`, valid), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "id string", as: jwt(hs, fmt.Sprintf(`{"id":"1","iat":%d,"exp":%d}`, now, now+3600)), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "id sql", as: jwt(hs, fmt.Sprintf(`{"id":"1 OR 1=1","iat":%d,"exp":%d}`, now, now+3600)), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "id zero", as: jwt(hs, fmt.Sprintf(`{"id":0,"iat":%d,"exp":%d}`, now, now+3600)), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "id fraction", as: jwt(hs, fmt.Sprintf(`{"id":1.5,"iat":%d,"exp":%d}`, now, now+3600)), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "id unknown user", as: jwt(hs, fmt.Sprintf(`{"id":424242,"iat":%d,"exp":%d}`, now, now+3600)), path: "/api/users/me", status: 401, errName: "UnauthorizedError", msg: "Invalid credentials"},
		{name: "id missing", as: jwt(hs, fmt.Sprintf(`{"sub":1,"iat":%d,"exp":%d}`, now, now+3600)), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "kid injection", as: jwt(`{"alg":"HS256","typ":"JWT","kid":"../../etc/passwd' OR 1=1"}`, fmt.Sprintf(`{"id":999,"iat":%d,"exp":%d}`, now, now+3600)), path: "/api/users/me", status: 401, errName: "UnauthorizedError"},
		{name: "garbage bearer", as: "bearer:Bearer not-a-token", path: "/api/articles", status: 401, errName: "UnauthorizedError", msg: "Missing or invalid credentials"},
		{name: "sql bearer", as: "bearer:Bearer ' OR 1=1--", path: "/api/articles", status: 200},
		{name: "huge bearer", as: "bearer:Bearer " + strings.Repeat("A", 20000), path: "/api/articles", status: 401, errName: "UnauthorizedError"},
		{name: "basic auth is public", as: "bearer:Basic YWRtaW46YWRtaW4=", path: "/api/users", status: 403, errName: "ForbiddenError"},

		// ---- oversized and deeply nested input ----
		{name: "long filter value", path: arts + qp("filters[title][$contains]", strings.Repeat("x", 20000)), status: 200},
		{name: "pattern over SQLite's limit", path: arts + qp("filters[title][$containsi]", strings.Repeat("x", 55000)), status: 400, errName: V, msg: "takes at most"},
		{name: "deep filters", path: arts + qp(deepFilter, "x"), status: 400, errName: V, msg: inv}, // past qs depth 20 the rest is a literal key
		{name: "deep populate", path: arts + qp(deepPopulate, "true"), status: 400, errName: V},
		{name: "big in list", path: arts + qp(bigIn...), status: 400, errName: V},
		{name: "many params", path: arts + strings.Repeat("a=1&", 3000) + "b=2", status: 200},
		{name: "body over 1MB", as: "full", method: "POST", path: "/api/tags", body: `{"data":{"name":"` + strings.Repeat("x", 1<<20) + `"}}`, status: 413, errName: "PayloadTooLargeError"},
		{name: "deep JSON body", as: "full", method: "POST", path: "/api/tags", body: deepJSON, status: 400},
		{name: "deep JSON login", method: "POST", path: "/api/auth/local", body: deepJSON, status: 400},
		{name: "login body over 1MB", method: "POST", path: "/api/auth/local", body: `{"identifier":"` + strings.Repeat("x", 1<<20) + `","password":"x"}`, status: 413, errName: "PayloadTooLargeError"},
		{name: "malformed JSON login", method: "POST", path: "/api/auth/local", body: `{"identifier":`, status: 400, errName: "SyntaxError"},

		// ---- auth bodies ----
		{name: "login identifier object", method: "POST", path: "/api/auth/local", body: `{"identifier":{"$ne":""},"password":{"$ne":""}}`, status: 400, errName: V, msg: "2 errors occurred"},
		{name: "login or-true", method: "POST", path: "/api/auth/local", body: `{"identifier":"' OR '1'='1","password":"' OR '1'='1"}`, status: 400, errName: V, msg: "Invalid identifier or password"},
		{name: "login comment", method: "POST", path: "/api/auth/local", body: `{"identifier":"ann'--","password":"x"}`, status: 400, errName: V, msg: "Invalid identifier or password"},
		{name: "login wildcard", method: "POST", path: "/api/auth/local", body: `{"identifier":"%","password":"%"}`, status: 400, errName: V, msg: "Invalid identifier or password"},
		{name: "login array", method: "POST", path: "/api/auth/local", body: `["ann","pw"]`, status: 400, errName: V},
		{name: "register email injection", method: "POST", path: "/api/auth/local/register", body: `{"username":"mallory","email":"a@b.co' OR 1=1--","password":"secret-pw"}`, status: 400, errName: V, msg: "email must be a valid email"},
		{name: "register sql username short pw", method: "POST", path: "/api/auth/local/register", body: `{"username":"x'); DROP TABLE up_users;--","email":"m@b.co","password":"1"}`, status: 400, errName: V},
		{name: "register taken via case", method: "POST", path: "/api/auth/local/register", body: `{"username":"ANN@EXAMPLE.COM","email":"ann2@example.com","password":"secret-pw"}`, status: 400, errName: "ApplicationError"},
		{name: "register long username", method: "POST", path: "/api/auth/local/register", body: `{"username":"` + strings.Repeat("u", 300) + `","email":"long@b.co","password":"secret-pw"}`, status: 400, errName: V},
		{name: "register NUL", method: "POST", path: "/api/auth/local/register", body: `{"username":"nul\u0000l","email":"nul@b.co","password":"secret-pw"}`, status: 400, errName: V},
		{name: "register long password", method: "POST", path: "/api/auth/local/register", body: `{"username":"longpw","email":"longpw@b.co","password":"` + strings.Repeat("p", 100) + `"}`, status: 400, errName: V},
		{name: "reset wildcard code", method: "POST", path: "/api/auth/reset-password", body: `{"code":"%","password":"secret-pw","passwordConfirmation":"secret-pw"}`, status: 400, errName: V, msg: "Incorrect code provided"},
		{name: "reset or-true code", method: "POST", path: "/api/auth/reset-password", body: `{"code":"' OR '1'='1","password":"secret-pw","passwordConfirmation":"secret-pw"}`, status: 400, errName: V, msg: "Incorrect code provided"},
		{name: "reset extra keys", method: "POST", path: "/api/auth/reset-password", body: `{"code":"x","password":"a","passwordConfirmation":"a","id":1}`, status: 400, errName: V},
		{name: "email confirmation wildcard", path: "/api/auth/email-confirmation?" + qp("confirmation", "%"), status: 400, errName: V, msg: "Invalid token"},
		{name: "email confirmation injection", path: "/api/auth/email-confirmation?" + qp("confirmation", "' OR 1=1--"), status: 400, errName: V, msg: "Invalid token"},
		{name: "email confirmation array", path: "/api/auth/email-confirmation?" + qp("confirmation[]", "x"), status: 400, errName: V},
		{name: "wrong method on auth", method: "GET", path: "/api/auth/local", status: 404, errName: "NotFoundError"},
		{name: "connect provider", path: "/api/connect/github", status: 400, errName: "ApplicationError", msg: "This provider is disabled"},
		{name: "forgot extra keys", method: "POST", path: "/api/auth/forgot-password", body: `{"email":"ann@example.com","resetPasswordToken":"x"}`, status: 400, errName: V},
		{name: "method override", method: "PATCH", path: "/api/articles/1", status: 405},
	}, hostileGraphQLCases(noneTok)...)
}

func jsonB64(s string) string {
	return strings.Split(signJWT("k", `{}`, s), ".")[1]
}

// snapshot hashes every table's rows (order-independent), leaving out last_used_at, which a
// token's first use of the hour may set.
func snapshot(t *testing.T, s *server, db *sql.DB) map[string]string {
	t.Helper()
	var q string
	if isPostgres(s) {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
	} else if !isSQLite(s) {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'`
	} else {
		q = `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	}
	var tables []string
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	out := map[string]string{}
	for _, tb := range tables {
		rows, err := db.Query(rebind(s, `SELECT * FROM "`+tb+`"`))
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for i, c := range cols {
				if c == "last_used_at" {
					continue
				}
				v := vals[i]
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				if tm, ok := v.(time.Time); ok {
					v = tm.UTC().Format(time.RFC3339Nano)
				}
				fmt.Fprintf(&b, "%s=%v|", c, v)
			}
			lines = append(lines, b.String())
		}
		rows.Close()
		sort.Strings(lines)
		h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
		out[tb] = fmt.Sprintf("%d rows %s", len(lines), hex.EncodeToString(h[:8]))
	}
	return out
}

// secrets reads every value a response must never show.
func secrets(t *testing.T, s *server, db *sql.DB) []string {
	t.Helper()
	out := []string{testJWTSecret, "quarry-e2e-salt", "TOPSECRET", "$2a$", "$2b$"}
	for _, q := range []string{
		`SELECT password FROM up_users`, `SELECT reset_password_token FROM up_users`, `SELECT confirmation_token FROM up_users`,
		`SELECT password FROM articles`, `SELECT secret FROM articles`, `SELECT email FROM writers`, `SELECT access_key FROM strapi_api_tokens`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var v sql.NullString
			rows.Scan(&v)
			if v.Valid && len(v.String) >= 6 {
				out = append(out, v.String)
			}
		}
		rows.Close()
	}
	return out
}

func TestHostileInput(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := authApp(t, map[string]string{"permissions.json": hostilePermissions, "plugins.json": hostilePlugins})
			srv := start(t, be, app)
			full := srv.Token
			ro := strings.TrimSpace(quarry(t, srv.Env, "tokens", "create", "--app", app, "--name", "ro", "--type", "read-only"))
			db := openDB(t, srv)

			// Seed: two users, a writer with a private e-mail, articles with private values and
			// an editor, a tag, a page; a pending password reset and e-mail confirmation.
			r := srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"ann","email":"ann@example.com","password":"ann-password"}`)
			expect(t, r, 200)
			userJWT := jsonField(t, r.Body, "jwt").(string)
			expect(t, srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"bob","email":"bob@example.com","password":"bob-password"}`), 200)
			expect(t, srv.call(t, full, "POST", "/api/writers", `{"data":{"name":"Wanda","email":"wanda-private@example.com"}}`), 200)
			expect(t, srv.call(t, full, "POST", "/api/tags", `{"data":{"name":"go"}}`), 200)
			for i := 1; i <= 3; i++ {
				expect(t, srv.call(t, full, "POST", "/api/articles", fmt.Sprintf(
					`{"data":{"title":"Article %d","secret":"TOPSECRET-%d","password":"article-pw-%d","author":1,"editor":%d,"tags":[1],"publishedAt":"2024-01-01T00:00:00Z"}}`, i, i, i, 1+i%2)), 200)
			}
			expect(t, srv.call(t, full, "POST", "/api/pages", `{"data":{"title":"Home"}}`), 200)
			expect(t, srv.call(t, "", "POST", "/api/auth/forgot-password", `{"email":"ann@example.com"}`), 200)
			if _, err := db.Exec(`UPDATE up_users SET confirmation_token = 'pending-confirmation-token-123' WHERE username = 'bob'`); err != nil {
				t.Fatal(err)
			}
			// Every credential used once, so last-use bookkeeping is done before the snapshot.
			expect(t, srv.call(t, ro, "GET", "/api/articles", ""), 200)
			expect(t, srv.call(t, userJWT, "GET", "/api/users/me", ""), 200)

			hidden := secrets(t, srv, db)
			before := snapshot(t, srv, db)
			cases := hostileCases(time.Now().Unix())
			graphql := 0
			for _, c := range cases {
				if c.gql != "" || c.path == "/graphql" {
					graphql++
				}
			}
			if len(cases)-graphql < 100 || graphql < 40 {
				t.Fatalf("only %d REST and %d GraphQL hostile cases", len(cases)-graphql, graphql)
			}
			for _, c := range cases {
				token, headers := "", append([]string(nil), c.headers...)
				switch {
				case c.as == "user":
					token = userJWT
				case c.as == "full":
					token = full
				case c.as == "ro":
					token = ro
				case strings.HasPrefix(c.as, "bearer:"):
					headers = append(headers, "Authorization: "+strings.TrimPrefix(c.as, "bearer:"))
				}
				method, path, body := c.method, c.path, c.body
				if method == "" && c.gql == "" {
					method = "GET"
				}
				if c.gql != "" {
					vars := c.vars
					if vars == "" {
						vars = "null"
					}
					path = "/graphql"
					if method == "GET" {
						path += "?query=" + url.QueryEscape(c.gql)
						if c.vars != "" {
							path += "&variables=" + url.QueryEscape(c.vars)
						}
					} else {
						method = "POST"
						q, _ := json.Marshal(c.gql)
						body = `{"query":` + string(q) + `,"variables":` + vars + `}`
					}
				}
				start := time.Now()
				r := srv.call(t, token, method, path, body, headers...)
				if took := time.Since(start); took > 4*time.Second {
					t.Errorf("%s: took %s", c.name, took)
				}
				if r.Status != c.status {
					t.Errorf("%s: %s %.200s\n got %.300s, want status %d", c.name, method, path, r, c.status)
					continue
				}
				body = string(r.Body)
				for _, h := range hidden {
					if strings.Contains(body, h) {
						t.Errorf("%s: the answer leaks %q: %.300s", c.name, h, body)
					}
					for k, vs := range r.Header {
						for _, v := range vs {
							if strings.Contains(v, h) {
								t.Errorf("%s: header %s leaks %q", c.name, k, h)
							}
						}
					}
				}
				if r.Header.Get("X-Content-Type-Options") != "nosniff" || r.Header.Get("Content-Security-Policy") == "" {
					t.Errorf("%s: security headers missing: %v", c.name, r.Header)
				}
				switch {
				case c.text != "":
					if body != c.text || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
						t.Errorf("%s: answer %q (%s), want %q as text/plain", c.name, body, r.Header.Get("Content-Type"), c.text)
					}
				case (c.gql != "" || path == "/graphql") && c.errName == "":
					checkGraphQLAnswer(t, c, r)
				case r.Status == 405:
					if body != "Method Not Allowed" {
						t.Errorf("%s: 405 body %q", c.name, body)
					}
				case r.Status >= 400:
					var env struct {
						Data  *json.RawMessage `json:"data"`
						Error *struct {
							Status  int    `json:"status"`
							Name    string `json:"name"`
							Message string `json:"message"`
						} `json:"error"`
					}
					if err := json.Unmarshal(r.Body, &env); err != nil || env.Error == nil || env.Data != nil || env.Error.Status != r.Status || env.Error.Message == "" {
						t.Errorf("%s: not an error envelope: %.300s", c.name, body)
						continue
					}
					if c.errName != "" && env.Error.Name != c.errName {
						t.Errorf("%s: error %s, want %s: %.300s", c.name, env.Error.Name, c.errName, body)
					}
					if c.msg != "" && !strings.Contains(env.Error.Message, c.msg) {
						t.Errorf("%s: message %q, want %q", c.name, env.Error.Message, c.msg)
					}
					if strings.Contains(strings.ToLower(env.Error.Message), "sql") || strings.Contains(env.Error.Message, "syntax error at") {
						t.Errorf("%s: database error text leaked: %s", c.name, env.Error.Message)
					}
				default:
					if !json.Valid(r.Body) {
						t.Errorf("%s: answer is not JSON: %.300s", c.name, body)
					}
				}
			}
			after := snapshot(t, srv, db)
			for tb, h := range before {
				if after[tb] != h {
					t.Errorf("table %s changed: %s → %s", tb, h, after[tb])
				}
			}
			for tb := range after {
				if _, ok := before[tb]; !ok {
					t.Errorf("table %s appeared", tb)
				}
			}
			// The server is still healthy and the data still there.
			expect(t, srv.call(t, full, "GET", "/api/articles?sort=id", ""), 200, `"title":"Article 3"`)
		})
	}
}

// hostileGraphQLCases are the same attacks through the GraphQL endpoint: injection in
// arguments and variables, private and password fields selected, filtered and sorted at
// any depth (the users' password hash through articles' editor relation), nesting, alias
// and fragment bombs against the depth, token and selection limits, bad variables and
// refused credentials.
func hostileGraphQLCases(noneTok string) []hostile {
	const (
		V   = "GRAPHQL_VALIDATION_FAILED"
		P   = "GRAPHQL_PARSE_FAILED"
		B   = "BAD_USER_INPUT"
		F   = "FORBIDDEN"
		inv = "Invalid parameter "
	)
	arts := func(args, sel string) string {
		if args != "" {
			args = "(" + args + ")"
		}
		return "{ articles" + args + " { data { id attributes { " + sel + " } } } }"
	}
	// Twelve levels of relations: past depthLimit 10.
	levels := strings.Fields(strings.Repeat("articles data attributes author data attributes ", 2))
	deep := "{ " + strings.Join(levels, " { ") + " { name" + strings.Repeat(" }", len(levels)) + " }"
	var aliases strings.Builder
	aliases.WriteString("{")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&aliases, " a%d: articles { data { id } }", i)
	}
	aliases.WriteString(" }")
	// Three levels of 40 aliases each, within the depth limit: 40³ selections from 4 KB.
	alias := func(n int, format string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf(format, i)
		}
		return strings.Join(parts, " ")
	}
	frags := "{ articles { data { attributes { ...A2 } } } }" +
		" fragment A2 on Article { " + alias(40, "r%d: author { data { attributes { ...W1 } } }") + " }" +
		" fragment W1 on Writer { " + alias(40, "r%d: articles { data { attributes { ...A0 } } }") + " }" +
		" fragment A0 on Article { " + alias(40, "t%d: title") + " }"
	introspection := "{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }"
	deepAnd := strings.Repeat(`{and: [`, 150) + `{title: {eq: "x"}}` + strings.Repeat(`]}`, 150)
	deepVar := strings.Repeat(`{"and":[`, 12000) + `{}` + strings.Repeat(`]}`, 12000)
	return []hostile{
		// ---- injection in arguments: values are bound, ids parsed ----
		{name: "gql value or-true", gql: arts(`filters: {title: {eq: "' OR 1=1--"}}`, "title"), status: 200},
		{name: "gql value union", gql: arts(`filters: {title: {containsi: "x' UNION SELECT password FROM up_users--"}}`, "title"), status: 200},
		{name: "gql in list injection", gql: arts(`filters: {title: {in: ["a') OR ('1'='1", "b"]}}`, "title"), status: 200},
		{name: "gql id injection", gql: `{ article(id: "1 OR 1=1") { data { id attributes { title } } } }`, status: 200},
		{name: "gql locale injection", gql: `{ pages(locale: "en' OR '1'='1") { data { id } } }`, status: 400, code: V, msg: "Unknown locale supplied"},
		{name: "gql locale variable injection", gql: `query($l: I18NLocaleCode) { pages(locale: $l) { data { id } } }`, vars: `{"l":"en' OR '1'='1"}`, status: 200},
		{name: "gql sort semicolon", gql: arts(`sort: "title;DROP TABLE articles"`, "title"), status: 200, code: B, msg: inv},
		{name: "gql sort subquery", gql: arts(`sort: ["(SELECT password FROM up_users)"]`, "title"), status: 200, code: B},
		{name: "gql sort order injection", gql: arts(`sort: "title:desc; DELETE FROM articles"`, "title"), status: 200, code: B},
		{name: "gql pagination string", gql: arts(`pagination: {start: "0; DROP TABLE articles"}`, "title"), status: 400, code: V},
		{name: "gql enum injection", gql: arts(`publicationState: "PREVIEW' OR 1=1"`, "title"), status: 400, code: V},
		{name: "gql number injection", gql: arts(`filters: {views: {gt: "0; DELETE FROM articles"}}`, "title"), status: 400, code: V},
		{name: "gql datetime injection", gql: arts(`filters: {createdAt: {lt: "2020-01-01' OR '1'='1"}}`, "title"), status: 400, code: V},
		{name: "gql unknown filter key", gql: arts(`filters: {title_or_1: {eq: "x"}}`, "title"), status: 400, code: V},
		{name: "gql public create", method: "POST", gql: `mutation { createTag(data: {name: "x'); DROP TABLE tags;--"}) { data { id } } }`, status: 200, code: F},
		{name: "gql update id injection", as: "full", gql: `mutation { updateArticle(id: "1 OR 1=1", data: {title: "Hacked"}) { data { id } } }`, status: 200},
		{name: "gql delete id injection", as: "full", gql: `mutation { deleteArticle(id: "1;DELETE FROM articles") { data { id } } }`, status: 200},
		{name: "gql login injection", gql: `mutation { login(input: {identifier: "' OR '1'='1", password: "' OR '1'='1"}) { jwt } }`, status: 200, code: B, msg: "Invalid identifier or password"},

		// ---- injection in variables ----
		{name: "gql var value injection", gql: `query($t: String) { articles(filters: {title: {eq: $t}}) { data { id } } }`, vars: `{"t":"' OR 1=1--"}`, status: 200},
		{name: "gql var id injection", gql: `query($id: ID) { article(id: $id) { data { id } } }`, vars: `{"id":"1 OR 1=1"}`, status: 200},
		{name: "gql var filters union", gql: `query($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }`, vars: `{"f":{"title":{"eq":"x' UNION SELECT password FROM up_users--"}}}`, status: 200},
		{name: "gql var unknown filter key", gql: `query($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }`, vars: `{"f":{"password_hash":{"eq":"x"}}}`, status: 400, code: B},
		{name: "gql var sort password", as: "full", gql: `query($s: [String]) { articles(sort: $s) { data { id } } }`, vars: `{"s":["editor.password"]}`, status: 200, code: B, msg: inv + "password"},
		{name: "gql var pagination injection", gql: `query($p: PaginationArg) { articles(pagination: $p) { data { id } } }`, vars: `{"p":{"limit":"1 OR 1=1"}}`, status: 400, code: B},
		{name: "gql var filter password", as: "full", gql: `query($f: UsersPermissionsUserFiltersInput) { usersPermissionsUsers(filters: $f) { data { id } } }`, vars: `{"f":{"password":{"startsWith":"$2"}}}`, status: 200, code: B, msg: inv + "password"},

		// ---- private and password fields selected: not in the schema ----
		{name: "gql select password", as: "full", gql: arts("", "title password"), status: 400, code: V},
		{name: "gql select secret", as: "full", gql: arts("", "secret"), status: 400, code: V},
		{name: "gql editor password", as: "full", gql: arts("", "editor { data { attributes { username password } } }"), status: 400, code: V},
		{name: "gql users reset token", as: "full", gql: `{ usersPermissionsUsers { data { attributes { resetPasswordToken } } } }`, status: 400, code: V},
		{name: "gql users confirmation token", as: "full", gql: `{ usersPermissionsUser(id: 1) { data { attributes { confirmationToken } } } }`, status: 400, code: V},
		// Strapi's GraphQL schema lists a role's users; reading them needs users' find.
		{name: "gql role users", as: "full", gql: `{ usersPermissionsRoles { data { attributes { users { data { attributes { email } } } } } } }`, status: 200},
		{name: "gql role users password", as: "full", gql: `{ usersPermissionsRoles { data { attributes { users { data { attributes { password } } } } } } }`, status: 400, code: V},
		{name: "gql me password", as: "user", gql: `{ me { username password } }`, status: 400, code: V},
		{name: "gql writer email", gql: `{ writers { data { attributes { name email } } } }`, status: 400, code: V},
		{name: "gql fragment password", as: "full", gql: `{ articles { data { attributes { editor { data { attributes { ...U } } } } } } } fragment U on UsersPermissionsUser { password }`, status: 400, code: V},

		// ---- private and password fields filtered and sorted, at any depth ----
		{name: "gql filter editor password", as: "full", gql: arts(`filters: {editor: {password: {startsWith: "$2"}}}`, "title"), status: 200, code: B, msg: inv + "password"},
		{name: "gql filter editor reset token", as: "full", gql: arts(`filters: {editor: {resetPasswordToken: {notNull: true}}}`, "title"), status: 200, code: B, msg: inv + "resetPasswordToken"},
		{name: "gql filter or editor password", as: "full", gql: arts(`filters: {or: [{title: {eq: "x"}}, {editor: {password: {eq: "x"}}}]}`, "title"), status: 200, code: B, msg: inv + "password"},
		{name: "gql filter not editor token", as: "full", gql: arts(`filters: {not: {editor: {confirmationToken: {null: false}}}}`, "title"), status: 200, code: B, msg: inv + "confirmationToken"},
		{name: "gql filter author articles password", gql: arts(`filters: {author: {articles: {password: {null: false}}}}`, "title"), status: 200, code: B, msg: inv + "password"},
		{name: "gql filter secret", gql: arts(`filters: {secret: {eq: "TOPSECRET-1"}}`, "title"), status: 200, code: B, msg: inv + "secret"},
		{name: "gql filter author email", gql: arts(`filters: {author: {email: {contains: "@"}}}`, "title"), status: 200, code: B, msg: inv + "email"},
		{name: "gql filter writers deep password", as: "full", gql: `{ writers(filters: {articles: {editor: {password: {eq: "x"}}}}) { data { id } } }`, status: 200, code: B, msg: inv + "password"},
		{name: "gql nested relation filter password", as: "full", gql: `{ writers { data { attributes { articles(filters: {editor: {password: {startsWith: "$"}}}) { data { id } } } } } }`, status: 200, code: B, msg: inv + "password"},
		{name: "gql sort editor password", as: "full", gql: arts(`sort: "editor.password"`, "title"), status: 200, code: B, msg: inv + "password"},
		{name: "gql sort secret", gql: arts(`sort: "secret:desc"`, "title"), status: 200, code: B, msg: inv + "secret"},
		{name: "gql nested sort secret", gql: `{ writers { data { attributes { articles(sort: "secret") { data { id } } } } } }`, status: 200, code: B, msg: inv + "secret"},
		{name: "gql nested filter email", as: "full", gql: `{ articles { data { attributes { author(filters: {email: {eq: "x"}}) { data { id } } } } } }`, status: 400, code: V},
		{name: "gql users filter password", as: "full", gql: `{ usersPermissionsUsers(filters: {password: {startsWith: "$2a"}}) { data { id } } }`, status: 200, code: B, msg: inv + "password"},
		{name: "gql file folder path", as: "full", gql: `{ uploadFiles(filters: {folderPath: {eq: "/1"}}) { data { id } } }`, status: 200, code: B, msg: inv + "folderPath"},

		// ---- relations the caller may not read ----
		{name: "gql public editor", gql: arts("", "title editor { data { id } }"), status: 200, code: F},
		{name: "gql public editor filter", gql: arts(`filters: {editor: {id: {eq: 1}}}`, "title"), status: 200, code: B, msg: inv + "editor"},
		{name: "gql public users", gql: `{ usersPermissionsUsers { data { id } } }`, status: 200, code: F},
		{name: "gql readonly delete", as: "ro", gql: `mutation { deleteArticle(id: 1) { data { id } } }`, status: 200, code: F},
		{name: "gql user escalates role", as: "user", gql: `mutation { updateUsersPermissionsUser(id: 1, data: {role: 2}) { data { id } } }`, status: 200, code: F},
		{name: "gql public upload", gql: `mutation { removeFile(id: 1) { data { id } } }`, status: 200, code: F},

		// ---- nesting, alias and fragment bombs, huge documents ----
		{name: "gql depth limit", gql: deep, status: 400, code: V, msg: "exceeds maximum operation depth of 10"},
		{name: "gql introspection depth", gql: introspection, status: 400, code: V, msg: "Maximum introspection depth exceeded"},
		{name: "gql alias bomb", gql: aliases.String(), status: 400, code: P},
		{name: "gql fragment bomb", gql: frags, status: 400, code: V, msg: "graphql.config.maxFields"},
		{name: "gql fragment cycle", gql: `{ articles { data { ...A } } } fragment A on ArticleEntity { id ...B } fragment B on ArticleEntity { id ...A }`, status: 400, code: V},
		{name: "gql deep and", gql: arts("filters: "+deepAnd, "title"), status: 200},
		{name: "gql deep variables", gql: `query($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }`, vars: `{"f":` + deepVar + `}`, status: 400, errName: "SyntaxError"},
		{name: "gql document over 1MB", gql: "{ articles { data { id } } }" + strings.Repeat(" ", 1<<20), status: 413, errName: "PayloadTooLargeError"},
		{name: "gql long string value", gql: arts(`filters: {title: {contains: "`+strings.Repeat("x", 40000)+`"}}`, "title"), status: 200},
		{name: "gql pattern over SQLite's limit", gql: arts(`filters: {title: {contains: "`+strings.Repeat("x", 60000)+`"}}`, "title"), status: 200, code: B, msg: "takes at most"},

		// ---- bad requests and variables ----
		{name: "gql syntax error", gql: `{ articles { data { id } `, status: 400, code: P},
		{name: "gql missing variable", gql: `query($id: ID!) { article(id: $id) { data { id } } }`, status: 400, code: B},
		{name: "gql variable wrong type", gql: `query($n: Int) { articles(pagination: {limit: $n}) { data { id } } }`, vars: `{"n":"ten"}`, status: 400, code: B},
		{name: "gql variable int overflow", gql: `query($n: Int) { articles(pagination: {limit: $n}) { data { id } } }`, vars: `{"n":99999999999999999999}`, status: 400, code: B},
		{name: "gql variables not an object", gql: `{ articles { data { id } } }`, vars: `[1,2]`, status: 400, code: "INTERNAL_SERVER_ERROR"},
		{name: "gql variables bad json string", gql: `{ articles { data { id } } }`, vars: `"{bad"`, status: 400, text: "Variables are invalid JSON."},
		{name: "gql GET variables bad json", method: "GET", gql: `{ articles { data { id } } }`, vars: `{bad`, status: 400, code: B},
		{name: "gql upload variable", as: "full", gql: `mutation($f: Upload!) { upload(file: $f) { data { id } } }`, vars: `{"f":"/etc/passwd"}`, status: 400, code: B},
		{name: "gql upload literal", as: "full", gql: `mutation { upload(file: "/etc/passwd") { data { id } } }`, status: 400, code: V},
		{name: "gql operation name unknown", method: "POST", path: "/graphql", body: `{"query":"query A { __typename }","operationName":"B"}`, status: 400, code: "INTERNAL_SERVER_ERROR"},
		{name: "gql mutation over GET", method: "GET", as: "full", gql: `mutation { deleteArticle(id: 1) { data { id } } }`, status: 405, code: "INTERNAL_SERVER_ERROR"},
		{name: "gql subscription", gql: `subscription { articles { data { id } } }`, status: 400, code: "INTERNAL_SERVER_ERROR"},
		{name: "gql bad json body", method: "POST", path: "/graphql", body: `{"query": `, status: 400, errName: "SyntaxError"},
		{name: "gql json scalar body", method: "POST", path: "/graphql", body: `"{ __typename }"`, status: 400, errName: "SyntaxError", msg: "invalid JSON, only supports object and array"},

		// ---- 32-bit Int literals and variables, as graphql-js ----
		{name: "gql int literal over 32 bits", gql: arts(`filters: {views: {eq: 99999999999999}}`, "title"), status: 400, code: V, msg: "Int cannot represent non 32-bit signed integer value: 99999999999999"},
		{name: "gql int literal under 32 bits", gql: arts(`filters: {views: {in: [1, -2147483649]}}`, "title"), status: 400, code: V, msg: "Int cannot represent non 32-bit signed integer value: -2147483649"},
		{name: "gql int pagination over 32 bits", gql: `{ articles(pagination: {limit: 3000000000}) { data { id } } }`, status: 400, code: V, msg: "non 32-bit"},
		{name: "gql int variable over 32 bits", gql: `query($v: Int) { articles(filters: {views: {eq: $v}}) { data { id } } }`, vars: `{"v":99999999999999}`, status: 400, code: B, msg: "Int cannot represent non 32-bit signed integer value: 99999999999999"},
		{name: "gql id over 32 bits", as: "full", gql: `{ article(id: "99999999999") { data { id } } }`, status: 200},
		{name: "gql delete id over 32 bits", as: "full", gql: `mutation { deleteArticle(id: "99999999999") { data { id } } }`, status: 200},
		{name: "gql int literal at the limit", gql: arts(`filters: {views: {eq: 2147483647}}`, "title"), status: 200},

		// ---- bodies a cross-site form can send without a preflight never run ----
		{name: "gql text/plain", method: "POST", path: "/graphql", body: `{"query":"mutation { deleteArticle(id: 1) { data { id } } }"}`, as: "full", headers: []string{"Content-Type: text/plain"}, status: 400, text: gqlNoBody},
		{name: "gql form urlencoded", method: "POST", path: "/graphql", body: `query=mutation+%7B+deleteArticle(id%3A+1)+%7B+data+%7B+id+%7D+%7D+%7D`, as: "full", headers: []string{"Content-Type: application/x-www-form-urlencoded"}, status: 400, text: gqlNoBody},
		{name: "gql no content type", method: "POST", path: "/graphql", body: `{"query":"mutation { deleteArticle(id: 1) { data { id } } }"}`, as: "full", headers: []string{"Content-Type:"}, status: 400, text: gqlNoBody},
		{name: "gql application/graphql", method: "POST", path: "/graphql", body: `mutation { deleteArticle(id: 1) { data { id } } }`, as: "full", headers: []string{"Content-Type: application/graphql"}, status: 400, text: gqlNoBody},
		{name: "gql multipart without operations", method: "POST", path: "/graphql", as: "full",
			body:    "--XX\r\nContent-Disposition: form-data; name=\"query\"\r\n\r\nmutation { deleteArticle(id: 1) { data { id } } }\r\n--XX--\r\n",
			headers: []string{"Content-Type: multipart/form-data; boundary=XX"}, status: 400, errName: "BadRequestError", msg: "Missing multipart field ‘operations’"},
		{name: "gql empty object", method: "POST", path: "/graphql", body: `{}`, status: 400, text: gqlNoBody},
		{name: "gql query not a string", method: "POST", path: "/graphql", body: `{"query":1}`, status: 400, text: "GraphQL queries must be strings."},
		{name: "gql batch over the cap", method: "POST", path: "/graphql", body: "[" + strings.TrimSuffix(strings.Repeat(`{"query":"{ articles { data { id } } }"},`, 1000), ",") + "]", status: 400, code: B, msg: "limited to"},
		{name: "gql empty batch", method: "POST", path: "/graphql", body: `[]`, status: 400, text: gqlNoBody},

		// ---- refused credentials answer with Strapi's envelope ----
		{name: "gql bad bearer", as: "bearer:Bearer not-a-token", gql: `{ __typename }`, status: 401, errName: "UnauthorizedError"},
		{name: "gql alg none", as: "bearer:Bearer " + noneTok + ".", gql: `{ me { username } }`, status: 401, errName: "UnauthorizedError"},
	}
}

// checkGraphQLAnswer checks a GraphQL answer's format: a request refused as a whole (4xx)
// has errors and no data; a served one has data, and errors only for the fields that
// failed. Every error has a message and an extensions.code; no database error text leaks.
func checkGraphQLAnswer(t *testing.T, c hostile, r resp) {
	t.Helper()
	var ans struct {
		Data   *json.RawMessage `json:"data"`
		Errors []struct {
			Message    string `json:"message"`
			Extensions struct {
				Code string `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &ans); err != nil || json.Unmarshal(r.Body, &keys) != nil {
		t.Errorf("%s: not a GraphQL answer: %.300s", c.name, r.Body)
		return
	}
	_, hasData := keys["data"]
	switch {
	case r.Status >= 400 && (hasData || len(ans.Errors) == 0):
		t.Errorf("%s: a refused request answers errors without data: %.300s", c.name, r.Body)
	case r.Status < 400 && !hasData:
		t.Errorf("%s: a served request answers data: %.300s", c.name, r.Body)
	case c.code == "" && len(ans.Errors) > 0:
		t.Errorf("%s: unexpected errors: %.300s", c.name, r.Body)
	}
	found := c.code == ""
	for _, e := range ans.Errors {
		if e.Message == "" || e.Extensions.Code == "" {
			t.Errorf("%s: error without message or code: %.300s", c.name, r.Body)
		}
		if e.Extensions.Code == c.code && strings.Contains(e.Message, c.msg) {
			found = true
		}
		if strings.Contains(strings.ToLower(e.Message), "sql") || strings.Contains(e.Message, "syntax error at") {
			t.Errorf("%s: database error text leaked: %s", c.name, e.Message)
		}
	}
	if !found {
		t.Errorf("%s: no error with code %s and message %q: %.300s", c.name, c.code, c.msg, r.Body)
	}
}
