package api_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"

	"kudos/api"
)

// TestOversizedBodyOf3MBReachesAWriteFirstClient: a client that writes its
// whole 3 MB body before reading (as browsers and curl do) writes it without
// a reset and then reads the 413 in the one shape (issue 15: the server
// closed with the body unread, and the reset cut the client off).
func TestOversizedBodyOf3MBReachesAWriteFirstClient(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = h.app.Listener(api.LingeringListener(ln), fiber.ListenConfig{DisableStartupMessage: true}) }()
	defer func() { _ = h.app.Shutdown() }()
	body := `{"email":"` + strings.Repeat("a", 3<<20) + `"}`
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	head := "POST /v1/auth/signin HTTP/1.1\r\nHost: kudos\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n"
	if _, err := conn.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	// In pieces, as a network delivers them: the server has answered and
	// closed long before the last one.
	for off := 0; off < len(body); off += 64 << 10 {
		if _, err := conn.Write([]byte(body[off:min(len(body), off+64<<10)])); err != nil {
			t.Fatalf("writing the body at %d KB: %v", off>>10, err)
		}
		time.Sleep(2 * time.Millisecond)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var out struct {
		Error struct{ Code string } `json:"error"`
	}
	if res.StatusCode != 413 || json.Unmarshal(raw, &out) != nil || out.Error.Code != "payload_too_large" {
		t.Fatalf("%d %s", res.StatusCode, raw)
	}
}
