package httpin_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"

	"github.com/pontoon-bot/pontoon/bot/httpin"
)

// An interaction the router answered before (a redelivery) gets no second answer and
// no error line: 409 with an empty body, logged at debug only.
func TestARedeliveryGetsNoAnswerAndNoErrorLine(t *testing.T) {
	var logs bytes.Buffer
	router := func(context.Context, *discordgo.InteractionCreate) (*discordgo.InteractionResponse, error) {
		return nil, fmt.Errorf("interaction 1: %w", httpin.ErrAnswered)
	}
	e := newEndpoint(t, router, func(o *httpin.Options) {
		o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	})
	body := []byte(commandBody)
	status, _, answer := post(t, e.url, body, signed(e.priv, time.Now(), body))
	assert.Equal(t, http.StatusConflict, status)
	assert.Empty(t, answer, "no interaction response in the body")
	assert.Empty(t, logs.String(), "nothing logged at info or above")
}
