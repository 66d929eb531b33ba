// Package metrics is what an operator watches: the bot's Prometheus metrics and the
// admin listener's endpoints (/metrics, /healthz, /readyz and, when asked for,
// /debug/pprof/). With AdminOptions.Token every endpoint but /healthz wants that bearer
// token; profiles are served only with AdminOptions.Pprof, and none longer than
// MaxProfile.
//
// Start with New and AdminHandler (admin.go); cmd/pontoon wires them when admin.listen
// is set. The metrics are fed from the edges, so the bot's internals need to know little:
//
//   - Interaction: the bot's interaction entry point reports each interaction's kind,
//     outcome and reason code, and the time from its arrival to the answer;
//   - REST: a discordapi.RESTObserver under the session's HTTP client counts REST calls
//     and 429s by route;
//   - WatchGateway: discordgo's Connect, Disconnect, Ready and Resumed events;
//   - CommitObserver: store.WithCommitObserver times commits and counts the rounds and
//     actions committed;
//   - SampleChips: the store's audit, every minute, for chips in circulation per server;
//   - Sample: functions read at scrape time for live tables and pending turn timers;
//   - EndpointRefused: the HTTP interactions endpoint's refused requests, by reason
//     (an httpin.Recorder).
//
// Names follow Prometheus's conventions: pontoon_ prefix, seconds, _total counters,
// label values from small fixed sets (routes are templates, never ids or tokens).
package metrics
