package api_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"

	"kudos/api"
	"kudos/config"
	"kudos/store"
)

// fakeStore is a store for handler tests where Postgres adds nothing: the
// api depends on the small interfaces of api.Store, so a test fakes the
// methods its route uses (the rest panic if called).
type fakeStore struct {
	api.Store
	pingErr error
}

func (f *fakeStore) Now() time.Time             { return time.Now() }
func (f *fakeStore) Ping(context.Context) error { return f.pingErr }
func (f *fakeStore) NewLimiter(name string, burst int, per time.Duration) *store.Limiter {
	return &store.Limiter{Name: name, Burst: burst, Per: per}
}

func fakeApp(t *testing.T, db api.Store) *fiber.App {
	t.Helper()
	cfg, err := config.LoadFrom(func(k string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	return api.New(&api.Server{Config: cfg, DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// TestReadinessWithAFakeStore: /readyz says Postgres is unreachable (503)
// when the store does not answer — no database needed to test it.
func TestReadinessWithAFakeStore(t *testing.T) {
	t.Parallel()
	app := fakeApp(t, &fakeStore{pingErr: errors.New("connection refused")})
	res, err := app.Test(httptest.NewRequest("GET", "/readyz", nil), inProcess)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 503 {
		t.Fatalf("readyz with Postgres away: %d, want 503", res.StatusCode)
	}
}
