package discordtest

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// storedCommand is a registered application command.
type storedCommand struct {
	id, guildID string
	version     string
	body        commandBody
	raw         map[string]any // as the bot sent it
}

func (s *Server) scopeLocked(c *call) (string, *apiError) {
	if c.params["application_id"] != s.AppID {
		return "", &apiError{Status: http.StatusForbidden, Code: 50001, Message: "Missing Access", Note: "application id is not the app's"}
	}
	g := c.params["guild_id"]
	if g != "" && s.guilds[g] == nil {
		return "", &apiError{Status: http.StatusForbidden, Code: 50001, Message: "Missing Access", Note: "the app is not in guild " + g}
	}
	return g, nil
}

func (s *Server) commandJSONLocked(sc *storedCommand) map[string]any {
	out := map[string]any{}
	for k, v := range sc.raw {
		out[k] = v
	}
	out["id"] = sc.id
	out["application_id"] = s.AppID
	out["version"] = sc.version
	out["type"] = sc.body.kind()
	if sc.guildID != "" {
		out["guild_id"] = sc.guildID
	}
	if _, ok := out["description"]; !ok {
		out["description"] = ""
	}
	if _, ok := out["options"]; !ok || out["options"] == nil {
		delete(out, "options")
	}
	// Discord answers permissions as a string.
	switch v := out["default_member_permissions"].(type) {
	case json.Number:
		out["default_member_permissions"] = v.String()
	case float64:
		out["default_member_permissions"] = strconv.FormatFloat(v, 'f', 0, 64)
	}
	return out
}

// upsertLocked stores a command in a scope, keeping the id of a command of
// the same type and name.
func (s *Server) upsertLocked(scope string, list []*storedCommand, body commandBody, raw map[string]any) ([]*storedCommand, *storedCommand, bool) {
	for i, old := range list {
		if old.body.kind() == body.kind() && old.body.Name == body.Name {
			sc := &storedCommand{id: old.id, guildID: scope, version: s.newIDLocked(), body: body, raw: raw}
			list[i] = sc
			return list, sc, false
		}
	}
	sc := &storedCommand{id: s.newIDLocked(), guildID: scope, body: body, raw: raw}
	sc.version = sc.id
	return append(list, sc), sc, true
}

func (s *Server) handleCommandsPut(c *call) (int, any, *apiError) {
	var bodies []commandBody
	var raws []map[string]any
	if len(c.payload) > 0 {
		if err := json.Unmarshal(c.payload, &bodies); err != nil {
			return 0, nil, errInvalidForm([]fieldError{decodeError("", err)})
		}
		v, err := decodeJSON(c.payload)
		if err != nil {
			return 0, nil, errBadRequest(50109, "The request body contains invalid JSON.")
		}
		list, _ := v.([]any)
		for _, item := range list {
			m, _ := item.(map[string]any)
			raws = append(raws, m)
		}
	}
	if errs := validateCommandList(bodies); len(errs) > 0 {
		return 0, nil, errInvalidForm(errs)
	}
	if e := s.checkSpec(c); e != nil {
		return 0, nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, e := s.scopeLocked(c)
	if e != nil {
		return 0, nil, e
	}
	old := s.commands[scope]
	if e := entryPointKept(scope, old, bodies); e != nil {
		return 0, nil, e
	}
	var next []*storedCommand
	out := []any{}
	for i, b := range bodies {
		sc := &storedCommand{guildID: scope, version: s.newIDLocked(), body: b, raw: raws[i]}
		for _, o := range old {
			if o.body.kind() == b.kind() && o.body.Name == b.Name {
				sc.id = o.id // Discord keeps the id of a command overwritten by name
			}
		}
		if sc.id == "" {
			sc.id = s.newIDLocked()
		}
		next = append(next, sc)
		out = append(out, s.commandJSONLocked(sc))
	}
	s.commands[scope] = next
	s.notifyLocked()
	return 200, out, nil
}

func (s *Server) handleCommandPost(c *call) (int, any, *apiError) {
	var body commandBody
	if err := json.Unmarshal(c.payload, &body); err != nil || len(c.payload) == 0 {
		return 0, nil, errInvalidForm([]fieldError{required("name")})
	}
	if errs := validateCommand(&body, ""); len(errs) > 0 {
		return 0, nil, errInvalidForm(errs)
	}
	if e := s.checkSpec(c); e != nil {
		return 0, nil, e
	}
	v, _ := decodeJSON(c.payload)
	raw, _ := v.(map[string]any)
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, e := s.scopeLocked(c)
	if e != nil {
		return 0, nil, e
	}
	list, sc, created := s.upsertLocked(scope, s.commands[scope], body, raw)
	s.commands[scope] = list
	s.notifyLocked()
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return status, s.commandJSONLocked(sc), nil
}

func (s *Server) handleCommandsGet(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, e := s.scopeLocked(c)
	if e != nil {
		return 0, nil, e
	}
	out := []any{}
	for _, sc := range s.commands[scope] {
		out = append(out, s.commandJSONLocked(sc))
	}
	return 200, out, nil
}

func (s *Server) handleCommandGet(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, e := s.scopeLocked(c)
	if e != nil {
		return 0, nil, e
	}
	for _, sc := range s.commands[scope] {
		if sc.id == c.params["command_id"] {
			return 200, s.commandJSONLocked(sc), nil
		}
	}
	return 0, nil, errUnknownCommand()
}

func (s *Server) handleCommandDelete(c *call) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, e := s.scopeLocked(c)
	if e != nil {
		return 0, nil, e
	}
	list := s.commands[scope]
	for i, sc := range list {
		if sc.id == c.params["command_id"] {
			s.commands[scope] = append(list[:i:i], list[i+1:]...)
			s.notifyLocked()
			return http.StatusNoContent, nil, nil
		}
	}
	return 0, nil, errUnknownCommand()
}

// findCommandLocked finds the chat command a member can run in a guild: a
// guild command first, then a global one.
func (s *Server) findCommandLocked(guildID, name string) *storedCommand {
	for _, scope := range []string{guildID, ""} {
		for _, sc := range s.commands[scope] {
			if sc.body.kind() == 1 && sc.body.Name == name {
				return sc
			}
		}
	}
	return nil
}

// Commands returns the commands registered for a guild ("" for global ones).
func (s *Server) Commands(guildID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*discordgo.ApplicationCommand
	for _, sc := range s.commands[guildID] {
		if c := toDiscordgo[discordgo.ApplicationCommand](s.commandJSONLocked(sc)); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// entryPointKept refuses, as Discord does, a bulk overwrite that would remove the
// app's Entry Point command (EnableActivities), and an Entry Point command anywhere
// but among the global commands.
func entryPointKept(scope string, old []*storedCommand, bodies []commandBody) *apiError {
	has := false
	for _, b := range bodies {
		if b.kind() == 4 {
			if scope != "" {
				return errInvalidForm([]fieldError{invalid("type", "APPLICATION_COMMAND_TYPE_INVALID", "Entry Point commands can only be global.")})
			}
			has = true
		}
	}
	for _, o := range old {
		if o.body.kind() == 4 && !has {
			return errBadRequest(50240, "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.")
		}
	}
	return nil
}

// EnableActivities turns the application's Activities on, as the Developer Portal
// does: Discord then creates its default Entry Point command, "launch", among the
// global commands (handler 2: Discord launches the Activity itself), which a bulk
// overwrite must keep.
func (s *Server) EnableActivities() {
	s.mu.Lock()
	defer s.mu.Unlock()
	typ, handler, desc := 4, 2, "Launch an activity"
	body := commandBody{Type: &typ, Name: "launch", Description: &desc, Handler: &handler}
	raw := map[string]any{"type": typ, "name": "launch", "description": desc, "handler": handler,
		"integration_types": []any{0, 1}, "contexts": []any{0, 1, 2}}
	s.commands[""], _, _ = s.upsertLocked("", s.commands[""], body, raw)
	s.notifyLocked()
}
