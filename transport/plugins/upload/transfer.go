package upload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/minio/minio-go/v7"
)

// Object names one stored file (a file or one of its formats) the way Strapi's providers
// name it: <path>/<hash><ext>.
type Object struct {
	Hash, Ext, Path, Mime string
}

func (o Object) object() object { return object{hash: o.Hash, ext: o.Ext, path: o.Path, mime: o.Mime} }

func (o Object) key() string { return o.Path + "/" + o.Hash + o.Ext }

// Valid says whether the object's name can be stored: a plain file name, no folders, no dot
// files (archives are untrusted input).
func (o Object) Valid() bool {
	return o.Hash != "" && safeName(o.Hash+o.Ext) && (o.Path == "" || safeName(o.Path))
}

// Stager stores many files for one data import as one write: Put stages each file (the local
// provider keeps it under a temporary name, the aws-s3 one uploads it), Publish makes them
// visible once the database committed, Discard takes every one back otherwise.
type Stager struct {
	s   *Service
	mu  sync.Mutex
	put []object
}

// Stager starts an import's set of files.
func (s *Service) Stager() *Stager { return &Stager{s: s} }

// ProviderName is upload.config.provider, which Strapi records in each file's row.
func (s *Service) ProviderName() string { return s.Config.Provider }

// Put stores r (size bytes) as o and returns the url Strapi's provider gives it.
func (st *Stager) Put(ctx context.Context, o Object, r io.Reader) (string, error) {
	if !o.Valid() {
		return "", fmt.Errorf("upload: %q is not a file name the uploads can hold", o.Hash+o.Ext)
	}
	dir := st.s.storage().stagingDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, ".quarry-import-*")
	if err != nil {
		return "", err
	}
	ob := o.object()
	ob.tmp = f.Name()
	n, err := io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(ob.tmp)
		return "", err
	}
	ob.size = n
	url, err := st.s.storage().put(ctx, ob)
	if err != nil {
		os.Remove(ob.tmp)
		return "", err
	}
	if _, local := st.s.storage().(localStorage); !local {
		os.Remove(ob.tmp) // uploaded; nothing left to rename
		ob.tmp = ""
	}
	st.mu.Lock()
	st.put = append(st.put, ob)
	st.mu.Unlock()
	return url, nil
}

// Publish makes the stored files visible (the local provider renames them into place).
func (st *Stager) Publish() error {
	var errs []error
	for _, o := range st.put {
		if o.tmp == "" {
			continue
		}
		errs = append(errs, st.s.storage().publish(o))
	}
	st.put = nil
	return errors.Join(errs...)
}

// Discard takes back every file Put stored: temporary files removed, uploaded objects
// deleted (except those named in keep, by Object.Path/Hash+Ext, which existed before).
func (st *Stager) Discard(ctx context.Context, keep map[string]bool) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s3CleanupTimeout)
	defer cancel()
	for _, o := range st.put {
		if o.tmp != "" {
			os.Remove(o.tmp)
			continue
		}
		if keep[o.path+"/"+o.hash+o.ext] {
			continue
		}
		if err := st.s.storage().unput(ctx, o); err != nil {
			st.s.Log.Error("upload: taking back a file of a failed import", "file", o.hash+o.ext, "err", err)
		}
	}
	st.put = nil
}

// Names lists the keys (Object.Path/Hash+Ext) of the files Put stored.
func (st *Stager) Names() map[string]bool {
	out := map[string]bool{}
	for _, o := range st.put {
		out[o.path+"/"+o.hash+o.ext] = true
	}
	return out
}

// Key is the name Stager.Names and Discard's keep use for o.
func (o Object) Key() string { return o.key() }

// RemoveObjects deletes stored files (those of rows an import replaced); a failure is logged.
func (s *Service) RemoveObjects(ctx context.Context, objs []Object) {
	list := make([]object, 0, len(objs))
	for _, o := range objs {
		if o.Valid() {
			list = append(list, o.object())
		}
	}
	s.removeStored(ctx, list)
}

// OpenObject opens a stored file for reading (an export): from the uploads folder, or from
// the bucket. It returns the reader and the size.
func (s *Service) OpenObject(ctx context.Context, o Object) (io.ReadCloser, int64, error) {
	if !o.Valid() {
		return nil, 0, fmt.Errorf("upload: %q is not a stored file name", o.Hash+o.Ext)
	}
	switch st := s.storage().(type) {
	case localStorage:
		name := o.Hash + o.Ext
		if o.Path != "" {
			name = filepath.Join(o.Path, name)
		}
		f, err := os.Open(filepath.Join(st.dir, name))
		if err != nil {
			return nil, 0, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		return f, fi.Size(), nil
	case *s3Storage:
		body, info, _, err := st.client.GetObject(ctx, st.cfg.Bucket, st.key(o.object()), minio.GetObjectOptions{})
		if err != nil {
			return nil, 0, fmt.Errorf("aws-s3: read %s: %w", st.key(o.object()), err)
		}
		return body, info.Size, nil
	}
	return nil, 0, errors.New("upload: the provider cannot be read")
}
