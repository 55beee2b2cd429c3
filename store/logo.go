package store

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// errLogoBusy answers an upload while a logo is processing or set (SPEC §4:
// upload is blocked while temporary or public).
var errLogoBusy = kudos.Errorf(kudos.EConflict, "A logo is already set or being processed: delete it first")

// lockLogo reads the account's logo columns for update.
func lockLogo(ctx context.Context, tx pgx.Tx, accountID uuid.UUID) (imgURL, uploadKey string, err error) {
	err = tx.QueryRow(ctx, `SELECT img_url, logo_upload_key FROM accounts WHERE id = $1 FOR UPDATE`, accountID).
		Scan(&imgURL, &uploadKey)
	return imgURL, uploadKey, notFound(err)
}

// ReserveLogoUpload records key as the object that the next finalisation
// will process and returns the key it replaces ("" if none): a newer
// reservation replaces an older one that was never finalised. It is refused
// (409) while a logo is processing or set.
func (db *DB) ReserveLogoUpload(ctx context.Context, accountID uuid.UUID, key string) (string, error) {
	var previous string
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		imgURL, reserved, err := lockLogo(ctx, tx, accountID)
		if err != nil {
			return err
		}
		if kudos.LogoStateOf(imgURL) != kudos.LogoNone {
			return errLogoBusy
		}
		previous = reserved
		_, err = tx.Exec(ctx, `UPDATE accounts SET logo_upload_key = $2, updated_at = $3 WHERE id = $1`, accountID, key, db.Now())
		return wrapErr(err)
	})
	return previous, err
}

// PendingLogoUpload is the reserved, not yet finalised upload key ("" when
// none) and the current img_url.
func (db *DB) PendingLogoUpload(ctx context.Context, accountID uuid.UUID) (key, imgURL string, err error) {
	err = db.Pool.QueryRow(ctx, `SELECT logo_upload_key, img_url FROM accounts WHERE id = $1`, accountID).Scan(&key, &imgURL)
	return key, imgURL, notFound(err)
}

// StartLogoProcessing finalises the reserved upload key: img_url becomes the
// temporary reference, the refusal of an earlier upload is forgotten, and
// the logo workflow's start is queued in the same transaction, so a crash
// cannot leave a temporary logo that nothing processes. Finalising the same
// upload again changes nothing. start is the outbox entry that has the
// upload processed (dispatch.LogoStart). It returns the new img_url.
func (db *DB) StartLogoProcessing(ctx context.Context, accountID uuid.UUID, key string, start func(accountID uuid.UUID, key string) OutboxEntry) (string, error) {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		imgURL, reserved, err := lockLogo(ctx, tx, accountID)
		switch {
		case err != nil:
			return err
		case imgURL == key:
			return nil // a retried finalisation
		case reserved != key || kudos.LogoStateOf(imgURL) != kudos.LogoNone:
			return errLogoBusy
		}
		if _, err := tx.Exec(ctx, `UPDATE accounts SET img_url = $2, logo_upload_key = '', logo_error = '', updated_at = $3
			WHERE id = $1`, accountID, key, db.Now()); err != nil {
			return wrapErr(err)
		}
		return insertOutbox(ctx, tx, start(accountID, key))
	})
	return key, err
}

// PublishLogo moves img_url from the temporary reference to the public one.
// It reports false, changing nothing, when img_url is no longer tempKey (the
// logo was deleted while it was processed).
func (db *DB) PublishLogo(ctx context.Context, accountID uuid.UUID, tempKey, publicKey string) (bool, error) {
	tag, err := db.Pool.Exec(ctx, `UPDATE accounts SET img_url = $3, logo_error = '', updated_at = $4
		WHERE id = $1 AND img_url = $2`, accountID, tempKey, publicKey, db.Now())
	return tag.RowsAffected() == 1, wrapErr(err)
}

// RefuseLogo sets the placeholder and records why the upload tempKey was
// refused, unless img_url has moved on since (false).
func (db *DB) RefuseLogo(ctx context.Context, accountID uuid.UUID, tempKey, reason string) (bool, error) {
	tag, err := db.Pool.Exec(ctx, `UPDATE accounts SET img_url = $3, logo_error = $4, updated_at = $5
		WHERE id = $1 AND img_url = $2`, accountID, tempKey, kudos.LogoPlaceholder, reason, db.Now())
	return tag.RowsAffected() == 1, wrapErr(err)
}

// ClearLogo sets the placeholder (forgetting any reservation and refusal)
// and returns the img_url it replaced and the upload key it forgot ("" if
// none), whose object the caller deletes.
func (db *DB) ClearLogo(ctx context.Context, accountID uuid.UUID) (old, reserved string, err error) {
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		imgURL, uploadKey, err := lockLogo(ctx, tx, accountID)
		if err != nil {
			return err
		}
		old, reserved = imgURL, uploadKey
		_, err = tx.Exec(ctx, `UPDATE accounts SET img_url = $2, logo_upload_key = '', logo_error = '', updated_at = $3
			WHERE id = $1`, accountID, kudos.LogoPlaceholder, db.Now())
		return wrapErr(err)
	})
	return old, reserved, err
}
