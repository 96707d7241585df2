package upload

import (
	"crypto/rand"
	"encoding/hex"
	"math"
	"mime"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Slugify names a file the way Strapi's nameToSlug(name, {separator: "_", lowercase: false})
// does (@sindresorhus/slugify 1.1): transliterate, split camel case, and join the ASCII
// letter and digit runs with "_".
func Slugify(s string) string {
	s = transliterate(s)
	s = decamelize(s)
	s = nonAlnum.ReplaceAllString(s, "_")
	s = multiSep.ReplaceAllString(s, "_")
	s = strings.TrimPrefix(s, "_")
	s = strings.TrimSuffix(s, "_")
	return s
}

var (
	nonAlnum = regexp.MustCompile(`[^a-zA-Z0-9]+`)
	multiSep = regexp.MustCompile(`_{2,}`)
	decamel  = []struct {
		re   *regexp.Regexp
		repl string
	}{
		{regexp.MustCompile(`([A-Z]{2,})([0-9]+)`), "${1} ${2}"},
		{regexp.MustCompile(`([a-z0-9]+)([A-Z]{2,})`), "${1} ${2}"},
		{regexp.MustCompile(`([a-z0-9])([A-Z])`), "${1} ${2}"},
		{regexp.MustCompile(`([A-Z]+)([A-Z][a-z0-9]+)`), "${1} ${2}"},
	}
)

func decamelize(s string) string {
	for _, d := range decamel {
		s = d.re.ReplaceAllString(s, d.repl)
	}
	return s
}

// transliterate is @sindresorhus/transliterate 0.1: NFC, the replacement table in order,
// then lodash's deburr.
func transliterate(s string) string {
	s = norm.NFC.String(s)
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ReplaceAll(s, "&", " and ")
	}
	for _, r := range transliterations {
		if strings.Contains(s, r[0]) {
			s = strings.ReplaceAll(s, r[0], r[1])
		}
	}
	var b strings.Builder
	for _, r := range s {
		if d, ok := deburred[r]; ok {
			b.WriteString(d)
			continue
		}
		if (r >= 0x300 && r <= 0x36f) || (r >= 0xfe20 && r <= 0xfe2f) || (r >= 0x20d0 && r <= 0x20ff) {
			continue // combining marks
		}
		b.WriteRune(r)
	}
	return b.String()
}

func normNFC(s string) string { return norm.NFC.String(s) }

// newHash is Strapi's generateFileName: the slug of the base name and 10 random hex digits.
func newHash(base string) string {
	var r [5]byte
	if _, err := rand.Read(r[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return Slugify(base) + "_" + hex.EncodeToString(r[:])
}

// extName is Node's path.extname: from the last dot of the name, "" when the name has no dot
// or starts with its only one.
func extName(name string) string {
	if i := strings.LastIndexAny(name, `/`); i >= 0 {
		name = name[i+1:]
	}
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || strings.Trim(name, ".") == "" {
		return ""
	}
	return name[i:]
}

// baseName is Node's path.basename(name, ext) for a name without directories.
func baseName(name, ext string) string {
	if ext != "" && name != ext && strings.HasSuffix(name, ext) {
		return strings.TrimSuffix(name, ext)
	}
	return name
}

var reservedWindowsName = regexp.MustCompile(`(?i)^(con|prn|aux|nul|com[0-9]|lpt[0-9])$`)

// validFilename is the valid-filename check Strapi applies to uploaded names.
func validFilename(s string) bool {
	if s == "" || len([]rune(s)) > 255 || s == "." || s == ".." || reservedWindowsName.MatchString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || strings.ContainsRune(`<>:"/\|?*`, r) {
			return false
		}
	}
	return true
}

// KB is Strapi's bytesToKbytes: kilobytes (1000 bytes) rounded to two decimals.
func KB(bytes int64) float64 {
	return math.Floor(float64(bytes)/1e3*100+0.5) / 100
}

// extensionFor is the extension mime-types gives a type, used when a name has none.
func extensionFor(mimeType string) string {
	if e, ok := commonExt[mimeType]; ok {
		return e
	}
	if exts, err := mime.ExtensionsByType(mimeType); err == nil && len(exts) > 0 {
		return strings.TrimPrefix(exts[0], ".")
	}
	return "false" // mime-types answers false, which Strapi prints into the extension
}

var commonExt = map[string]string{
	"image/jpeg": "jpeg", "image/png": "png", "image/gif": "gif", "image/webp": "webp",
	"image/tiff": "tif", "image/svg+xml": "svg", "image/avif": "avif", "image/bmp": "bmp",
	"video/mp4": "mp4", "video/webm": "webm", "video/quicktime": "qt", "audio/mpeg": "mpga",
	"audio/ogg": "oga", "audio/wav": "wav", "application/pdf": "pdf", "application/zip": "zip",
	"application/json": "json", "text/plain": "txt", "text/csv": "csv", "text/html": "html",
	"application/octet-stream": "bin",
}

// humanBytes is Strapi's bytesToHumanReadable.
func humanBytes(n int64) string {
	if n == 0 {
		return "0 Bytes"
	}
	sizes := []string{"Bytes", "KB", "MB", "GB", "TB", "PB"}
	i := int(math.Floor(math.Log(float64(n)) / math.Log(1000)))
	i = max(0, min(i, len(sizes)-1))
	v := math.Floor(float64(n)/math.Pow(1000, float64(i)) + 0.5)
	return strconv.FormatFloat(v, 'f', -1, 64) + " " + sizes[i]
}
