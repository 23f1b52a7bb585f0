package httpapi

import (
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// clientIP is the address of the client, the one reader of it: the key of
// the per-address rate limits and the address kept with a session.
//
// A peer in TrustedProxies is a reverse proxy (deploy/nginx appends its
// peer to X-Forwarded-For and sets X-Real-IP), so the client is read from
// X-Forwarded-For from the right, skipping the trusted proxies: the
// rightmost address no trusted proxy is known to be is the one that
// connected to them, and what lies left of it was written by the client.
// X-Real-IP stands in when X-Forwarded-For is absent. Any other peer's
// headers are ignored. (Fiber's own ProxyHeader reads the leftmost address
// of X-Forwarded-For, which the client chooses.)
func (s *server) clientIP(c fiber.Ctx) string {
	peer, ok := netip.AddrFromSlice(c.RequestCtx().RemoteIP())
	if !ok {
		return ""
	}
	peer = peer.Unmap()
	if !s.trustedProxy(peer) {
		return peer.String()
	}
	client := peer
	hops := c.Request().Header.PeekAll(fiber.HeaderXForwardedFor)
	if len(hops) == 0 {
		if a, err := netip.ParseAddr(strings.TrimSpace(c.Get("X-Real-IP"))); err == nil {
			return a.Unmap().String()
		}
		return peer.String()
	}
	// Several X-Forwarded-For lines are one list, in order (RFC 9110 §5.3).
	var list []string
	for _, h := range hops {
		list = append(list, strings.Split(string(h), ",")...)
	}
	for i := len(list) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(list[i]))
		if err != nil {
			// Not an address: the last trusted hop's word is all there is.
			break
		}
		client = a.Unmap()
		if !s.trustedProxy(client) {
			break
		}
	}
	return client.String()
}

// trustedProxy reports whether a is in TrustedProxies.
func (s *server) trustedProxy(a netip.Addr) bool {
	for _, p := range s.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
