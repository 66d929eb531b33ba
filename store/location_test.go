package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pontoon-bot/pontoon/store"
)

// A location is shown without any password it carries, wherever it is written: the
// URL's user info, a password or sslpassword parameter (any case, percent-encoded), or
// a key=value connection string; the rest stays as the operator wrote it.
func TestRedactLocationHidesEveryPassword(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"postgres://u:pw1@h:5432/db?sslmode=disable", "postgres://u:xxxxx@h:5432/db?sslmode=disable"},
		{"postgres://u@h/db?sslmode=disable&password=pw2", "postgres://u@h/db?sslmode=disable&password=xxxxx"},
		{"postgresql://u@h/db?PASSWORD=pw3&search_path=s", "postgresql://u@h/db?PASSWORD=xxxxx&search_path=s"},
		{"postgres://u@h/db?pass%77ord=pw4", "postgres://u@h/db?pass%77ord=xxxxx"},
		{"postgres://u@h/db?sslpassword=pw5", "postgres://u@h/db?sslpassword=xxxxx"},
		{"postgres://u:p%40w6@h/db", "postgres://u:xxxxx@h/db"},
		{"host=h user=u password=pw7 dbname=db", "host=h user=u password=xxxxx dbname=db"},
		{"host=h password='p w\\'8' dbname=db", "host=h password=xxxxx dbname=db"},
		{"host=h password = pw9", "host=h password = xxxxx"},
		{"postgres://u:pw10@h:port/db", "postgres://(unparsable URL)"},
		{"data/pontoon.db", "data/pontoon.db"},
	} {
		got := store.RedactLocation(tt.in)
		assert.Equal(t, tt.want, got, tt.in)
		assert.NotContains(t, got, "pw", tt.in)
	}
}

// LocationSecrets names each password a location carries, decoded and as written, for
// the log scrubber.
func TestLocationSecretsNamesThePasswords(t *testing.T) {
	assert.Equal(t, []string{"p@w1", "p%40w1", "pw2"}, store.LocationSecrets("postgres://u:p%40w1@h/db?password=pw2"))
	assert.Equal(t, []string{"p w'3"}, store.LocationSecrets(`host=h password='p w\'3'`))
	assert.Empty(t, store.LocationSecrets("postgres://u@h/db?sslmode=disable"))
	assert.Empty(t, store.LocationSecrets("data/pontoon.db"))
}
