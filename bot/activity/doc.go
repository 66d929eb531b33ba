// Package activity serves a Pontoon table as a live web page: inside Discord as a
// Discord Activity (the Embedded App SDK, opened by the table message's Open table
// button), outside it by `pontoon demo` with the SDK in its mock mode. The page's files
// are package web's; the table, the member's panel and every decision are the bot's
// (package bot: WebState, WebAct, WebWatch), so a click on the page is the same
// interaction as a click in Discord, refused or applied by the same code. The
// contract with the page is the shared spec's protocol, summed up here.
//
// Start with New and Server.Handler (server.go):
//
//	srv, err := activity.New(activity.Config{ClientID: appID, ClientSecret: secret,
//		APIURL: "https://discord.com", BotToken: token, Log: log}, theBot)
//	http.ListenAndServe(":8080", srv.Handler()) // behind the TLS proxy of the URL mapping
//	defer srv.Close()
//
// # Routes
//
//   - GET / : the page's files (web.Files), text gzipped for clients that take it,
//     each with an ETag; vendor/ (the bundled SDK) cached a day, the rest revalidated.
//   - GET /api/config : {"client_id", "demo"}.
//   - POST /api/session (session.go): {"code", "instance_id"} signs a member in. The
//     code goes to Discord's POST /api/v9/oauth2/token with the client secret, the
//     access token to GET /users/@me (who), and the instance id to GET
//     /applications/{app}/activity-instances/{id} with the bot token (where, and who is
//     in it). Only a member in the instance, in a server's channel, is signed in, and
//     the place is Discord's answer, never the page's. The session is a signed token
//     (base64url(payload).base64url(HMAC-SHA256)) under a key derived from the client
//     secret: stateless, it survives a restart, and is checked in constant time. In the
//     demo the SDK mock's fixed code and instance are the only ones taken, and the
//     member is the one the page names (Config.Demo).
//   - GET /api/socket (socket.go): the WebSocket. The Origin must be Discord's proxy for
//     the application (https://<client id>.discordsays.com), this server's own host or
//     a configured one, else 403 before the upgrade. The first frame is a hello with
//     the session, within 5 s; a bad or expired session gets an error frame and close
//     code 4001 (the page signs in again). Then the member's state after every change
//     of the table, never the same twice in a row, and the page's clicks, selects and
//     form submits, each answered by a result (or a modal asking for an amount).
//
// # Exactly once, and only what was offered
//
// An action carries a nonce. Its interaction id is HMAC(key, user, nonce) as a decimal,
// so an action the page sends again (after a reconnect, or a restart) is the same
// interaction, which the store applies once (store.WithInteraction); the second is
// answered as applied. An action is taken only if the last state this socket sent
// offered it (a select's values among its options, a form the page was just asked to
// fill), else it is refused as not_offered and never reaches the bot; the bot checks
// the rest as for any click (where it was clicked, the round and turn in its id).
// Actions are limited per session to 5 a second, 10 at once.
//
// # Sockets
//
// Each socket has one reader (the handler's goroutine), which runs the page's actions
// one at a time, and one writer. The writer reads the member's state itself when the
// table changes (WebWatch) and it is ready to send, so a page that reads slowly gets
// only the newest state and holds up no other page; answers wait in a queue of 32, and
// a page that lets it fill is closed. While an action is being answered the state waits
// for its result, so a page reads the result first. Close closes every socket.
//
// # Secrets
//
// The client secret and the bot token are scrubbed from every line of the logger the
// server is given; codes, access tokens and sessions are never logged at all (a test
// reads every line of a whole sign-in and play).
//
// Tests (activity_test.go) run the real bot on a real SQLite file against the fake
// Discord of bot/discordtest, whose OAuth2 routes mint codes and Activity instances,
// over real sockets; names_test.go restarts the bot and reads the members' names a page
// gets from Discord with nobody clicking. BenchmarkFanOut50Pages measures a click in
// Discord reaching 50 pages, with and without a 51st page that never reads.
// stalled_page_test.go leaves a page unread until the server's write to it waits on a
// full connection: the clicks and the other pages go on, the stalled page is sent only
// the newest state when it reads again, and one that also leaves its answers unread is
// closed once its queue is full.
// replicas_test.go runs two replicas on PostgreSQL (PONTOON_TEST_POSTGRES_URL), a page
// on one and the click on the other.
package activity
