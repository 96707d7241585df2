package upload

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/quarrycms/quarry/schemas/projectconfig"
)

// Config is the upload plugin's configuration: config/plugins.json `upload.config`, with
// Strapi's defaults.
type Config struct {
	// Dir is where the local provider keeps files: <app>/public/uploads by default
	// (`upload.config.providerOptions.uploadsDir`, or UPLOADS_DIR, moves it).
	Dir string
	// SizeLimit is the largest file accepted, in bytes (`sizeLimit`, Strapi's default 1 GB).
	SizeLimit int64
	// MaxFileBytes bounds the file data of one multipart request (formidable's maxFileSize
	// under Strapi: 200 MiB, raised to SizeLimit when that is larger).
	MaxFileBytes int64
	// Breakpoints are the responsive formats (`breakpoints`): name → largest side in px.
	Breakpoints map[string]int
	// ResponsiveDimensions generates the breakpoint formats (the media library setting,
	// on by default; `responsiveDimensions`).
	ResponsiveDimensions bool
	// SizeOptimization re-encodes JPEG and PNG uploads when that makes them smaller
	// (`sizeOptimization`, on by default).
	SizeOptimization bool
	// MaxAge is the Cache-Control max-age of served files in seconds
	// (`providerOptions.localServer.maxage` in milliseconds, as koa-static takes it).
	MaxAge int
	// Provider is `upload.config.provider` as written ("local" by default): Strapi records
	// it in files.provider and only deletes stored files of rows that carry it.
	Provider string
	// S3 is the aws-s3 provider's configuration; nil for the local provider.
	S3 *S3Config
	// Unsupported is the provider as configured when Quarry has no implementation of it
	// (@strapi/provider-upload-cloudinary, …): files are read from the database as stored,
	// and every write that stores or deletes a file answers NotImplementedError (or goes to
	// Strapi with --upstream).
	Unsupported string
	// UnsupportedWhy says why a provider Quarry has cannot store files (an aws-s3
	// configuration without its bucket); "" for a provider Quarry does not have.
	UnsupportedWhy string
	// ImageMemory is the memory the images being processed at once may hold, in bytes
	// (decoded pixels and the formats' working buffers; QUARRY_IMAGE_MEMORY, 0: the
	// default, DefaultImageMemory). Uploads past it wait for others to finish.
	ImageMemory int64
}

// DefaultImageMemory lets one image of the largest decoded size (maxDecodedBytes) be
// processed beside an ordinary photo or two (a 24-megapixel JPEG reserves about 180 MB).
const DefaultImageMemory = 512 << 20

func (c Config) imageMemory() int64 {
	if c.ImageMemory > 0 {
		return c.ImageMemory
	}
	return DefaultImageMemory
}

// DefaultBreakpoints are Strapi's responsive formats.
var DefaultBreakpoints = map[string]int{"large": 1000, "medium": 750, "small": 500}

// DefaultSizeLimit is Strapi's sizeLimit (1 GB); multipart bodies carry at most 200 MiB of
// file data unless sizeLimit is raised above that.
const (
	DefaultSizeLimit    = 1_000_000_000
	DefaultMaxFileBytes = 200 << 20
)

type pluginsFile struct {
	Upload struct {
		Config struct {
			SizeLimit            *int64          `json:"sizeLimit"`
			Breakpoints          map[string]int  `json:"breakpoints"`
			ResponsiveDimensions *bool           `json:"responsiveDimensions"`
			SizeOptimization     *bool           `json:"sizeOptimization"`
			Provider             string          `json:"provider"`
			ProviderOptions      json.RawMessage `json:"providerOptions"`
			ActionOptions        json.RawMessage `json:"actionOptions"`
		} `json:"config"`
	} `json:"upload"`
}

type providerOptions struct {
	UploadsDir  string `json:"uploadsDir"`
	LocalServer struct {
		MaxAge *float64 `json:"maxage"`
	} `json:"localServer"`
}

// LoadConfig reads the upload configuration of an app folder (config/plugins.*, as
// projectconfig reads it with getenv as the environment).
func LoadConfig(appDir string, getenv func(string) string) (Config, error) {
	proj, err := projectconfig.Load(context.Background(), projectconfig.Options{Dir: appDir,
		LookupEnv: func(k string) (string, bool) { v := getenv(k); return v, v != "" }})
	if err != nil {
		return Config{}, err
	}
	c, err := ParseConfig(appDir, proj.JSON("plugins"), getenv)
	if err != nil {
		return c, fmt.Errorf("%s: %w", strings.Join(proj.Files("plugins"), ", "), err)
	}
	return c, nil
}

// ParseConfig reads the upload entry of the plugins configuration (JSON; nil when none).
func ParseConfig(appDir string, plugins []byte, getenv func(string) string) (Config, error) {
	c := Config{
		Dir:                  filepath.Join(appDir, "public", "uploads"),
		SizeLimit:            DefaultSizeLimit,
		MaxFileBytes:         DefaultMaxFileBytes,
		Breakpoints:          DefaultBreakpoints,
		ResponsiveDimensions: true,
		SizeOptimization:     true,
		Provider:             "local",
	}
	var pf pluginsFile
	if len(plugins) > 0 {
		if err := json.Unmarshal(plugins, &pf); err != nil {
			return c, err
		}
	}
	uc := pf.Upload.Config
	kind, ok := providerKind(uc.Provider)
	if uc.Provider != "" {
		c.Provider = uc.Provider
	}
	if !ok {
		// A provider package Quarry has no implementation of (cloudinary, …): the media
		// library is read as stored, and storing or deleting files is refused.
		c.Unsupported = uc.Provider
	}
	var po providerOptions
	if !ok {
		// Its providerOptions are its own (cloud names, keys): not read.
	} else if kind == "aws-s3" {
		s3c, err := parseS3Config(uc.ProviderOptions, uc.ActionOptions)
		switch {
		case errors.Is(err, errNoBucket):
			// Strapi starts and fails on the first upload: the library is read-only here.
			c.Unsupported, c.UnsupportedWhy = uc.Provider, err.Error()
		case err != nil:
			return c, fmt.Errorf("upload provider %s: %w", uc.Provider, err)
		default:
			c.S3 = s3c
		}
	} else if len(uc.ProviderOptions) > 0 && string(uc.ProviderOptions) != "null" {
		if err := json.Unmarshal(uc.ProviderOptions, &po); err != nil {
			return c, fmt.Errorf("upload.config.providerOptions: %w", err)
		}
	}
	if uc.SizeLimit != nil {
		if *uc.SizeLimit <= 0 {
			return c, errors.New("upload.config.sizeLimit must be positive")
		}
		c.SizeLimit = *uc.SizeLimit
	}
	c.MaxFileBytes = max(c.MaxFileBytes, c.SizeLimit)
	if uc.Breakpoints != nil {
		for k, v := range uc.Breakpoints {
			if v <= 0 || k == "" || k == "thumbnail" {
				return c, fmt.Errorf("upload.config.breakpoints.%s must be a positive size", k)
			}
		}
		c.Breakpoints = uc.Breakpoints
	}
	if uc.ResponsiveDimensions != nil {
		c.ResponsiveDimensions = *uc.ResponsiveDimensions
	}
	if uc.SizeOptimization != nil {
		c.SizeOptimization = *uc.SizeOptimization
	}
	if v := po.LocalServer.MaxAge; v != nil && *v > 0 {
		c.MaxAge = int(*v / 1000)
	}
	if v := getenv("QUARRY_IMAGE_MEMORY"); v != "" {
		n, err := humanize.ParseBytes(v)
		if err != nil || n == 0 || n > 1<<50 {
			return c, fmt.Errorf("QUARRY_IMAGE_MEMORY: want a size such as 512MiB, got %q", v)
		}
		c.ImageMemory = int64(n)
	}
	dir := po.UploadsDir
	if v := getenv("UPLOADS_DIR"); v != "" {
		dir = v
	}
	if dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(appDir, dir)
		}
		c.Dir = dir
	}
	return c, nil
}
