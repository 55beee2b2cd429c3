package app

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"

	"kudos/config"
	"kudos/tracing"
)

// TemporalOptions are the client options of the configured Temporal: its
// address and namespace, TLS with the server's CA and name, a client
// certificate (mTLS) and an API key (Temporal Cloud), and the tracing
// interceptor (tracing.TemporalInterceptor). The caller adds its
// logger and metrics handler. Unreadable certificate files fail here, at
// start, with the variable named.
func TemporalOptions(cfg *config.Config) (client.Options, error) {
	opts := client.Options{HostPort: cfg.TemporalAddress, Namespace: cfg.TemporalNamespace,
		// Client calls, and the workflows and activities of workers made
		// from the client, join the caller's trace (issue 40).
		Interceptors: []interceptor.ClientInterceptor{tracing.TemporalInterceptor()}}
	t := cfg.Temporal
	if !t.Gzip {
		opts.ConnectionOptions.GrpcCompression = &client.GrpcCompressionNone{}
	}
	if !t.TLS {
		return opts, nil
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: t.ServerName}
	if tc.ServerName == "" {
		host, _, err := net.SplitHostPort(cfg.TemporalAddress)
		if err != nil {
			return opts, fmt.Errorf("TEMPORAL_ADDRESS: %w", err)
		}
		tc.ServerName = host
	}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return opts, fmt.Errorf("TEMPORAL_TLS_CA_FILE: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return opts, fmt.Errorf("TEMPORAL_TLS_CA_FILE: no PEM certificate in %s", t.CAFile)
		}
	}
	if t.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return opts, fmt.Errorf("TEMPORAL_TLS_CERT_FILE/TEMPORAL_TLS_KEY_FILE: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	opts.ConnectionOptions.TLS = tc
	if t.APIKey != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(t.APIKey)
	}
	return opts, nil
}
