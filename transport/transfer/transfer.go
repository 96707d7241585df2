// Package transfer moves a project's data in and out of Strapi v4's data-transfer archives
// (package archive): import replaces the content of the database with an archive's as
// `strapi import` 4.26 does, export writes the database's content as `strapi export` does.
// It owns what the archive's lines mean to Quarry's database (types, attributes, links,
// components, files); the format is package archive's, the SQL sqlgen's.
package transfer

import (
	"fmt"
	"strings"
)

// The groups of `--only` and `--exclude`, and the stages each holds (Strapi's
// TransferGroupPresets): content is entities and links, files the assets, config the
// configuration. Schemas are always read.
const (
	GroupContent = "content"
	GroupFiles   = "files"
	GroupConfig  = "config"
)

// Groups are the valid group names, in Strapi's order.
var Groups = []string{GroupContent, GroupFiles, GroupConfig}

// Filter is --only and --exclude.
type Filter struct {
	Only, Exclude []string
}

// ParseGroups reads a comma-separated list of groups, refusing unknown ones as Strapi does.
func ParseGroups(flag, v string) ([]string, error) {
	if v == "" {
		return nil, nil
	}
	var out []string
	for _, g := range strings.Split(v, ",") {
		g = strings.TrimSpace(g)
		ok := false
		for _, k := range Groups {
			ok = ok || g == k
		}
		if !ok {
			return nil, fmt.Errorf("invalid options for %q: %q (available: %s)", flag, g, strings.Join(Groups, ","))
		}
		out = append(out, g)
	}
	return out, nil
}

// Check refuses a group named in both lists, as Strapi's validateExcludeOnly does.
func (f Filter) Check() error {
	var both []string
	for _, o := range f.Only {
		for _, e := range f.Exclude {
			if o == e {
				both = append(both, o)
			}
		}
	}
	if len(both) > 0 {
		return fmt.Errorf(`data types may not be used in both "exclude" and "only" in the same command. Found in both: %s`, strings.Join(both, ","))
	}
	return nil
}

// Includes says whether a group's stages run.
func (f Filter) Includes(group string) bool {
	in := len(f.Only) == 0
	for _, o := range f.Only {
		in = in || o == group
	}
	for _, e := range f.Exclude {
		if e == group {
			return false
		}
	}
	return in
}

// ignoredTypes are the types Strapi's import and export leave out (DEFAULT_IGNORED_CONTENT_TYPES):
// the admin's users, roles, permissions and tokens, and content releases.
var ignoredTypes = map[string]bool{
	"admin::permission": true, "admin::user": true, "admin::role": true, "admin::api-token": true,
	"admin::api-token-permission": true, "admin::transfer-token": true, "admin::transfer-token-permission": true,
	"admin::audit-log": true, "plugin::content-releases.release": true, "plugin::content-releases.release-action": true,
}

// Ignored says whether a type's entities and links are left out of transfers.
func Ignored(uid string) bool { return ignoredTypes[uid] }

// Event is one progress report: a stage's count of items done (of Total, -1 when not known)
// and their bytes.
type Event struct {
	Stage       string
	Done, Total int64
	Bytes       int64
	TotalBytes  int64
	// Finished marks the stage's last report.
	Finished bool
}

// Reporter receives progress; it may drop reports (it is called for every item).
type Reporter func(Event)

func (r Reporter) report(e Event) {
	if r != nil {
		r(e)
	}
}
