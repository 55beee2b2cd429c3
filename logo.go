package kudos

import (
	"path"
	"strings"

	"github.com/google/uuid"
)

// An account's img_url is a logo reference whose prefix tells its state
// (SPEC §3, §4). The values are object keys, so the prefix is also where the
// object lives in the bucket.
const (
	// LogoTemporaryPrefix marks an upload that the logo workflow is
	// processing: "tmp/logos/{accountId}/{uploadId}.png". Never served.
	LogoTemporaryPrefix = "tmp/"
	// LogoPublicPrefix marks a processed logo, served by the public base URL
	// (a CDN in production): "public/logos/{accountId}/{uploadId}.png".
	LogoPublicPrefix = "public/"
	// LogoPlaceholderPrefix marks an account without a logo. The empty
	// string and the literal BLANK (SPEC §9) mean the same.
	LogoPlaceholderPrefix = "placeholder:"
	// LogoPlaceholder is the value written when a logo is removed or refused.
	LogoPlaceholder = LogoPlaceholderPrefix + "none"
)

// LogoState is what an img_url means.
type LogoState string

// The logo states of SPEC §4 that the server knows (uploading happens in the
// browser).
const (
	LogoNone       LogoState = "placeholder"
	LogoProcessing LogoState = "temporary"
	LogoReady      LogoState = "public"
)

// LogoStateOf reads an img_url. Anything without a known prefix (including
// "" and "BLANK") is the placeholder.
func LogoStateOf(imgURL string) LogoState {
	switch {
	case strings.HasPrefix(imgURL, LogoTemporaryPrefix):
		return LogoProcessing
	case strings.HasPrefix(imgURL, LogoPublicPrefix):
		return LogoReady
	default:
		return LogoNone
	}
}

// Logo limits (SPEC §5, §9).
const (
	// LogoMaxBytes is the largest upload accepted: 10 MB.
	LogoMaxBytes = 10 * 1024 * 1024
	// LogoMaxPixels bounds width × height before an image is decoded, so a
	// small file that claims a huge canvas (a decompression bomb) is refused
	// without allocating it: 16 megapixels decode to at most 64 MB.
	LogoMaxPixels = 16_000_000
	// LogoMaxSide is the longest side of a published logo; larger images are
	// scaled down, keeping their aspect ratio.
	LogoMaxSide = 512
)

// Why an uploaded logo was refused; the account keeps the latest as
// logo_error and the UI explains it.
const (
	LogoNotAnImage    = "not_an_image"    // neither PNG nor JPEG by its bytes
	LogoTooLarge      = "too_large"       // more than LogoMaxBytes
	LogoTooManyPixels = "too_many_pixels" // more than LogoMaxPixels
	LogoUnreadable    = "unreadable"      // a PNG or JPEG that does not decode
	LogoMissing       = "missing"         // nothing was uploaded to the link
	LogoFailed        = "failed"          // processing gave up (storage down for long)
)

// LogoUploadType is the content type an upload named filename must carry and
// the extension its object gets: image/png (.png) or image/jpeg (.jpg) by
// the name's extension; "" for anything else.
func LogoUploadType(filename string) (contentType, ext string) {
	switch strings.ToLower(path.Ext(strings.TrimSpace(filename))) {
	case ".png":
		return "image/png", ".png"
	case ".jpg", ".jpeg":
		return "image/jpeg", ".jpg"
	}
	return "", ""
}

// LogoKey is the object key of one upload under prefix (LogoTemporaryPrefix
// or LogoPublicPrefix): "{prefix}logos/{accountId}/{uploadId}{ext}". Keys
// derive from the upload, so retrying a step writes the same object.
func LogoKey(prefix string, accountID, uploadID uuid.UUID, ext string) string {
	return LogoKeyPrefix(prefix, accountID) + uploadID.String() + ext
}

// LogoKeyPrefix is the common prefix of an account's logo keys under prefix.
func LogoKeyPrefix(prefix string, accountID uuid.UUID) string {
	return prefix + "logos/" + accountID.String() + "/"
}
