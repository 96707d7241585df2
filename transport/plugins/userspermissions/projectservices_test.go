package userspermissions

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/quarrycms/quarry/ir/apierror"
)

// TestUserServiceValidatePassword: validatePassword as bcryptjs' compare answers it for a
// hash the code holds as text: true or false, and an error naming the arguments' types when
// one is not a string (the sealed password is the e2e upext project's).
func TestUserServiceValidatePassword(t *testing.T) {
	hash, err := HashPassword("Secret123")
	if err != nil {
		t.Fatal(err)
	}
	h, _ := json.Marshal(hash)
	svc := UserService{}
	for _, tc := range []struct {
		pw, hash string
		want     any
		err      string
	}{
		{`"Secret123"`, string(h), true, ""},
		{`"secret123"`, string(h), false, ""},
		{`"Secret123"`, `"not a hash"`, false, ""},
		{`{"type":"undefined"}`, string(h), nil, "Illegal arguments: undefined, string"},
		{`"Secret123"`, `{"type":"object"}`, nil, "Illegal arguments: string, object"},
	} {
		got, err := svc.Call(context.Background(), nil, "validatePassword", []json.RawMessage{json.RawMessage(tc.pw), json.RawMessage(tc.hash)})
		var ae *apierror.Error
		switch {
		case tc.err != "" && (!errors.As(err, &ae) || ae.Message != tc.err):
			t.Errorf("%s, %s: error %v, want %q", tc.pw, tc.hash, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%s, %s: %v %v, want %v", tc.pw, tc.hash, got, err, tc.want)
		}
	}
	if _, err := svc.Call(context.Background(), nil, "hashPassword", nil); err == nil {
		t.Error("hashPassword: no error")
	}
}
