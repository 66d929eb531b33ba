package discordtest

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Redeliver sends the interaction r answered once more, the same id, token and data,
// as Discord does when it cannot tell the bot received it (a gateway session resumed
// after a drop, a POST retried): to whichever session now serves its guild (a bot
// restarted since has a new one), or to the next interactions endpoint. The bot must
// change nothing and answer nothing: over the gateway a second callback is refused
// with 40060, over HTTP an answer of 200 is refused, and either is recorded as a
// failure (Failures).
//
// Over HTTP it returns once the endpoint has answered the POST; over the gateway once
// the event is sent, so the test waits for the bot to have handled it some other way
// (its Recorder, say).
func (s *Server) Redeliver(r *Response) error {
	if r == nil || r.in == nil {
		return errors.New("discordtest: Redeliver needs a Response the fake returned")
	}
	s.mu.Lock()
	in := r.in
	if s.closed {
		s.mu.Unlock()
		return errors.New("discordtest: server closed")
	}
	if !s.overHTTPLocked() {
		defer s.mu.Unlock()
		sess := s.sessionForLocked(in.guildID)
		if sess == nil {
			return ErrNotConnected
		}
		s.dispatchToLocked(sess, "INTERACTION_CREATE", in.payload)
		return nil
	}
	u := s.ep.urls[s.ep.next%len(s.ep.urls)]
	s.ep.next++
	s.ep.hits[u]++
	body := mustJSON(in.payload)
	key, client := s.keyLocked(), s.ep.client
	s.mu.Unlock()

	status, answer, err := post(client, u, body, sign(key, time.Now(), body))
	if err != nil {
		return fmt.Errorf("discordtest: redelivering %s to %s: %w", in.describe(), u, err)
	}
	if status == http.StatusOK {
		s.mu.Lock()
		s.failLocked("%s: the endpoint %s answered its redelivery (200 %q): Discord takes one answer", in.describe(), u, clip(answer))
		s.mu.Unlock()
	}
	return nil
}
