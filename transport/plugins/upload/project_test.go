package upload

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
)

// TestProjectServiceArguments: what the project's code hands the upload service wrongly is
// a validation error, and a method Quarry does not provide a 501 naming it; none of these
// reach the database.
func TestProjectServiceArguments(t *testing.T) {
	p := ProjectService{}
	for _, tc := range []struct {
		method string
		args   []string
		status int
		msg    string
	}{
		{"replace", []string{`1`, `{}`}, 501, "strapi.plugin('upload').service('upload').replace is not provided by Quarry"},
		{"getSettings", nil, 501, "strapi.plugin('upload').service('upload').getSettings is not provided by Quarry"},
		{"upload", []string{`{"data":{"fileInfo":{"folder":3}},"files":{"path":"/tmp/x"}}`}, 501, "strapi.plugin('upload').service('upload').upload with a fileInfo.folder is not provided by Quarry"},
		{"remove", nil, 400, "remove(file): the argument must be a file"},
		{"remove", []string{`null`}, 400, "remove(file): the argument must be a file"},
		{"remove", []string{`"3"`}, 400, "remove(file): the argument must be a file"},
		{"remove", []string{`{"name":"x"}`}, 400, "remove(file): the file's id must be a positive integer"},
		{"remove", []string{`{"id":"../1"}`}, 400, "remove(file): the file's id must be a positive integer"},
		{"update", nil, 400, "update(id, values): the file's id must be a positive integer"},
		{"update", []string{`0`, `{}`}, 400, "update(id, values): the file's id must be a positive integer"},
		{"update", []string{`1`, `[1]`}, 400, "update(id, values): values must be an object"},
		{"updateFileInfo", []string{`{"id":1}`}, 400, "updateFileInfo(id, values): the file's id must be a positive integer"},
	} {
		args := make([]json.RawMessage, len(tc.args))
		for i, a := range tc.args {
			args[i] = json.RawMessage(a)
		}
		_, err := p.Call(context.Background(), ir.System, tc.method, args)
		var ae *apierror.Error
		if !errors.As(err, &ae) || ae.Status != tc.status || !strings.Contains(ae.Message, tc.msg) {
			t.Errorf("%s(%s): %v, want %d %q", tc.method, strings.Join(tc.args, ", "), err, tc.status, tc.msg)
		}
	}
	if got := strings.Join(p.Methods(), ","); got != "upload,remove,update,updateFileInfo" {
		t.Errorf("Methods() = %s", got)
	}
}
