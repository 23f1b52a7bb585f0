package outbound_test

import (
	"net/netip"
	"testing"

	"agora/internal/plumbing/outbound"
)

func TestPublic(t *testing.T) {
	refused := []string{
		"127.0.0.1", "127.255.0.9", "::1", // loopback
		"10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "fc00::1", "fd12:3456::1", // private
		"169.254.169.254", "169.254.0.1", "fe80::1", "fe80::1%eth0", // link-local, cloud metadata
		"0.0.0.0", "::", "0.1.2.3", // unspecified, "this network"
		"224.0.0.1", "239.255.255.250", "ff02::1", // multicast
		"255.255.255.255", "240.0.0.1", // broadcast, reserved
		"100.64.0.1", "100.127.255.255", // carrier-grade NAT
		"192.0.0.8", "192.0.2.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "2001:db8::1", "fec0::1",
		"::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254", // IPv4-mapped
		"::127.0.0.1",                                       // IPv4-compatible
		"64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b:1::1", // NAT64 of loopback, of 10/8; local-use NAT64
		"2002:7f00:1::1", "2002:a9fe:a9fe::1", // 6to4 of 127.0.0.1 and 169.254.169.254
		"2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
	}
	allowed := []string{
		"93.184.215.14", "1.1.1.1", "8.8.8.8", "172.32.0.1", "100.128.0.1", "192.169.0.1",
		"2606:4700:4700::1111", "2a00:1450:4001:82b::200e", "::ffff:93.184.215.14",
		"64:ff9b::5db8:d70e", "2002:5db8:d70e::1", // NAT64 and 6to4 of a public address
	}
	for _, s := range refused {
		if outbound.Public(netip.MustParseAddr(s)) {
			t.Errorf("%s is allowed, want refused", s)
		}
	}
	for _, s := range allowed {
		if !outbound.Public(netip.MustParseAddr(s)) {
			t.Errorf("%s is refused, want allowed", s)
		}
	}
}
