package api

import (
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
	"kudos/dispatch"
)

// exportDownloadTTL is how long a download link of a ready export works:
// the page asks for a new one at every click, so a link that leaks (a
// browser history, a proxy log) is soon worthless.
const exportDownloadTTL = 5 * time.Minute

// registerPrivacyRoutes adds the routes of a user's own data (issue 28):
// exports (one's own, an account's by its owner, and the export's status
// with its download link) and deleting oneself; me is the /v1/users/me
// group (session guard).
func (s *Server) registerPrivacyRoutes(me, acc fiber.Router) {
	me.Post("/export", s.exportUser)
	me.Get("/exports/:exportId", s.getExport)
	me.Delete("", s.scheduleUserDeletion)
	me.Post("/deletion/cancel", s.cancelUserDeletion)
	me.Get("/deletion", s.userDeletion)
	acc.Post("/export", s.exportAccount)
}

// exportStarted is the answer of an export request.
type exportStarted struct {
	ExportID uuid.UUID `json:"export_id"`
}

// exportView is an export as its page shows it.
type exportView struct {
	ExportID    uuid.UUID          `json:"export_id"`
	Status      kudos.ExportStatus `json:"status"`
	AccountID   *uuid.UUID         `json:"account_id"`
	CreatedAt   time.Time          `json:"created_at"`
	ExpiresAt   *time.Time         `json:"expires_at"`
	SizeBytes   int64              `json:"size_bytes"`
	DownloadURL string             `json:"download_url,omitempty"`
}

// exportUser asks for an export of the caller's own data.
func (s *Server) exportUser(c fiber.Ctx) error {
	return s.startExport(c, session(c).UserID, nil, "user:"+session(c).UserID.String())
}

// exportAccount asks for an export of the account's data (its owner:
// routeRoles).
func (s *Server) exportAccount(c fiber.Ctx) error {
	id := accountID(c)
	return s.startExport(c, session(c).UserID, &id, "account:"+id.String())
}

// startExport records the export and the start of its workflow: 202 with
// its id. While an export of the same data is being prepared, asking again
// answers that one, so a double click builds one file; exports are limited
// to a few a day per user and per account (each reads everything and
// stores a file).
func (s *Server) startExport(c fiber.Ctx, userID uuid.UUID, accountID *uuid.UUID, limitKey string) error {
	if s.Storage == nil {
		return kudos.Errorf(kudos.EUnavailable, "exports need object storage, which is not configured")
	}
	if err := allow(c, s.limits.exports, limitKey); err != nil {
		return err
	}
	e, _, err := s.DB.CreateExport(ctx(c), userID, accountID, dispatch.ExportStart(s.Config.ExportTTL))
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	return c.Status(fiber.StatusAccepted).JSON(exportStarted{ExportID: e.ID})
}

// getExport answers one of the caller's exports: preparing, ready (with a
// download link valid a few minutes) or expired. Another user's export is
// not found.
func (s *Server) getExport(c fiber.Ctx) error {
	id, err := uuid.Parse(c.Params("exportId"))
	if err != nil {
		return kudos.NotFound()
	}
	e, err := s.DB.UserExport(ctx(c), session(c).UserID, id)
	if err != nil {
		return err
	}
	v := exportView{ExportID: e.ID, Status: e.Status, AccountID: e.AccountID, CreatedAt: e.CreatedAt, ExpiresAt: e.ExpiresAt,
		SizeBytes: e.SizeBytes}
	if e.Status == kudos.ExportReady && s.Storage != nil {
		name := "kudos-export-" + e.CreatedAt.UTC().Format("2006-01-02") + ".zip"
		if v.DownloadURL, err = s.Storage.PresignGet(ctx(c), e.ObjectKey, name, exportDownloadTTL); err != nil {
			return err
		}
	}
	return c.JSON(v)
}
