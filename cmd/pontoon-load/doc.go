// Command pontoon-load runs the bot binary against a fake Discord with many tables
// and simulated members and reports answer latency and the bot's CPU and memory.
// The work is in package bot/discordtest/load; main.go only reads the flags and
// prints the report.
//
//	go run ./cmd/pontoon-load -rate 200 -tables 500          # builds ./cmd/pontoon first
//	go run ./cmd/pontoon-load -bot ./pontoon -rate 400 -json
//	go run ./cmd/pontoon-load -perf bot.perf && perf report -i bot.perf   # where perf works
//	go run ./cmd/pontoon-load -bot ./pontoon -rate 400 -pin     # the bot on CPU 0 alone
//	go run ./cmd/pontoon-load -bot ./pontoon -rate 400 -pin -env PONTOON_GAME_TABLE_PICTURE=false
//
// -env gives the bot a setting (repeatable); the report lists what it was given, so
// a figure names the configuration that produced it.
//
// The bot's CPU per interaction, its split by thread (the Go runtime's sysmon
// apart) and its peak RSS come from /proc; the report also
// says how much CPU this process and the rest of the machine used, because on a
// shared machine the latencies say as much about the neighbours as about the bot.
//
// It exits 0 when the run was clean (every interaction answered, nothing refused,
// the audit balanced), 1 when it was not, 2 when it could not run.
package main
