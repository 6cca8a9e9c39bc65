// Package push sends Web Push messages (RFC 8030, encrypted per RFC 8291,
// signed with the site's VAPID key per RFC 8292) to the devices players
// registered. Package pushtest is a loopback push service for tests.
package push

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"cacao/models"
)

// Keys is the site's VAPID key pair, unpadded base64url: Public is the
// uncompressed P-256 point browsers subscribe with.
type Keys struct{ Public, Private string }

// LoadKeys returns the site's VAPID keys: made at random on first start
// and kept in the database (the site's secret "vapid"), so that devices
// stay subscribed across restarts and instances.
func LoadKeys(store *models.Store) (Keys, error) {
	d, err := store.Secret("vapid")
	if err != nil {
		return Keys{}, err
	}
	key, err := ecdh.P256().NewPrivateKey(d)
	if err != nil {
		return Keys{}, fmt.Errorf("push: the stored VAPID key: %w", err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	return Keys{Public: enc(key.PublicKey().Bytes()), Private: enc(d)}, nil
}

// ErrGone says the push service no longer knows the device (404 or 410):
// it should be forgotten. ErrRefused says it refused the push for good
// (another 4xx but 408 and 429: a bad key, a payload too large).
var (
	ErrGone    = errors.New("push: the subscription is gone")
	ErrRefused = errors.New("push: the push service refused it")
)

// Message is one push: what the service worker (static/sw.js) shows.
type Message struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"` // what a tap opens
	Tag   string `json:"tag"` // a newer notice of the same tag replaces the older
}

// Sender sends pushes.
type Sender struct {
	Keys Keys
	// Subscriber is who push services may contact about our pushes: an
	// https URL of the site or an email address (without "mailto:").
	Subscriber string
	Client     *http.Client
}

// Send delivers payload to sub, for at most ttl in the push service: nil
// once the service accepted it; ErrGone when the device is gone,
// ErrRefused when it never will be; any other error may be retried.
func (s *Sender) Send(ctx context.Context, sub *models.PushSub, payload []byte, ttl time.Duration, urgent bool) error {
	urgency := webpush.UrgencyNormal
	if urgent {
		urgency = webpush.UrgencyHigh
	}
	res, err := webpush.SendNotificationWithContext(ctx, payload, &webpush.Subscription{Endpoint: sub.Endpoint, Keys: webpush.Keys{P256dh: sub.P256dh, Auth: sub.Auth}},
		&webpush.Options{HTTPClient: s.Client, Subscriber: s.Subscriber, TTL: int(ttl.Seconds()), Urgency: urgency,
			VAPIDPublicKey: s.Keys.Public, VAPIDPrivateKey: s.Keys.Private})
	if err != nil {
		return err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 4<<10))
	switch {
	case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusGone:
		return ErrGone
	case res.StatusCode/100 == 4 && res.StatusCode != http.StatusRequestTimeout && res.StatusCode != http.StatusTooManyRequests:
		return fmt.Errorf("%w: %s", ErrRefused, res.Status)
	case res.StatusCode < 200 || res.StatusCode > 299:
		return fmt.Errorf("push: the push service answered %s", res.Status)
	}
	return nil
}
