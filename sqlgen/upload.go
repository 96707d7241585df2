package sqlgen

import (
	"time"

	sq "github.com/Masterminds/squirrel"
)

// The statements of the upload plugin: files, the folders they are filed in and the links
// that attach them to entries (MorphsTable). Values are bound as the caller gives them;
// the caller converts them with Dialect.Bind.

const (
	// FilesTable holds the upload plugin's files.
	FilesTable = "files"
	// FoldersTable holds the media library's folders.
	FoldersTable = "upload_folders"
	// FolderLinksTable files each file in a folder.
	FolderLinksTable = "files_folder_links"
	// folderParentLinksTable links a folder to its parent; root folders have none.
	folderParentLinksTable = "upload_folders_parent_links"
)

// FileMimes reads the MIME type of the files ids: id, mime.
func FileMimes(d Dialect, ids []int64) Stmt {
	return build(d, sq.Select(quoteAll(d, "id", "mime")...).From(d.Quote(FilesTable)).Where(inList(d, "id", ids)))
}

// FileRow is a files row as the upload plugin creates it.
type FileRow struct {
	Name                     string
	AlternativeText, Caption *string
	Width, Height            *int
	Formats                  any // JSON text or nil
	Hash, Ext, Mime          string
	Size                     float64 // kB
	URL                      string
	Provider                 string
	FolderPath               string
	Now                      time.Time
}

// FileInsert adds a file, returning its id.
func FileInsert(d Dialect, f FileRow) InsertStmt {
	ins := Insert{Table: FilesTable}
	ins.Set("name", f.Name).Set("alternative_text", f.AlternativeText).Set("caption", f.Caption).
		Set("width", f.Width).Set("height", f.Height).Set("formats", f.Formats).Set("hash", f.Hash).Set("ext", f.Ext).
		Set("mime", f.Mime).Set("size", f.Size).Set("url", f.URL).Set("preview_url", nil).Set("provider", f.Provider).
		Set("provider_metadata", nil).Set("folder_path", f.FolderPath).Set("created_at", f.Now).Set("updated_at", f.Now)
	return ins.Render(d)
}

// FileByID reads what replacing or removing a file needs: id, name, alternative_text,
// caption, hash, ext, provider, formats.
func FileByID(d Dialect, id int64) Stmt {
	return build(d, sq.Select(quoteAll(d, "id", "name", "alternative_text", "caption", "hash", "ext", "provider", "formats")...).
		From(d.Quote(FilesTable)).Where(eq(d, "id", id)))
}

// FileUpdate sets columns of file id to vals.
func FileUpdate(d Dialect, id int64, cols []string, vals []any) Stmt {
	return Update{Table: FilesTable, Columns: cols, Values: vals, Key: "id", KeyValue: id}.Render(d)
}

// FileDelete removes file id's row.
func FileDelete(d Dialect, id int64) Stmt {
	return Delete(d, FilesTable, "id", id)
}

// FileUnlink removes file id's links to entries (MorphsTable) or folders
// (FolderLinksTable): table is one of the two.
func FileUnlink(d Dialect, table string, id int64) Stmt {
	return Delete(d, table, "file_id", id)
}

// FileLinksClear removes the files attached to one media field of an entry of the model
// relatedType.
func FileLinksClear(d Dialect, relatedType, field string, relatedID int64) Stmt {
	return build(d, sq.Delete(d.Quote(MorphsTable)).Where(morphsOf(d, relatedType, field, relatedID)))
}

// FileLinksMaxOrder is the highest order of the files attached to one media field of an
// entry (0 for none).
func FileLinksMaxOrder(d Dialect, relatedType, field string, relatedID int64) Stmt {
	return build(d, sq.Select("COALESCE(MAX("+d.Quote("order")+"), 0)").From(d.Quote(MorphsTable)).
		Where(morphsOf(d, relatedType, field, relatedID)))
}

// FileLink attaches file fileID to one media field of an entry, at position order.
func FileLink(d Dialect, fileID int64, relatedType, field string, relatedID int64, order float64) Stmt {
	ins := Insert{Table: MorphsTable}
	ins.Set("file_id", fileID).Set("related_id", relatedID).Set("related_type", relatedType).Set("field", field).Set("order", order)
	return ins.Plain(d)
}

// FileLinksOf lists the entries the files ids are attached to, by file and in link order:
// file_id, related_id, related_type.
func FileLinksOf(d Dialect, ids []int64) Stmt {
	return build(d, sq.Select(quoteAll(d, "file_id", "related_id", "related_type")...).From(d.Quote(MorphsTable)).
		Where(inList(d, "file_id", ids)).OrderBy(quoteAll(d, "file_id", "id")...))
}

// FolderFilesMaxOrder is the highest file order in folder id (0 for none).
func FolderFilesMaxOrder(d Dialect, folderID int64) Stmt {
	return build(d, sq.Select("COALESCE(MAX("+d.Quote("file_order")+"), 0)").From(d.Quote(FolderLinksTable)).
		Where(eq(d, "folder_id", folderID)))
}

// FolderFileLink files file fileID in folder folderID, at position order.
func FolderFileLink(d Dialect, fileID, folderID int64, order float64) Stmt {
	ins := Insert{Table: FolderLinksTable}
	ins.Set("file_id", fileID).Set("folder_id", folderID).Set("file_order", order)
	return ins.Plain(d)
}

// FolderPath reads folder id's path.
func FolderPath(d Dialect, id int64) Stmt {
	return build(d, sq.Select(d.Quote("path")).From(d.Quote(FoldersTable)).Where(eq(d, "id", id)))
}

// rootFolders selects the root folders (no parent) named name.
func rootFolders(d Dialect, name string, cols ...string) sq.SelectBuilder {
	return sq.Select(cols...).From(d.Quote(FoldersTable) + " f").Where(eqExpr(d, Col(d, "f", "name"), name)).
		Where(sq.Expr("NOT EXISTS (SELECT 1 FROM " + d.Quote(folderParentLinksTable) + " l WHERE " +
			Col(d, "l", "folder_id") + " = " + Col(d, "f", "id") + ")"))
}

// RootFolderByName finds the first root folder named name: id, path.
func RootFolderByName(d Dialect, name string) Stmt {
	return build(d, rootFolders(d, name, Col(d, "f", "id"), Col(d, "f", "path")).OrderBy(Col(d, "f", "id")).Limit(1))
}

// RootFolderCount counts the root folders named name.
func RootFolderCount(d Dialect, name string) Stmt {
	return build(d, rootFolders(d, name, "COUNT(*)"))
}

// FolderMaxPathID is the highest path_id of the folders (0 for none).
func FolderMaxPathID(d Dialect) Stmt {
	return build(d, sq.Select("COALESCE(MAX("+d.Quote("path_id")+"), 0)").From(d.Quote(FoldersTable)))
}

// FolderInsert adds a root folder, returning its id.
func FolderInsert(d Dialect, name string, pathID int64, path string, now time.Time) InsertStmt {
	ins := Insert{Table: FoldersTable}
	ins.Set("name", name).Set("path_id", pathID).Set("path", path).Set("created_at", now).Set("updated_at", now)
	return ins.Render(d)
}

// TableExists counts the tables named name (0 or 1) in the database's current schema.
func TableExists(d Dialect, name string) Stmt {
	return Stmt{SQL: Rebind(d, d.tableExists()), Args: []any{name}}
}

// EntriesIn reads columns of the entries ids of table (in no particular order).
func EntriesIn(d Dialect, table string, ids []int64, cols ...string) Stmt {
	return build(d, sq.Select(quoteAll(d, cols...)...).From(d.Quote(table)).Where(inList(d, "id", ids)))
}
