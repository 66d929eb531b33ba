// Package httpin receives Discord interactions over HTTP: the "Interactions
// Endpoint URL" of an application, as an alternative to the gateway's
// INTERACTION_CREATE. It lets several replicas of the bot sit behind a load
// balancer, since any replica can answer any POST, ("HTTP
// interactions").
//
// Start with New and Handler.ServeHTTP:
//
//	key, err := httpin.ParsePublicKey(cfg.Discord.Scale.PublicKey) // 64 hex digits from the Developer Portal
//	h, err := httpin.New(httpin.Options{
//		PublicKey: key,
//		Router:    bot.Route,  // the same router the gateway handler calls
//		Webhooks:  session,    // a *discordgo.Session, for answers that come after a deferral
//	})
//	limits := httpin.Limits{}                 // timeouts and open connections; zero fields take defaults
//	srv := limits.Server(h)
//	err = srv.Serve(limits.Listener(ln))     // at most Limits.MaxConns connections at once
//
// Every request is checked before anything else: X-Signature-Ed25519 must
// be Discord's Ed25519 signature of X-Signature-Timestamp followed by the
// raw body, under the application's public key (crypto/ed25519). A missing,
// malformed or wrong signature, and a timestamp further than MaxSkew from
// now (a replayed request), is answered 401 and the router is never called,
// so nothing changes. A PING (type 1) is answered PONG (type 1), which is
// how Discord checks the endpoint when it is saved.
//
// Anyone can reach the endpoint, so what a request that is not Discord's
// can hold is bounded. Its headers are checked before its body is read: a
// signature that is not 128 hex digits, a timestamp that is not digits, or a
// declared length over MaxBodyBytes (1 MiB) is refused at once and the
// connection closed; a body that grows past MaxBodyBytes is read no
// further. Limits bounds the time a request may take to arrive (a body sent
// a byte at a time is cut off), to be answered, and to be followed on a
// kept-alive connection, and the connections served at once. Each refusal is
// counted by reason (Options.Recorder, one of the fixed Refused* values) and
// only a sample is logged: the first, then at most one a minute with the
// number refused since.
//
// Any other interaction is decoded into a *discordgo.InteractionCreate and
// handed to the Router, whose *discordgo.InteractionResponse becomes the
// HTTP response body (multipart/form-data when it carries files), exactly
// what the bot would have sent to the callback route over the gateway.
//
// Discord wants that answer within 3 seconds. When the router has not
// returned after DeferAfter (2 s by default) the handler answers with a
// deferral instead (type 6 for components, type 5 "thinking" otherwise) and,
// once the router returns, delivers its answer through the interaction's
// webhook: an edit of @original, or a follow-up message when a component's
// deferral meets a new message. A modal cannot follow a deferral; such an
// answer is logged and dropped.
//
// Work that calls Discord after the answer (posting or editing the public
// table message, a follow-up) is scheduled from the Router with Then: it
// runs once the answer is out, so it can neither delay nor overtake it.
//
// A Handler is safe for concurrent use; the Router is called concurrently,
// one goroutine per request, like discordgo's gateway handlers.
package httpin
