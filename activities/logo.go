package activities

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"runtime"
	"strings"

	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/logoimage"
	"kudos/workflows"
)

// decodeSlots bounds the logos decoded at once in this process: a decode
// may hold up to 4 × kudos.LogoMaxPixels bytes.
var decodeSlots = make(chan struct{}, max(1, runtime.NumCPU()/2))

// logoKeepAlive is how often an attempt heartbeats while it waits for a
// decode slot and decodes: well inside workflows.LogoHeartbeat, so that only
// a worker that died loses its attempt to another.
var logoKeepAlive = workflows.LogoHeartbeat / 3

// PublicLogoKey is the public object of the temporary upload tempKey in
// format f: the same upload id under the public prefix.
func PublicLogoKey(tempKey string, f logoimage.Format) string {
	base := strings.TrimSuffix(strings.TrimPrefix(tempKey, kudos.LogoTemporaryPrefix), path.Ext(tempKey))
	return kudos.LogoPublicPrefix + base + f.Ext()
}

// ProcessLogo checks the uploaded object (size, magic bytes, pixel count
// before decoding), decodes, scales and re-encodes it, and writes it under
// the public prefix. A refused upload is a result, not an error. Output
// bytes and key derive from the upload only, so a retry after a crash
// overwrites the same object with the same bytes. The attempt heartbeats
// all along (keepAlive): waiting for a decode slot busy with other uploads,
// decoding a large image or writing it on a busy worker may each take longer
// than workflows.LogoHeartbeat, and none of them is a dead worker. (With a
// heartbeat after each step only, such an attempt was timed out by the
// server and tried again while it still ran.)
func (a *Activities) ProcessLogo(ctx context.Context, in workflows.LogoInput) (workflows.LogoProcessed, error) {
	defer keepAlive(ctx, logoKeepAlive)()
	if !strings.HasPrefix(in.TempKey, kudos.LogoKeyPrefix(kudos.LogoTemporaryPrefix, in.AccountID)) {
		return workflows.LogoProcessed{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("%q is not a temporary logo of account %s", in.TempKey, in.AccountID), workflows.ErrTypeBadLogoKey, nil)
	}
	info, err := a.Storage.Stat(ctx, in.TempKey)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return workflows.LogoProcessed{Refused: kudos.LogoMissing}, nil
	} else if err != nil {
		return workflows.LogoProcessed{}, err
	}
	if info.Size > kudos.LogoMaxBytes {
		return workflows.LogoProcessed{Refused: kudos.LogoTooLarge}, nil
	}
	res, err := a.decodeLogo(ctx, in.TempKey)
	if reason := logoimage.ReasonOf(err); reason != "" {
		return workflows.LogoProcessed{Refused: reason}, nil
	} else if err != nil {
		return workflows.LogoProcessed{}, err
	}
	key := PublicLogoKey(in.TempKey, res.Format)
	if err := a.Storage.Put(ctx, key, res.Data, res.Format.ContentType()); err != nil {
		return workflows.LogoProcessed{}, err
	}
	return workflows.LogoProcessed{PublicKey: key, Width: res.Width, Height: res.Height}, nil
}

// decodeLogo reads and processes the upload while holding a decode slot.
func (a *Activities) decodeLogo(ctx context.Context, key string) (logoimage.Result, error) {
	select {
	case decodeSlots <- struct{}{}:
		defer func() { <-decodeSlots }()
	case <-ctx.Done():
		return logoimage.Result{}, ctx.Err()
	}
	data, err := a.readObject(ctx, key)
	if err != nil {
		return logoimage.Result{}, err
	}
	return logoimage.Process(data)
}

// readObject reads at most one byte more than a logo may have (the object
// may have grown since it was measured).
func (a *Activities) readObject(ctx context.Context, key string) ([]byte, error) {
	rc, _, err := a.Storage.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, kudos.LogoMaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", key, err)
	}
	return data, nil
}

// PublishLogo points img_url at the public logo. False: the logo was
// deleted (or replaced) while it was processed, and nothing changed.
func (a *Activities) PublishLogo(ctx context.Context, in workflows.LogoPublication) (bool, error) {
	return a.Store.PublishLogo(ctx, in.AccountID, in.TempKey, in.PublicKey)
}

// RefuseLogo sets the placeholder with the reason, unless img_url moved on.
func (a *Activities) RefuseLogo(ctx context.Context, in workflows.LogoPublication) (bool, error) {
	return a.Store.RefuseLogo(ctx, in.AccountID, in.TempKey, in.Reason)
}

// DeleteObject removes an object; a missing one is fine.
func (a *Activities) DeleteObject(ctx context.Context, key string) error {
	if key == "" {
		return errors.New("delete object: empty key")
	}
	return a.Storage.Delete(ctx, key)
}
