package upload

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/quarrycms/quarry/ir/apierror"
)

// object is one stored file of a record: the file itself or one of its formats. Its place in
// the store is named by hash, ext and (for formats Strapi stored with one) path.
type object struct {
	hash, ext, path, mime string
	// tmp is the staged content of an object being stored ("" for one only removed).
	tmp  string
	size int64
}

// storage is where a provider keeps files. A write goes: put every object (before the rows
// are written: the url comes from there), then either publish them once the transaction
// committed, or unput them when it did not. Both providers fit: the local one renames
// staged files into place on publish, the aws-s3 one uploads on put and deletes on unput,
// so that nothing is left behind by a failed write either way.
type storage interface {
	// stagingDir is where received and derived files wait while they are processed.
	stagingDir() string
	// put stores o (or prepares it to be stored) and returns its url.
	put(ctx context.Context, o object) (string, error)
	// unput takes back a put whose row was not written.
	unput(ctx context.Context, o object) error
	// publish makes a put object visible once its row is committed.
	publish(o object) error
	// remove deletes the stored object of a row that is gone, or a format a replace dropped.
	remove(ctx context.Context, o object) error
}

// localStorage is Strapi's local provider: files in the uploads folder, served at
// /uploads/<hash><ext>. Staged files live in the same folder (as dot files), so that
// publishing is an atomic rename.
type localStorage struct{ dir string }

func (l localStorage) stagingDir() string { return l.dir }

func (l localStorage) put(_ context.Context, o object) (string, error) {
	return "/uploads/" + o.hash + o.ext, nil
}

func (l localStorage) unput(context.Context, object) error { return nil }

func (l localStorage) publish(o object) error {
	return os.Rename(o.tmp, filepath.Join(l.dir, o.hash+o.ext))
}

func (l localStorage) remove(_ context.Context, o object) error {
	n := o.hash + o.ext
	if !safeName(n) {
		return nil
	}
	if err := os.Remove(filepath.Join(l.dir, n)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// providerUnsupported is the answer to a write that would store or delete a file with a
// provider Quarry does not have.
func (c Config) providerUnsupported() error {
	msg := fmt.Sprintf("the upload provider %q is not one Quarry has (local and aws-s3 are): storing and deleting files is served by Strapi beside Quarry (quarry serve --upstream)", c.Unsupported)
	if c.UnsupportedWhy != "" {
		msg = "the upload provider cannot store files: " + c.UnsupportedWhy
	}
	return &apierror.Error{Status: 501, Name: "NotImplementedError", Message: msg}
}

// stores refuses a write that stores or deletes files when the provider is one Quarry does
// not have, before anything is written.
func (s *Service) stores() error {
	if s.Config.Unsupported != "" {
		return s.Config.providerUnsupported()
	}
	return nil
}

// unavailableStorage stands for a provider Quarry does not have: every write reaching it
// fails (the service refuses them before, with stores).
type unavailableStorage struct {
	dir string
	err error
}

func (u unavailableStorage) stagingDir() string                          { return u.dir }
func (u unavailableStorage) put(context.Context, object) (string, error) { return "", u.err }
func (u unavailableStorage) unput(context.Context, object) error         { return nil }
func (u unavailableStorage) publish(object) error                        { return u.err }
func (u unavailableStorage) remove(context.Context, object) error        { return u.err }

// storage is the service's store (the local provider for a Service built without
// NewFromConfig).
func (s *Service) storage() storage {
	if s.store == nil {
		return localStorage{dir: s.Config.Dir}
	}
	return s.store
}
