package store

import (
	"context"

	"github.com/google/uuid"

	"kudos"
)

// AddFeatureRequest stores a feature request.
func (db *DB) AddFeatureRequest(ctx context.Context, accountID, userID uuid.UUID, r kudos.FeatureRequest) error {
	_, err := db.Pool.Exec(ctx, `INSERT INTO feature_requests (account_id, user_id, area, profile, description) VALUES ($1, $2, $3, $4, $5)`,
		accountID, userID, r.Area, r.Profile, r.Description)
	return wrapErr(err)
}
