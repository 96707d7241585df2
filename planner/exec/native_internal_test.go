package exec

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
)

// TestExactFloat: wherever numericFloat answers for a numeric in PostgreSQL's binary format,
// it gives what parsing the numeric's decimal text gives (the sequential path), bit for bit.
func TestExactFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	m := pgtype.NewMap()
	answered := 0
	for range 200000 {
		i := r.Int64N(1<<54) - 1<<53
		if r.IntN(2) == 0 {
			i = r.Int64N(200000) - 100000
		}
		exp := int32(r.IntN(50) - 25)
		n := pgtype.Numeric{Int: big.NewInt(i), Exp: exp, Valid: true}
		// Encoded as PostgreSQL sends it, and decoded back.
		wire, err := m.Encode(pgtype.NumericOID, pgtype.BinaryFormatCode, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		text := strconv.FormatInt(i, 10) + "e" + strconv.Itoa(int(exp))
		want, err := strconv.ParseFloat(text, 64)
		if err != nil {
			t.Fatal(err)
		}
		f, ok := numericFloat(wire)
		if !ok {
			continue
		}
		answered++
		if f != want {
			t.Fatalf("%s: %v, want %v", text, f, want)
		}
	}
	if answered < 50000 {
		t.Fatalf("only %d answered", answered)
	}
}
