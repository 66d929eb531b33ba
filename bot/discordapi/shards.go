package discordapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/pontoon-bot/pontoon/bot/shard"
)

// ShardConfig says which gateway shards a process runs.
type ShardConfig struct {
	Token   string       // the bot token, without "Bot "
	BaseURL string       // as for NewSession
	Client  *http.Client // as for NewSession; nil for the default
	// ShardID and ShardCount run one shard of a fixed count
	// (discord.shard_id, discord.shard_count). ShardCount 0 is no sharding:
	// one session that sends no shard field.
	ShardID, ShardCount int
	// Auto runs every shard GET /gateway/bot recommends (discord.shards:
	// auto); ShardID and ShardCount are then ignored.
	Auto bool
	// Window is the identify pacing window; 0 means shard.DefaultWindow.
	// Tests against a fake with a short window shorten it.
	Window time.Duration
	// Slots, when set, paces the identifies through a store that every process
	// of the application shares (store.Store's ReserveIdentify), so that shards
	// run as separate processes never identify in one bucket within a window,
	// even when the whole fleet restarts at once. OpenShards then asks GET
	// /gateway/bot for max_concurrency, which the buckets depend on.
	Slots IdentifySlots
	// Setup prepares each session before it opens: intents, handlers,
	// ShouldReconnectOnError. It runs once per session, in shard order.
	Setup func(s *discordgo.Session)
}

// IdentifySlots reserves identifies of a rate-limit bucket across processes.
type IdentifySlots interface {
	ReserveIdentify(ctx context.Context, bucket int, window time.Duration, now time.Time) (time.Time, error)
}

// Shards are the open gateway sessions of one process, one per shard.
type Shards struct {
	// Sessions[i] runs shard IDs[i] of Count. Any of them may make REST
	// calls for any guild: only gateway events are routed by shard.
	Sessions []*discordgo.Session
	IDs      []int
	Count    int
}

// gatewayBot asks GET /gateway/bot for the shard count and the session-start limits.
func gatewayBot(ctx context.Context, cfg ShardConfig) (*discordgo.GatewayBotResponse, error) {
	rest, err := NewSession(cfg.Token, cfg.BaseURL, cfg.Client)
	if err != nil {
		return nil, err
	}
	gb, err := rest.GatewayBot(discordgo.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("discordapi: GET /gateway/bot: %w", err)
	}
	return gb, nil
}

// OpenShards creates and opens the sessions of cfg, one per shard, pacing
// their identifies by max_concurrency as Discord requires (package shard).
// With Auto it first asks GET /gateway/bot for the shard count, and refuses
// to start when the day's remaining session starts could not cover it:
// running out makes Discord reset the token. On an error the sessions
// already open are closed.
//
// discordgo's own reconnects (after op 9, or a dropped connection)
// identify without asking the pacer. Separate processes pace each other
// through Slots.
func OpenShards(ctx context.Context, cfg ShardConfig) (*Shards, error) {
	ids, count, maxConcurrency := []int{cfg.ShardID}, cfg.ShardCount, 1
	if cfg.Auto {
		gb, err := gatewayBot(ctx, cfg)
		if err != nil {
			return nil, err
		}
		count = max(gb.Shards, 1)
		maxConcurrency = max(gb.SessionStartLimit.MaxConcurrency, 1)
		if lim := gb.SessionStartLimit; lim.Total > 0 && lim.Remaining < count {
			return nil, fmt.Errorf("discordapi: %d shards to start but only %d of %d session starts left today (resets in %v); starting would exhaust them and Discord would reset the token",
				count, lim.Remaining, lim.Total, time.Duration(lim.ResetAfter)*time.Millisecond)
		}
		ids = make([]int, count)
		for i := range ids {
			ids[i] = i
		}
	} else if count < 0 || cfg.ShardID < 0 || (count > 0 && cfg.ShardID >= count) || (count == 0 && cfg.ShardID != 0) {
		return nil, fmt.Errorf("discordapi: shard %d of %d does not exist", cfg.ShardID, count)
	} else if cfg.Slots != nil {
		gb, err := gatewayBot(ctx, cfg)
		if err != nil {
			return nil, err
		}
		maxConcurrency = max(gb.SessionStartLimit.MaxConcurrency, 1)
	}

	pacer := shard.NewPacer(maxConcurrency, cfg.Window, nil)
	wait := pacer.Wait
	if cfg.Slots != nil {
		window := cfg.Window
		if window <= 0 {
			window = shard.DefaultWindow
		}
		wait = func(ctx context.Context, id int) error {
			at, err := cfg.Slots.ReserveIdentify(ctx, id%maxConcurrency, window, time.Now().UTC())
			if err != nil {
				return fmt.Errorf("discordapi: reserving an identify: %w", err)
			}
			if d := time.Until(at); d > 0 {
				t := time.NewTimer(d)
				defer t.Stop()
				select {
				case <-t.C:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			return nil
		}
	}
	out := &Shards{IDs: ids, Count: max(count, 1)}
	for _, id := range ids {
		s, err := NewSession(cfg.Token, cfg.BaseURL, cfg.Client)
		if err != nil {
			_ = out.Close()
			return nil, err
		}
		if count > 1 {
			s.ShardID, s.ShardCount = id, count
		}
		if cfg.Setup != nil {
			cfg.Setup(s)
		}
		if err := wait(ctx, id); err != nil {
			_ = out.Close()
			return nil, err
		}
		if err := s.Open(); err != nil {
			_ = out.Close()
			return nil, fmt.Errorf("discordapi: opening shard %d of %d: %w", id, out.Count, err)
		}
		out.Sessions = append(out.Sessions, s)
	}
	return out, nil
}

// ForGuild returns the session whose shard receives the guild's events, or
// nil when this process does not run it.
func (sh *Shards) ForGuild(guildID string) *discordgo.Session {
	want, err := shard.Of(guildID, sh.Count)
	if err != nil {
		return nil
	}
	for i, id := range sh.IDs {
		if id == want && i < len(sh.Sessions) {
			return sh.Sessions[i]
		}
	}
	return nil
}

// Serves reports whether this process runs the shard of the guild: whether
// it should recover and serve the guild's tables.
func (sh *Shards) Serves(guildID string) bool { return shard.Serves(guildID, sh.Count, sh.IDs) }

// Close closes every session at once (discordgo sleeps a second in each
// Close) and returns their errors joined.
func (sh *Shards) Close() error {
	var wg sync.WaitGroup
	errs := make([]error, len(sh.Sessions))
	for i, s := range sh.Sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Close()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
