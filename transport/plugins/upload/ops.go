package upload

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// ErrFilesEmpty is Strapi's answer to an upload without files.
var ErrFilesEmpty = apierror.Validation("Files are empty")

// errEntityNotFound is the upload service's NotFoundError (replace, update of a missing id).
func errEntityNotFound() error {
	return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
}

// ParseInfos reads the `fileInfo` field values as Strapi's upload validation (yup) does: one
// JSON object for a single file, a JSON array (or one object per value) for several. Values
// of name, alternativeText and caption may be strings, numbers, booleans or null. The
// checks are planner/write's rules with yup's casts, so errors quote what yup quotes.
func (s *Service) ParseInfos(values []string, multi bool) ([]FileInfo, error) {
	if len(values) == 0 {
		return nil, nil
	}
	rules := s.rules()
	if !multi {
		var v any = values[0]
		if len(values) > 1 {
			list := make([]any, len(values))
			for i, x := range values {
				list[i] = x
			}
			v = list
		}
		obj, err := castInfo(rules, "fileInfo", v, v)
		if err != nil {
			return nil, err
		}
		fi, err := infoFrom(rules, "fileInfo", obj)
		if err != nil {
			return nil, err
		}
		return []FileInfo{fi}, nil
	}
	var items []any
	// origOf is the original yup quotes for an item: for an array cast from one string, the
	// string's character at the item's index (yup indexes the original value).
	origOf := func(i int) any { return items[i] }
	if len(values) == 1 {
		if msg, ok := rules.Check(values[0], true, ruleInfoArray); !ok {
			return nil, fieldError("fileInfo", msg)
		}
		parsed, _ := jsonCast(values[0])
		items = parsed.([]any)
		units := utf16.Encode([]rune(values[0]))
		origOf = func(i int) any {
			if i < len(units) {
				return string(utf16.Decode(units[i : i+1]))
			}
			return nil
		}
	} else {
		for _, v := range values {
			items = append(items, v)
		}
	}
	out := make([]FileInfo, len(items))
	for i, it := range items {
		if it == nil {
			continue
		}
		path := fmt.Sprintf("fileInfo[%d]", i)
		obj, err := castInfo(rules, path, it, origOf(i))
		if err != nil {
			return nil, err
		}
		if out[i], err = infoFrom(rules, path, obj); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rules is the validator of the upload body's rules, built on first use.
func (s *Service) rules() *write.Strings {
	s.rulesOnce.Do(func() { s.ruleSet = write.NewStrings() })
	return s.ruleSet
}

// The upload body's yup schemas: fileInfo is object() (or array().of(object())), which
// parse a JSON string and turn anything else into null.
var (
	ruleInfoObject = write.StringRule{Tag: write.RuleObject.Tag, Type: "object", Cast: objectCast}
	ruleInfoArray  = write.StringRule{Tag: write.RuleArray.Tag, Type: "array", Cast: arrayCast}
)

// jsonCast is the JSON.parse of yup's object and array transforms (null when it fails).
func jsonCast(v any) (any, bool) {
	s, ok := v.(string)
	if !ok {
		return v, false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil || dec.More() {
		return nil, true
	}
	return out, true
}

func objectCast(v any) (any, bool) {
	out, changed := jsonCast(v)
	if _, ok := out.(map[string]any); ok || out == nil {
		return out, changed
	}
	return nil, true
}

func arrayCast(v any) (any, bool) {
	out, changed := jsonCast(v)
	if _, ok := out.([]any); ok || out == nil {
		return out, changed
	}
	return nil, true
}

// castInfo casts one fileInfo value to its object, or answers yup's type error.
func castInfo(rules *write.Strings, path string, v, orig any) (map[string]any, error) {
	if msg, ok := rules.CheckAs(v, orig, ruleInfoObject); !ok {
		return nil, fieldError(path, msg)
	}
	obj, _ := objectCast(v)
	return obj.(map[string]any), nil
}

func infoFrom(rules *write.Strings, path string, obj map[string]any) (FileInfo, error) {
	fi := FileInfo{Seen: true}
	for _, k := range []string{"name", "alternativeText", "caption"} {
		v, present := obj[k]
		if !present {
			continue
		}
		var sp *string
		if v != nil { // nullable
			if msg, ok := rules.Check(v, true, write.RuleStringish); !ok {
				return fi, fieldError(path+"."+k, msg)
			}
			str := fmt.Sprint(v) // a string, json.Number or bool: String() of it
			sp = &str
		}
		switch k {
		case "name":
			fi.Name = sp
		case "alternativeText":
			fi.AlternativeText, fi.HasAlternativeText = sp, true
		case "caption":
			fi.Caption, fi.HasCaption = sp, true
		}
	}
	return fi, nil
}

// fieldError is the upload validation's error: one field's yup message.
func fieldError(path, msg string) error {
	return apierror.Fields([]apierror.FieldError{{Path: splitPath(path), Message: path + " " + msg, Name: "ValidationError"}})
}

func splitPath(p string) []string {
	p = strings.NewReplacer("[", ".", "]", "").Replace(p)
	return strings.Split(p, ".")
}

// target is a resolved Target.
type target struct {
	model *schemas.Model
	attr  *schemas.Attribute
	id    int64
}

// resolveTarget checks ref, refId and field against the schema (the entry's existence is
// checked inside the write transaction). Strapi attaches only when all three are given.
func (s *Service) resolveTarget(tg *Target) (*target, error) {
	if tg == nil || tg.Ref == "" || tg.RefID == "" || tg.Field == "" {
		return nil, nil
	}
	m := s.Schema.Models[tg.Ref]
	if m == nil || m == s.Schema.Files {
		return nil, apierror.Validation("Invalid ref %q: no content type or component has this uid", tg.Ref)
	}
	a, ok := m.Attr(tg.Field)
	if !ok || a.Type != schemas.Media {
		return nil, apierror.Validation("Invalid field %q: %s has no media attribute of that name", tg.Field, tg.Ref)
	}
	id, err := strconv.ParseInt(strings.TrimSpace(tg.RefID), 10, 64)
	if err != nil || id < 1 {
		return nil, apierror.Validation("Invalid refId %q: it must be a positive integer", tg.RefID)
	}
	return &target{model: m, attr: a, id: id}, nil
}

// Upload stores the files of one request in its own transaction and returns the new file
// ids, in order.
func (s *Service) Upload(ctx context.Context, req UploadRequest) ([]int64, error) {
	if err := s.stores(); err != nil {
		return nil, err
	}
	b, err := s.Prepare(ctx, req)
	if err != nil {
		return nil, err
	}
	defer b.Discard()
	t, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	ids, err := b.Record(ctx, t.tx)
	if err != nil {
		t.tx.Rollback()
		return nil, err
	}
	if err := t.commit(); err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	if err := b.Commit(ctx); err != nil {
		return nil, err
	}
	return ids, b.Announce(ctx)
}

// Batch is a set of received files processed, stored and ready to be recorded: Prepare
// does the work that needs no database, Record writes the rows inside the caller's
// transaction, and Commit (after that transaction commits) publishes the files. Discard,
// always deferred, removes whatever temporary files are left and, unless Commit ran first,
// takes back the stored files (deletes the uploaded objects).
type Batch struct {
	s   *Service
	ps  []*prepared
	tg  *target
	ids []int64
	// folder is the "API Uploads" folder, when recording the batch created it.
	folder int64
	// noFolder files the batch in no folder (UploadRequest.NoFolder).
	noFolder bool

	mu                   sync.Mutex
	committed, discarded bool
}

// Prepare validates and processes the files of an upload request (type, name, size limit,
// dimensions, formats), and stores them (the aws-s3 provider uploads them here, which gives
// their urls); the target's ref and field are checked against the schema.
func (s *Service) Prepare(ctx context.Context, req UploadRequest) (*Batch, error) {
	if len(req.Files) == 0 {
		return nil, ErrFilesEmpty
	}
	tg, err := s.resolveTarget(req.Target)
	if err != nil {
		return nil, err
	}
	b := &Batch{s: s, tg: tg, noFolder: req.NoFolder}
	for i, in := range req.Files {
		var info FileInfo
		if i < len(req.Infos) {
			info = req.Infos[i]
		}
		p, err := s.prepare(ctx, in, info, "", "")
		if err != nil {
			b.Discard()
			return nil, err
		}
		b.ps = append(b.ps, p)
		if tg != nil && !tg.attr.AcceptsMIME(p.mime) {
			b.Discard()
			return nil, apierror.Validation("%s only accepts %s, %q is %s", tg.attr.Name, strings.Join(tg.attr.Allowed, ", "), p.name, p.mime)
		}
	}
	if err := s.put(ctx, b.ps); err != nil {
		b.Discard()
		return nil, err
	}
	return b, nil
}

// Record writes the batch's rows (files, folder links, and the links to the target entry)
// in tx and returns the new ids, in order.
func (b *Batch) Record(ctx context.Context, tx *sqlx.Tx) ([]int64, error) {
	t := dbtx{ctx: ctx, tx: tx, d: b.s.DB.Dialect, db: b.s.DB}
	ids, folder, err := b.s.record(t, b.ps, b.tg, b.noFolder, b.s.now())
	if err != nil {
		return nil, err
	}
	b.ids, b.folder = ids, folder
	return ids, nil
}

// Attach sets the entry the batch's files are linked to when recorded (inline uploads of a
// create, whose entry id is known only inside the transaction). The attribute's
// allowedTypes are checked.
func (b *Batch) Attach(model *schemas.Model, attr *schemas.Attribute, id int64) error {
	b.tg = &target{model: model, attr: attr, id: id}
	for _, p := range b.ps {
		if !attr.AcceptsMIME(p.mime) {
			return apierror.Validation("%s only accepts %s, %q is %s", attr.Name, strings.Join(attr.Allowed, ", "), p.name, p.mime)
		}
	}
	return nil
}

// Commit publishes the recorded files; call it once the transaction has committed. If that
// fails (or the batch was discarded meanwhile: the request ended), the rows are taken back
// so nothing points at a missing file.
func (b *Batch) Commit(ctx context.Context) error {
	b.mu.Lock()
	err := errors.New("upload: the files were discarded before their rows committed")
	if !b.discarded {
		err = b.s.publish(b.ps)
		b.committed = true
	}
	b.mu.Unlock()
	if err != nil {
		b.s.Log.Error("upload: moving files into place failed", "err", err)
		for _, id := range b.ids {
			if _, rerr := b.s.remove(ctx, id); rerr != nil {
				b.s.Log.Error("upload: removing the rows of a failed upload", "id", id, "err", rerr)
			}
		}
		return err
	}
	return nil
}

// Discard removes the batch's temporary files and, unless Commit ran first, takes back its
// stored files. It may be called more than once.
func (b *Batch) Discard() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.committed && !b.discarded {
		b.s.unput(context.Background(), b.ps, nil)
	}
	b.discarded = true
	for _, p := range b.ps {
		p.cleanup()
	}
}

// record writes the rows of ps (in the "API Uploads" folder unless noFolder); it returns
// their ids, and the "API Uploads" folder's id when it created the folder.
func (s *Service) record(t dbtx, ps []*prepared, tg *target, noFolder bool, now time.Time) ([]int64, int64, error) {
	if tg != nil {
		var n int
		if err := t.get(&n, sqlgen.EntryCount(t.d, tg.model, tg.id)); err != nil {
			return nil, 0, err
		}
		if n == 0 {
			return nil, 0, apierror.Validation("Invalid refId %d: %s has no entry with this id", tg.id, tg.model.UID)
		}
	}
	folderID, folderPath, created := int64(0), "/", false
	if !noFolder {
		var err error
		if folderID, folderPath, created, err = s.apiFolder(t, now); err != nil {
			return nil, 0, err
		}
	}
	var folder int64
	if created {
		folder = folderID
	}
	ids := make([]int64, 0, len(ps))
	for _, p := range ps {
		id, err := s.insertFile(t, p, folderID, folderPath, now)
		if err != nil {
			return nil, 0, err
		}
		ids = append(ids, id)
	}
	if tg == nil {
		return ids, folder, nil
	}
	link := ids
	var order float64
	if !tg.attr.Multiple {
		// A single media attribute keeps one file: the last one uploaded, as in Strapi.
		link = ids[len(ids)-1:]
		if err := t.exec(sqlgen.FileLinksClear(t.d, tg.model.UID, tg.attr.Name, tg.id)); err != nil {
			return nil, 0, err
		}
	} else if err := t.get(&order, sqlgen.FileLinksMaxOrder(t.d, tg.model.UID, tg.attr.Name, tg.id)); err != nil {
		return nil, 0, err
	}
	for _, id := range link {
		order++
		if err := t.exec(sqlgen.FileLink(t.d, id, tg.model.UID, tg.attr.Name, tg.id, order)); err != nil {
			return nil, 0, fmt.Errorf("link file: %w", err)
		}
	}
	return ids, folder, nil
}

// stored is what replace and remove read of a file row.
type stored struct {
	ID       int64
	Name     *string
	Alt      *string
	Caption  *string
	Hash     string
	Ext      *string
	Provider *string
	Formats  map[string]storedFormat
}

func (s *Service) load(t dbtx, id int64) (*stored, error) {
	var st stored
	var formats any
	err := t.scan(sqlgen.FileByID(t.d, id), &st.ID, &st.Name, &st.Alt, &st.Caption, &st.Hash, &st.Ext, &st.Provider, &formats)
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	st.Formats = formatsOf(formats)
	return &st, nil
}

// loadWith is load through db (a write's transaction, or the database).
func (s *Service) loadWith(ctx context.Context, db exec.Queryer, id int64) (*stored, error) {
	st := sqlgen.FileByID(s.DB.Dialect, id)
	for i, a := range st.Args {
		st.Args[i] = s.DB.Dialect.Bind(a)
	}
	var out stored
	var formats any
	err := db.QueryRowxContext(ctx, st.SQL, st.Args...).Scan(&out.ID, &out.Name, &out.Alt, &out.Caption, &out.Hash, &out.Ext, &out.Provider, &formats)
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read file %d: %w", id, err)
	}
	out.Formats = formatsOf(formats)
	return &out, nil
}

// formatsOf reads the formats column of a file row (text or bytes of JSON).
func formatsOf(v any) map[string]storedFormat {
	var raw []byte
	switch x := v.(type) {
	case []byte:
		raw = x
	case string:
		raw = []byte(x)
	}
	var out map[string]storedFormat
	if len(raw) > 0 {
		json.Unmarshal(raw, &out)
	}
	return out
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Replace replaces the content of file id (POST /api/upload?id=X with a file): the hash
// and extension stay (so does the url, unless the provider changed), the name comes from
// the new file (or fileInfo.name), and the dimensions and formats are those of the new
// content. The new content is stored over the old objects' names before the row is
// updated; if the update fails, the objects the old record did not have are deleted.
func (s *Service) Replace(ctx context.Context, id int64, in *Incoming, info FileInfo) error {
	if err := s.stores(); err != nil {
		return err
	}
	t, err := s.begin(ctx)
	if err != nil {
		return err
	}
	old, err := s.load(t, id)
	t.tx.Rollback()
	if err != nil {
		return err
	}
	if old == nil {
		return errEntityNotFound()
	}
	p, err := s.prepare(ctx, in, info, old.Hash, deref(old.Ext))
	if err != nil {
		return err
	}
	defer p.cleanup()
	// Objects of the old record with the provider in use, by name: the new content
	// overwrites some of them, and the others go once the row is updated.
	sameProvider := deref(old.Provider) == s.Config.Provider
	had := map[string]bool{}
	if sameProvider {
		for _, o := range old.objects() {
			had[o.path+"/"+o.hash+o.ext] = true
		}
	}
	ps := []*prepared{p}
	fail := func(err error) error {
		s.unput(ctx, ps, had)
		return err
	}
	if err := s.put(ctx, ps); err != nil {
		return fail(err)
	}
	formats, err := s.formatsValue(p.formats)
	if err != nil {
		return fail(err)
	}
	if t, err = s.begin(ctx); err != nil {
		return fail(err)
	}
	sets := []string{"name", "formats", "mime", "size", "url", "provider", "updated_at"}
	args := []any{p.name, formats, p.mime, p.size, p.url, s.Config.Provider, s.now()}
	if p.width != nil {
		// Strapi keeps the stored dimensions when the new content is not an image.
		sets, args = append(sets, "width", "height"), append(args, p.width, p.height)
	}
	if info.HasAlternativeText {
		sets, args = append(sets, "alternative_text"), append(args, info.AlternativeText)
	}
	if info.HasCaption {
		sets, args = append(sets, "caption"), append(args, info.Caption)
	}
	if err := s.update(t, id, sets, args); err != nil {
		t.tx.Rollback()
		return fail(err)
	}
	if err := t.commit(); err != nil {
		return fail(fmt.Errorf("commit: %w", err))
	}
	if sameProvider {
		// Old formats that the new content does not overwrite go away.
		keep := map[string]bool{}
		for _, o := range p.stored {
			keep[o.path+"/"+o.hash+o.ext] = true
		}
		var gone []object
		for _, o := range old.objects() {
			if !keep[o.path+"/"+o.hash+o.ext] {
				gone = append(gone, o)
			}
		}
		s.removeStored(ctx, gone)
	}
	if err := s.publish(ps); err != nil {
		return err
	}
	return s.announceUpdate(ctx, id)
}

func (s *Service) update(t dbtx, id int64, cols []string, args []any) error {
	if err := t.exec(sqlgen.FileUpdate(t.d, id, cols, args)); err != nil {
		return fmt.Errorf("update file: %w", err)
	}
	return nil
}

// UpdateInfo changes a file's name, alternativeText and caption (POST /api/upload?id=X
// without a file); null or absent values keep the stored ones, as Strapi does.
func (s *Service) UpdateInfo(ctx context.Context, id int64, info FileInfo) error {
	t, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer t.tx.Rollback()
	old, err := s.load(t, id)
	if err != nil {
		return err
	}
	if old == nil {
		return errEntityNotFound()
	}
	pick := func(v, cur *string) *string {
		if v == nil {
			return cur
		}
		return v
	}
	err = s.update(t, id, []string{"name", "alternative_text", "caption", "updated_at"},
		[]any{pick(info.Name, old.Name), pick(info.AlternativeText, old.Alt), pick(info.Caption, old.Caption), s.now()})
	if err != nil {
		return err
	}
	if err := t.commit(); err != nil {
		return err
	}
	return s.announceUpdate(ctx, id)
}

// Remove deletes file id: its row, its links to entries and folders, and (for files of the
// provider in use, as Strapi decides) the stored file and formats, and announces
// media.delete with the file as it was. found is false for an unknown id.
func (s *Service) Remove(ctx context.Context, id int64) (found bool, err error) {
	if err := s.stores(); err != nil {
		return false, err
	}
	ev, err := s.fileEvent(ctx, s.DB, write.MediaDelete, id)
	if err != nil {
		return false, err
	}
	if found, err = s.remove(ctx, id); err != nil || !found {
		return found, err
	}
	return true, s.Events.Announce(ctx, ev...)
}

// remove is Remove without its event (a failed upload's rows taken back).
func (s *Service) remove(ctx context.Context, id int64) (found bool, err error) {
	t, err := s.begin(ctx)
	if err != nil {
		return false, err
	}
	defer t.tx.Rollback()
	old, err := s.load(t, id)
	if err != nil || old == nil {
		return false, err
	}
	for _, tbl := range []string{sqlgen.MorphsTable, sqlgen.FolderLinksTable} {
		if err := t.exec(sqlgen.FileUnlink(t.d, tbl, id)); err != nil {
			return false, err
		}
	}
	if err := t.exec(sqlgen.FileDelete(t.d, id)); err != nil {
		return false, err
	}
	if err := t.commit(); err != nil {
		return false, fmt.Errorf("commit: %w", err)
	}
	if deref(old.Provider) == s.Config.Provider {
		s.removeStored(ctx, old.objects())
	}
	return true, nil
}
