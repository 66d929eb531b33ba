package bot

import (
	"context"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/table"
	"github.com/pontoon-bot/pontoon/bot/view"
	"github.com/pontoon-bot/pontoon/bot/view/picture"
)

// The table's picture on the public table message. The publisher attaches a new one at
// the moments that matter (view.PictureMoment: the deal, the banker's reveal, the
// settlement) and edits without files otherwise, so the picture stays. It renders from
// the Snapshot it already copied, with no table lock held, and uploads on its own
// goroutine: no member's answer waits for a render or an upload, and a failed upload
// only leaves the text to speak for the table. With Options.TextOnly there is no
// picture: the text always speaks for the table, and the bot draws nothing (the drawing
// and its PNG are about a third of the CPU an interaction costs).

// pictures remembers, per table, which message holds which moment's picture, for the
// tables used most recently (Options.CacheEntries): one it let go is drawn as after a
// restart. It is a leaf lock, like the publisher's own.
type pictures struct {
	mu sync.Mutex
	m  *lru.Cache[int64, picState]
}

type picState struct {
	message string // the table message this is about
	moment  string // the moment last attached (or tried: a failure is not retried per edit)
	shown   bool   // the message holds picture.FileName
	alt     string // the picture's alt text, the media item's description
	known   bool   // this process has set the message's attachments (none or the picture)
}

func (ps *pictures) get(tableID int64, message string) picState {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	st, _ := ps.m.Get(tableID)
	if st.message != message {
		return picState{message: message} // a new message (a repost): no picture on it yet
	}
	return st
}

func (ps *pictures) put(tableID int64, st picState) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.m.Add(tableID, st)
}

// withPicture shows the uploaded picture in the table's container, described by its alt
// text.
func withPicture(m view.Message, alt string) view.Message {
	return view.WithPicture(m, picture.EmbedURL, alt)
}

// publicTable is the public table message m, the snapshot's rendering, for an
// interaction's type 7 update. The update sends no attachments field, so Discord keeps
// the message's picture, and the media gallery keeps pointing at it when there is one.
func (b *Bot) publicTable(s *table.Snapshot, m view.Message) view.Message {
	if s.MessageID != "" {
		if st := b.pics.get(s.ID, s.MessageID); st.shown {
			m = withPicture(m, st.alt)
		}
	}
	return m
}

// editTable edits a table's public message to m, the snapshot's rendering, attaching a
// new picture when the round has reached a new moment since the last one. It returns
// nil once the message shows m.
func (p *publisher) editTable(ctx context.Context, s *table.Snapshot, lang string, m view.Message) error {
	b := p.b
	st := b.pics.get(s.ID, s.MessageID)
	if moment := view.PictureMoment(s); !b.opt.TextOnly && moment != "" && moment != st.moment {
		st.moment = moment // tried once per moment: a failure is not retried on every edit
		pic, err := picture.Render(b.view.Picture(lang, s, b.memberName(s.Guild, s.Channel), ""))
		if err == nil {
			err = p.editFiles(ctx, s.Channel, s.MessageID, withPicture(m, pic.Alt), []discordapi.Upload{{Name: picture.FileName,
				ContentType: "image/png", Data: pic.PNG, Description: pic.Alt}})
		}
		if err == nil {
			st.shown, st.known, st.alt = true, true, pic.Alt
			b.pics.put(s.ID, st)
			return nil
		}
		b.log.Warn("table picture not attached", "table", s.ID, "err", err)
	}
	if st.shown {
		m = withPicture(m, st.alt) // the last picture stays
	}
	if !st.known {
		// The first edit of this message by this process: after a restart it may hold a
		// picture of a moment this process never saw. An empty attachments array clears
		// it, so the message never shows a stale picture as a loose file.
		err := p.editFiles(ctx, s.Channel, s.MessageID, m, nil)
		if err != nil {
			b.log.Warn("message not edited", "channel", s.Channel, "err", err)
		} else {
			st.known = true
		}
		b.pics.put(s.ID, st)
		return err
	}
	b.pics.put(s.ID, st)
	return p.edit(ctx, s.Channel, s.MessageID, m)
}

// editFiles replaces the message whole with files as its only attachments (none: no
// attachments), each described by its alt text.
func (p *publisher) editFiles(ctx context.Context, channel, id string, m view.Message, files []discordapi.Upload) error {
	return discordapi.ReplaceMessage(ctx, p.b.s, wholeEdit(channel, id, m), files)
}
