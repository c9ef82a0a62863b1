package testkit

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// WriteCut answers w with status and header, a Content-Length of
// len(body), and only body[:sent]; then it closes the connection. So an
// answer's body is cut, as a server that hangs up part way through does
// behind a reverse proxy.
func WriteCut(tb testing.TB, w http.ResponseWriter, status int, header http.Header, body []byte, sent int) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		tb.Error(err)
		return
	}
	defer conn.Close()
	var head strings.Builder
	fmt.Fprintf(&head, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	for _, k := range slices.Sorted(maps.Keys(header)) {
		for _, v := range header[k] {
			fmt.Fprintf(&head, "%s: %s\r\n", k, v)
		}
	}
	fmt.Fprintf(&head, "Content-Length: %d\r\n\r\n", len(body))
	_, _ = buf.WriteString(head.String())
	_, _ = buf.Write(body[:sent])
	_ = buf.Flush()
}
