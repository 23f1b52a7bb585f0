package outbound

import (
	"net/netip"
)

// blocked are ranges that are not the public internet beyond what
// netip.Addr's predicates already say (loopback, private, link-local,
// multicast, unspecified). A fetch to any of them could reach the
// server's own network, so it is refused (the SSRF lists of OWASP and of
// the IANA special-purpose registries).
var blocked = prefixes(
	"0.0.0.0/8",       // "this network"
	"100.64.0.0/10",   // carrier-grade NAT (RFC 6598)
	"192.0.0.0/24",    // IETF protocol assignments
	"192.0.2.0/24",    // documentation
	"198.18.0.0/15",   // benchmarking
	"198.51.100.0/24", // documentation
	"203.0.113.0/24",  // documentation
	"240.0.0.0/4",     // reserved, and the broadcast address
	"::/96",           // IPv4-compatible (deprecated)
	"100::/64",        // discard-only
	"2001::/32",       // Teredo: tunnels to an arbitrary IPv4 address
	"2001:db8::/32",   // documentation
	"fec0::/10",       // site-local (deprecated)
	"64:ff9b:1::/48",  // local-use NAT64
)

// embedsIPv4 are IPv6 ranges that carry an IPv4 address in their low or
// middle bits; the embedded address is checked as well.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: IPv4 in the last 32 bits
	sixToFour = netip.MustParsePrefix("2002::/16")    // RFC 3056: IPv4 in bits 16–48
)

func prefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// Public reports whether a is an address the server may connect to for a
// URL someone supplied: a global unicast address outside every private,
// loopback, link-local (the cloud metadata service's 169.254.169.254
// among them), shared and reserved range. IPv4-mapped IPv6 addresses (::ffff:a.b.c.d)
// are judged by their IPv4 address, as are NAT64 and 6to4 ones.
func Public(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	if !a.IsValid() || !a.IsGlobalUnicast() || a.IsPrivate() || a.IsLoopback() ||
		a.IsLinkLocalUnicast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range blocked {
		if p.Contains(a) {
			return false
		}
	}
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			return Public(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		case sixToFour.Contains(a):
			return Public(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		}
	}
	return true
}
