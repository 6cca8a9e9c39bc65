package main

import (
	"context"
	"crypto/ecdh"
	crand "crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// The tarpit webhooks: attackHookAccounts accounts, each with
// attackDevices push devices (models.MaxPushDevices) and a webhook at a
// server that takes posts and never answers, each asking for a test
// notice every attackTestEvery, attackTests times at most.
const (
	attackHookAccounts = 8
	attackDevices      = 10
	attackTests        = 12
	attackTestEvery    = 5 * time.Second
)

// hookUp gives acc its devices and its webhook at the tarpit.
func (a *Attacks) hookUp(ctx context.Context, acc account) error {
	b64 := base64.RawURLEncoding.EncodeToString
	post := func(path string, form url.Values) error {
		code, _, err := acc.post(ctx, a.base, path, form)
		if err == nil && code != http.StatusOK {
			err = fmt.Errorf("tarpit webhooks: %s: %d", path, code)
		}
		return err
	}
	for i := range attackDevices {
		// The site encrypts each push for its device's key: a real one.
		key, err := ecdh.P256().GenerateKey(crand.Reader)
		if err != nil {
			return err
		}
		auth := make([]byte, 16)
		crand.Read(auth)
		err = post("/settings/devices", url.Values{"endpoint": {fmt.Sprintf("%s/push/%s/%d", a.tarpit.URL, acc.name, i)},
			"p256dh": {b64(key.PublicKey().Bytes())}, "auth": {b64(auth)}})
		if err != nil {
			return err
		}
		a.Devices++
	}
	if err := post("/settings/hook", url.Values{"hook": {a.tarpit.URL + "/hook/" + acc.name}}); err != nil {
		return err
	}
	a.Hooks++
	return nil
}

// tarpitHooks has the accounts whose devices and webhooks point at the
// tarpit ask for test notices (each posted to every device and the
// webhook) until ctx ends.
func (a *Attacks) tarpitHooks(ctx context.Context) {
	var wg sync.WaitGroup
	for _, acc := range a.hookers {
		wg.Go(func() {
			for i := 0; i < attackTests && ctx.Err() == nil; i++ {
				code, _, err := acc.post(ctx, a.base, "/settings/news/test", url.Values{})
				switch {
				case err != nil:
					if ctx.Err() == nil {
						a.unexpected(fmt.Sprintf("tarpit webhooks: a test notice: %v", err))
					}
				case code == http.StatusOK || code == http.StatusUnprocessableEntity: // sent, or refused: one a minute
					a.mu.Lock()
					a.Tests++
					if code == http.StatusOK {
						a.TestsSent++
					}
					a.mu.Unlock()
				default:
					a.unexpected(fmt.Sprintf("tarpit webhooks: a test notice: %d", code))
				}
				wait(ctx, attackTestEvery)
			}
		})
	}
	wg.Wait()
}
