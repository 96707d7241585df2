package transfer

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/plugins/upload"
	"github.com/quarrycms/quarry/transport/transfer/archive"
)

// Import replaces the content of a database with an archive's, as `strapi import` 4.26 does
// with its "restore" strategy:
//
//   - the archive's schemas must match the project's (Force imports anyway, leaving out the
//     types and attributes the project does not have);
//   - every content type's entries (the plugins' ones too: users, roles, files, folders,
//     locales; not the admin's) are deleted, and with them their components and links;
//   - the archive's entries are created in its order, each with new ids from the database's
//     sequences, as Strapi creates them (on an empty database they are numbered 1, 2, ... per
//     type in archive order), components first; links are then made between the new ids;
//   - files are stored with the configured upload provider and their rows point at them;
//   - the core store and the webhooks are replaced by the archive's.
//
// Everything in the database happens in one transaction: a failure or an interruption
// leaves it as it was, and the files stored so far are taken back. The archive is streamed:
// memory holds one entry at a time and the map of old to new ids.
type Import struct {
	DB     *database.DB
	Schema *schemas.Schema
	// Files is the media library (nil: the upload plugin is off; files are not imported).
	Files  *upload.Service
	Log    *slog.Logger
	Report Reporter
	Filter Filter
	Force  bool
}

// Result counts what an import or export moved, per stage.
type Result struct {
	Counts   map[string]int64
	Bytes    map[string]int64
	Warnings []string
	// Diffs are the schema differences an import went past with Force.
	Diffs []Diff
}

func newResult() *Result { return &Result{Counts: map[string]int64{}, Bytes: map[string]int64{}} }

// scan is what the first pass over an archive learns: its schemas, what each stage holds, and
// whether one more pass can import it (every entity before any link or file).
type scan struct {
	meta    *archive.Metadata
	schemas map[string]*archiveSchema
	lines   map[string]int64
	assets  int64
	bytes   int64
	ordered bool
}

func (im *Import) scan(ctx context.Context, a *archive.Archive) (*scan, error) {
	sc := &scan{schemas: map[string]*archiveSchema{}, lines: map[string]int64{}}
	pos, lastEntity, firstAfter := 0, -1, -1
	err := a.Walk(ctx, func(e *archive.Entry) error {
		pos++
		switch {
		case e.Name == archive.MetadataFile:
			md := &archive.Metadata{}
			if err := json.NewDecoder(io.LimitReader(e, 1<<20)).Decode(md); err != nil {
				return fmt.Errorf("%w: metadata.json: %v", archive.ErrInvalid, err)
			}
			sc.meta = md
		case e.IsJSONL(archive.Schemas):
			return archive.Lines(e, func(raw json.RawMessage) error {
				var s archiveSchema
				if err := json.Unmarshal(raw, &s); err != nil || s.UID == "" {
					return fmt.Errorf("%w: %s: a schema line without a uid", archive.ErrInvalid, e.Name)
				}
				sc.schemas[s.UID] = &s
				return nil
			})
		case e.IsJSONL(archive.Entities), e.IsJSONL(archive.Links), e.IsJSONL(archive.Configuration):
			d := e.Dir()
			if d == archive.Entities {
				lastEntity = pos
			} else if d == archive.Links && firstAfter < 0 {
				firstAfter = pos
			}
			n, err := countLines(e)
			sc.lines[d] += n
			return err
		case strings.HasPrefix(e.Name, "assets/uploads/"):
			if firstAfter < 0 {
				firstAfter = pos
			}
			sc.assets++
			sc.bytes += e.Size
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if sc.meta == nil {
		return nil, fmt.Errorf("%s: %w (no %s)", a.Path, archive.ErrInvalid, archive.MetadataFile)
	}
	if len(sc.schemas) == 0 {
		return nil, fmt.Errorf("%s: %w (no schemas)", a.Path, archive.ErrInvalid)
	}
	sc.ordered = firstAfter < 0 || lastEntity < firstAfter
	return sc, nil
}

func countLines(r io.Reader) (int64, error) {
	buf := make([]byte, 64<<10)
	var n int64
	last := byte('\n')
	for {
		k, err := r.Read(buf)
		if k > 0 {
			n += int64(bytes.Count(buf[:k], []byte{'\n'}))
			last = buf[k-1]
		}
		if err == io.EOF {
			if last != '\n' {
				n++
			}
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// run is one import in progress.
type run struct {
	im    *Import
	ctx   context.Context
	tx    *sqlx.Tx
	d     sqlgen.Dialect
	res   *Result
	ids   map[string]map[int64]int64 // uid -> archive id -> new id
	stage *upload.Stager
	// assetMeta holds assets/metadata/<name>.json until its file comes.
	assetMeta map[string][]byte
	// links are the link rows waiting to be inserted, per table.
	links   map[string]*linkBatch
	linkErr error
	// prepared keeps the transaction's statements by text: an import runs the same few
	// shapes of INSERT many times, and preparing each anew costs SQLite more than running it.
	prepared map[string]*sql.Stmt
	// progress per stage
	totals map[string]int64
	done   map[string]int64
	bytes  int64
	tbytes int64
}

type linkBatch struct {
	cols []string
	rows [][]any
}

// Run imports the archive.
func (im *Import) Run(ctx context.Context, a *archive.Archive) (*Result, error) {
	if err := im.Filter.Check(); err != nil {
		return nil, err
	}
	if im.Log == nil {
		im.Log = slog.New(slog.DiscardHandler)
	}
	im.Report.report(Event{Stage: "scan", Total: -1})
	sc, err := im.scan(ctx, a)
	if err != nil {
		return nil, err
	}
	im.Report.report(Event{Stage: "scan", Finished: true})
	res := newResult()
	if diffs := compareSchemas(im.Schema, sc.schemas); len(diffs) > 0 {
		if !im.Force {
			return nil, &SchemaError{Diffs: diffs}
		}
		res.Diffs = diffs
	}
	r := &run{im: im, ctx: ctx, d: im.DB.Dialect, res: res, ids: map[string]map[int64]int64{},
		assetMeta: map[string][]byte{}, links: map[string]*linkBatch{},
		totals: map[string]int64{archive.Entities: sc.lines[archive.Entities], archive.Links: sc.lines[archive.Links],
			archive.Configuration: sc.lines[archive.Configuration], archive.Assets: sc.assets},
		done: map[string]int64{}, tbytes: sc.bytes}
	content, files, config := im.Filter.Includes(GroupContent), im.Filter.Includes(GroupFiles) && im.Files != nil, im.Filter.Includes(GroupConfig)
	if im.Filter.Includes(GroupFiles) && im.Files == nil && sc.assets > 0 {
		res.Warnings = append(res.Warnings, "the upload plugin is disabled: the archive's files are not imported")
	}
	if files {
		r.stage = im.Files.Stager()
	}
	r.tx, err = im.DB.BeginTxx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			r.tx.Rollback()
			if r.stage != nil {
				r.stage.Discard(ctx, nil)
			}
		}
	}()
	var oldFiles []upload.Object
	if files && content {
		if oldFiles, err = r.storedFiles(); err != nil {
			return nil, err
		}
	}
	if err := r.clear(content, config); err != nil {
		return nil, err
	}
	stages := map[string]bool{archive.Entities: content, archive.Links: content, archive.Assets: files, archive.Configuration: config}
	walk := func(want map[string]bool) error {
		return a.Walk(ctx, func(e *archive.Entry) error { return r.entry(e, want) })
	}
	if sc.ordered {
		err = walk(stages)
	} else {
		// Entities first, in a pass of their own, then what refers to them.
		err = walk(map[string]bool{archive.Entities: content, archive.Configuration: config})
		if err == nil {
			err = walk(map[string]bool{archive.Assets: files, archive.Links: content})
		}
	}
	if err == nil {
		err = r.flushLinks()
	}
	if err != nil {
		return nil, err
	}
	for _, s := range []string{archive.Entities, archive.Assets, archive.Links, archive.Configuration} {
		if stages[s] {
			r.report(s, true)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := im.DB.Commit(ctx, r.tx); err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	committed = true
	if r.stage != nil {
		keep := r.stage.Names()
		if err := r.stage.Publish(); err != nil {
			res.Warnings = append(res.Warnings, "publishing the imported files: "+err.Error())
		}
		var gone []upload.Object
		for _, o := range oldFiles {
			if !keep[o.Key()] {
				gone = append(gone, o)
			}
		}
		im.Files.RemoveObjects(context.WithoutCancel(ctx), gone)
	}
	return res, nil
}

func (r *run) report(stage string, finished bool) {
	ev := Event{Stage: stage, Done: r.done[stage], Total: r.totals[stage], Finished: finished}
	if stage == archive.Assets {
		ev.Bytes, ev.TotalBytes = r.bytes, r.tbytes
	}
	r.im.Report.report(ev)
}

// entry handles one file of the archive for the stages wanted.
func (r *run) entry(e *archive.Entry, want map[string]bool) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	switch {
	case e.IsJSONL(archive.Entities) && want[archive.Entities]:
		return archive.Lines(e, r.entity)
	case e.IsJSONL(archive.Links) && want[archive.Links]:
		return archive.Lines(e, r.link)
	case e.IsJSONL(archive.Configuration) && want[archive.Configuration]:
		return archive.Lines(e, r.config)
	case strings.HasPrefix(e.Name, "assets/metadata/") && want[archive.Assets]:
		if e.Size > 4<<20 {
			return fmt.Errorf("%w: %s: %d bytes of metadata", archive.ErrInvalid, e.Name, e.Size)
		}
		b, err := io.ReadAll(e)
		if err != nil {
			return err
		}
		r.assetMeta[strings.TrimSuffix(strings.TrimPrefix(e.Name, "assets/metadata/"), ".json")] = b
	case strings.HasPrefix(e.Name, "assets/uploads/") && want[archive.Assets]:
		return r.asset(e)
	}
	return nil
}

// ---- deleting what the import replaces ----

// storedFiles lists the stored objects of the files the import deletes, to remove them from
// the provider once the import committed (those the archive stores again are kept).
func (r *run) storedFiles() ([]upload.Object, error) {
	var out []upload.Object
	var after int64
	for {
		rows, err := r.query(sqlgen.RowsAfter(r.d, "files", []string{"id", "hash", "ext", "formats"}, after, 1000))
		if err != nil {
			return nil, fmt.Errorf("read files: %w", err)
		}
		n := 0
		for rows.Next() {
			var id int64
			var hash, ext, formats nullString
			if err := rows.Scan(&id, &hash, &ext, &formats); err != nil {
				rows.Close()
				return nil, err
			}
			n++
			after = id
			out = append(out, upload.Object{Hash: hash.s, Ext: ext.s})
			var fm map[string]struct {
				Hash string  `json:"hash"`
				Ext  string  `json:"ext"`
				Path *string `json:"path"`
			}
			if json.Unmarshal([]byte(formats.s), &fm) == nil {
				for _, f := range fm {
					o := upload.Object{Hash: f.Hash, Ext: f.Ext}
					if f.Path != nil {
						o.Path = *f.Path
					}
					out = append(out, o)
				}
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
		if n < 1000 {
			return out, nil
		}
	}
}

// nullString scans a text, JSON or NULL column as a string ("" for NULL).
type nullString struct{ s string }

func (n *nullString) Scan(v any) error {
	switch x := v.(type) {
	case nil:
		n.s = ""
	case string:
		n.s = x
	case []byte:
		n.s = string(x)
	default:
		n.s = fmt.Sprint(x)
	}
	return nil
}

// clear deletes what the import replaces: every content table's rows (when the content is
// imported) and the core store and webhooks (when the configuration is).
func (r *run) clear(content, config bool) error {
	var tables []string
	if content {
		rows, joins := sqlgen.ContentTables(r.im.Schema)
		tables = append(joins, rows...)
	}
	if config {
		tables = append(tables, sqlgen.WebhooksTable)
	}
	for _, t := range tables {
		if err := r.exec(sqlgen.DeleteAll(r.d, t)); err != nil {
			return fmt.Errorf("empty %s: %w", t, err)
		}
	}
	if config {
		// Quarry's record of its layout stays: it says what a later schema change may drop.
		if err := r.exec(sqlgen.DeleteAllBut(r.d, sqlgen.CoreStoreTable, "key", sqlgen.LayoutKey)); err != nil {
			return fmt.Errorf("empty %s: %w", sqlgen.CoreStoreTable, err)
		}
	}
	return nil
}

// bind converts a statement's values for the driver, in place.
func (r *run) bind(s sqlgen.Stmt) []any {
	for i, a := range s.Args {
		s.Args[i] = r.d.Bind(a)
	}
	return s.Args
}

func (r *run) exec(s sqlgen.Stmt) error {
	if st := r.stmt(s.SQL); st != nil {
		_, err := st.ExecContext(r.ctx, r.bind(s)...)
		return err
	}
	_, err := r.tx.ExecContext(r.ctx, s.SQL, r.bind(s)...)
	return err
}

// stmt returns the prepared statement of a text (nil past the cache's bound: run it
// directly then).
func (r *run) stmt(q string) *sql.Stmt {
	if st, ok := r.prepared[q]; ok {
		return st
	}
	if r.prepared == nil {
		r.prepared = map[string]*sql.Stmt{}
	}
	if len(r.prepared) >= 512 {
		return nil
	}
	st, err := r.tx.PrepareContext(r.ctx, q)
	if err != nil {
		return nil // the statement's own run reports the error
	}
	r.prepared[q] = st
	return st
}

// insertID inserts a row and returns its id.
func (r *run) insertID(s sqlgen.InsertStmt) (int64, error) {
	r.bind(s.Stmt)
	st := r.stmt(s.SQL)
	if st == nil {
		return database.InsertID(r.ctx, r.tx, s)
	}
	if s.ReturnsID {
		var id int64
		err := st.QueryRowContext(r.ctx, s.Args...).Scan(&id)
		return id, err
	}
	res, err := st.ExecContext(r.ctx, s.Args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

func (r *run) query(s sqlgen.Stmt) (*sqlx.Rows, error) {
	return r.tx.QueryxContext(r.ctx, s.SQL, r.bind(s)...)
}
