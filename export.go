package kudos

import (
	"time"

	"github.com/google/uuid"
)

// ExportStatus is where a data export stands (issue 28).
type ExportStatus string

// The statuses of a data export: being built, downloadable until its
// expiry, and deleted from storage after it; or void: an account's export
// whose requester no longer owns the account (issue 35), never built,
// mailed or served again (the api answers 404 to them, as for anyone
// else's export).
const (
	ExportPreparing ExportStatus = "preparing"
	ExportReady     ExportStatus = "ready"
	ExportExpired   ExportStatus = "expired"
	ExportVoid      ExportStatus = "void"
)

// DataExport is one export of a user's data (AccountID nil) or of an
// account's (its owner asked): a ZIP of JSON files and invoice PDFs that
// the workflow export:<id> builds, keeps until ExpiresAt and then deletes.
type DataExport struct {
	ID     uuid.UUID    `json:"export_id"`
	UserID uuid.UUID    `json:"-"`
	Status ExportStatus `json:"status"`
	// AccountID is the account exported, nil for the user's own data.
	AccountID *uuid.UUID `json:"account_id"`
	// ObjectKey is where the file is stored once ready.
	ObjectKey string     `json:"-"`
	SizeBytes int64      `json:"size_bytes,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	ReadyAt   *time.Time `json:"ready_at,omitempty"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// DefaultExportTTL is how long a finished export can be downloaded
// (KUDOS_EXPORT_TTL).
const DefaultExportTTL = 7 * 24 * time.Hour

// ExportFile is one file of an export's ZIP: a JSON document, or a stored
// object (an invoice PDF) copied in by its key.
type ExportFile struct {
	Name      string
	JSON      []byte
	ObjectKey string
}

// MailExport are the facts of a data_export_ready mail.
type MailExport struct {
	ExportID  uuid.UUID `json:"export_id"`
	ExpiresAt time.Time `json:"expires_at"`
	// AccountName names the account exported ("" for the user's own data),
	// AccountID is its id.
	AccountName string     `json:"account_name,omitempty"`
	AccountID   *uuid.UUID `json:"account_id,omitempty"`
}
