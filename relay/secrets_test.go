package relay_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"agora/app/testenv"
	"agora/internal/adapters/kafka"
	"agora/projections/projectiontest"
)

// TestSecretsStayOffKafka: an organization's single sign-on secret and the
// PKCE verifiers of sign-ins under way are written with the organization's
// row, whose change is published, while theirs never are.
func TestSecretsStayOffKafka(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	p := projectiontest.StartPipeline(t, env.DBURL)
	secret := fmt.Sprintf("client-secret-%d", time.Now().UnixNano())
	verifier := fmt.Sprintf("pkce-verifier-%d", time.Now().UnixNano())
	var org string
	err := env.DB.Pool.QueryRow(ctx, `WITH o AS (
			INSERT INTO organizations (id, name, identity_client) VALUES (gen_random_uuid(), 'Secret Org', 'https://idp.example') RETURNING id),
		ic AS (INSERT INTO identity_clients (organization_id, issuer, client_id, client_secret) SELECT id, 'https://idp.example', 'agora', $1 FROM o),
		f AS (INSERT INTO sso_flows (id, state_hash, organization_id, code_verifier, nonce, expires_on)
			SELECT gen_random_uuid(), sha256(gen_random_uuid()::text::bytea), id, $2, 'nonce', now() + interval '10 minutes' FROM o)
		SELECT id::text FROM o`, secret, verifier).Scan(&org)
	if err != nil {
		t.Fatal(err)
	}

	// The organization's own change arrives, saying only the issuer.
	topic := "agora.public.organizations"
	if err := kafka.EnsureTopics(ctx, p.Brokers, 0, topic); err != nil {
		t.Fatal(err)
	}
	r := kafkago.NewReader(kafkago.ReaderConfig{
		Brokers: p.Brokers, GroupID: fmt.Sprintf("test-%d", time.Now().UnixNano()), GroupTopics: []string{topic},
		StartOffset: kafkago.FirstOffset, MaxWait: 100 * time.Millisecond, SessionTimeout: 2 * time.Second,
	})
	defer r.Close()
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for {
		m, err := r.FetchMessage(rctx)
		if err != nil {
			t.Fatalf("the organization's change did not arrive: %v", err)
		}
		if bytes.Contains(m.Value, []byte(secret)) || bytes.Contains(m.Value, []byte(verifier)) {
			t.Fatalf("a secret reached %s: %s", topic, m.Value)
		}
		if bytes.Contains(m.Key, []byte(org)) {
			if !bytes.Contains(m.Value, []byte(`"identity_client":"https://idp.example"`)) {
				t.Errorf("organization change without its issuer: %s", m.Value)
			}
			break
		}
	}
	// Changes reach Kafka in commit order: what the same transaction wrote
	// to the secret tables would be there by now.
	for _, table := range []string{"identity_clients", "sso_flows"} {
		topic := "agora.public." + table
		if err := kafka.EnsureTopics(ctx, p.Brokers, 0, topic); err != nil {
			t.Fatal(err)
		}
		ends, err := kafka.EndOffsets(ctx, p.Brokers, topic)
		if err != nil {
			t.Fatal(err)
		}
		for part, end := range ends {
			if end != 0 {
				t.Errorf("%s partition %d has %d messages", topic, part, end)
			}
		}
	}
}
