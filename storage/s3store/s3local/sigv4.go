package s3local

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Auth checks AWS Signature Version 4 on every request, as S3 would, so that
// development catches what production would refuse: a wrong key or secret, a
// tampered or expired presigned URL, a browser upload whose Content-Type is
// not the one signed into the URL, a body that does not match
// x-amz-content-sha256. It does not verify the per-chunk signatures of
// aws-chunked streaming uploads (their seed signature is checked) nor the
// time skew of header-signed requests (gofakes3 checks that itself).
type Auth struct {
	// AccessKey and SecretKey are the one key pair accepted.
	AccessKey, SecretKey string
	// PublicReadPrefix lets anonymous GET and HEAD read keys that start with
	// it, like a bucket policy on the public prefix; "" allows nothing.
	PublicReadPrefix string
	// Now is the clock for expiry; nil means time.Now.
	Now func() time.Time
}

// authError is an S3 error document.
type authError struct {
	XMLName xml.Name `xml:"Error"`
	Code    string
	Message string
	status  int
}

func (e *authError) Error() string { return e.Code + ": " + e.Message }

func denied(code, msg string) *authError {
	return &authError{Code: code, Message: msg, status: http.StatusForbidden}
}

// Wrap refuses requests that fail Verify with S3's error document and passes
// the others to next.
func (a *Auth) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := a.Verify(r); err != nil {
			e, ok := err.(*authError)
			if !ok {
				e = &authError{Code: "InternalError", Message: err.Error(), status: http.StatusInternalServerError}
			}
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(e.status)
			if r.Method != http.MethodHead {
				_, _ = io.WriteString(w, xml.Header)
				_ = xml.NewEncoder(w).Encode(e)
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Verify checks r's signature (Authorization header or presigned query) and,
// for presigned URLs, their expiry. It may replace r.Body with a copy after
// checking the payload hash.
func (a *Auth) Verify(r *http.Request) error {
	q := r.URL.Query()
	var cred, signedHeaders, signature, amzDate, payloadHash string
	presigned := q.Get("X-Amz-Algorithm") != ""
	switch {
	case strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 "):
		fields := map[string]string{}
		for _, f := range strings.Split(strings.TrimPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 "), ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(f), "=")
			fields[k] = v
		}
		cred, signedHeaders, signature = fields["Credential"], fields["SignedHeaders"], fields["Signature"]
		amzDate, payloadHash = r.Header.Get("X-Amz-Date"), r.Header.Get("X-Amz-Content-Sha256")
		if payloadHash == "" {
			return &authError{Code: "InvalidRequest", Message: "Missing required header for this request: x-amz-content-sha256", status: http.StatusBadRequest}
		}
	case presigned:
		if q.Get("X-Amz-Algorithm") != "AWS4-HMAC-SHA256" {
			return &authError{Code: "AuthorizationQueryParametersError", Message: "X-Amz-Algorithm only supports AWS4-HMAC-SHA256", status: http.StatusBadRequest}
		}
		cred, signedHeaders, signature = q.Get("X-Amz-Credential"), q.Get("X-Amz-SignedHeaders"), q.Get("X-Amz-Signature")
		amzDate, payloadHash = q.Get("X-Amz-Date"), q.Get("X-Amz-Content-Sha256")
		if payloadHash == "" {
			payloadHash = "UNSIGNED-PAYLOAD"
		}
	case r.Header.Get("Authorization") != "":
		return denied("AccessDenied", "Only AWS Signature Version 4 is supported")
	case a.publicRead(r):
		return nil
	default:
		return denied("AccessDenied", "Access Denied")
	}

	scope := strings.Split(cred, "/") // key/date/region/service/aws4_request
	if len(scope) != 5 || scope[3] != "s3" || scope[4] != "aws4_request" {
		return denied("AuthorizationHeaderMalformed", "Malformed credential "+cred)
	} else if scope[0] != a.AccessKey {
		return denied("InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.")
	}
	at, err := time.Parse("20060102T150405Z", amzDate)
	if err != nil || amzDate[:8] != scope[1] {
		return denied("AccessDenied", "X-Amz-Date is missing, malformed or outside the credential scope")
	}
	if !strings.Contains(";"+signedHeaders+";", ";host;") {
		return denied("AccessDenied", "The host header must be signed")
	}
	if presigned {
		secs, err := strconv.Atoi(q.Get("X-Amz-Expires"))
		if err != nil || secs < 1 || secs > 7*24*3600 {
			return &authError{Code: "AuthorizationQueryParametersError", Message: "X-Amz-Expires must be between 1 and 604800 seconds", status: http.StatusBadRequest}
		}
		if a.now().After(at.Add(time.Duration(secs) * time.Second)) {
			return denied("AccessDenied", "Request has expired")
		}
	}

	canonical := strings.Join([]string{
		r.Method,
		rawPath(r),
		canonicalQuery(q, presigned),
		canonicalHeaders(r, signedHeaders),
		signedHeaders,
		payloadHash,
	}, "\n")
	sum := sha256.Sum256([]byte(canonical))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + strings.Join(scope[1:], "/") + "\n" + hex.EncodeToString(sum[:])
	key := hmacSHA256([]byte("AWS4"+a.SecretKey), scope[1])
	for _, part := range scope[2:] {
		key = hmacSHA256(key, part)
	}
	want := hex.EncodeToString(hmacSHA256(key, toSign))
	if !hmac.Equal([]byte(want), []byte(signature)) {
		return denied("SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.")
	}
	return checkPayload(r, payloadHash)
}

// checkPayload compares a hex payload hash with the body it covers.
// UNSIGNED-PAYLOAD and the streaming forms are not a hash of the body.
func checkPayload(r *http.Request, payloadHash string) error {
	if len(payloadHash) != 64 || r.Body == nil {
		return nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if sum := sha256.Sum256(body); hex.EncodeToString(sum[:]) != payloadHash {
		return &authError{Code: "XAmzContentSHA256Mismatch", Message: "The provided 'x-amz-content-sha256' header does not match what was computed.", status: http.StatusBadRequest}
	}
	return nil
}

// publicRead reports an anonymous read of a key under PublicReadPrefix
// (path-style: /bucket/key).
func (a *Auth) publicRead(r *http.Request) bool {
	if a.PublicReadPrefix == "" || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		return false
	}
	_, key, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	return ok && strings.HasPrefix(key, a.PublicReadPrefix)
}

func (a *Auth) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// rawPath is the path exactly as sent: S3 signs it without re-escaping.
func rawPath(r *http.Request) string {
	p, _, _ := strings.Cut(r.RequestURI, "?")
	if p == "" || !strings.HasPrefix(p, "/") {
		return r.URL.EscapedPath() // absolute-form request URI, or a test request
	}
	return p
}

// canonicalQuery sorts the parameters and encodes them the SigV4 way; a
// presigned URL's signature does not sign itself.
func canonicalQuery(q url.Values, presigned bool) string {
	var pairs []string
	for k, vs := range q {
		if presigned && k == "X-Amz-Signature" {
			continue
		}
		for _, v := range vs {
			pairs = append(pairs, uriEncode(k)+"="+uriEncode(v))
		}
	}
	sort.Strings(pairs)
	return strings.Join(pairs, "&")
}

// canonicalHeaders lists the signed headers as name:value lines, values
// trimmed and inner spaces collapsed; Go keeps Host apart from r.Header.
func canonicalHeaders(r *http.Request, signedHeaders string) string {
	var b strings.Builder
	for _, name := range strings.Split(signedHeaders, ";") {
		values := slices.Clone(r.Header.Values(name))
		switch {
		case name == "host":
			values = []string{r.Host}
		case name == "content-length" && len(values) == 0:
			values = []string{strconv.FormatInt(r.ContentLength, 10)}
		}
		for i, v := range values {
			values[i] = strings.Join(strings.Fields(v), " ")
		}
		b.WriteString(name + ":" + strings.Join(values, ",") + "\n")
	}
	return b.String()
}

// uriEncode escapes all but the unreserved characters, as SigV4 requires.
func uriEncode(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

func hmacSHA256(key []byte, data string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(data))
	return h.Sum(nil)
}
