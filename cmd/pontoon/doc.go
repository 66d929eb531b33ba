// Command pontoon is the Pontoon bot's one binary. It only wires: configuration
// (package config) to the store (package store) to the bot (package bot).
//
//	pontoon [serve]            run the bot until SIGINT or SIGTERM (the default)
//	pontoon replay FILE [--json] replay a hand history (docs/HISTORY.md)
//	pontoon simulate [--rules file or key=value…] [--seats N] [--rounds N] [--seed S] [--json]
//	                           the banker's edge under a rule set (package game/sim)
//	pontoon migrate            create or upgrade the database, print its version
//	pontoon audit [FILE]       check chip conservation (of a backup, given FILE); exit 1 if off
//	pontoon backup FILE        copy the database consistently while the bot serves
//	pontoon healthcheck [--ready] ask the running bot's admin listener; exit 0 if healthy
//	                           (Docker's HEALTHCHECK: the image has no curl)
//	pontoon demo [--listen host:port] [--no-open]
//	                           the bot, a fake Discord and the table's page in one process,
//	                           on a throwaway database, to play in a browser (package bot/demo)
//
// Start reading at root.go; each subcommand has its own file.
package main
