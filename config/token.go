package config

import (
	"encoding/base64"
	"strings"
)

// tokenProblem says what keeps t from being a Discord bot token, or "" when it
// has the shape of one: three parts separated by dots, each in base64url's
// alphabet, the first the bot's user id (a Discord id, digits) in base64. The
// check is on the shape alone, so it never needs Discord; what it refuses is a
// placeholder, a truncated paste or another secret in the wrong variable. The
// log scrubber masks the token wherever it appears, so a token of a few
// letters would mask those letters in every line; a real token never appears
// by chance. The problem never quotes the value.
func tokenProblem(t string) string {
	const want = "is not a Discord bot token: a bot token is three parts separated by dots, the first the bot's id in base64 " +
		"(Developer Portal, your application, Bot, Reset Token)"
	parts := strings.Split(t, ".")
	if len(parts) != 3 {
		return want
	}
	for _, p := range parts {
		if p == "" || strings.ContainsFunc(p, notBase64URL) {
			return want
		}
	}
	id, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[0], "="))
	if err != nil || !snowflake.Match(id) {
		return want
	}
	return ""
}

func notBase64URL(r rune) bool {
	return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '=')
}
