package schemas

import (
	"slices"
	"strings"
)

// MediaCategory is the admin panel's category of a MIME type, the vocabulary of a media
// attribute's allowedTypes: images, videos, audios or files.
func MediaCategory(mimeType string) string {
	major, _, _ := strings.Cut(mimeType, "/")
	switch major {
	case "image":
		return "images"
	case "video":
		return "videos"
	case "audio":
		return "audios"
	}
	return "files"
}

// AcceptsMIME reports whether a file of the MIME type may be linked to the media attribute:
// an attribute without allowedTypes takes every type, as the admin panel lets it.
func (a *Attribute) AcceptsMIME(mimeType string) bool {
	if len(a.Allowed) == 0 {
		return true
	}
	return slices.Contains(a.Allowed, MediaCategory(mimeType))
}
