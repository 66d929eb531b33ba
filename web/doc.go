// Package web is the Pontoon table as a web page: the files a browser loads to watch and
// play a channel's table, inside Discord as an Activity (Embedded App SDK) or outside it
// in `pontoon demo`. It holds no Go logic beyond Files, the embedded static/ folder that
// bot/activity serves at "/". The page speaks to bot/activity: GET /api/config, POST
// /api/session, then the WebSocket /api/socket (a hello, then `state` frames; click,
// select and submit actions, each answered by a `result` or a `modal` frame).
//
// Start with static/app.js. main loads /api/config, signs in through the SDK (the real
// DiscordSDK when the URL carries Discord's frame_id, DiscordSDKMock otherwise, whose
// authorize answers {code:"mock_code"} and whose instanceId is "123456789012345678"),
// exchanges the code at /api/session, and keeps the socket /api/socket open (Connection:
// backoff, a fresh sign-in after close code 4001, an action's nonce kept until its
// answer so a resend after a reconnect is applied once). render draws each `state`:
// the felt (seats, cards, bank and kitty, whose turn and the countdown), the member's
// hand, the private panel and the table's buttons. static/channel.js draws the demo's
// fake channel beside the felt and turns Discord's markdown-lite into DOM nodes for
// both; static/felt.css lays it out for a phone first (390×844) and for a wide screen.
//
// Every word comes from the server: `words` holds the catalog keys web.* (bot/i18n) in
// the member's language, with {name} slots the page fills itself; everything else is the
// table's own text. Cards are drawn by CSS and one inline SVG symbol per suit, and named
// in words for screen readers (web.card.*); changes worth hearing go to an aria-live
// region. The page loads nothing from any other host and has no build step.
//
// Hooks for browser tests: #seats (other players), #my-hands .card .sr-only (the
// member's cards in words), buttons by data-focus-key ("p:" + custom id in the panel,
// "t:" in the table's row, "ch:<message>:" in the demo channel; a short select's options
// are buttons keyed "<key>=<value>", a long one a <select> with a Choose button), #modal (the
// amount form), #toasts, #announce (the live region), #status ("Reconnecting…"),
// #add-player and #channel-messages.
//
// static/vendor/discord-sdk.js is @discord/embedded-app-sdk bundled by esbuild into one
// minified ES module exporting DiscordSDK and DiscordSDKMock, with every bundled
// package's licence in vendor/LICENSES.txt. Its sources are in sdk/ (exact versions in
// package-lock.json). To rebuild after a version change: `cd web/sdk && npm ci && npm run
// build`. TestSDKBundleMatchesItsSources does the same in a temporary copy and fails when
// the committed files differ.
package web
