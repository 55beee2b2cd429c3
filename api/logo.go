package api

import (
	"kudos/dispatch"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
)

// LogoUploadTTL is how long a presigned logo upload link works.
const LogoUploadTTL = 10 * time.Minute

// maxFilenameLength bounds the filename of an upload request.
const maxFilenameLength = 255

// registerLogoRoutes adds the logo upload of SPEC §7: a presigned upload
// link, its finalisation (which hands the object to the logo workflow), and
// removal.
func (s *Server) registerLogoRoutes(acc fiber.Router) {
	acc.Post("/upload-logo", s.logoUploadLink)
	acc.Put("/upload-logo", s.finaliseLogoUpload)
	acc.Delete("/upload-logo", s.deleteLogo)
}

type logoUploadRequest struct {
	Filename string `json:"filename"`
	// Size is the file's length in bytes, signed into the link.
	Size int64 `json:"size"`
}

// logoUploadLink answers a short-lived presigned PUT to a temporary key the
// server chooses, signed for image/png or image/jpeg by the filename's
// extension and for the size given (at most 10 MB), so that storage refuses
// any other body. 409 while a logo is processing or set.
func (s *Server) logoUploadLink(c fiber.Ctx) error {
	var req logoUploadRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	name := strings.TrimSpace(req.Filename)
	fields := kudos.FieldErrors{}
	contentType, ext := kudos.LogoUploadType(name)
	switch {
	case name == "" || name == "BLANK":
		fields.Add("filename", kudos.FRequired)
	case utf8.RuneCountInString(name) > maxFilenameLength || !utf8.ValidString(name):
		fields.Add("filename", kudos.FTooLong)
	case contentType == "":
		fields.Add("filename", kudos.FNotAnImage)
	}
	switch {
	case req.Size <= 0:
		fields.Add("size", kudos.FRequired)
	case req.Size > kudos.LogoMaxBytes:
		fields.Add("size", kudos.FTooLarge)
	}
	if err := fields.Err(); err != nil {
		return err
	}
	if s.Storage == nil {
		return kudos.Errorf(kudos.EUnavailable, "object storage is not configured")
	}
	acc := accountID(c)
	key := kudos.LogoKey(kudos.LogoTemporaryPrefix, acc, uuid.New(), ext)
	previous, err := s.DB.ReserveLogoUpload(ctx(c), acc, key)
	if err != nil {
		return err
	}
	if previous != "" {
		// A link asked for and never finalised: its object, if any, goes.
		if err := s.Storage.Delete(ctx(c), previous); err != nil {
			s.Log.Warn("logo: could not delete an abandoned upload", "key", previous, "err", err)
		}
	}
	u, err := s.Storage.PresignPut(ctx(c), key, contentType, req.Size, LogoUploadTTL)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"presigned_url": u})
}

// finaliseLogoUpload hands the uploaded object to the logo workflow and sets
// img_url to its temporary reference. The body is empty (or {}). Finalising
// twice answers the same; nothing uploaded is 422.
func (s *Server) finaliseLogoUpload(c fiber.Ctx) error {
	if len(strings.TrimSpace(string(c.Body()))) > 0 {
		var none struct{}
		if err := decodeJSON(c, &none); err != nil {
			return err
		}
	}
	if s.Storage == nil {
		return kudos.Errorf(kudos.EUnavailable, "object storage is not configured")
	}
	acc := accountID(c)
	key, imgURL, err := s.DB.PendingLogoUpload(ctx(c), acc)
	if err != nil {
		return err
	}
	if key == "" && kudos.LogoStateOf(imgURL) != kudos.LogoNone {
		return c.JSON(fiber.Map{"img_url": imgURL}) // a retried finalisation
	}
	nothing := &kudos.Error{Code: kudos.EInvalid, Message: "Nothing was uploaded: ask for an upload link and upload the image first",
		Fields: map[string]string{"file": kudos.FRequired}}
	if key == "" {
		return nothing
	}
	if _, err := s.Storage.Stat(ctx(c), key); kudos.ErrorCode(err) == kudos.ENotFound {
		return nothing
	} else if err != nil {
		return err
	}
	imgURL, err = s.DB.StartLogoProcessing(ctx(c), acc, key, dispatch.LogoStart)
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	return c.JSON(fiber.Map{"img_url": imgURL})
}

// deleteLogo sets the placeholder and removes the public object and any
// upload reserved and not finalised. A logo still processing is left to its
// workflow, which finds img_url changed and removes what it made.
func (s *Server) deleteLogo(c fiber.Ctx) error {
	old, reserved, err := s.DB.ClearLogo(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	if reserved != "" && s.Storage != nil {
		if err := s.Storage.Delete(ctx(c), reserved); err != nil {
			s.Log.Warn("logo: could not delete a reserved upload", "key", reserved, "err", err)
		}
	}
	if kudos.LogoStateOf(old) == kudos.LogoReady && s.Storage != nil {
		// The account no longer points at the object; if removing it fails
		// it is an orphan under a key nothing will reuse, not a visible logo.
		if err := s.Storage.Delete(ctx(c), old); err != nil {
			s.Log.Warn("logo: could not delete the public object", "key", old, "err", err)
		}
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// logoURL is where the account's public logo is served from, or "".
func (s *Server) logoURL(imgURL string) string {
	if kudos.LogoStateOf(imgURL) != kudos.LogoReady || s.Storage == nil {
		return ""
	}
	return s.Storage.PublicURL(imgURL)
}
