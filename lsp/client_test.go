package lsp

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/lorekit/lore/internal/golden"
)

// client is a scripted LSP client driving a Server over a pipe, recording
// every exchange as text for a golden file.
type client struct {
	t     *testing.T
	root  string
	conn  *jsonrpc2.Conn
	diags chan published
	done  chan error
	log   strings.Builder
}

func startClient(t *testing.T, root string, opts map[string]any) *client {
	t.Helper()
	srvSide, cliSide := net.Pipe()
	s := New()
	s.Debounce = 20 * time.Millisecond
	c := &client{t: t, root: root, diags: make(chan published, 4096), done: make(chan error, 1)}
	go func() { c.done <- s.Serve(context.Background(), srvSide) }()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(cliSide, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			if req.Method == "textDocument/publishDiagnostics" && req.Params != nil {
				var p published
				if err := json.Unmarshal(*req.Params, &p); err == nil {
					c.diags <- p
				}
			}
			return nil, nil
		}))
	var res json.RawMessage
	c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(root), "capabilities": map[string]any{},
		"initializationOptions": opts}, &res)
	c.notify("initialized", map[string]any{})
	return c
}

func (c *client) rel(s string) string {
	s = strings.ReplaceAll(s, pathToURI(c.root), "file://$ROOT")
	return strings.ReplaceAll(s, c.root, "$ROOT")
}

func (c *client) record(what string, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		c.t.Fatal(err)
	}
	c.log.WriteString("== " + c.rel(what) + "\n" + c.rel(string(b)) + "\n")
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) uri(rel string) string { return pathToURI(filepath.Join(c.root, rel)) }

func (c *client) open(rel string) {
	c.t.Helper()
	data, err := os.ReadFile(filepath.Join(c.root, rel))
	if err != nil {
		c.t.Fatal(err)
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": c.uri(rel), "languageId": "yaml", "version": 1, "text": string(data)}})
}

func (c *client) change(rel string, version int, text string) {
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": c.uri(rel), "version": version},
		"contentChanges": []map[string]any{{"text": text}}})
}

// waitDiags waits for the diagnostics of rel, recorded.
func (c *client) waitDiags(rel string) []gotDiag {
	c.t.Helper()
	want := c.uri(rel)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case p := <-c.diags:
			if p.URI == want {
				c.record("publishDiagnostics "+rel, p.Diagnostics)
				return p.Diagnostics
			}
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s", rel)
		}
	}
}

// at asks method at a position of rel and records the answer.
func (c *client) at(method, rel string, line, char int, extra map[string]any) json.RawMessage {
	c.t.Helper()
	p := map[string]any{"textDocument": map[string]any{"uri": c.uri(rel)}, "position": map[string]any{"line": line, "character": char}}
	for k, v := range extra {
		p[k] = v
	}
	var res json.RawMessage
	c.call(method, p, &res)
	var v any
	_ = json.Unmarshal(res, &v)
	c.record(method+" "+rel+":"+itoa(line)+":"+itoa(char), v)
	return res
}

func (c *client) doc(method, rel string, extra map[string]any) json.RawMessage {
	c.t.Helper()
	p := map[string]any{"textDocument": map[string]any{"uri": c.uri(rel)}}
	for k, v := range extra {
		p[k] = v
	}
	var res json.RawMessage
	c.call(method, p, &res)
	var v any
	_ = json.Unmarshal(res, &v)
	c.record(method+" "+rel, v)
	return res
}

// finish shuts the server down, checks it ended cleanly and compares the
// session with its golden file.
func (c *client) finish(name string) {
	c.t.Helper()
	var res json.RawMessage
	c.call("shutdown", nil, &res)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		c.t.Fatal("the server did not exit")
	}
	golden.Check(c.t, filepath.Join("testdata", "session", name+".golden"), []byte(c.log.String()))
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// copyTree copies a fixture folder (or file) into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// published and gotDiag are publishDiagnostics as a client reads it (glsp's
// IntegerOrString cannot be decoded into).
type published struct {
	URI         string    `json:"uri"`
	Diagnostics []gotDiag `json:"diagnostics"`
}

type gotDiag struct {
	Range           protocol.Range `json:"range"`
	Severity        int            `json:"severity"`
	Code            string         `json:"code"`
	CodeDescription struct {
		HRef string `json:"href"`
	} `json:"codeDescription"`
	Message            string `json:"message"`
	RelatedInformation []struct {
		Location protocol.Location `json:"location"`
		Message  string            `json:"message"`
	} `json:"relatedInformation"`
}

func diagWith(ds []gotDiag, code string) *gotDiag {
	for i := range ds {
		if ds[i].Code == code {
			return &ds[i]
		}
	}
	return nil
}

func rng(l1, c1, l2, c2 uint32) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
}
