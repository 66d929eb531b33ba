package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Activity is the table's web page, served as a Discord Activity (package
// bot/activity): where it listens and which page origins its sockets take. Its
// keys sit under activity; the application's client secret, which signs members
// in, is discord.client_secret (Discord.ClientSecret).
type Activity struct {
	// Listen (activity.listen) is the host:port the page, its sign-in and its
	// sockets are served on, behind the TLS proxy the Developer Portal's URL
	// mapping points at; "" (the default) serves no page and shows no Open table
	// button.
	Listen string
	// Origins (activity.origins) are page origins (scheme://host[:port]) whose
	// sockets are taken besides Discord's proxy for the application
	// (https://<application id>.discordsays.com) and the listener's own host.
	Origins []string
}

// activityFields are the keys of Activity and the client secret, in the order of
// config.example.yaml.
var activityFields = []field{
	{"activity.listen", func(c *Config) any { return c.Activity.Listen },
		func(c *Config, v any) error { return decodeString(v, &c.Activity.Listen) }},
	{"activity.origins", func(c *Config) any { return c.Activity.Origins },
		func(c *Config, v any) error { return decodeStrings(v, &c.Activity.Origins) }},
}

var clientSecretField = field{"discord.client_secret", func(c *Config) any { return c.Discord.ClientSecret },
	func(c *Config, v any) error { return decodeSecret(v, &c.Discord.ClientSecret) }}

// The client secret follows the discord section's other keys (after
// discord.interactions_max_connections); the activity section closes the file.
func init() {
	at := 0
	for i, f := range fields {
		if strings.HasPrefix(f.key, "discord.") {
			at = i + 1
		}
	}
	fields = append(fields[:at], append([]field{clientSecretField}, fields[at:]...)...)
	fields = append(fields, activityFields...)
}

// decodeStrings reads a list: a YAML sequence, or text with the items separated by
// commas (an environment variable).
func decodeStrings(v any, dst *[]string) error {
	var out []string
	switch x := v.(type) {
	case []string:
		out = x
	case []any:
		for _, it := range x {
			s, ok := it.(string)
			if !ok {
				return fmt.Errorf("must be a list of text, not %s", show(v))
			}
			out = append(out, s)
		}
	case string:
		for _, s := range strings.Split(x, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	default:
		return fmt.Errorf("must be a list of text, not %s", show(v))
	}
	if len(out) == 0 {
		out = nil // none, as the default
	}
	*dst = out
	return nil
}

// Validate checks the activity keys and what they need of the discord section (the
// client secret and the application id); Config.Validate calls it.
func (a Activity) Validate(d Discord) error {
	bad := func(key, format string, args ...any) error {
		return &Error{Key: key, Problem: fmt.Sprintf(format, args...)}
	}
	if s := d.ClientSecret.Reveal(); s != "" && (len(s) < 16 || len(s) > 256 || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r > '~' })) {
		// A Secret: the message says what is wrong with it, never the text.
		return bad("discord.client_secret", "is %d characters, must be the application's client secret (Developer Portal, OAuth2): 16 to 256 visible ASCII characters", len(s))
	}
	if a.Listen == "" {
		return nil
	}
	if _, port, err := net.SplitHostPort(a.Listen); err != nil || port == "" {
		return bad("activity.listen", "is %s, must be host:port such as :8080 or 127.0.0.1:8080, or empty for none", show(a.Listen))
	}
	if d.ClientSecret == "" {
		return bad("discord.client_secret", "is empty, but activity.listen is set: members sign in to the table's page with the application's client secret (Developer Portal, OAuth2)")
	}
	if d.ApplicationID == "" {
		return bad("discord.application_id", "is empty, but activity.listen is set: the page's sign-in names the application")
	}
	for _, o := range a.Origins {
		if err := checkOrigin(o); err != nil {
			return bad("activity.origins", "has %s, %v", show(o), err)
		}
	}
	return nil
}

func checkOrigin(o string) error {
	u, err := url.Parse(o)
	switch {
	case err != nil || u.Host == "":
		return errors.New("must be scheme://host[:port] such as https://pontoon.example.com")
	case u.Scheme != "http" && u.Scheme != "https":
		return errors.New("must start with http:// or https://")
	case u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return errors.New("must be an origin only, with no path, query or user")
	}
	return nil
}
