package store

import (
	"context"
	"errors"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// userColumns are the columns scanned into kudos.User by scanUser.
var userColumns = []string{"id", "email", "firstname", "lastname", "password_hash", "activated",
	"preferred_language", "opt_in_notifications", "opt_in_marketing", "opt_in_terms_of_use", "social_login", "created_at"}

func scanUser(row pgx.Row) (*kudos.User, error) {
	var u kudos.User
	err := row.Scan(&u.ID, &u.Email, &u.Firstname, &u.Lastname, &u.PasswordHash, &u.Activated,
		&u.PreferredLanguage, &u.OptInNotifications, &u.OptInMarketing, &u.OptInTermsOfUse, &u.SocialLogin, &u.CreatedAt)
	return &u, notFound(err)
}

func findUser(ctx context.Context, q querier, where sq.Sqlizer) (*kudos.User, error) {
	sql, args, err := psql.Select(userColumns...).From("users").Where(where).ToSql()
	if err != nil {
		return nil, err
	}
	return scanUser(q.QueryRow(ctx, sql, args...))
}

// UserByID returns a user, or ENotFound.
func (db *DB) UserByID(ctx context.Context, id uuid.UUID) (*kudos.User, error) {
	return findUser(ctx, db.Pool, sq.Eq{"id": id})
}

// UserByEmail returns the user with that (normalized) address, or ENotFound.
func (db *DB) UserByEmail(ctx context.Context, email string) (*kudos.User, error) {
	return findUser(ctx, db.Pool, sq.Expr("lower(email) = ?", kudos.NormalizeEmail(email)))
}

// updateUser applies the non-nil fields of upd.
func updateUser(ctx context.Context, tx pgx.Tx, id uuid.UUID, upd kudos.UserUpdate, now time.Time) error {
	b := psql.Update("users").Set("updated_at", now).Where(sq.Eq{"id": id})
	if upd.Firstname != nil {
		b = b.Set("firstname", *upd.Firstname)
	}
	if upd.Lastname != nil {
		b = b.Set("lastname", *upd.Lastname)
	}
	if upd.OptInNotifications != nil {
		b = b.Set("opt_in_notifications", *upd.OptInNotifications)
	}
	if upd.OptInMarketing != nil {
		b = b.Set("opt_in_marketing", *upd.OptInMarketing)
	}
	if upd.PreferredLanguage != nil {
		b = b.Set("preferred_language", *upd.PreferredLanguage)
	}
	tag, err := exec(ctx, tx, b)
	if err == nil && tag.RowsAffected() == 0 {
		return kudos.NotFound()
	}
	return err
}

// signInAccountID sets id to the account userID opens at sign-in: the one
// they opened last, else the one they own, else the one they joined first;
// uuid.Nil when they belong to none.
func signInAccountID(ctx context.Context, tx pgx.Tx, userID uuid.UUID, id *uuid.UUID) error {
	err := tx.QueryRow(ctx, `SELECT m.account_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.user_id = $1
		ORDER BY (m.account_id = u.last_account_id) IS TRUE DESC, (m.role = 'owner') DESC, m.created_at LIMIT 1`, userID).Scan(id)
	if errors.Is(err, pgx.ErrNoRows) {
		*id = uuid.Nil
		return nil
	}
	return wrapErr(err)
}
