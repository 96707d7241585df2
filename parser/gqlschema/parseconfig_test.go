package gqlschema_test

import (
	"testing"

	"github.com/quarrycms/quarry/parser/gqlschema"
)

// A project without a plugins configuration gets the defaults.
func TestParseConfigNone(t *testing.T) {
	c, err := gqlschema.ParseConfig(nil)
	if err != nil || !c.Enabled || c.Endpoint != "/graphql" {
		t.Errorf("ParseConfig(nil) = %+v, %v", c, err)
	}
}
