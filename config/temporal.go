package config

import (
	"errors"
	"fmt"
	"net"
	"strconv"
)

// TemporalConn is how the binary reaches Temporal beyond its address and
// namespace: TLS with the server's CA and name, a client certificate (mTLS,
// self-hosted clusters and Temporal Cloud) or an API key (Temporal Cloud).
type TemporalConn struct {
	// TLS is set when the connection is encrypted: TEMPORAL_TLS=true, or
	// implied by any of the fields below.
	TLS bool
	// CAFile is a PEM bundle the server's certificate must chain to (empty:
	// the system's roots).
	CAFile string
	// ServerName is the name the server's certificate must carry (empty:
	// the host of TEMPORAL_ADDRESS).
	ServerName string
	// CertFile and KeyFile are the client certificate and key (mTLS).
	CertFile, KeyFile string
	// APIKey is sent as a bearer token (Temporal Cloud API keys).
	APIKey string
	// AllowPlaintext lets production talk to a Temporal beyond this
	// machine without TLS (e.g. a service mesh encrypts the hop).
	AllowPlaintext bool
	// Gzip compresses the gRPC messages to Temporal
	// (KUDOS_TEMPORAL_COMPRESSION): worth it across a network, only CPU on
	// this machine ("auto": gzip unless Temporal is on loopback).
	Gzip bool
}

// loadTemporalConn reads the connection's variables and checks them: a
// certificate needs its key, and production refuses plaintext to a
// Temporal that is not on this machine unless explicitly allowed.
func (c *Config) loadTemporalConn(get func(string) string) []error {
	var errs []error
	boolean := func(name string) bool {
		b, err := strconv.ParseBool(get(name))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: want true or false, got %q", name, get(name)))
		}
		return b
	}
	t := TemporalConn{TLS: boolean("TEMPORAL_TLS"), CAFile: get("TEMPORAL_TLS_CA_FILE"),
		ServerName: get("TEMPORAL_TLS_SERVER_NAME"), CertFile: get("TEMPORAL_TLS_CERT_FILE"),
		KeyFile: get("TEMPORAL_TLS_KEY_FILE"), APIKey: get("TEMPORAL_API_KEY"),
		AllowPlaintext: boolean("KUDOS_TEMPORAL_ALLOW_PLAINTEXT")}
	if t.CAFile != "" || t.ServerName != "" || t.CertFile != "" || t.KeyFile != "" || t.APIKey != "" {
		t.TLS = true
	}
	switch v := get("KUDOS_TEMPORAL_COMPRESSION"); v {
	case "auto":
		t.Gzip = !loopback(c.TemporalAddress)
	case "gzip", "none":
		t.Gzip = v == "gzip"
	default:
		errs = append(errs, fmt.Errorf("KUDOS_TEMPORAL_COMPRESSION: want auto, gzip or none, got %q", v))
	}
	if (t.CertFile == "") != (t.KeyFile == "") {
		errs = append(errs, errors.New("TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE: set both (mutual TLS) or neither"))
	}
	if _, _, err := net.SplitHostPort(c.TemporalAddress); err != nil {
		errs = append(errs, fmt.Errorf("TEMPORAL_ADDRESS: want host:port, got %q", c.TemporalAddress))
	} else if c.Env == Production && !t.TLS && !t.AllowPlaintext && !loopback(c.TemporalAddress) {
		errs = append(errs, fmt.Errorf("TEMPORAL_ADDRESS=%s: production refuses plaintext to a Temporal server beyond this machine; "+
			"set TEMPORAL_TLS=true (with TEMPORAL_TLS_CA_FILE, TEMPORAL_TLS_CERT_FILE/TEMPORAL_TLS_KEY_FILE or TEMPORAL_API_KEY as the cluster needs), "+
			"or KUDOS_TEMPORAL_ALLOW_PLAINTEXT=true if something else encrypts the hop", c.TemporalAddress))
	}
	c.Temporal = t
	return errs
}
