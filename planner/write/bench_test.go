package write

import (
	"context"
	"testing"
)

// benchWrite creates one article per iteration in a transaction it rolls back, on SQLite:
// the write path with every kind of attribute rule (minLength/maxLength, uid, regex,
// enumeration, email, integer min/max, decimal and float ranges).
func benchWrite(b *testing.B, payload string, wantErr bool) {
	e := newEnv(b, "sqlite")
	m := e.model(b, "api::article.article")
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		data := decode(b, payload)
		tx, err := e.db.BeginTxx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		_, err = e.w.Create(ctx, tx, m, data)
		b.StopTimer()
		if (err != nil) != wantErr {
			b.Fatalf("create: %v", err)
		}
		if err := tx.Rollback(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

func BenchmarkWriteValid(b *testing.B) {
	benchWrite(b, `{"title": "Hello", "slug": "hello", "summary": "S", "views": 12, "rating": 1.25,
		"score": 0.5, "category": "sport", "contact": "a@b.co", "secret": "s3", "code": "c-1"}`, false)
}

func BenchmarkWriteInvalid(b *testing.B) {
	benchWrite(b, `{"title": "Hi", "slug": "a b", "views": 100001, "rating": 1e9, "score": 0.5,
		"category": "none", "contact": "nope", "code": "C 1"}`, true)
}
