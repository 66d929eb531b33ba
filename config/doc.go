// Package config reads the bot's configuration into one plain Config value:
// defaults, then an optional YAML file (config.yaml, or the file named by
// the --config flag), then environment variables PONTOON_* (PONTOON_ and the
// key in upper case, '.' as '_': PONTOON_DISCORD_TOKEN, PONTOON_DATABASE_PATH,
// PONTOON_GAME_RULES_MAX_STAKE), each over the one before.
//
// Start with Load and Config.Validate; config.example.yaml at the root of the
// repository lists every key with its default and its variable.
//
//	cfg, err := config.Load(*configPath, nil) // nil: the process environment
//	if err == nil {
//		err = cfg.Validate()
//	}
//	if err != nil {
//		fmt.Fprintln(os.Stderr, err) // one line naming the key
//		os.Exit(2)
//	}
//
// Every error is one line naming the key, what is wrong and the variable that
// sets it. A key the file does not know, a single value where a section
// belongs (discord: oops) and a house rule no table has are refused, naming
// the closest key or rule. A PONTOON_ variable that no key reads is ignored by
// Load; UnknownEnv words a warning for each, naming the closest variable.
//
// The Discord token is a Secret: no error, no fmt verb, no JSON and no log
// record shows it; Secret.Reveal is the one way to read it. Validate refuses a
// token that does not have a bot token's shape (three base64url parts, the
// first the bot's id), since the log scrubber masks the token wherever it
// appears. database.url, admin.token and discord.client_secret (the OAuth2
// secret with which members sign in to the table's web page) are Secrets too.
//
// activity.go holds the table's web page (activity.listen, activity.origins),
// which needs discord.client_secret and discord.application_id once it listens.
package config
