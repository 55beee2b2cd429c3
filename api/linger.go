package api

import (
	"io"
	"net"
	"sync"
	"time"
)

// Lingering close: when the server refuses a request before reading its
// whole body (413 for a body over BodyLimit) and closes the connection with
// the body still arriving, the kernel answers the client's next bytes with a
// reset, and a client still writing (a browser, curl) sees "connection
// reset" instead of the 413 already sent. So a connection is half-closed
// (the answer is complete) and what the client still sends is read and
// dropped, up to lingerBytes or lingerTime, before it is closed for good.
const (
	lingerBytes = 16 << 20
	lingerTime  = 5 * time.Second
)

// LingeringListener wraps ln so that its connections close lingeringly.
func LingeringListener(ln net.Listener) net.Listener { return lingerListener{ln} }

type lingerListener struct{ net.Listener }

func (l lingerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		return &lingerConn{TCPConn: tc}, nil
	}
	return c, nil
}

type lingerConn struct {
	*net.TCPConn
	once sync.Once
}

// Close sends the end of the answer at once and drains the connection in
// the background, so that no server goroutine waits for a slow client.
func (c *lingerConn) Close() error {
	c.once.Do(func() {
		if err := c.TCPConn.CloseWrite(); err != nil {
			_ = c.TCPConn.Close()
			return
		}
		go func() {
			_ = c.TCPConn.SetReadDeadline(time.Now().Add(lingerTime))
			_, _ = io.CopyN(io.Discard, c.TCPConn, lingerBytes)
			_ = c.TCPConn.Close()
		}()
	})
	return nil
}
