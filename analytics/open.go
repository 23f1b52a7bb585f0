package analytics

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// ErrNotNative means a URL asks for ClickHouse's HTTP interface, which
// clickhouse-go cannot use against 18.16: the warehouse speaks the native
// protocol.
var ErrNotNative = errors.New("analytics: the warehouse URL must use the native protocol (clickhouse://user:password@host:9000/database)")

// Open connects to the ClickHouse database of url (clickhouse://user:
// password@host:9000/database, native protocol; query parameters are
// clickhouse-go's DSN options and ClickHouse settings) and pings it.
func Open(ctx context.Context, url string) (driver.Conn, error) {
	opts, err := clickhouse.ParseDSN(url)
	if err != nil {
		return nil, fmt.Errorf("analytics: %w", err)
	}
	if opts.Protocol != clickhouse.Native {
		return nil, ErrNotNative
	}
	if opts.DialTimeout == 0 {
		opts.DialTimeout = 5 * time.Second
	}
	conn, err := clickhouse.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("analytics: %w", err)
	}
	if err := conn.Ping(ctx); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("analytics: ping %s: %w", opts.Addr, err)
	}
	return conn, nil
}
