package store

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// passwordMask stands for a password in a location shown to a person, as
// pgx and net/url write it.
const passwordMask = "xxxxx"

// RedactLocation returns a database location fit to print or log: a
// PostgreSQL URL with the password of its user info and the values of its
// password and sslpassword parameters replaced by "xxxxx", a key=value
// connection string (host=… password=…) with its password values replaced,
// and a SQLite file name unchanged. It is the one place a location is made
// safe to show: Path, every error that names a database, and the commands'
// output use it.
func RedactLocation(location string) string {
	scheme := urlScheme.FindStringSubmatch(location)
	if scheme == nil {
		return keyValuePassword.ReplaceAllString(location, "${1}"+passwordMask)
	}
	u, err := url.Parse(location)
	if err != nil {
		// Where net/url cannot tell the parts apart, neither can a mask:
		// show the scheme alone.
		return scheme[0] + "(unparsable URL)"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), passwordMask)
	}
	if u.RawQuery != "" {
		// Parameter by parameter, so the shown URL keeps the operator's order
		// and spelling.
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			k, _, _ := strings.Cut(p, "=")
			if isPasswordKey(k) {
				parts[i] = k + "=" + passwordMask
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	return u.String()
}

// LocationSecrets returns the passwords a PostgreSQL location carries: the
// password of a URL's user info and the values of its password and
// sslpassword parameters, or those of a key=value connection string. The log
// scrubber masks each of them wherever it appears.
func LocationSecrets(location string) []string {
	var out []string
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if !urlScheme.MatchString(location) {
		for _, m := range keyValuePassword.FindAllStringSubmatch(location, -1) {
			v := m[2]
			if len(v) >= 2 && strings.HasPrefix(v, "'") {
				v = strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(v[1 : len(v)-1])
			}
			add(v)
		}
		return out
	}
	u, err := url.Parse(location)
	if err != nil {
		return nil
	}
	// Each password as it is and as the URL writes it, percent-encoded.
	if p, ok := u.User.Password(); ok {
		add(p)
		_, raw, _ := strings.Cut(u.User.String(), ":")
		add(raw)
	}
	for _, p := range strings.Split(u.RawQuery, "&") {
		if k, v, _ := strings.Cut(p, "="); isPasswordKey(k) {
			add(unescape(v))
			add(v)
		}
	}
	return out
}

// isPasswordKey reports whether a raw query key names a password parameter,
// as libpq and pgx read it: password or sslpassword, in any case, however
// percent-encoded.
func isPasswordKey(raw string) bool {
	k := unescape(raw)
	return strings.EqualFold(k, "password") || strings.EqualFold(k, "sslpassword")
}

func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

var (
	// urlScheme starts a location written as a URL.
	urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)
	// keyValuePassword is a password in a key=value connection string:
	// password=secret or password='a secret with \' quotes'.
	keyValuePassword = regexp.MustCompile(`(?i)(\b(?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s']+)`)
)
