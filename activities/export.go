package activities

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/workflows"
)

// ExportKey is where an export's ZIP is stored: private (never under
// public/), one object per export, so a build run again overwrites it.
func ExportKey(e kudos.DataExport) string { return "exports/" + e.ID.String() + ".zip" }

// exportReadme opens every export: what the files are.
const exportReadme = `Kudos data export

Every .json file is UTF-8 JSON; times are RFC 3339 in UTC and amounts are in
cents of the currency named beside them. invoices/ holds the invoices as they
were issued (an account's export).
`

// BuildExport builds an export's ZIP (its JSON documents from one snapshot of
// Postgres, and the invoice PDFs from storage) and stores it. It heartbeats
// while its process lives, so that a dead worker is noticed within
// workflows.ExportHeartbeat and the build runs again elsewhere (under the
// same key: the file is written whole or not at all). An export deleted
// meanwhile (with its user or account) is Gone, and so is an account's
// export whose requester no longer owns the account (issue 35: void, and
// nothing of the account is read for them).
func (a *Activities) BuildExport(ctx context.Context, ref workflows.ExportRef) (workflows.ExportBuilt, error) {
	if void, err := a.Store.VoidUnownedExport(ctx, ref.ExportID); err != nil {
		return workflows.ExportBuilt{}, err
	} else if void {
		return workflows.ExportBuilt{Gone: true}, nil
	}
	e, err := a.Store.Export(ctx, ref.ExportID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return workflows.ExportBuilt{Gone: true}, nil
	} else if err != nil {
		return workflows.ExportBuilt{}, err
	}
	key := ExportKey(*e)
	if e.Status != kudos.ExportPreparing { // built and published by an earlier attempt
		return workflows.ExportBuilt{Key: key, Size: e.SizeBytes}, nil
	}
	defer keepAlive(ctx, workflows.ExportHeartbeat/4)()
	files, err := a.Store.ExportFiles(ctx, *e)
	if err != nil {
		return workflows.ExportBuilt{}, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	write := func(name string, r io.Reader) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: e.CreatedAt.UTC()})
		if err != nil {
			return err
		}
		_, err = io.Copy(w, r)
		return err
	}
	if err := write("README.txt", bytes.NewReader([]byte(exportReadme))); err != nil {
		return workflows.ExportBuilt{}, err
	}
	for _, f := range files {
		if f.ObjectKey == "" {
			if err := write(f.Name, bytes.NewReader(f.JSON)); err != nil {
				return workflows.ExportBuilt{}, err
			}
			continue
		}
		if err := a.copyObject(ctx, write, f); err != nil {
			return workflows.ExportBuilt{}, err
		}
	}
	if err := zw.Close(); err != nil {
		return workflows.ExportBuilt{}, err
	}
	if err := a.Storage.Put(ctx, key, buf.Bytes(), "application/zip"); err != nil {
		return workflows.ExportBuilt{}, err
	}
	return workflows.ExportBuilt{Key: key, Size: int64(buf.Len()), Files: len(files) + 1}, nil
}

// copyObject copies a stored object (an invoice PDF) into the ZIP; one
// that storage no longer has is left out rather than failing the export.
func (a *Activities) copyObject(ctx context.Context, write func(string, io.Reader) error, f kudos.ExportFile) error {
	rc, _, err := a.Storage.Open(ctx, f.ObjectKey)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		activity.GetLogger(ctx).Warn("export: stored file missing", "key", f.ObjectKey)
		return nil
	} else if err != nil {
		return err
	}
	defer rc.Close()
	if err := write(f.Name, rc); err != nil {
		return fmt.Errorf("export: copy %s: %w", f.ObjectKey, err)
	}
	return nil
}

// PublishExport marks a built export ready until its expiry and mails its
// user a link to the export's page (data_export_ready; the mail's key is
// the export's, so a retry queues it once). An account's export whose
// requester lost the ownership while it was built is void instead: its
// file is deleted at once and nobody is mailed (issue 35). So is one that
// is gone: its account or user was erased while it was built, and the
// erasure knew no file of it yet.
func (a *Activities) PublishExport(ctx context.Context, in workflows.ExportPublish) error {
	e, err := a.Store.Export(ctx, in.ExportID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return a.Storage.Delete(ctx, in.Key)
	} else if err != nil {
		return err
	}
	status, err := a.Store.MarkExportReady(ctx, in.ExportID, in.Key, in.Size, in.ExpiresAt)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return a.Storage.Delete(ctx, in.Key)
	} else if err != nil {
		return err
	}
	if status == kudos.ExportVoid {
		return a.Storage.Delete(ctx, in.Key)
	}
	to, name, lang, accountName, err := a.Store.ExportMailFacts(ctx, *e)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return nil
	} else if err != nil {
		return err
	}
	req := kudos.MailRequest{Key: "data_export:" + e.ID.String(), Purpose: kudos.MailDataExportReady, To: to, Language: lang, Name: name,
		Export: &kudos.MailExport{ExportID: e.ID, ExpiresAt: in.ExpiresAt.UTC().Truncate(time.Second), AccountName: accountName,
			AccountID: e.AccountID}}
	if a.QueueMail == nil {
		return temporal.NewNonRetryableApplicationError("no mail queue configured", workflows.ErrTypeBadMail, nil)
	}
	return a.QueueMail(ctx, req, nil)
}

// ExpireExport deletes an export's file and marks it expired.
func (a *Activities) ExpireExport(ctx context.Context, in workflows.ExportExpiry) error {
	if err := a.Storage.Delete(ctx, in.Key); err != nil {
		return err
	}
	err := a.Store.MarkExportExpired(ctx, in.ExportID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return nil
	}
	return err
}

// keepAlive heartbeats every interval until the returned stop is called or
// the activity's context ends (its worker stopping): the heartbeat says
// that the process lives, however long one step (a large upload, a logo
// waiting for a decode slot) takes. stop returns once the heartbeats have
// stopped.
func keepAlive(ctx context.Context, interval time.Duration) (stop func()) {
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				recordHeartbeat(ctx)
			}
		}
	}()
	return func() {
		close(done)
		<-ended
	}
}

// recordHeartbeat is activity.RecordHeartbeat (a test counts the calls; the
// SDK sends them to the server at most every 0.8 × the heartbeat timeout).
var recordHeartbeat = activity.RecordHeartbeat
