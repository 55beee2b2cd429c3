package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"kudos"
	"kudos/store"
)

// minimalListenerFD is the file descriptor on which a minimal service child
// finds its listener (the first of exec.Cmd.ExtraFiles).
const minimalListenerFD = 3

// ServeMinimal runs the read path's second baseline until ctx ends: the
// service a user would write instead of Kudos for GET /v1/accounts/{id}. A
// bare Fiber (fasthttp) handler checks the bearer JWT (HS256 with the same
// checks as auth.Sessions.Parse: signature, exp, iat, iss, aud), runs the
// same single query through pgx (store.SessionAccountView, on a pool opened
// like the api's) and writes the same JSON, with none of Kudos's middleware:
// no request id, request log, metrics, security headers, CORS or error
// mapping. It listens on the inherited file descriptor 3 (StartMinimal).
func ServeMinimal(ctx context.Context, databaseURL, jwtSecret string) error {
	ln, err := net.FileListener(os.NewFile(minimalListenerFD, "listener"))
	if err != nil {
		return fmt.Errorf("minimal service: listener: %w", err)
	}
	db, err := store.Open(ctx, databaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	key := []byte(jwtSecret)
	keyFunc := func(*jwt.Token) (any, error) { return key, nil }
	app := fiber.New()
	app.Get("/v1/accounts/:id", func(c fiber.Ctx) error {
		token, ok := strings.CutPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
		if !ok {
			return c.SendStatus(fiber.StatusUnauthorized)
		}
		var claims jwt.RegisteredClaims
		if _, err := jwt.ParseWithClaims(token, &claims, keyFunc, jwt.WithValidMethods([]string{"HS256"}),
			jwt.WithIssuer("kudos"), jwt.WithAudience("kudos-api"), jwt.WithExpirationRequired(), jwt.WithIssuedAt()); err != nil {
			return c.SendStatus(fiber.StatusUnauthorized)
		}
		sid, err1 := uuid.Parse(claims.ID)
		uid, err2 := uuid.Parse(claims.Subject)
		id, err3 := uuid.Parse(c.Params("id"))
		if errors.Join(err1, err2, err3) != nil {
			return c.SendStatus(fiber.StatusNotFound)
		}
		a, u, err := db.SessionAccountView(c.Context(), id, sid, uid)
		if kudos.ErrorCode(err) == kudos.ENotFound {
			return c.SendStatus(fiber.StatusNotFound)
		}
		if err != nil {
			return c.SendStatus(fiber.StatusInternalServerError)
		}
		return c.JSON(struct {
			Account *kudos.Account `json:"account"`
			User    *kudos.User    `json:"user"`
		}{a, u})
	})
	go func() {
		<-ctx.Done()
		_ = app.ShutdownWithTimeout(5 * time.Second)
	}()
	return app.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true})
}

// Minimal is a running minimal service (a child process of this program).
type Minimal struct {
	// BaseURL is its origin; PID its process, whose CPU time is measured.
	BaseURL string
	PID     int
	cmd     *exec.Cmd
}

// StartMinimal starts ServeMinimal in a child process of this program
// (`bench -serve-minimal -db URL`, the JWT secret in its environment), on a loopback port chosen here, and waits until it answers.
// A process of its own, like the api, so that its CPU time is measured apart
// from the load generator's.
func StartMinimal(ctx context.Context, e *Env) (*Minimal, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f, err := ln.(*net.TCPListener).File()
	_ = ln.Close() // the child holds the duplicate
	if err != nil {
		return nil, err
	}
	defer f.Close()
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-serve-minimal", "-db", e.DatabaseURL)
	cmd.ExtraFiles = []*os.File{f}
	cmd.Env = append(os.Environ(), "KUDOS_JWT_SECRET="+e.JWTSecret)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	m := &Minimal{BaseURL: "http://" + ln.Addr().String(), PID: cmd.Process.Pid, cmd: cmd}
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := e.HTTP.Get(m.BaseURL + "/v1/accounts/" + uuid.Nil.String())
		if err == nil {
			res.Body.Close()
			return m, nil // any answer (401 without a token) means it serves
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			m.Stop()
			return nil, fmt.Errorf("the minimal service did not answer: %w", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop ends the child and waits for it.
func (m *Minimal) Stop() {
	_ = m.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = m.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = m.cmd.Process.Kill()
		<-done
	}
}
