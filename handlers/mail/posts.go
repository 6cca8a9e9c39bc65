package mail

import (
	"context"
	"maps"
	"slices"
	"time"

	"cacao/handlers/hook"
	"cacao/models"
)

// DefaultPostsAtOnce is how many pushes and webhook posts a process has
// under way at once by default. A post to a server that never answers
// holds one for postTimeout (10 s); a player holds at most one. A post
// costs a goroutine and a socket, little next to a page's; with 16, as
// many players pointing at such servers held every slot and the others'
// posts waited some 10 s a round. With 64 it takes 64 such accounts
// (sign-ups are limited per address), and the honest posts, which end in
// well under a second, share what slots are left.
const DefaultPostsAtOnce = 64

// postTimeout bounds one push or webhook post, whatever the client: the
// site's (hook.Client) gives up then too.
const postTimeout = hook.Timeout

// pauseAfterError is how long Posts waits to start posts after an error
// of the store.
const pauseAfterError = time.Second

// posting is one run of the posts: those under way, and the players served
// this round.
type posting struct {
	o       *Outbox
	due     func(limit int, skip []uint) ([]models.Mail, error) // the store's DuePosts
	deliver func(context.Context, *models.Mail) (Stats, error)  // o.deliver
	slots   int
	busy    map[uint]bool // players with a post under way
	served  map[uint]bool // players whose post went this round (the busy too)
	done    chan posted
	st      Stats
	first   error
}

// posted is what a post under way did.
type posted struct {
	user uint
	did  Stats
	err  error
}

func (o *Outbox) posting() *posting {
	slots := o.PostsAtOnce
	if slots <= 0 {
		slots = DefaultPostsAtOnce
	}
	return &posting{o: o, due: o.Store.DuePosts, deliver: o.deliver, slots: slots, busy: map[uint]bool{}, served: map[uint]bool{}, done: make(chan posted, slots)}
}

// start starts the due posts the free slots take: players take turns, a
// round at a time (one not served this round first; when every player
// with a post due was served, a new round), each with one post under way
// at most. It returns how many it started.
func (p *posting) start(ctx context.Context) (int, error) {
	free := p.slots - len(p.busy)
	if free <= 0 || ctx.Err() != nil {
		return 0, nil
	}
	due, err := p.due(free, slices.Collect(maps.Keys(p.served)))
	if err != nil {
		return 0, err
	}
	if len(due) < free && len(p.served) > len(p.busy) {
		// Every player with a post due was served this round: a new one,
		// begun only once the look for its posts went through.
		round := maps.Clone(p.busy)
		for _, m := range due {
			round[m.UserID] = true
		}
		more, err := p.due(free-len(due), slices.Collect(maps.Keys(round)))
		if err != nil {
			return 0, err
		}
		p.served, due = round, append(due, more...)
	}
	for _, m := range due {
		p.busy[m.UserID], p.served[m.UserID] = true, true
		go func() {
			did, err := p.deliver(ctx, &m)
			p.done <- posted{m.UserID, did, err}
		}()
	}
	return len(due), nil
}

// end takes in what a post under way did, and returns its error.
func (p *posting) end(d posted) error {
	delete(p.busy, d.user)
	p.st.add(d.did)
	if d.err != nil {
		p.o.logErr(d.err)
		if p.first == nil {
			p.first = d.err
		}
	}
	return d.err
}

// drain waits for the posts under way.
func (p *posting) drain() {
	for len(p.busy) > 0 {
		p.end(<-p.done)
	}
}

// Posts delivers the due pushes and webhook posts until ctx ends, apart
// from mail: it starts posts whenever a slot is free (see
// Outbox.PostsAtOnce and posting.start), never waiting for one before
// taking the next, and looks for due posts when one ends and every
// `every`; it logs what it did then. After an error of the store (a
// post's or the look's) it starts none for pauseAfterError: a database
// that fails at once would have it try again as fast as it fails. Once
// ctx ends it starts none and returns when those under way (their
// context ended) have.
func (o *Outbox) Posts(ctx context.Context, every time.Duration) {
	o.posting().run(ctx, every)
}

// run is Posts.
func (p *posting) run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	report := func() {
		if p.st != (Stats{}) && p.o.Log != nil {
			p.o.Log.Info("posts", "sent", p.st.Sent, "skipped", p.st.Skipped, "failed", p.st.Failed, "held", p.st.Held, "switched_off", p.st.Off, "under_way", len(p.busy))
		}
		p.st = Stats{}
	}
	var pause <-chan time.Time // after an error: no post starts until it fires
	for {
		if pause == nil {
			if _, err := p.start(ctx); err != nil {
				p.o.logErr(err)
				pause = time.After(pauseAfterError)
			}
		}
		select {
		case d := <-p.done:
			if p.end(d) != nil && pause == nil {
				pause = time.After(pauseAfterError)
			}
		case <-pause:
			pause = nil
		case <-t.C:
			report()
		case <-ctx.Done():
			p.drain()
			report()
			return
		}
	}
}

// PostOnce delivers the posts due as Posts does, and returns once none is
// due or under way: what it did, and the first error.
func (o *Outbox) PostOnce(ctx context.Context) (Stats, error) {
	p := o.posting()
	for {
		n, err := p.start(ctx)
		if err != nil && p.first == nil {
			p.first = err
		}
		if n == 0 && len(p.busy) == 0 || err != nil {
			p.drain()
			return p.st, p.first
		}
		p.end(<-p.done)
	}
}

// logErr logs an error of the store's.
func (o *Outbox) logErr(err error) {
	if o.Log != nil {
		o.Log.Error("posts", "err", err)
	}
}
