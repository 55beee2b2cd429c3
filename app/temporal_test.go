package app_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"

	"kudos/app"
	"kudos/config"
	"kudos/internal/testenv"
)

// pki is a throwaway CA with the files of a server and a client
// certificate signed by it.
type pki struct {
	dir                       string
	ca                        *x509.Certificate
	caKey                     *ecdsa.PrivateKey
	caFile, certFile, keyFile string
	serverCert                tls.Certificate
	pool                      *x509.CertPool
}

const serverName = "temporal.kudos.test"

func newPKI(t *testing.T) *pki {
	t.Helper()
	p := &pki{dir: t.TempDir()}
	var err error
	p.caKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kudos test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &p.caKey.PublicKey, p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	p.ca, _ = x509.ParseCertificate(der)
	p.pool = x509.NewCertPool()
	p.pool.AddCert(p.ca)
	p.caFile = p.write(t, "ca.pem", "CERTIFICATE", der)
	p.serverCert = p.issue(t, "server", x509.ExtKeyUsageServerAuth, serverName)
	client := p.issue(t, "client", x509.ExtKeyUsageClientAuth, "")
	p.certFile = p.write(t, "client.pem", "CERTIFICATE", client.Certificate[0])
	keyDER, err := x509.MarshalPKCS8PrivateKey(client.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	p.keyFile = p.write(t, "client-key.pem", "PRIVATE KEY", keyDER)
	return p
}

func (p *pki) issue(t *testing.T, cn string, usage x509.ExtKeyUsage, dns string) tls.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage}}
	if dns != "" {
		tmpl.DNSNames = []string{dns}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.ca, &key.PublicKey, p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

func (p *pki) write(t *testing.T, name, typ string, der []byte) string {
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// tlsProxy terminates TLS (requiring a client certificate of the CA) and
// forwards the bytes to the plaintext Temporal at upstream: a cluster that
// speaks only TLS and mTLS, in front of the shared dev server.
func tlsProxy(t *testing.T, p *pki, upstream string) string {
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{p.serverCert},
		ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: p.pool, NextProtos: []string{"h2"}, MinVersion: tls.VersionTLS12})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				if err := c.(*tls.Conn).Handshake(); err != nil {
					return
				}
				u, err := net.Dial("tcp", upstream)
				if err != nil {
					return
				}
				defer u.Close()
				done := make(chan struct{}, 2)
				go func() { _, _ = io.Copy(u, c); done <- struct{}{} }()
				go func() { _, _ = io.Copy(c, u); done <- struct{}{} }()
				<-done
			}()
		}
	}()
	return ln.Addr().String()
}

func loadConfig(t *testing.T, kv map[string]string) *config.Config {
	t.Helper()
	cfg, err := config.LoadFrom(func(k string) string { return kv[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func dial(t *testing.T, cfg *config.Config) (client.Client, error) {
	opts, err := app.TemporalOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := client.DialContext(ctx, opts)
	if err == nil {
		t.Cleanup(c.Close)
	}
	return c, err
}

// TestTemporalOverMutualTLS: with the CA, the server name and a client
// certificate from the environment, the binary's client reaches a Temporal
// that only speaks mTLS, and works on it; without the client certificate,
// or trusting another CA, it does not get in.
func TestTemporalOverMutualTLS(t *testing.T) {
	p := newPKI(t)
	addr := tlsProxy(t, p, testenv.TemporalAddress(t))
	env := map[string]string{"TEMPORAL_ADDRESS": addr, "TEMPORAL_TLS_CA_FILE": p.caFile,
		"TEMPORAL_TLS_SERVER_NAME": serverName, "TEMPORAL_TLS_CERT_FILE": p.certFile, "TEMPORAL_TLS_KEY_FILE": p.keyFile}
	c, err := dial(t, loadConfig(t, env))
	if err != nil {
		t.Fatalf("mTLS dial: %v", err)
	}
	if _, err := c.WorkflowService().DescribeNamespace(context.Background(),
		&workflowservice.DescribeNamespaceRequest{Namespace: "default"}); err != nil {
		t.Fatalf("describe namespace over mTLS: %v", err)
	}

	noCert := map[string]string{"TEMPORAL_ADDRESS": addr, "TEMPORAL_TLS_CA_FILE": p.caFile, "TEMPORAL_TLS_SERVER_NAME": serverName}
	if _, err := dial(t, loadConfig(t, noCert)); err == nil {
		t.Error("dialled an mTLS server without a client certificate")
	}
	other := newPKI(t)
	wrongCA := map[string]string{"TEMPORAL_ADDRESS": addr, "TEMPORAL_TLS_CA_FILE": other.caFile,
		"TEMPORAL_TLS_SERVER_NAME": serverName, "TEMPORAL_TLS_CERT_FILE": p.certFile, "TEMPORAL_TLS_KEY_FILE": p.keyFile}
	if _, err := dial(t, loadConfig(t, wrongCA)); err == nil {
		t.Error("trusted a server certificate of another CA")
	}
	wrongName := map[string]string{"TEMPORAL_ADDRESS": addr, "TEMPORAL_TLS_CA_FILE": p.caFile,
		"TEMPORAL_TLS_SERVER_NAME": "evil.example", "TEMPORAL_TLS_CERT_FILE": p.certFile, "TEMPORAL_TLS_KEY_FILE": p.keyFile}
	if _, err := dial(t, loadConfig(t, wrongName)); err == nil {
		t.Error("accepted a server certificate for another name")
	}
}

// frontend is a Temporal frontend that answers GetSystemInfo (what a dial
// asks first) and remembers the authorization it was sent.
type frontend struct {
	workflowservice.UnimplementedWorkflowServiceServer
	mu   sync.Mutex
	auth []string
}

func (f *frontend) GetSystemInfo(ctx context.Context, _ *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	f.mu.Lock()
	f.auth = append(f.auth, md.Get("authorization")...)
	f.mu.Unlock()
	return &workflowservice.GetSystemInfoResponse{}, nil
}

// TestTemporalAPIKey: TEMPORAL_API_KEY (Temporal Cloud) is sent as a bearer
// token, over TLS only.
func TestTemporalAPIKey(t *testing.T) {
	p := newPKI(t)
	srv := grpc.NewServer(grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{p.serverCert}})))
	f := &frontend{}
	workflowservice.RegisterWorkflowServiceServer(srv, f)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)
	const key = "kudos-test-api-key"
	cfg := loadConfig(t, map[string]string{"TEMPORAL_ADDRESS": ln.Addr().String(), "TEMPORAL_API_KEY": key,
		"TEMPORAL_TLS_CA_FILE": p.caFile, "TEMPORAL_TLS_SERVER_NAME": serverName})
	if !cfg.Temporal.TLS {
		t.Fatal("an API key did not imply TLS")
	}
	if _, err := dial(t, cfg); err != nil {
		t.Fatalf("dial with an API key: %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.auth) == 0 || f.auth[0] != "Bearer "+key {
		t.Fatalf("authorization sent: %q", f.auth)
	}
}
