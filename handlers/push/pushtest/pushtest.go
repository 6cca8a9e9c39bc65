// Package pushtest is a loopback Web Push service for tests: it plays both
// the push service (RFC 8030, with VAPID per RFC 8292) and the browser that
// holds the subscription keys, so a test can send real Web Push messages and
// read back what arrived, decrypted (RFC 8291 over RFC 8188 aes128gcm).
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// maxBody bounds a push request body; webpush-go sends 4096 bytes.
const maxBody = 8 << 10

// Service is a loopback push service (httptest server) for tests.
// Its methods are safe for concurrent use.
type Service struct {
	URL string // origin of the service, e.g. "http://127.0.0.1:41234"

	mu      sync.Mutex
	subs    map[string]*subKeys // by endpoint
	gone    map[string]bool     // by endpoint
	msgs    []Message
	errs    []string
	changed chan struct{} // closed and replaced whenever a message is accepted
}

// subKeys is what the "browser" keeps for one subscription.
type subKeys struct {
	priv *ecdh.PrivateKey
	auth []byte
}

// New starts a Service on 127.0.0.1; it is closed when t's test ends.
func New(t testing.TB) *Service {
	s := &Service{
		subs:    map[string]*subKeys{},
		gone:    map[string]bool{},
		changed: make(chan struct{}),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /push/{id}", s.push)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Sub is a browser's subscription, as PushSubscription.toJSON gives it:
// P256dh and Auth are unpadded base64url.
type Sub struct{ Endpoint, P256dh, Auth string }

// Subscribe makes a new subscription: a fresh P-256 key pair and 16-byte auth
// secret kept by the Service, and an endpoint URL URL+"/push/<random id>".
func (s *Service) Subscribe() Sub {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		panic(err) // crypto/rand does not fail
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	endpoint := s.URL + "/push/" + rand.Text()
	s.mu.Lock()
	s.subs[endpoint] = &subKeys{priv: priv, auth: auth}
	s.mu.Unlock()
	b64 := base64.RawURLEncoding.EncodeToString
	return Sub{Endpoint: endpoint, P256dh: b64(priv.PublicKey().Bytes()), Auth: b64(auth)}
}

// Gone makes the service answer 410 Gone for endpoint from now on (an
// expired subscription). Such requests are recorded neither as messages nor
// as errors.
func (s *Service) Gone(endpoint string) {
	s.mu.Lock()
	s.gone[endpoint] = true
	s.mu.Unlock()
}

// Message is one push the service accepted: decrypted.
type Message struct {
	Endpoint            string
	Payload             []byte // the plaintext after RFC 8291 decryption (padding removed)
	VAPIDKey            string // the k= public key of the Authorization header (base64url)
	Subject             string // the JWT's "sub" claim (e.g. "mailto:x@y")
	TTL, Urgency, Topic string // request headers as sent
}

// Messages returns the messages accepted so far, in order.
func (s *Service) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Errors returns, in order, why requests were refused with 400, 401, 404 or
// 413: each as "<status> <endpoint path>: <reason>".
func (s *Service) Errors() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.errs...)
}

// Wait returns once n messages were accepted, or fails t after timeout.
// It returns all messages accepted so far (at least n). Like t.Fatal, it
// must be called from the test's goroutine.
func (s *Service) Wait(t testing.TB, n int, timeout time.Duration) []Message {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		got, changed := len(s.msgs), s.changed
		s.mu.Unlock()
		if got >= n {
			return s.Messages()
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("pushtest: %d of %d messages after %v; errors: %q", got, n, timeout, s.Errors())
			return nil
		}
	}
}

// push handles POST /push/{id}: a message from an application server.
func (s *Service) push(w http.ResponseWriter, r *http.Request) {
	endpoint := s.URL + "/push/" + r.PathValue("id")
	fail := func(code int, reason string) {
		s.mu.Lock()
		s.errs = append(s.errs, fmt.Sprintf("%d %s: %s", code, r.URL.Path, reason))
		s.mu.Unlock()
		http.Error(w, reason, code)
	}
	s.mu.Lock()
	keys, gone := s.subs[endpoint], s.gone[endpoint]
	s.mu.Unlock()
	switch {
	case gone:
		http.Error(w, "subscription expired", http.StatusGone)
		return
	case keys == nil:
		fail(http.StatusNotFound, "no such subscription")
		return
	}
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		fail(http.StatusBadRequest, fmt.Sprintf("Content-Encoding %q, want aes128gcm", ce))
		return
	}
	ttl := r.Header.Get("TTL")
	if ttl == "" {
		fail(http.StatusBadRequest, "no TTL header")
		return
	}
	key, sub, err := s.checkVAPID(r.Header.Get("Authorization"))
	if err != nil {
		fail(http.StatusUnauthorized, "vapid: "+err.Error())
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		fail(http.StatusRequestEntityTooLarge, "body: "+err.Error())
		return
	}
	payload, err := decrypt(keys, body)
	if err != nil {
		fail(http.StatusBadRequest, "decrypt: "+err.Error())
		return
	}
	s.mu.Lock()
	s.msgs = append(s.msgs, Message{
		Endpoint: endpoint, Payload: payload, VAPIDKey: key, Subject: sub,
		TTL: ttl, Urgency: r.Header.Get("Urgency"), Topic: r.Header.Get("Topic"),
	})
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
}

// checkVAPID verifies an "Authorization: vapid t=<JWT>, k=<key>" header
// (RFC 8292) and returns the k= key as sent and the JWT's sub claim.
func (s *Service) checkVAPID(header string) (key, sub string, err error) {
	scheme, params, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "vapid") {
		return "", "", errors.New("Authorization is not the vapid scheme")
	}
	var token string
	for p := range strings.SplitSeq(params, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(p), "=")
		switch name {
		case "t":
			token = value
		case "k":
			key = value
		}
	}
	if token == "" || key == "" {
		return "", "", errors.New("Authorization lacks t= or k=")
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(key, "="))
	if err != nil {
		return "", "", errors.New("k= is not base64url")
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return "", "", errors.New("k= is not an uncompressed P-256 key")
	}

	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", "", errors.New("t= is not a JWT")
	}
	var head struct{ Alg string }
	var claims struct {
		Aud string
		Exp float64
		Sub string
	}
	if err := decodeSegment(parts[0], &head); err != nil {
		return "", "", fmt.Errorf("JWT header: %v", err)
	}
	if head.Alg != "ES256" {
		return "", "", fmt.Errorf("JWT alg %q, want ES256", head.Alg)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return "", "", errors.New("JWT signature is not 64 bytes of base64url")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, ss := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(pub, digest[:], r, ss) {
		return "", "", errors.New("JWT signature does not verify with k=")
	}
	if err := decodeSegment(parts[1], &claims); err != nil {
		return "", "", fmt.Errorf("JWT claims: %v", err)
	}
	now := time.Now()
	exp := time.Unix(int64(claims.Exp), 0)
	switch {
	case claims.Aud != s.URL:
		return "", "", fmt.Errorf("JWT aud %q, want %q", claims.Aud, s.URL)
	case !exp.After(now):
		return "", "", fmt.Errorf("JWT expired (exp %v)", exp)
	case exp.After(now.Add(24 * time.Hour)):
		return "", "", fmt.Errorf("JWT exp %v is more than 24h ahead", exp)
	case claims.Sub == "":
		return "", "", errors.New("JWT has no sub")
	}
	return key, claims.Sub, nil
}

// decodeSegment decodes one unpadded base64url JSON segment of a JWT into v.
func decodeSegment(seg string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// decrypt opens an RFC 8291 message: one RFC 8188 aes128gcm record whose
// keyid is the sender's ephemeral P-256 public key.
func decrypt(keys *subKeys, body []byte) ([]byte, error) {
	const head = 16 + 4 + 1 + 65 // salt | rs | idlen | keyid
	if len(body) < head || body[20] != 65 {
		return nil, errors.New("header is not salt(16) rs(4) idlen=65 keyid(65)")
	}
	salt, rs, keyid, record := body[:16], binary.BigEndian.Uint32(body[16:20]), body[21:head], body[head:]
	if rs < 18 || uint64(len(record)) > uint64(rs) || len(record) < 17 {
		return nil, fmt.Errorf("want one record of 17..rs bytes, got %d with rs %d", len(record), rs)
	}
	asPub, err := ecdh.P256().NewPublicKey(keyid)
	if err != nil {
		return nil, errors.New("keyid is not a P-256 public key")
	}
	secret, err := keys.priv.ECDH(asPub)
	if err != nil {
		return nil, err
	}
	prkKey, err := hkdf.Extract(sha256.New, secret, keys.auth)
	if err != nil {
		return nil, err
	}
	info := "WebPush: info\x00" + string(keys.priv.PublicKey().Bytes()) + string(keyid)
	ikm, err := hkdf.Expand(sha256.New, prkKey, info, 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, record, nil)
	if err != nil {
		return nil, errors.New("AES-GCM open failed (wrong keys?)")
	}
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 0x02 {
		return nil, errors.New("no 0x02 last-record delimiter before the padding")
	}
	return plain[:len(plain)-1], nil
}
