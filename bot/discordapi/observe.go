package discordapi

import (
	"net/http"
	"strings"
)

// RESTObserver is told of every REST request a session makes, once its answer (or
// transport error) is in: the route (see Route), the HTTP status (0 when no answer came)
// and, for a 429, Discord's X-RateLimit-Scope ("user", "global" or "shared"; "" if
// absent). It must be safe for concurrent use.
type RESTObserver func(route string, status int, scope string)

type observeTransport struct {
	next    http.RoundTripper
	observe RESTObserver
}

// ObserveTransport returns a RoundTripper that hands every request to next (nil: the
// keep-alive transport NewTransport uses by default) and reports it to observe. Put it under NewSession's rewriting
// by setting it as the Transport of the client given to NewSession: it then sees every
// REST call of the session, discordgo's retries after a 429 included.
func ObserveTransport(next http.RoundTripper, observe RESTObserver) http.RoundTripper {
	if next == nil {
		next = keepAliveTransport()
	}
	return &observeTransport{next: next, observe: observe}
}

// RoundTrip implements http.RoundTripper.
func (t *observeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	route := Route(req.Method, req.URL.Path)
	switch {
	case err != nil:
		t.observe(route, 0, "")
	case resp.StatusCode == http.StatusTooManyRequests:
		t.observe(route, resp.StatusCode, resp.Header.Get("X-RateLimit-Scope"))
	default:
		t.observe(route, resp.StatusCode, "")
	}
	return resp, err
}

// Route names a REST request by method and path template, the way Discord groups its
// rate limits: "POST /channels/{id}/messages", "POST /interactions/{id}/{token}/callback",
// "PATCH /webhooks/{id}/{token}/messages/@original". Ids become {id} and the tokens of
// interaction and webhook paths {token}, so a route is fit for a metric label (few
// values, no secret). Anything before /api/vN (a base URL's path) is dropped; a path
// without /api/vN keeps its shape with the same replacements.
func Route(method, path string) string {
	if i := strings.Index(path, "/api/v"); i >= 0 {
		rest := path[i+len("/api/v"):]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			path = rest[j:]
		} else {
			path = "/"
		}
	}
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i, s := range segs {
		switch {
		case s == "":
		case isID(s):
			segs[i] = "{id}"
		case i >= 2 && (segs[i-2] == "interactions" || segs[i-2] == "webhooks"):
			segs[i] = "{token}" // /interactions/{id}/{token}/..., /webhooks/{id}/{token}/...
		case i >= 1 && segs[i-1] == "reactions":
			segs[i] = "{emoji}"
		}
	}
	return method + " /" + strings.Join(segs, "/")
}

// isID reports whether a path segment is a snowflake (digits only).
func isID(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
