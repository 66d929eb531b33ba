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
// deferred response promised. Redeliver sends an answered interaction again, same id
// and token, as Discord may after a resume or a retried POST: a second answer to it is
// recorded as a failure.
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
// message with flag 64 is a 400). A Components V2 message (flag
// IS_COMPONENTS_V2) is held to the V2 schemas and to what they cannot state: 40
// components counting the nested ones, 4,000 characters across its text
// displays, no content or embeds beside the flag; an edit may set the flag
// (when it leaves no content or embeds) but never clear it, and a deferred
// answer becomes V2 only by an edit of the original response, not by the
// follow-up that completes it. A message left empty (no content, embeds,
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
// 100, value 4000, min_length 0-4000 <= max_length 1-4000); 12
// (LAUNCH_ACTIVITY) only for commands and components, with no data; 1, 8 and
// others are refused. Type 7 edits the message the component is on, public or
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
// (403 code 50001 otherwise). EnableActivities creates Discord's default Entry
// Point command (type 4, "launch", handler 2); one at most, global only, with a
// handler of 1 or 2, and a bulk overwrite that leaves it out is 400 code 50240.
//
// Where Discord's OpenAPI spec is found (WithOpenAPI, the environment
// variable PONTOON_DISCORD_OPENAPI, or shared/discord/openapi.json in the
// working directory or a parent), request bodies of the routes above are
// also checked against its requestBody schema, compiled with every schema it
// refers to by github.com/santhosh-tekuri/jsonschema/v6 (JSON Schema 2020-12;
// format is ignored; integers written as strings are taken, as Discord takes
// permissions; a union of component types is tried only on the branch its
// "type" names). Every component type the spec describes is checked the same
// way, Components V2's included. The hand-written checks (validate.go) run
// first and hold only what a schema cannot state, or Discord's spec does not
// (the 2,000 characters of content, five action rows and five modal rows, a
// field's non-empty name and value); without the spec the second check is
// skipped, and with it every length the schema states, except when
// the CI environment variable is set: then New fails the test (WithoutOpenAPI
// is the explicit way to go without it).
//
// Uploads (uploads.go), as Discord's "Uploading Files" describes them, on
// channel messages and edits, interaction responses (types 4 and 7),
// follow-ups and webhook edits: multipart/form-data with a payload_json
// part and files[n] parts (each n once, each with a filename), at most 10
// files of 10 MiB each and 25 MiB in all (413 code 40005 past the sizes).
// The payload's attachments array names new files by the n of files[n] and
// kept ones by id (anything else is ATTACHMENT_NOT_FOUND), and gives each a
// description (alt text, 1024 characters) or filename. A new message gets
// every file; an edit with an attachments array keeps only what it lists,
// without one it keeps the old files and appends the new. An embed's
// attachment://name (image, thumbnail, author and footer icons) must name a
// .png, .jpg, .jpeg, .webp or .gif file of the message; the stored embed
// then points at the attachment's URL with its width and height, and the
// message's attachments array leaves that file out, as on Discord ("files
// that are not referenced in embeds"). The bytes are kept (Attachments, which
// lists every file a message holds) and served at that URL.
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
// # Shards
//
// Sessions may identify with shard [id, count] (discordgo's ShardID and
// ShardCount); an id outside [0, count) is closed with 4010. Each guild
// lives on shard (guild_id >> 22) % count: its GUILD_CREATE (at identify, or
// JoinGuild later) and its interactions go to that shard's session only.
// GET /gateway/bot answers WithShards(shards, max_concurrency) (default 1,
// 1). With WithShards the fake also enforces max_concurrency: each
// rate-limit key shard_id % max_concurrency may identify once per window
// (WithIdentifyWindow, Discord's 5 s); a sooner identify is answered op 9
// Invalid Session, as Discord documents, and recorded as a failure. Every
// identify counts against the session start limit (WithSessionStartLimit,
// Discord's 1,000); past it every session ends and identifies close with
// 4004, as after Discord resets the token. A shard that would hold more than
// WithGuildsPerShard guilds (2,500) is closed with 4011. Sessions lists the
// sessions with their shards and guilds.
//
// # Interactions over HTTP
//
// SetInteractionsEndpoint(urls...) switches delivery from the gateway to
// HTTP POSTs, to the URLs in turn (a load balancer in front of replicas).
// Like the Developer Portal it first requires each URL to answer a signed
// PING with {"type":1} and a badly signed one with 401. Every request is
// signed with the application's Ed25519 key (PublicKey gives the hex public
// key for the bot's configuration): X-Signature-Ed25519 over
// X-Signature-Timestamp and the body. A 200 answer is the interaction's
// callback, JSON or multipart, validated and applied as the callback route
// would, against the same deadline; 202 means the bot used the callback
// route itself; anything else is a failure. ForgeNext sends the next
// interaction forged (wrong key, tampered body, no signature, stale
// timestamp): the endpoint must answer 401, and the action returns
// ErrRefused. EndpointHits counts deliveries per URL.
//
// # Activities (OAuth2)
//
// The routes an Activity's server calls (oauth.go): POST /oauth2/token exchanges
// a code minted by OAuthCode(user) (once, within ten minutes) for an access token,
// with the form's client_id (AppID) and client_secret (ClientSecret); a wrong
// secret is 401 invalid_client, a used or unknown code 400 invalid_grant. GET
// /users/@me with "Bearer <access token>" is that user. GET
// /applications/{app}/activity-instances/{id} with the bot token answers an
// instance added with AddActivityInstance (guild channel "gc", or "pc" without a
// guild), 404 for any other. These refusals are what tests provoke, and are not
// failures.
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
