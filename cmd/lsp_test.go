package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// frames is an LSP session as the bytes a client writes: each message with
// its Content-Length header.
func frames(msgs ...map[string]any) string {
	var b strings.Builder
	for _, m := range msgs {
		m["jsonrpc"] = "2.0"
		body, _ := json.Marshal(m)
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	return b.String()
}

// unframe splits the server's output into its messages.
func unframe(t *testing.T, out string) []map[string]any {
	t.Helper()
	r := bufio.NewReader(strings.NewReader(out))
	var msgs []map[string]any
	for {
		h, err := textproto.NewReader(r).ReadMIMEHeader()
		if err == io.EOF {
			return msgs
		}
		if err != nil {
			t.Fatalf("bad header in %q: %v", out, err)
		}
		n, _ := strconv.Atoi(h.Get("Content-Length"))
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
}

// TestLSPCommand runs `lore lsp` on standard input and output: initialize,
// didOpen of the bundled example, hover, shutdown, exit → exit code 0 and
// the example's three warnings published on places.yaml.
func TestLSPCommand(t *testing.T) {
	abs, _ := filepath.Abs("../fixtures/eldoria/book/entries/places.yaml")
	text, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	uri := "file://" + filepath.ToSlash(abs)
	in := frames(
		map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}},
		map[string]any{"method": "initialized", "params": map[string]any{}},
		map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": string(text)}}},
		map[string]any{"id": 2, "method": "textDocument/hover", "params": map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 0, "character": 8}}},
		map[string]any{"id": 3, "method": "shutdown"},
		map[string]any{"method": "exit"},
	)
	var out, errb bytes.Buffer
	code := Main([]string{"lsp"}, IO{Stdin: strings.NewReader(in), Stdout: &out, Stderr: &errb})
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	msgs := unframe(t, out.String())
	var initOK, hoverOK bool
	warnings := -1
	for _, m := range msgs {
		switch {
		case m["id"] == 1.0:
			res, _ := m["result"].(map[string]any)
			caps, _ := res["capabilities"].(map[string]any)
			info, _ := res["serverInfo"].(map[string]any)
			initOK = caps["hoverProvider"] == true && caps["positionEncoding"] == "utf-16" && info["name"] == "lore"
		case m["id"] == 2.0:
			res, _ := m["result"].(map[string]any)
			c, _ := res["contents"].(map[string]any)
			v, _ := c["value"].(string)
			hoverOK = strings.Contains(v, "**entry** `sleeping-stag`")
		case m["method"] == "textDocument/publishDiagnostics":
			p, _ := m["params"].(map[string]any)
			if p["uri"] == uri {
				ds, _ := p["diagnostics"].([]any)
				warnings = len(ds)
			}
		}
	}
	if !initOK || !hoverOK || warnings != 3 {
		t.Errorf("initialize ok %v, hover ok %v, %d diagnostics on places.yaml (want 3); output:\n%s", initOK, hoverOK, warnings, out.String())
	}

	// exit without shutdown: exit code 1, as LSP says (and --stdio, which
	// vscode-languageclient passes, is accepted).
	code = Main([]string{"lsp", "--stdio"}, IO{Stdin: strings.NewReader(frames(map[string]any{"method": "exit"})), Stdout: &out, Stderr: &errb})
	if code != 1 {
		t.Errorf("exit without shutdown: exit %d, want 1", code)
	}
}
