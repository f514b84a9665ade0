package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// DefaultDebounce is how long after the last keystroke a book is analysed
// again: typing does not re-lint on every character, and a pause shows the
// findings of what was typed.
const DefaultDebounce = 150 * time.Millisecond

// Server is one language server session: the open documents, the books they
// belong to and each book's latest analysis.
type Server struct {
	// Debounce is the wait after a change before analysing (DefaultDebounce).
	Debounce time.Duration
	// Version is lore's version, for serverInfo.
	Version string
	// Log receives the connection's own complaints (stderr in lore lsp).
	Log io.Writer

	mu       sync.Mutex
	conn     *jsonrpc2.Conn
	root     string
	opts     Options
	docs     map[string]*text     // open documents by path
	books    map[string]*analysis // latest analysis by book path
	dirty    map[string]bool      // books changed since their analysis
	shown    map[string]string    // file → the diagnostics last published (JSON)
	timer    *time.Timer
	shutdown bool
	// analysed, when set, is called after each analysis (tests and the
	// benchmark count them).
	analysed func(book string)
}

// New is a server with the default settings.
func New() *Server {
	return &Server{Debounce: DefaultDebounce, Log: io.Discard, docs: map[string]*text{}, books: map[string]*analysis{},
		dirty: map[string]bool{}, shown: map[string]string{}}
}

// ErrNoShutdown is Serve's error when the client said exit without
// shutdown first (LSP: the server then exits with code 1).
var ErrNoShutdown = fmt.Errorf("the client exited without shutdown")

// Serve speaks LSP on rwc (standard input and output in lore lsp) until the
// client says exit or closes the connection.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	// The connection reads as soon as it is made: each message hands the
	// handler the connection, which publishing then uses (under s.mu).
	h := jsonrpc2.HandlerWithError(func(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		s.mu.Lock()
		s.conn = conn
		s.mu.Unlock()
		return s.handle(ctx, conn, req)
	})
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{}), h,
		jsonrpc2.SetLogger(log.New(s.Log, "lore lsp: ", 0)))
	<-conn.DisconnectNotify()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
	}
	if !s.shutdown {
		return ErrNoShutdown
	}
	return nil
}

// handle answers one message. A panic anywhere in answering it is an
// error response (or, for a notification, a line in the log), never the
// end of the server.
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("lore lsp: %s: %v", req.Method, r)}
		}
	}()
	params := json.RawMessage("null")
	if req.Params != nil {
		params = *req.Params
	}
	decode := func(v any) error {
		if err := json.Unmarshal(params, v); err != nil {
			return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: err.Error()}
		}
		return nil
	}
	var pos protocol.TextDocumentPositionParams
	switch req.Method {
	case "initialize":
		var p struct {
			RootURI               *string         `json:"rootUri"`
			InitializationOptions json.RawMessage `json:"initializationOptions"`
			WorkspaceFolders      []struct {
				URI string `json:"uri"`
			} `json:"workspaceFolders"`
		}
		if err := decode(&p); err != nil {
			return nil, err
		}
		s.mu.Lock()
		if p.RootURI != nil {
			s.root = uriToPath(*p.RootURI)
		} else if len(p.WorkspaceFolders) > 0 {
			s.root = uriToPath(p.WorkspaceFolders[0].URI)
		}
		s.setOptions(p.InitializationOptions)
		s.mu.Unlock()
		return s.capabilities(), nil
	case "initialized", "$/cancelRequest", "$/setTrace", "workspace/didChangeWorkspaceFolders":
		return nil, nil
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return nil, nil
	case "exit":
		go conn.Close()
		return nil, nil
	case "workspace/didChangeConfiguration":
		var p struct {
			Settings map[string]json.RawMessage `json:"settings"`
		}
		if err := decode(&p); err != nil {
			return nil, err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if o, ok := p.Settings["lore"]; ok {
			s.setOptions(o)
		}
		s.reanalyseAll(ctx)
		return nil, nil
	case "workspace/didChangeWatchedFiles":
		s.mu.Lock()
		defer s.mu.Unlock()
		s.reanalyseAll(ctx)
		return nil, nil
	case "textDocument/didOpen":
		var p protocol.DidOpenTextDocumentParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		path := uriToPath(p.TextDocument.URI)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.docs[path] = newText([]byte(p.TextDocument.Text))
		if b := s.bookFor(path); b != "" {
			s.analyse(ctx, b)
		}
		return nil, nil
	case "textDocument/didChange":
		var p struct {
			TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
			ContentChanges []struct {
				Range *protocol.Range `json:"range"`
				Text  string          `json:"text"`
			} `json:"contentChanges"`
		}
		if err := decode(&p); err != nil {
			return nil, err
		}
		path := uriToPath(p.TextDocument.URI)
		s.mu.Lock()
		defer s.mu.Unlock()
		t := s.docs[path]
		for _, c := range p.ContentChanges {
			if c.Range == nil || t == nil {
				t = newText([]byte(c.Text))
				continue
			}
			a, b := t.offset(c.Range.Start), t.offset(c.Range.End)
			t = newText([]byte(t.s[:a] + c.Text + t.s[max(a, b):]))
		}
		if t == nil {
			return nil, nil
		}
		s.docs[path] = t
		if b := s.bookFor(path); b != "" {
			s.dirty[b] = true
			s.schedule(ctx)
		}
		return nil, nil
	case "textDocument/didSave":
		var p protocol.DidSaveTextDocumentParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		path := uriToPath(p.TextDocument.URI)
		s.mu.Lock()
		defer s.mu.Unlock()
		if p.Text != nil {
			s.docs[path] = newText([]byte(*p.Text))
		}
		if b := s.bookFor(path); b != "" {
			s.analyse(ctx, b)
		}
		return nil, nil
	case "textDocument/didClose":
		var p protocol.DidCloseTextDocumentParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		path := uriToPath(p.TextDocument.URI)
		s.mu.Lock()
		defer s.mu.Unlock()
		b := s.bookFor(path)
		delete(s.docs, path)
		if b == path {
			// A book of one file is gone from the editor: its findings go
			// with it.
			s.forget(ctx, b)
		} else if b != "" {
			s.analyse(ctx, b) // the file on disk again
		}
		return nil, nil
	case "textDocument/hover":
		if err := decode(&pos); err != nil {
			return nil, err
		}
		a, path, line, col := s.at(ctx, pos)
		if a == nil {
			return nil, nil
		}
		md := a.hover(path, line, col)
		if md == "" {
			return nil, nil
		}
		return protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}}, nil
	case "textDocument/definition":
		if err := decode(&pos); err != nil {
			return nil, err
		}
		a, path, line, col := s.at(ctx, pos)
		if a == nil {
			return nil, nil
		}
		return a.locations(a.definitions(path, line, col)), nil
	case "textDocument/references":
		if err := decode(&pos); err != nil {
			return nil, err
		}
		a, path, line, col := s.at(ctx, pos)
		if a == nil {
			return nil, nil
		}
		return a.locations(a.references(path, line, col)), nil
	case "textDocument/codeAction":
		var p protocol.CodeActionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		a, path := s.doc(ctx, p.TextDocument.URI)
		if a == nil {
			return []protocol.CodeAction{}, nil
		}
		out := a.codeActions(path, p.Range)
		if out == nil {
			out = []protocol.CodeAction{}
		}
		return out, nil
	case "textDocument/completion":
		var p protocol.CompletionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		a, path := s.doc(ctx, p.TextDocument.URI)
		t := s.textOf(path, a)
		if a == nil || t == nil {
			return protocol.CompletionList{Items: []protocol.CompletionItem{}}, nil
		}
		items := a.completion(path, t, p.Position)
		if items == nil {
			items = []protocol.CompletionItem{}
		}
		return protocol.CompletionList{Items: items}, nil
	case "textDocument/documentSymbol":
		var p protocol.DocumentSymbolParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		a, path := s.doc(ctx, p.TextDocument.URI)
		if a == nil {
			return []protocol.DocumentSymbol{}, nil
		}
		return a.symbols(path), nil
	case "textDocument/formatting":
		var p protocol.DocumentFormattingParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		a, path := s.doc(ctx, p.TextDocument.URI)
		if a == nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "not a lorebook file lore knows"}
		}
		eds, err := a.format(path)
		if err != nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
		}
		return eds, nil
	}
	if req.Notif {
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "lore lsp does not answer " + req.Method}
}

func (s *Server) setOptions(raw json.RawMessage) {
	if len(raw) == 0 {
		return
	}
	var o Options
	if json.Unmarshal(raw, &o) == nil {
		s.opts = o
	}
}

// capabilities are what the server answers; positions are UTF-16 (3.17's
// positionEncoding, which every client understands).
func (s *Server) capabilities() any {
	version := s.Version
	save := true
	type caps struct {
		protocol.ServerCapabilities
		PositionEncoding string `json:"positionEncoding"`
	}
	c := caps{PositionEncoding: "utf-16"}
	c.TextDocumentSync = protocol.TextDocumentSyncOptions{OpenClose: &save, Change: ptr(protocol.TextDocumentSyncKindIncremental),
		Save: protocol.SaveOptions{IncludeText: ptr(false)}}
	c.HoverProvider = true
	c.DefinitionProvider = true
	c.ReferencesProvider = true
	c.CodeActionProvider = protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, "source.fixAll.lore"}}
	c.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{":", " ", "{"}}
	c.DocumentSymbolProvider = true
	c.DocumentFormattingProvider = true
	return struct {
		Capabilities caps                                `json:"capabilities"`
		ServerInfo   protocol.InitializeResultServerInfo `json:"serverInfo"`
	}{c, protocol.InitializeResultServerInfo{Name: "lore", Version: &version}}
}

func ptr[T any](v T) *T { return &v }
