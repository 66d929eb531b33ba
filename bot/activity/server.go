package activity

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/logging"
	"github.com/pontoon-bot/pontoon/web"
)

// Config configures a Server. ClientID is required; outside the demo so are
// ClientSecret and BotToken.
type Config struct {
	ClientID     string        // the application id
	ClientSecret string        // discord.client_secret; never logged
	APIURL       string        // Discord's base URL ("https://discord.com" or the fake's)
	BotToken     string        // for GET /applications/{app}/activity-instances/{instance}
	Origins      []string      // origins allowed besides https://{ClientID}.discordsays.com and the server's own host
	SessionTTL   time.Duration // how long a session lasts; 30m
	// WriteTimeout is how long a write to a page may wait for the page to read before
	// the page is closed; 10s.
	WriteTimeout time.Duration
	Demo         *Demo // non-nil only in `pontoon demo`: accepts the SDK mock's code
	Log          *slog.Logger
	// HTTPClient calls Discord for the OAuth2 exchange; a client with a 10s timeout
	// when nil.
	HTTPClient *http.Client
}

// Demo is the demo's stand-in for Discord's sign-in: the Embedded App SDK's mock
// authorizes anybody with its fixed code, and the member is named by the page.
type Demo struct {
	Guild, Channel string
	Member         func(ctx context.Context, name string) (userID string, err error) // adds/looks up a fake member by name
}

// Tables is what the server needs of the bot (*bot.Bot implements it): a member's view
// of a channel's table, their actions, the news that a table changed, and the page's
// words before any state tells the member's language.
type Tables interface {
	WebState(ctx context.Context, v bot.Viewer) (bot.WebState, error)
	WebAct(ctx context.Context, v bot.Viewer, a bot.WebAction) (bot.WebResult, error)
	WebWatch(guild, channel string) (changes <-chan struct{}, stop func())
	WebText(locale, key string) string
}

// Server serves the table's web page: its files, the sign-in and the sockets. Its
// methods are safe for concurrent use.
type Server struct {
	cfg    Config
	tables Tables
	log    *slog.Logger
	key    []byte // signs sessions and derives interaction ids (sessionKey)
	client *http.Client
	files  map[string]*asset
	up     websocket.Upgrader
	limits *limiter

	mu      sync.Mutex
	closed  bool
	sockets map[*socket]struct{}
	wg      sync.WaitGroup
}

// New builds a server over the bot's tables. It reads the page's files (web.Files)
// once, compressing the text ones.
func New(cfg Config, tables Tables) (*Server, error) {
	if cfg.ClientID == "" {
		return nil, errors.New("activity: no client id (discord.application_id)")
	}
	if cfg.Demo == nil && (cfg.ClientSecret == "" || cfg.BotToken == "") {
		return nil, errors.New("activity: discord.client_secret and the bot token are required to sign members in")
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = 30 * time.Minute
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 10 * time.Second
	}
	if cfg.APIURL == "" {
		cfg.APIURL = "https://discord.com"
	}
	cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	// Whoever built the logger, neither secret reaches it.
	cfg.Log = slog.New(logging.Redact(cfg.Log.Handler(), cfg.ClientSecret, cfg.BotToken))
	client := cfg.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	s := &Server{cfg: cfg, tables: tables, log: cfg.Log, key: sessionKey(cfg.ClientSecret), client: client,
		sockets: map[*socket]struct{}{}, limits: newLimiter(actionRate, actionBurst)}
	s.up = websocket.Upgrader{ReadBufferSize: 4096, WriteBufferSize: 16384, CheckOrigin: s.originOK, EnableCompression: true}
	files, err := loadAssets(web.Files)
	if err != nil {
		return nil, err
	}
	s.files = files
	return s, nil
}

// sessionKey is the key sessions are signed with: HMAC-SHA256(client secret, "pontoon
// activity session"), so a session survives a restart and is worth nothing under
// another application's secret. The demo has no secret, and signs with a key of its
// own that lasts as long as the process.
func sessionKey(secret string) []byte {
	if secret == "" {
		k := make([]byte, 32)
		_, _ = rand.Read(k)
		return k
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("pontoon activity session"))
	return m.Sum(nil)
}

// Handler serves "/" (the page's files), /api/config, /api/session and /api/socket.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/config", s.serveConfig)
	mux.HandleFunc("POST /api/session", s.serveSession)
	mux.HandleFunc("GET /api/socket", s.serveSocket)
	mux.HandleFunc("GET /", s.serveFile)
	return mux
}

// Close closes every socket (the pages reconnect to the next process) and waits for
// their goroutines.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	socks := make([]*socket, 0, len(s.sockets))
	for k := range s.sockets {
		socks = append(socks, k)
	}
	s.mu.Unlock()
	for _, k := range socks {
		k.close(websocket.CloseGoingAway, "server closing")
	}
	s.wg.Wait()
}

func (s *Server) serveConfig(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"client_id": s.cfg.ClientID, "demo": s.cfg.Demo != nil})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// originOK reports whether a socket's page comes from where the table's page is
// served: Discord's proxy for the application, this server's own host (the demo, or a
// page opened directly), or a configured origin. A request without an Origin is no
// browser's page, and is refused too.
func (s *Server) originOK(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return false
	}
	if strings.EqualFold(o, "https://"+s.cfg.ClientID+".discordsays.com") {
		return true
	}
	for _, a := range s.cfg.Origins {
		if strings.EqualFold(strings.TrimRight(a, "/"), o) {
			return true
		}
	}
	host := r.Host
	return strings.EqualFold(o, "http://"+host) || strings.EqualFold(o, "https://"+host)
}

// asset is one of the page's files, ready to serve.
type asset struct {
	body, gz []byte // gz: the body gzipped, for text; nil otherwise
	ctype    string
	etag     string
}

// compressible are the text types worth gzipping.
var compressible = map[string]bool{".html": true, ".js": true, ".mjs": true, ".css": true, ".json": true, ".txt": true, ".svg": true, ".map": true}

func loadAssets(fsys fs.FS) (map[string]*asset, error) {
	out := map[string]*asset{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		ext := path.Ext(p)
		a := &asset{body: body, ctype: mime.TypeByExtension(ext)}
		if a.ctype == "" {
			a.ctype = "application/octet-stream"
		}
		sum := sha256.Sum256(body)
		a.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
		if compressible[ext] {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			_, _ = zw.Write(body)
			_ = zw.Close()
			if buf.Len() < len(body) {
				a.gz = buf.Bytes()
			}
		}
		out["/"+p] = a
		return nil
	})
	return out, err
}

// serveFile serves one of the page's files: gzipped when the client takes it, with an
// ETag; the bundled SDK under vendor/ is cached for a day, everything else is checked
// again on each load (its name never changes when its content does).
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if p == "/" {
		p = "/index.html"
	}
	a, ok := s.files[p]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("ETag", a.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Vary", "Accept-Encoding")
	if strings.HasPrefix(p, "/vendor/") {
		h.Set("Cache-Control", "public, max-age=86400")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && match == a.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.body
	if a.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

func acceptsGzip(ae string) bool {
	for _, part := range strings.Split(ae, ",") {
		name, params, _ := strings.Cut(part, ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
