package sqlgen

import sq "github.com/Masterminds/squirrel"

// The statements of the upload plugin: files, their folders and the links that attach
// them to entries (files_related_morphs).

// FilesTable holds the upload plugin's files.
const FilesTable = "files"

// FileMimes reads the MIME type of the files ids: id, mime.
func FileMimes(d Dialect, ids []int64) Stmt {
	return build(d, sq.Select(quoteAll(d, "id", "mime")...).From(d.Quote(FilesTable)).Where(inList(d, "id", ids)))
}
