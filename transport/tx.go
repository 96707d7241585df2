package transport

import (
	"database/sql"

	"github.com/jmoiron/sqlx"
)

var errNoRows = sql.ErrNoRows

// txWriter hands the transaction to the writer, which needs more than exec's Queryer.
type txWriter struct{ Tx *sqlx.Tx }
