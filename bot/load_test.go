package bot_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/store"
)

// loadTable is one channel of the load run with its three players.
type loadTable struct {
	channel string
	players []string
}

// playRound drives one round at a table the way members do: each asks for their panel
// and presses the first legal action in a fixed order of preference, until the round
// settles. It returns the number of interactions sent.
func playRound(b *testing.B, fake *discordtest.Server, tb loadTable, lat *latencies) int {
	n := 0
	send := func(r *discordtest.Response, err error) *discordtest.Response {
		if err != nil {
			b.Error(err)
			return nil
		}
		n++
		lat.add(r.Latency)
		return r
	}
	table := func() *discordgo.Message {
		for _, m := range fake.Messages(tb.channel) {
			if isV2(m) && strings.Contains(text(m), "Pontoon") {
				return m
			}
		}
		return nil
	}
	t := table()
	deal, _ := customID(t, "pt:deal:", "")
	if send(fake.Click(tb.channel, t.ID, tb.players[0], deal)) == nil {
		return n
	}
	for step := 0; step < 200; step++ {
		progressed := false
		for _, p := range tb.players {
			t := table()
			if strings.Contains(text(t), "The round is settled") {
				return n
			}
			cards, _ := customID(t, "pt:cards:", "")
			r := send(fake.Click(tb.channel, t.ID, p, cards))
			if r == nil {
				return n
			}
			panel := r.Message
			if id, ok := customID(panel, "pt:amt:", ":stake"); ok {
				send(fake.Select(tb.channel, panel.ID, p, id, []string{"1"}))
				progressed = true
				continue
			}
			for _, verb := range []string{"stick", "stay", "nodouble", "twist", "draw"} {
				if id, ok := customID(panel, "pt:act:", ":"+verb); ok {
					send(fake.Click(tb.channel, panel.ID, p, id))
					progressed = true
					break
				}
			}
		}
		if !progressed {
			time.Sleep(2 * time.Millisecond)
		}
	}
	b.Errorf("table %s did not settle", tb.channel)
	return n
}

type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

func (l *latencies) quantile(q float64) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), l.d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// BenchmarkLoad drives many tables at once through the real bot and the fake Discord:
// each b.N is one round at every table, all tables in parallel. It reports interactions
// per second and the latency from the interaction's dispatch to the bot's answer.
//
//	go test -run XXX -bench BenchmarkLoad -benchtime 5x ./bot
func BenchmarkLoad(b *testing.B) {
	for _, tables := range []int{1, 20, 100} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			// Every request is checked as in the end-to-end tests: the hand-coded limits and,
			// where the spec is found, the OpenAPI body schema.
			fake := discordtest.New(b, discordtest.WithToken("test-token"), discordtest.WithWaitTimeout(10*time.Second))
			fake.AddGuild(guildID, "en-US")
			ctx := context.Background()
			st, err := store.Open(ctx, filepath.Join(b.TempDir(), "load.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			bt, err := bot.New(st, bot.Options{Token: "test-token", APIURL: fake.URL(), TurnTimer: time.Minute, EditDelay: 200 * time.Millisecond,
				StartingChips: 1000, MaxOpenTables: tables})
			if err != nil {
				b.Fatal(err)
			}
			if err := bt.Start(ctx); err != nil {
				b.Fatal(err)
			}
			defer bt.Close()
			var tbs []loadTable
			for i := 0; i < tables; i++ {
				tb := loadTable{channel: fmt.Sprintf("7%017d", i)}
				fake.AddChannel(guildID, tb.channel)
				for k := 0; k < 3; k++ {
					p := fmt.Sprintf("8%08d%09d", i, k)
					fake.AddMember(guildID, p, "p", 0, "en-US")
					tb.players = append(tb.players, p)
				}
				r, err := fake.Command(guildID, tb.channel, tb.players[0], "pontoon", sub("start"))
				if err != nil || r == nil {
					b.Fatal(err)
				}
				var msg *discordgo.Message
				for msg == nil {
					for _, m := range fake.Messages(tb.channel) {
						if isV2(m) {
							msg = m
						}
					}
				}
				for _, p := range tb.players[1:] {
					join, _ := customID(msg, "pt:join:", "")
					if _, err := fake.Click(tb.channel, msg.ID, p, join); err != nil {
						b.Fatal(err)
					}
				}
				tbs = append(tbs, tb)
			}
			lat := &latencies{}
			var sent atomic.Int64
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				var wg sync.WaitGroup
				for _, tb := range tbs {
					wg.Add(1)
					go func() {
						defer wg.Done()
						sent.Add(int64(playRound(b, fake, tb, lat)))
					}()
				}
				wg.Wait()
			}
			el := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(sent.Load())/el.Seconds(), "interactions/s")
			b.ReportMetric(float64(lat.quantile(0.5).Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat.quantile(0.99).Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(lat.quantile(1).Microseconds())/1000, "max-ms")
			if f := fake.Failures(); len(f) > 0 {
				b.Fatalf("the fake Discord failed %d requests or interactions (answers over 3s included): %v", len(f), f[:min(5, len(f))])
			}
		})
	}
}
