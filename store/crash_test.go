package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/bot/logging/logtest"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/require"
)

// crashEnv names the database a crash child plays on; see TestMain.
const crashEnv = "PONTOON_CRASH_CHILD_DB"

// crashOpen is the line a crash child prints once its store is open.
const crashOpen = "crash child: store open"

// TestMain turns the test binary into the crash child when crashEnv is set: it plays
// rounds through the engine and the store forever, until its parent kills it.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		if err := crashChild(path); err != nil {
			fmt.Fprintln(os.Stderr, "crash child:", err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashChild plays random legal rounds forever, as the bot does, until it is killed.
func crashChild(path string) error {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		return err
	}
	fmt.Println(crashOpen) // the parent's kill window starts now
	d := newDriver(s, rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(time.Now().UnixNano()))), nil)
	for {
		if err := d.round(ctx); err != nil {
			return err
		}
	}
}

// driver plays random legal rounds at one table through the engine and the store, as the
// bot does: deal (StartRound), then one ApplyAction per decision with its movements.
type driver struct {
	s              *Store
	rng            *rand.Rand
	guild, channel string
	seats          []string
	rules          game.Rules
	afterStep      func() error // called after every committed step
}

func newDriver(s *Store, rng *rand.Rand, afterStep func() error) *driver {
	rules := game.DefaultRules()
	rules.Variant = game.Shoot
	rules.Burn = 13
	rules.BankerMayDouble = true
	if afterStep == nil {
		afterStep = func() error { return nil }
	}
	return &driver{s: s, rng: rng, guild: "g", channel: "c", seats: []string{"m0", "m1", "m2", "m3"}, rules: rules, afterStep: afterStep}
}

// round plays one round to its settlement, first finishing a round left unfinished.
func (d *driver) round(ctx context.Context) error {
	s, rng, rules, seats := d.s, d.rng, d.rules, d.seats
	now := func() time.Time { return time.Now().UTC() }
	for _, m := range seats {
		w, _, err := s.EnsureWallet(ctx, d.guild, m, 1000, now())
		if err != nil {
			return err
		}
		if w.Balance < 200 {
			if _, err := s.Grant(ctx, d.guild, "driver", m, 1000, now()); err != nil {
				return err
			}
		}
		if err := d.afterStep(); err != nil {
			return err
		}
	}
	tb, err := s.TableByChannel(ctx, d.guild, d.channel)
	if errors.Is(err, ErrNotFound) {
		rj, _ := json.Marshal(rules)
		tb, err = s.OpenTable(ctx, OpenTableParams{Guild: d.guild, Channel: d.channel, Host: "m0", Rules: string(rj), BankOwner: "m0", Now: now()})
		if err == nil {
			err = s.SetSeats(ctx, tb.ID, seats, now())
		}
	}
	if err != nil {
		return err
	}
	var g *game.Game
	var round Round
	seq := 0
	rebuilt, err := s.RecoverRounds(ctx)
	if err != nil {
		return err
	}
	for _, r := range rebuilt {
		if r.Err != nil {
			return r.Err
		}
		g, round, seq = r.Game, r.Round, len(r.Actions)
	}
	if g == nil {
		st, err := s.TableState(ctx, tb.ID)
		if err != nil {
			return err
		}
		bal := map[string]int64{}
		for _, m := range seats {
			w, err := s.Wallet(ctx, d.guild, m)
			if err != nil {
				return err
			}
			bal[m] = w.Balance
		}
		if g, err = game.NewGame(rules, seats, st.BankOwner, bal, st.Kitty); err != nil {
			return err
		}
		if st.Kitty == 0 {
			out, err := g.Apply(game.Action{Player: g.Banker, Verb: game.VerbKitty, Amount: rules.KittyMin})
			if err != nil {
				return err
			}
			if err := s.UpdateBank(ctx, BankParams{TableID: tb.ID, Transfers: GameTransfers(tb.ID, out), Now: now()}); err != nil {
				return err
			}
			if err := d.afterStep(); err != nil {
				return err
			}
		}
		snap := game.HistoryTable{Seats: seats, Banker: g.Banker, Balances: maps.Clone(g.Balances), Kitty: g.Kitty}
		pack := game.NewPack(1)
		game.Shuffle(pack, rng)
		if err := g.Deal(pack); err != nil {
			return err
		}
		hj, _ := json.Marshal(game.History{Format: game.HistoryFormat, Rules: rules, Table: snap, Rounds: []game.HistoryRound{{Pack: game.CardStrings(pack), Actions: []string{}}}})
		if round, err = s.StartRound(ctx, StartRoundParams{TableID: tb.ID, Number: tb.RoundNumber + 1, History: string(hj), Commitment: "c", Salt: "s", Now: now()}); err != nil {
			return err
		}
	}
	for g.InRound() {
		p := g.ToAct()[rng.IntN(len(g.ToAct()))]
		a := game.Action{Player: p, Verb: game.VerbTimeout}
		if moves := g.Legal(p); len(moves) > 0 {
			m := moves[rng.IntN(len(moves))]
			a = game.Action{Player: p, Verb: m.Verb, Amount: m.Min + rng.Int64N(m.Max-m.Min+1)}
		}
		next := g.Clone()
		out, err := next.Apply(a)
		if err != nil {
			return err
		}
		ap := ApplyParams{RoundID: round.ID, Seq: seq + 1, Member: p, Verb: string(a.Verb), Args: a.Args(), Now: now(),
			Transfers: GameTransfers(tb.ID, out), InteractionID: fmt.Sprintf("i-%d-%d", round.ID, seq+1)}
		if !next.InRound() {
			res, _ := json.Marshal(next.RoundReport())
			ap.Finish = &RoundFinish{Result: string(res), BankOwner: next.Banker}
		}
		if err := s.ApplyAction(ctx, ap); err != nil {
			return err
		}
		g, seq = next, seq+1
		if err := d.afterStep(); err != nil {
			return err
		}
	}
	return nil
}

// TestCrashRecovery kills a child applying actions with SIGKILL at random moments, 50
// times. After each kill the database opens, the audit balances, every unfinished round
// rebuilds through the engine with escrow matching the ledger, and every action has
// exactly the ledger legs the engine gives it: none applied twice, none half-applied.
func TestCrashRecovery(t *testing.T) {
	eachBackend(t, func(t *testing.T, bk backend) {
		path := bk.location(t)
		rng := rand.New(rand.NewPCG(11, 12))
		ctx := context.Background()
		kills := 50
		if testing.Short() {
			kills = 10
		}
		for i := 0; i < kills; i++ {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), crashEnv+"="+path)
			var stdout, stderr logtest.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Start())
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			// The kill comes at a random moment of play, counted from the moment the child's
			// store is open: how long a child under -race on a busy machine takes to start
			// (a second or more) is not what this test is about.
			var err error
		open:
			for {
				select {
				case err = <-exited:
					break open
				case <-time.After(5 * time.Millisecond):
					if strings.Contains(stdout.String(), crashOpen) {
						time.Sleep(time.Duration(40+rng.IntN(160)) * time.Millisecond)
						require.NoError(t, cmd.Process.Kill()) // SIGKILL
						err = <-exited
						break open
					}
				}
			}
			var ee *exec.ExitError
			require.True(t, errors.As(err, &ee), "the child was killed, not finished: %v %s", err, stderr.String())
			require.NotContains(t, stderr.String(), "crash child:", "the child failed by itself")

			s, err := Open(ctx, path)
			require.NoError(t, err, "kill %d: the database opens", i)
			rep, err := s.Audit(ctx)
			require.NoError(t, err)
			require.True(t, rep.OK(), "kill %d: %s", i, rep.String())
			rebuilt, err := s.RecoverRounds(ctx)
			require.NoError(t, err)
			for _, r := range rebuilt {
				require.NoError(t, r.Err, "kill %d: round %d rebuilds", i, r.Round.Number)
			}
			checkLedgerLegs(t, s)
			require.NoError(t, s.Close())
		}
		s, err := Open(ctx, path)
		require.NoError(t, err)
		defer s.Close()
		var actions int
		require.NoError(t, s.r.QueryRow(`SELECT COUNT(*) FROM actions`).Scan(&actions))
		require.Greater(t, actions, kills, "the children made progress between kills")
		var finished int
		require.NoError(t, s.r.QueryRow(`SELECT COUNT(*) FROM rounds WHERE finished_at IS NOT NULL`).Scan(&finished))
		require.Greater(t, finished, 0, "whole rounds were settled across the kills")
		t.Logf("%d kills, %d actions, %d rounds settled", kills, actions, finished)
	})
}

// checkLedgerLegs replays every round action by action and compares the number of
// chip movements of each with the ledger rows recorded for it.
func checkLedgerLegs(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	rows, err := s.r.Query(`SELECT id FROM rounds ORDER BY id`)
	require.NoError(t, err)
	var ids []int64
	for rows.Next() {
		var id int64
		require.NoError(t, rows.Scan(&id))
		ids = append(ids, id)
	}
	require.NoError(t, rows.Close())
	for _, id := range ids {
		var r Round
		var tableID int64
		require.NoError(t, s.r.QueryRow(`SELECT table_id FROM rounds WHERE id = ?`, id).Scan(&tableID))
		var number int
		require.NoError(t, s.r.QueryRow(`SELECT number FROM rounds WHERE id = ?`, id).Scan(&number))
		r, err := s.Round(ctx, tableID, number)
		require.NoError(t, err)
		acts, err := s.Actions(ctx, r.ID)
		require.NoError(t, err)
		h, err := RoundHistory(r, nil)
		require.NoError(t, err)
		g, err := game.NewGame(h.Rules, h.Table.Seats, h.Table.Banker, h.Table.Balances, h.Table.Kitty)
		require.NoError(t, err)
		pack, err := game.ParseCards(h.Rounds[0].Pack)
		require.NoError(t, err)
		require.NoError(t, g.Deal(pack))
		legs := map[int]int{}
		lr, err := s.r.Query(`SELECT action_seq, COUNT(*) FROM ledger_entries WHERE round_id = ? AND action_seq > 0 GROUP BY action_seq`, r.ID)
		require.NoError(t, err)
		for lr.Next() {
			var seq, n int
			require.NoError(t, lr.Scan(&seq, &n))
			legs[seq] = n
		}
		require.NoError(t, lr.Close())
		for _, a := range acts {
			ga, err := game.ParseAction(a.Member + " " + a.Verb + " " + a.Args)
			require.NoError(t, err)
			out, err := g.Apply(ga)
			require.NoError(t, err)
			require.Equal(t, len(out), legs[a.Seq], "round %d action %d (%s %s): ledger legs", r.Number, a.Seq, a.Member, a.Verb)
			delete(legs, a.Seq)
		}
		require.Empty(t, legs, "round %d: ledger rows for actions that are not in the log", r.Number)
	}
}
