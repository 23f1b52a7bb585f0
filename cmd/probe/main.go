// Command probe replays the bad inputs of a black-box security probe
// against a running Agora and reports how many the server accepted, which
// must be none.
//
//	go run ./cmd/probe [-url http://127.0.0.1:8080] [-password agora-demo]
//
// It signs in as the demo logins of `agora dev` (member, expert and
// outsider), so it runs against a server with the demo data. It sends only
// to the given URL; it posts, uploads and deletes what it needs in the
// demo forums, its upload tickets take the demo member's upload quota until
// their URLs expire (AGORA_UPLOAD_URL_TTL), and its last probes spend the
// sign-in and AI search limits of the address it runs from (wait a minute
// before signing in from it).
//
// Each probe is a bad input and what the server must do with it: refuse it
// (a 4xx that changes nothing), or, for the checks that are not requests
// (headers, a revoked session's socket), hold the rule. The exit status is
// 1 when any was accepted.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "base URL of the Agora to probe")
	password := flag.String("password", "agora-demo", "password of the demo logins")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	r, err := Run(ctx, *url, *password, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(2)
	}
	if r.Accepted > 0 {
		os.Exit(1)
	}
}

// Report is what a run found.
type Report struct {
	// Total is the number of bad inputs sent (and rules checked).
	Total int
	// Accepted lists the names of those the server accepted.
	Accepted int
	Names    []string
}

// Run sets up the probe's accounts and places on the server at base, runs
// every probe in order and writes a line per probe, then the count.
func Run(ctx context.Context, base, password string, out io.Writer) (Report, error) {
	p, err := newProber(ctx, base, password)
	if err != nil {
		return Report{}, err
	}
	defer p.cleanup()
	var r Report
	for _, pr := range probes {
		v := pr.run(ctx, p)
		r.Total++
		mark := "refused "
		if v.accepted {
			mark = "ACCEPTED"
			r.Accepted++
			r.Names = append(r.Names, pr.area+": "+pr.name)
		}
		fmt.Fprintf(out, "%s  %-12s %s  (%s)\n", mark, pr.area, pr.name, v.got)
	}
	fmt.Fprintf(out, "probe: %d bad inputs, %d accepted\n", r.Total, r.Accepted)
	return r, nil
}
