package api_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
)

// softAuthenticator is a passkey authenticator in software, for api tests:
// one ECDSA P-256 credential, attestation "none", authenticator data with
// the rpIdHash, flags UP|UV (|AT at registration) and a sign count. rpID
// and origin are what it claims (a phishing site would claim its own).
type softAuthenticator struct {
	t          *testing.T
	key        *ecdsa.PrivateKey
	credID     []byte
	userHandle []byte
	rpID       string
	origin     string
	// count is the sign count of the next assertion (then incremented).
	count uint32
}

// testRPID and testOrigin are the relying party of the test configuration
// (KUDOS_PUBLIC_URL http://127.0.0.1:8080: browsers refuse an IP address
// as RP id, so it is served as localhost).
const (
	testRPID   = "localhost"
	testOrigin = "http://localhost:8080"
)

func newSoftAuthenticator(t *testing.T) *softAuthenticator {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 32)
	_, _ = rand.Read(id)
	return &softAuthenticator{t: t, key: key, credID: id, rpID: testRPID, origin: testOrigin, count: 1}
}

var b64 = base64.RawURLEncoding

const (
	flagUP = 0x01
	flagUV = 0x04
	flagAT = 0x40
)

// authData is the authenticator data: rpIdHash, flags, sign count and,
// when attested is given, the attested credential data.
func (a *softAuthenticator) authData(flags byte, attested []byte) []byte {
	h := sha256.Sum256([]byte(a.rpID))
	out := append(h[:], flags)
	out = binary.BigEndian.AppendUint32(out, a.count)
	return append(out, attested...)
}

func (a *softAuthenticator) clientData(typ, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": a.origin, "crossOrigin": false})
	return b
}

// create answers the creation options (public_key of the options answer)
// as navigator.credentials.create would, in the browser's JSON.
func (a *softAuthenticator) create(publicKey map[string]any) map[string]any {
	a.t.Helper()
	user, _ := publicKey["user"].(map[string]any)
	handle, err := b64.DecodeString(user["id"].(string))
	if err != nil {
		a.t.Fatalf("user.id: %v", err)
	}
	a.userHandle = handle
	cose, err := webauthncbor.Marshal(webauthncose.EC2PublicKeyData{
		PublicKeyData: webauthncose.PublicKeyData{KeyType: int64(webauthncose.EllipticKey), Algorithm: int64(webauthncose.AlgES256)},
		Curve:         int64(webauthncose.P256),
		XCoord:        a.key.X.FillBytes(make([]byte, 32)),
		YCoord:        a.key.Y.FillBytes(make([]byte, 32)),
	})
	if err != nil {
		a.t.Fatal(err)
	}
	attested := make([]byte, 16) // AAGUID: none
	attested = binary.BigEndian.AppendUint16(attested, uint16(len(a.credID)))
	attested = append(append(attested, a.credID...), cose...)
	count := a.count
	a.count = 0
	auth := a.authData(flagUP|flagUV|flagAT, attested)
	a.count = count
	obj, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": auth})
	if err != nil {
		a.t.Fatal(err)
	}
	return a.credential(map[string]any{
		"clientDataJSON":    b64.EncodeToString(a.clientData("webauthn.create", publicKey["challenge"].(string))),
		"attestationObject": b64.EncodeToString(obj),
		"transports":        []string{"internal"},
	})
}

// credential is the PublicKeyCredential JSON of response.
func (a *softAuthenticator) credential(response map[string]any) map[string]any {
	id := b64.EncodeToString(a.credID)
	return map[string]any{"id": id, "rawId": id, "type": "public-key", "clientExtensionResults": map[string]any{},
		"authenticatorAttachment": "platform", "response": response}
}

// get answers the request options (public_key) as navigator.credentials.get
// would, with user verification, and moves the sign count on.
func (a *softAuthenticator) get(publicKey map[string]any) map[string]any {
	return a.getWith(publicKey, flagUP|flagUV)
}

func (a *softAuthenticator) getWith(publicKey map[string]any, flags byte) map[string]any {
	a.t.Helper()
	auth := a.authData(flags, nil)
	a.count++
	cd := a.clientData("webauthn.get", publicKey["challenge"].(string))
	h := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, auth...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, digest[:])
	if err != nil {
		a.t.Fatal(err)
	}
	return a.credential(map[string]any{
		"clientDataJSON":    b64.EncodeToString(cd),
		"authenticatorData": b64.EncodeToString(auth),
		"signature":         b64.EncodeToString(sig),
		"userHandle":        b64.EncodeToString(a.userHandle),
	})
}
