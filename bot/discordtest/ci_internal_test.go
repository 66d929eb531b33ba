package discordtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// skipUnlessCI skips a check that needs a file beside the repository, except in CI,
// where a missing file must fail the run instead of quietly dropping the check.
func skipUnlessCI(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set: %s", why)
	}
	t.Skip(why)
}

// fatalTB records a Fatalf instead of ending the test, so a test can check that New
// refuses to run.
type fatalTB struct {
	testing.TB
	msg string
}

type fatalled struct{}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = format
	panic(fatalled{})
}

// With CI set and no openapi.json to be found, New fails the test rather than
// dropping the OpenAPI check; without CI it goes on without the check.
func TestCIRequiresTheOpenAPISpec(t *testing.T) {
	t.Setenv(SpecEnv, filepath.Join(t.TempDir(), "absent.json"))
	t.Setenv("CI", "")
	srv := New(t)
	ok, _ := srv.OpenAPI()
	require.False(t, ok, "no spec outside CI: the check is dropped")

	t.Setenv("CI", "true")
	ftb := &fatalTB{TB: t}
	func() {
		defer func() {
			r := recover()
			_, isFatal := r.(fatalled)
			require.True(t, isFatal, "New must fail the test, got %v", r)
		}()
		New(ftb)
	}()
	require.True(t, strings.Contains(ftb.msg, "OpenAPI spec was not found"), ftb.msg)

	// WithoutOpenAPI is an explicit choice, taken in CI too.
	srv = New(t, WithoutOpenAPI())
	ok, _ = srv.OpenAPI()
	require.False(t, ok)
}
