// Package upload is Quarry's media library: Strapi v4's upload plugin with its local and
// aws-s3 providers. It names received files as Strapi does (hash = slug of the name + 10 hex
// digits), reads image dimensions and generates the thumbnail and responsive formats, stores
// the files (under the app's public/uploads folder, url /uploads/<hash><ext>, or in an S3
// bucket with the urls Strapi's aws-s3 provider records), and keeps the records in Strapi's
// tables (files, files_related_morphs, upload_folders, files_folder_links), so an existing
// Strapi database's media is served in place.
//
// Writes are all-or-nothing: files are received and processed into staged temporary files,
// stored (uploaded to the bucket; the local provider only names them), the rows are written
// in one transaction, and then the stored files are published (renamed to their final
// names) or, on any error, taken back (temporary files removed, uploaded objects deleted).
package upload

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// APIFolderName is the media library folder content-API uploads go to.
const APIFolderName = "API Uploads"

// Service is the media library of one app.
type Service struct {
	Schema *schemas.Schema
	DB     *database.DB
	Config Config
	Now    func() time.Time
	Log    *slog.Logger
	// Events announces the plugin's writes (media.*, and the entity service's entry.*
	// of files and folders) through the write path's one event step; nil announces none.
	Events *write.Service

	// sem bounds concurrent image processing (a core each), mem the memory it holds (the
	// decoded pixels and the working buffers of the formats, Config.ImageMemory).
	sem     chan struct{}
	mem     *semaphore.Weighted
	semOnce sync.Once
	// reserved, when set (tests), is told what each image reserves of the budget.
	reserved func(n int64)

	rulesOnce sync.Once
	ruleSet   *write.Strings // the body's rules (ParseInfos)

	store storage
}

// New loads the app's upload configuration. The uploads folder is created by the first
// upload.
func New(ctx context.Context, appDir string, s *schemas.Schema, db *database.DB, getenv func(string) string, log *slog.Logger) (*Service, error) {
	cfg, err := LoadConfig(appDir, getenv)
	if err != nil {
		return nil, err
	}
	return NewFromConfig(ctx, cfg, s, db, log)
}

// NewFromConfig builds the service from a configuration already read (ParseConfig). For
// the aws-s3 provider it sets up the S3 client (credentials, region, endpoint); the bucket
// is not contacted.
func NewFromConfig(ctx context.Context, cfg Config, s *schemas.Schema, db *database.DB, log *slog.Logger) (*Service, error) {
	if log == nil {
		log = slog.Default()
	}
	if cfg.Provider == "" {
		cfg.Provider = "local"
	}
	var store storage = localStorage{dir: cfg.Dir}
	if cfg.Unsupported != "" {
		store = unavailableStorage{dir: cfg.Dir, err: cfg.providerUnsupported()}
		log.Warn("upload: the provider is not one Quarry has; the media library is served as stored, and uploads, replaces and deletes of files answer 501 (or go to Strapi with --upstream)", "provider", cfg.Unsupported)
	}
	if cfg.S3 != nil {
		st, err := newS3Storage(ctx, cfg.S3, log)
		if err != nil {
			return nil, err
		}
		store = st
		if len(cfg.S3.Ignored) > 0 {
			log.Warn("upload: aws-s3 options Quarry does not use", "options", cfg.S3.Ignored)
		}
		// In the background: start-up does not wait for the bucket.
		go func() {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s3CleanupTimeout)
			defer cancel()
			n, err := st.abortStale(ctx, time.Now().Add(-staleAge))
			if err != nil {
				log.Warn("upload: aborting unfinished uploads of stopped processes", "err", err)
			} else if n > 0 {
				log.Info("upload: aborted unfinished uploads of stopped processes", "count", n)
			}
		}()
	}
	removeStaleTemps(store.stagingDir(), log)
	return &Service{Schema: s, DB: db, Config: cfg, Now: time.Now, Log: log, store: store}, nil
}

// staleAge is the age of a temporary file or an unfinished multipart upload that no process
// can still be working on (uploads take minutes at most; other servers sharing the folder or
// the bucket keep theirs).
const staleAge = 24 * time.Hour

// removeStaleTemps deletes temporary files a crashed process left in the uploads folder (a
// day old, so that another server sharing the folder keeps its uploads in progress).
func removeStaleTemps(dir string, log *slog.Logger) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".quarry-") {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleAge {
			if err := os.Remove(filepath.Join(dir, e.Name())); err == nil {
				log.Info("removed a stale temporary upload", "file", e.Name())
			}
		}
	}
}

func (s *Service) now() time.Time {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	return now().UTC().Truncate(time.Millisecond)
}

// acquire reserves n bytes of the image memory budget (Config.ImageMemory) and one of the
// image processing slots (half the cores: decoding and resizing keep a core busy), waiting
// while other uploads hold them, for as long as ctx allows (the request's deadline). An
// image needing more than the whole budget is refused.
func (s *Service) acquire(ctx context.Context, n int64) (func(), error) {
	s.semOnce.Do(func() {
		s.sem = make(chan struct{}, max(1, runtime.NumCPU()/2))
		s.mem = semaphore.NewWeighted(s.Config.imageMemory())
	})
	if s.reserved != nil {
		s.reserved(n)
	}
	if n > s.Config.imageMemory() {
		return nil, errImageBudget(s.Config.imageMemory())
	}
	if err := s.mem.Acquire(ctx, n); err != nil {
		return nil, fmt.Errorf("waiting for image memory: %w", err)
	}
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		s.mem.Release(n)
		return nil, fmt.Errorf("waiting to process an image: %w", ctx.Err())
	}
	return func() {
		<-s.sem
		s.mem.Release(n)
	}, nil
}

// imageWork bounds the memory processing an image allocates, from its header: the decoded
// pixels, the shrunk copy (k > 1), the formats, the quality scaler's buffer for each (32
// bytes per pixel of the format's width times its source's height) and the encoders'
// buffers. All of it, not only what is live at once: the collector frees nothing before
// its next cycle, so until then the process holds that much.
func imageWork(ii *imageInfo, k int, formats []formatSize) int64 {
	n := ii.decoded + 1<<20
	baseW, baseH := ii.width, ii.height
	if k > 1 {
		baseW, baseH = ii.width/k, ii.height/k
		n += int64(baseW) * int64(baseH) * 4
	}
	if ii.deep {
		n += ii.decoded // re-encoding it (sizeOptimization) reads it through At
	}
	var biggest int64
	for i, from := range formatSources(formats) {
		f := formats[i]
		srcH := baseH
		if from >= 0 {
			srcH = formats[from].h
		}
		px := int64(f.w) * int64(f.h)
		n += px*8 + int64(f.w)*int64(srcH)*32 // the format (at most 16-bit RGBA), the scaler's buffer
		if ii.deep {
			n += px * 8 // its encoding reads it through At
		}
		biggest = max(biggest, px)
	}
	return n + biggest*16
}

// formatSources says what each format is made from: the index of the smallest format before
// it that is at least twice as large (the result is indistinguishable and much cheaper),
// else -1, the (shrunk) image.
func formatSources(formats []formatSize) []int {
	from := make([]int, len(formats))
	for i, f := range formats {
		from[i] = -1
		for j := range i {
			if formats[j].w >= 2*f.w && formats[j].h >= 2*f.h {
				from[i] = j
			}
		}
	}
	return from
}

// FileInfo is the client's information about one file (the `fileInfo` field). A nil field
// was not given or null; Has* tell a null apart from an absent key.
type FileInfo struct {
	Name, AlternativeText, Caption       *string
	HasAlternativeText, HasCaption, Seen bool
}

// Target attaches uploaded files to a media attribute of an entry (ref, refId, field).
type Target struct {
	Ref   string // content-type uid (api::article.article) or component uid (shared.seo)
	RefID string
	Field string
}

// UploadRequest is one POST /api/upload (or GraphQL upload/multipleUpload).
type UploadRequest struct {
	Files  []*Incoming
	Infos  []FileInfo // by position; missing entries mean no information
	Target *Target
	// NoFolder files nothing in the "API Uploads" folder (folderPath "/"): the upload
	// service's upload() as the project's code calls it, where the plugin's content-API
	// controller is what puts files there.
	NoFolder bool
}

// Stage receives a file from a reader (GraphQL's Upload scalar, or any caller that does not
// go through ReadForm) into a temporary file; the caller discards it when done.
func (s *Service) Stage(r io.Reader, filename, declaredMime string) (*Incoming, error) {
	if err := os.MkdirAll(s.storage().stagingDir(), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(s.storage().stagingDir(), ".quarry-upload-*")
	if err != nil {
		return nil, err
	}
	in := &Incoming{Field: "files", Filename: filename, Declared: declaredMime, path: f.Name()}
	n, err := io.Copy(f, io.LimitReader(r, s.Config.MaxFileBytes+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > s.Config.MaxFileBytes {
		err = ErrFileTooBig
	}
	if err != nil {
		in.Discard()
		return nil, err
	}
	in.Size = n
	return in, nil
}

// ---- preparing files ----

// format is one entry of a file's formats, with Strapi's keys.
type format struct {
	Ext         string  `json:"ext"`
	URL         string  `json:"url"`
	Hash        string  `json:"hash"`
	Mime        string  `json:"mime"`
	Name        string  `json:"name"`
	Path        *string `json:"path"`
	Size        float64 `json:"size"`
	Width       int     `json:"width"`
	Height      int     `json:"height"`
	SizeInBytes int64   `json:"sizeInBytes"`
}

// prepared is a processed file ready to be recorded: its row values and the staged
// objects (the file and its formats) to store.
type prepared struct {
	name, hash, ext, mime string
	info                  FileInfo
	width, height         *int
	formats               map[string]*format // nil: NULL; empty: {}
	size                  float64
	url                   string // set when stored
	objects               []staged
	stored                []object // objects put so far
	temps                 []string // every temporary file made while processing
}

// staged is an object to store and the format it is ("" for the file itself), whose url
// the store sets.
type staged struct {
	object
	format string
}

func (p *prepared) cleanup() {
	for _, t := range p.temps {
		os.Remove(t)
	}
}

func (s *Service) tempFile() (*os.File, error) {
	return os.CreateTemp(s.storage().stagingDir(), ".quarry-format-*")
}

// prepare validates and processes one received file: name, type, size limit, dimensions,
// optimization and formats. keepHash/keepExt are set when replacing a file.
func (s *Service) prepare(ctx context.Context, in *Incoming, info FileInfo, keepHash, keepExt string) (*prepared, error) {
	if !validFilename(in.Filename) {
		return nil, apierror.Application("File name contains invalid characters")
	}
	head, err := readHead(in.path)
	if err != nil {
		return nil, err
	}
	mimeType, sniffed, err := resolveMime(in.Declared, in.Filename, head)
	if err != nil {
		return nil, err
	}
	ext := extName(in.Filename)
	if ext == "" {
		ext = "." + extensionFor(mimeType)
	}
	used := in.Filename
	if info.Name != nil && *info.Name != "" {
		used = *info.Name
	}
	used = normNFC(used)
	if !validFilename(used) {
		return nil, apierror.Application("File name contains invalid characters")
	}
	// The received file is the batch's to remove once it is moved or not needed.
	p := &prepared{name: used, ext: ext, mime: mimeType, info: info, size: KB(in.Size), temps: []string{in.path}}
	if keepHash != "" {
		p.hash, p.ext = keepHash, keepExt
	} else {
		p.hash = newHash(baseName(used, ext))
	}
	if int64(p.size*1000) > s.Config.SizeLimit {
		return nil, &apierror.Error{Status: 413, Name: "PayloadTooLargeError",
			Message: fmt.Sprintf("%s exceeds size limit of %s.", used, humanBytes(s.Config.SizeLimit))}
	}
	ok := false
	defer func() {
		if !ok {
			p.cleanup()
		}
	}()
	mainPath := in.path
	if err := s.processImage(ctx, p, &mainPath, sniffed, keepHash != ""); err != nil {
		return nil, err
	}
	p.objects = append(p.objects, staged{object: object{hash: p.hash, ext: p.ext, mime: p.mime, tmp: mainPath}})
	ok = true
	return p, nil
}

func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 3072)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}

// processImage records an image's dimensions, optimizes it and generates its formats.
// replacing mirrors Strapi's replace, which records formats as {} for a non-image.
// writeTemp writes a derived image into a new temporary file of the upload (removed by
// cleanup unless moved into place) and reports its name and size.
func (s *Service) writeTemp(ctx context.Context, p *prepared, write func(io.Writer) error) (string, int64, error) {
	f, err := s.tempFile()
	if err != nil {
		return "", 0, err
	}
	p.temps = append(p.temps, f.Name())
	bw := bufio.NewWriter(ctxWriter{ctx, f})
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	st, serr := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || serr != nil {
		return "", 0, errors.Join(err, serr)
	}
	return f.Name(), st.Size(), nil
}

func (s *Service) processImage(ctx context.Context, p *prepared, mainPath *string, sniffed string, replacing bool) error {
	if replacing {
		p.formats = map[string]*format{}
	}
	ii, err := probe(*mainPath, sniffed)
	if err != nil || ii == nil {
		return err
	}
	w, h := ii.width, ii.height
	p.width, p.height = &w, &h
	if !ii.resizable() {
		return nil
	}
	// The formats, largest first (the thumbnail last), with their sizes.
	var formats []formatSize
	if s.Config.ResponsiveDimensions {
		for _, k := range breakpointsInOrder(s.Config.Breakpoints) {
			bp := s.Config.Breakpoints[k]
			if bp < w || bp < h {
				tw, th := fitInside(w, h, bp, bp)
				formats = append(formats, formatSize{k, tw, th})
			}
		}
	}
	if w > thumbWidth || h > thumbHeight {
		tw, th := fitInside(w, h, thumbWidth, thumbHeight)
		formats = append(formats, formatSize{"thumbnail", tw, th})
	}
	optimizing := s.Config.SizeOptimization && (ii.format == "jpeg" || ii.format == "png")
	if len(formats) == 0 && !optimizing {
		return nil
	}
	// The formats are made from the image box-averaged down to about twice the largest
	// (shrink), the smaller ones from a larger format where that is at least twice as large.
	k := 1
	if len(formats) > 0 {
		big := slices.MaxFunc(formats, func(a, b formatSize) int { return a.w - b.w })
		k = shrinkFactor(w, h, big.w, big.h)
	}
	release, err := s.acquire(ctx, imageWork(ii, k, formats))
	if err != nil {
		return err
	}
	defer release()
	src, err := decode(ctx, *mainPath)
	if err != nil {
		return err
	}
	if optimizing {
		name, size, err := s.writeTemp(ctx, p, func(w io.Writer) error { return optimize(w, src, ii.format) })
		if err != nil {
			return err
		}
		orig, err := os.Stat(*mainPath)
		if err != nil {
			return err
		}
		if size < orig.Size() {
			*mainPath = name
			p.size = KB(size)
		}
	}
	if len(formats) == 0 {
		return nil
	}
	if p.formats == nil {
		p.formats = map[string]*format{}
	}
	like := blank(src)
	base := src
	if k > 1 {
		if base, err = shrink(ctx, src, k); err != nil {
			return err
		}
	}
	// From here the decoded pixels are garbage (unless base is them): the formats are
	// made from base.
	made := make([]image.Image, len(formats))
	for i, from := range formatSources(formats) {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("making image formats: %w", err)
		}
		f := formats[i]
		m := base
		if from >= 0 {
			m = made[from]
		}
		out := resize(m, like, f.w, f.h)
		made[i] = out
		name, size, err := s.writeTemp(ctx, p, func(w io.Writer) error { return encode(w, out, ii.format, like) })
		if err != nil {
			return err
		}
		hash := f.key + "_" + p.hash
		p.formats[f.key] = &format{Ext: p.ext, Hash: hash, Mime: p.mime,
			Name: f.key + "_" + p.name, Size: KB(size), Width: f.w, Height: f.h, SizeInBytes: size}
		p.objects = append(p.objects, staged{object: object{hash: hash, ext: p.ext, mime: p.mime, tmp: name}, format: f.key})
	}
	return nil
}

// formatSize is a format to make (its key) and its size.
type formatSize struct {
	key  string
	w, h int
}

// ---- database ----

type dbtx struct {
	ctx context.Context
	tx  *sqlx.Tx
	d   sqlgen.Dialect
	db  *database.DB
}

// commit commits through the database, which records the tables written (DB.Commit).
func (t dbtx) commit() error { return t.db.Commit(t.ctx, t.tx) }

// bind converts a statement's values for the driver, in place: each rendered statement
// owns its values.
func (t dbtx) bind(s sqlgen.Stmt) []any {
	for i, a := range s.Args {
		s.Args[i] = t.d.Bind(a)
	}
	return s.Args
}

func (t dbtx) exec(s sqlgen.Stmt) error {
	_, err := t.tx.ExecContext(t.ctx, s.SQL, t.bind(s)...)
	return err
}

func (t dbtx) get(dest any, s sqlgen.Stmt) error {
	return t.tx.QueryRowxContext(t.ctx, s.SQL, t.bind(s)...).Scan(dest)
}

// scan reads the one row of s into dest.
func (t dbtx) scan(s sqlgen.Stmt, dest ...any) error {
	return t.tx.QueryRowxContext(t.ctx, s.SQL, t.bind(s)...).Scan(dest...)
}

// insertID inserts a row and returns its id, however the engine reports it.
func (t dbtx) insertID(s sqlgen.InsertStmt) (int64, error) {
	t.bind(s.Stmt)
	return database.InsertID(t.ctx, t.tx, s)
}

func (s *Service) begin(ctx context.Context) (dbtx, error) {
	tx, err := s.DB.BeginTxx(ctx, nil)
	if err != nil {
		return dbtx{}, fmt.Errorf("begin: %w", err)
	}
	return dbtx{ctx: ctx, tx: tx, d: s.DB.Dialect, db: s.DB}, nil
}

func jsonValue(v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

func (s *Service) formatsValue(f map[string]*format) (any, error) {
	if f == nil {
		return nil, nil
	}
	return jsonValue(f)
}

// insertFile writes one files row with its folder link and returns its id.
func (s *Service) insertFile(t dbtx, p *prepared, folderID int64, folderPath string, now time.Time) (int64, error) {
	formats, err := s.formatsValue(p.formats)
	if err != nil {
		return 0, err
	}
	id, err := t.insertID(sqlgen.FileInsert(t.d, sqlgen.FileRow{Name: p.name, AlternativeText: p.info.AlternativeText,
		Caption: p.info.Caption, Width: p.width, Height: p.height, Formats: formats, Hash: p.hash, Ext: p.ext, Mime: p.mime,
		Size: p.size, URL: p.url, Provider: s.Config.Provider, FolderPath: folderPath, Now: now}))
	if err != nil {
		return 0, fmt.Errorf("insert file: %w", err)
	}
	if folderID == 0 {
		return id, nil // in no folder
	}
	var order float64
	if err := t.get(&order, sqlgen.FolderFilesMaxOrder(t.d, folderID)); err != nil {
		return 0, err
	}
	if err := t.exec(sqlgen.FolderFileLink(t.d, id, folderID, order+1)); err != nil {
		return 0, fmt.Errorf("link file to folder: %w", err)
	}
	return id, nil
}

// tableExists reports whether a table is there (Strapi's store table exists in databases
// Strapi created; Quarry uses it when present).
func (t dbtx) tableExists(name string) (bool, error) {
	var n int
	err := t.get(&n, sqlgen.TableExists(t.d, name))
	return n > 0, err
}

const apiFolderKey = "plugin_upload_api-folder"

// apiFolder finds or creates the "API Uploads" folder content-API uploads are filed in, as
// Strapi's api-upload-folder service does (its id is kept in the core store when the
// database has Strapi's store table).
func (s *Service) apiFolder(t dbtx, now time.Time) (id int64, path string, created bool, err error) {
	// Two uploads must not both create it: the lock on the folder's name (where the engine
	// does not serialize writers already) holds the second until the first commits.
	for _, l := range sqlgen.UniqueLocks(t.d, []sqlgen.UniqueKey{{Table: sqlgen.FoldersTable, Column: "name", Value: APIFolderName}}) {
		if err := t.exec(l); err != nil {
			return 0, "", false, err
		}
	}
	hasStore, err := t.tableExists(sqlgen.CoreStoreTable)
	if err != nil {
		return 0, "", false, err
	}
	if hasStore {
		var raw string
		err := t.get(&raw, sqlgen.StoreGet(t.d, apiFolderKey))
		if err != nil && !isNoRows(err) {
			return 0, "", false, err
		}
		var v struct {
			ID int64 `json:"id"`
		}
		if err == nil && json.Unmarshal([]byte(raw), &v) == nil && v.ID > 0 {
			err := t.get(&path, sqlgen.FolderPath(t.d, v.ID))
			if err == nil {
				return v.ID, path, false, nil
			}
			if !isNoRows(err) {
				return 0, "", false, err
			}
		}
	} else {
		err := t.scan(sqlgen.RootFolderByName(t.d, APIFolderName), &id, &path)
		if err == nil {
			return id, path, false, nil
		}
		if !isNoRows(err) {
			return 0, "", false, err
		}
	}
	// Create it, with a name no other root folder has.
	name := APIFolderName
	for i := 1; ; i++ {
		var n int
		if err := t.get(&n, sqlgen.RootFolderCount(t.d, name)); err != nil {
			return 0, "", false, err
		}
		if n == 0 {
			break
		}
		name = fmt.Sprintf("%s (%d)", APIFolderName, i)
	}
	var maxPathID int64
	if err := t.get(&maxPathID, sqlgen.FolderMaxPathID(t.d)); err != nil {
		return 0, "", false, err
	}
	pathID := maxPathID + 1
	path = "/" + strconv.FormatInt(pathID, 10)
	if id, err = t.insertID(sqlgen.FolderInsert(t.d, name, pathID, path, now)); err != nil {
		return 0, "", false, fmt.Errorf("create upload folder: %w", err)
	}
	if hasStore {
		err := t.exec(sqlgen.StoreDelete(t.d, apiFolderKey))
		if err == nil {
			err = t.exec(sqlgen.StoreInsert(t.d, apiFolderKey, fmt.Sprintf(`{"id":%d}`, id), "object"))
		}
		if err != nil {
			return 0, "", false, fmt.Errorf("record the API upload folder: %w", err)
		}
	}
	return id, path, true, nil
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// ---- storing files ----

// put stores the staged objects of ps (at most four at once) and sets their urls. The
// objects stored are listed in each prepared's stored, for publish or unput.
func (s *Service) put(ctx context.Context, ps []*prepared) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	var mu sync.Mutex
	for _, p := range ps {
		for _, o := range p.objects {
			g.Go(func() error {
				url, err := s.storage().put(gctx, o.object)
				if err != nil {
					return err
				}
				mu.Lock()
				defer mu.Unlock()
				p.stored = append(p.stored, o.object)
				if o.format == "" {
					p.url = url
				} else {
					p.formats[o.format].URL = url
				}
				return nil
			})
		}
	}
	return g.Wait()
}

// publish makes the stored objects of ps visible (after their rows committed).
func (s *Service) publish(ps []*prepared) error {
	var errs []error
	for _, p := range ps {
		for _, o := range p.stored {
			errs = append(errs, s.storage().publish(o))
		}
	}
	return errors.Join(errs...)
}

// unput takes back the stored objects of ps but those keep names (the objects of a
// replaced file that its new content overwrote). It runs on a failed write, when the
// request's context may be gone, so it has its own.
func (s *Service) unput(ctx context.Context, ps []*prepared, keep map[string]bool) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s3CleanupTimeout)
	defer cancel()
	for _, p := range ps {
		for _, o := range p.stored {
			if keep[o.path+"/"+o.hash+o.ext] {
				continue
			}
			if err := s.storage().unput(ctx, o); err != nil {
				s.Log.Error("upload: taking back a file of a failed write", "file", o.hash+o.ext, "err", err)
			}
		}
		p.stored = nil
	}
}

// removeStored deletes the stored objects of a record: the file and its formats.
func (s *Service) removeStored(ctx context.Context, objs []object) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s3CleanupTimeout)
	defer cancel()
	for _, o := range objs {
		if err := s.storage().remove(ctx, o); err != nil {
			s.Log.Warn("remove uploaded file", "file", o.hash+o.ext, "err", err)
		}
	}
}

// objects lists the stored objects of a record.
func (st *stored) objects() []object {
	out := []object{{hash: st.Hash, ext: deref(st.Ext)}}
	for _, f := range st.Formats {
		if f.Hash != "" {
			out = append(out, object{hash: f.Hash, ext: f.Ext, path: f.Path})
		}
	}
	return out
}

// storedFormat is what removal needs of a stored format.
type storedFormat struct {
	Hash string `json:"hash"`
	Ext  string `json:"ext"`
	Path string `json:"path"`
}

// safeName accepts a plain file name of the uploads folder (no folders, no dot files).
func safeName(n string) bool {
	return n != "" && !strings.HasPrefix(n, ".") && !strings.ContainsAny(n, `/\`) && n != ".."
}

// ErrNoSuchFile is Open's answer for a name that is not a stored file.
var ErrNoSuchFile = errors.New("upload: no such file")

// Open opens a stored file of the uploads folder by its name (as in /uploads/<name>). Only
// plain file names are served: no folders, no dot files (temporary files start with a dot).
func (s *Service) Open(name string) (*os.File, os.FileInfo, error) {
	if !safeName(name) {
		return nil, nil, ErrNoSuchFile
	}
	f, err := os.Open(filepath.Join(s.Config.Dir, name))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
			return nil, nil, ErrNoSuchFile
		}
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = ErrNoSuchFile
		}
		return nil, nil, err
	}
	return f, st, nil
}

// Related is one entry a file is attached to.
type Related = exec.Related

// Related reads the entries the files are attached to (exec.FileRelated).
func (s *Service) Related(ctx context.Context, db exec.Queryer, fileIDs []int64, canFind func(uid string) bool, fields []string) (map[int64][]*Related, error) {
	return exec.FileRelated(ctx, db, s.DB.Dialect, s.Schema, fileIDs, canFind, fields)
}
