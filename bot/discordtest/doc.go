// Package discordtest is a fake Discord for end-to-end tests: REST under
// /api/v9 and a gateway, on 127.0.0.1, spoken to by the real discordgo
// v0.29.0 client. It rejects what Discord rejects, so a test that passes
// means payloads Discord would take, answered in time.
//
// It is an ordinary package (not a _test one) so that the tests of any
// package can import it. Nothing in it contacts a non-loopback address.
//
// # Getting started
//
//	srv := discordtest.New(t)                 // closed when t ends
//	srv.AddGuild("1", "id")                   // guild 1, preferred locale Indonesian
//	srv.AddChannel("1", "10")
//	srv.AddMember("1", "100", "alice", discordgo.PermissionManageGuild, "pl")
//
//	s, _ := discordapi.NewSession(srv.Token, srv.URL(), nil)
//	s.ShouldReconnectOnError = false          // or true, to test resuming
//	s.AddHandler(myBot.OnInteraction)
//	_ = s.Open()                               // GET /api/v9/gateway, then the gateway handshake
//	defer s.Close()                            // discordgo sleeps one second here
//
//	r, err := srv.Command("1", "10", "100", "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{
//		{Name: "start"},                       // Type 0: taken from the registered command
//	})
//	// r.Type, r.Message.Content, r.Message.Components, r.Ephemeral, r.Latency ...
//	r, err = srv.Click("10", r.Message.ID, "100", "pontoon:join:1")
//	require.Empty(t, srv.Failures())
//
// Command, Click, Select and SubmitModal act as a member: they send
// INTERACTION_CREATE over the gateway and wait (WithWaitTimeout, default 5 s)
// for the bot's first accepted response, which they return as a *Response.
// They fail without sending anything when a member could not have done it:
// an unregistered command, options that do not fit the registration, a
// button that is not on the message or is disabled, a value the select does
// not offer, a modal input over its max_length, an ephemeral message of
// somebody else. Response.WaitEdit and Response.WaitFollowup wait for what a
// deferred response promised.
//
// Messages, Message, Ephemerals, Attachments and EditCount show what members
// now see; Requests lists every REST request; Latencies every dispatch to
// callback time (for median and p99 in benchmarks); GatewayState the gateway.
//
// # Failures
//
// Every rejected request (with Discord's status, JSON error code and the
// field at fault) and every failed interaction ("interaction 123 (/pontoon
// start by user 100) failed: no response within 3s") is recorded. Tests
// assert Failures is empty; the list is logged when a test fails. Injected
// 429s are not failures; a 429 from an enforced bucket is, since a bot
// following the X-RateLimit headers never gets one.
//
// # What is validated
//
// Every REST request needs "Authorization: Bot <token>" (401 otherwise;
// interaction callbacks and webhook routes, whose token is in the path, may
// omit it). Unknown routes are 404, a known path with another method 405.
//
// Every message payload (callback data, follow-ups, webhook edits, channel
// messages and edits) against Discord's limits, answered 400 with
// {"code":50035,"message":"Invalid Form Body","errors":{...}}: content 2000
// characters (counted in code points); 10 embeds; title 256, description
// 4096, 25 fields of name 256 and value 1024 (both non-empty), footer text
// 2048, author name 256, 6000 characters across all embeds; embed colour,
// timestamp and URLs; 5 action rows (and only rows, unless IS_COMPONENTS_V2),
// a row of 1-5 buttons or exactly one select; custom_id 1-100 and unique in
// the message; button label 80, a label or emoji, link buttons with url and
// no custom_id, others the reverse, premium buttons; select custom_id, 1-25
// options with label, value and description up to 100 and unique values,
// min_values/max_values within 0-25 and ordered; no text inputs in messages;
// flags (ephemeral only on interaction responses and follow-ups; a channel
// message with flag 64 is a 400). A message left empty (no content, embeds,
// components, attachments, poll or stickers) is 400 code 50006, for edits
// after merging them.
//
// Interaction callbacks: unknown id or token 404 code 10062; a second initial
// response 400 code 40060; a first response later than the deadline
// (WithResponseDeadline or SetResponseDeadline, default 3 s) 404 code 10062
// and a failed interaction. Types 4 and 5 for all; 6 and 7 only for
// components and for modal submits whose modal a component opened; 9 only
// for commands and components, with title 1-45, custom_id, 1-5 rows each
// holding one text input (custom_id, style 1 or 2, label 1-45, placeholder
// 100, value 4000, min_length 0-4000 <= max_length 1-4000); 1, 8 and others
// are refused. Type 7 edits the message the component is on, public or
// ephemeral; as discordgo sends "embeds": null on type 7, embeds left out
// are removed, as on Discord.
//
// Webhooks (/webhooks/{app}/{token}...): the token works only after the
// initial response and for 15 minutes (WithTokenLifetime, SetTokenLifetime);
// a follow-up right after a type 5 completes the "thinking" message, as
// Discord still does; @original names the response message, or the
// component's message after type 6 or 7.
//
// Commands (bulk overwrite, create, get, delete; global and per guild):
// CHAT_INPUT names ^[-_'\p{L}\p{N}]{1,32}$ (plus Devanagari and Thai) in
// lower case, descriptions 1-100, user and message commands without
// description or options; 25 options, unique names, required before
// optional, subcommands and groups nested correctly and not mixed with
// other options; 25 choices of the option's type (strings up to 100);
// min_value/max_value and choices within ±2^53, integral for integers;
// min_length/max_length 0-6000; name and description localizations keyed by
// Discord's locales (see Locales) with the same rules as the field; 8000
// characters per command; 100 chat, 15 user and 15 message commands per
// scope, names unique per type. Guild commands need a guild the app is in
// (403 code 50001 otherwise).
//
// Where Discord's OpenAPI spec is found (WithOpenAPI, the environment
// variable PONTOON_DISCORD_OPENAPI, or shared/discord/openapi.json in the
// working directory or a parent), request bodies of the routes above are
// also checked against its requestBody schema by a small JSON Schema
// validator ($ref, type lists with null, properties, required,
// additionalProperties, min/maxProperties, min/maxLength, pattern,
// min/maxItems, uniqueItems, minimum/maximum, enum, const, allOf, anyOf,
// oneOf; format is ignored; integers written as strings are taken, as
// Discord takes permissions). The hand-coded limits run first and stay the
// primary check; without the spec the second check is skipped, except when
// the CI environment variable is set: then New fails the test (WithoutOpenAPI
// is the explicit way to go without it).
//
// Uploads: multipart/form-data with payload_json and files[n] parts, at
// most 10 files of 10 MiB each; the bytes are kept (Attachments) and served
// at the attachment's URL on the fake.
//
// # Gateway
//
// GET /api/v9/gateway answers ws://127.0.0.1:PORT/gateway. The first frame is
// op 10 Hello (WithHeartbeatInterval, default 1 s, never 0); op 1 gets op 11;
// op 2 Identify needs the token (else close 4004), intents without
// privileged ones the app has not enabled (WithPrivilegedIntents; else 4014)
// and a valid shard; READY carries v 9, session_id, the bot user,
// application.id and the guilds of the shard, followed by one GUILD_CREATE
// each. Sequence numbers increase per session; the last 2000 dispatches are
// kept for op 6 Resume, which replays what was missed and sends RESUMED, or
// answers op 9 when the session is gone. A client that closes with 1000 or
// 1001 ends its session (discordgo does so on errors, then re-identifies).
// Interactions go to the session of the guild's shard; one sent while the
// bot is away is delivered on resume. Disconnect drops the connections,
// RequestReconnect sends op 7, InvalidateSessions forces a new identify.
//
// # Permissions and faults
//
// SetAppPermissions gives a channel its own bot permissions: its
// interactions carry them as app_permissions, and channel routes answer 403
// as Discord does: 50001 Missing Access without View Channel (or Read
// Message History to list messages), 50013 Missing Permissions to post
// without Send Messages or embeds without Embed Links. A PATCH edit with
// "components": null, or without the field, keeps the components; only []
// clears them. HoldNext keeps the next matching request waiting (to kill or
// restart the bot while its call is in flight), FailNext answers the next
// ones with an error; neither is counted as a failure.
//
// # Rate limits
//
// Every answer carries X-RateLimit-Limit, -Remaining, -Reset, -Reset-After
// and -Bucket of a real bucket per route and major parameter, 50 per second
// by default. SetRateLimit makes one route stricter, e.g.
// SetRateLimit(RouteChannelMessageEdit, 5, 5*time.Second) for Discord's
// per-channel edit limit. SetGlobalRateLimit(50, time.Second) adds Discord's
// global limit across routes (interaction callbacks and webhooks excepted);
// it is off by default. Inject429 makes the next n requests on a path
// answer 429 with retry_after and Retry-After; discordgo waits and retries.
//
// # Not modelled
//
// Direct messages, threads, reactions, roles and role permissions (members
// carry a fixed permission set), autocomplete, the gateway closing a
// connection whose heartbeats stop, the 10,000 invalid requests per 10 minutes ban, zlib
// compression, ETF, the newer Label components in modals (rows of text
// inputs only), allowed_mentions semantics, and the rule that localized
// option names be distinct. Embeds and components are stored as sent, not
// normalized as Discord does (except embed type "rich").
//
// All exported methods are safe for concurrent use.
package discordtest
