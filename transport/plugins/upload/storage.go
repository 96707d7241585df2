package upload

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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

// storage is the service's store (the local provider for a Service built without
// NewFromConfig).
func (s *Service) storage() storage {
	if s.store == nil {
		return localStorage{dir: s.Config.Dir}
	}
	return s.store
}
