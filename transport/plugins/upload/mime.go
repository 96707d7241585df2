package upload

import (
	"fmt"
	"mime"
	"strings"

	"github.com/gabriel-vasile/mimetype"

	"github.com/quarrycms/quarry/ir/apierror"
)

// AllowedError is the validation error for a file a media attribute does not accept.
func AllowedError(path []string, field string, fileID int64, allowedTypes []string, mimeType string) apierror.FieldError {
	who := "the file"
	if fileID > 0 {
		who = fmt.Sprintf("file %d", fileID)
	}
	return apierror.FieldError{Path: path, Name: "ValidationError",
		Message: fmt.Sprintf("%s only accepts %s, %s is %s", field, strings.Join(allowedTypes, ", "), who, mimeType)}
}

// mediaType strips parameters and lowercases a Content-Type value.
func mediaType(v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	if mt, _, err := mime.ParseMediaType(v); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(v, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// byName is the type registered for a file name's extension ("" when unknown).
func byName(filename string) string {
	ext := extName(filename)
	if ext == "" {
		return ""
	}
	if t := mediaType(mime.TypeByExtension(strings.ToLower(ext))); t != "" {
		return t
	}
	return ""
}

// decodable are the image types whose content Quarry reads (dimensions, formats).
var decodable = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
	"image/tiff": true, "image/svg+xml": true, "image/bmp": true}

// resolveMime decides the stored mime type of an upload as Strapi does: the part's
// Content-Type, else the type of the file name's extension, else application/octet-stream.
// The content is checked against it: content that contradicts the declared family (text
// sent as image/png, an image sent as video/mp4) is refused. It also returns the type the
// content sniffs as, which decides the image handling (Strapi's sharp reads the content).
func resolveMime(declared, filename string, head []byte) (mimeType, sniffed string, err error) {
	declared = mediaType(declared)
	if declared == "" {
		declared = byName(filename)
	}
	if declared == "" {
		declared = "application/octet-stream"
	}
	sniffed = mediaType(mimetype.Detect(head).String())
	sniffedImage := strings.HasPrefix(sniffed, "image/")
	confident := sniffed != "" && sniffed != "application/octet-stream"
	switch major, _, _ := strings.Cut(declared, "/"); major {
	case "image":
		if (decodable[declared] || confident) && !sniffedImage {
			return "", "", mismatch(filename, declared)
		}
	case "video", "audio":
		if confident && (sniffedImage || strings.HasPrefix(sniffed, "text/") || sniffed == "application/pdf" || sniffed == "application/zip") {
			return "", "", mismatch(filename, declared)
		}
	}
	return declared, sniffed, nil
}

func mismatch(filename, declared string) error {
	return apierror.Validation("The content of %q does not match its type %s", filename, declared)
}
