package richtext_test

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/uuid"

	"agora/internal/rules/richtext"
)

const (
	ada  = "01900000-0000-7000-8000-000000000001"
	alan = "01900000-0000-7000-8000-000000000002"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name     string
		raw      string
		mentions []string
		hashtags []string
	}{
		{"empty", "", nil, nil},
		{"plain", "hello world", nil, nil},
		{"hashtag", "ship it #launch", nil, []string{"launch"}},
		{"hashtag with digits and underscore", "#q3_plan.", nil, []string{"q3_plan"}},
		{"unicode hashtag", "#café au lait", nil, []string{"café"}},
		{"lone hash", "# heading and #", nil, nil},
		{"inside a word", "page#anchor https://x.test/#frag", nil, nil},
		{"two tags adjacent", "#a#b", nil, []string{"a"}},
		{"after punctuation", "(#ops) \"#qa\"", nil, []string{"ops", "qa"}},
		{"duplicate tags case-insensitive", "#Go #go #GO", nil, []string{"Go"}},
		{"mention", "hi [Ada Lovelace](" + ada + ")!", []string{ada}, nil},
		{"two mentions, dup", "[A](" + ada + ") [B](" + alan + ") [A](" + ada + ")", []string{ada, alan}, nil},
		{"not a uuid", "[Ada](not-a-uuid)", nil, nil},
		{"nil uuid", "[Ada](00000000-0000-0000-0000-000000000000)", nil, nil},
		{"braced uuid", "[Ada]({" + ada + "})", nil, nil},
		{"empty display", "[](" + ada + ")", nil, nil},
		{"space before paren", "[Ada] (" + ada + ")", nil, nil},
		{"unclosed", "[Ada](" + ada, nil, nil},
		{"hashtag in a mention name is not a tag", "[#ops team](" + ada + ") #real", []string{ada}, []string{"real"}},
		{"nested bracket", "[[Ada](" + ada + ")", []string{ada}, nil},
		{"both", "#kickoff with [Alan](" + alan + ")", []string{alan}, []string{"kickoff"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := richtext.Parse(c.raw)
			want := richtext.Parsed{Mentions: []uuid.UUID{}, Hashtags: []string{}}
			for _, m := range c.mentions {
				want.Mentions = append(want.Mentions, uuid.MustParse(m))
			}
			want.Hashtags = append(want.Hashtags, c.hashtags...)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Parse(%q) = %+v, want %+v", c.raw, got, want)
			}
		})
	}
}

func TestParseLongHashtag(t *testing.T) {
	got := richtext.Parse("#" + strings.Repeat("é", richtext.MaxHashtagLen+20) + " #next")
	if len(got.Hashtags) != 2 || utf8.RuneCountInString(got.Hashtags[0]) != richtext.MaxHashtagLen || got.Hashtags[1] != "next" {
		t.Errorf("got %q", got.Hashtags)
	}
}

// FuzzParse checks properties that hold for any text: no panic, every
// hashtag is a non-empty run of tag characters that occurs after a '#' in
// the text, every mention's id is written in the text, and no duplicates.
// A plain `go test` runs the seed corpus; `go test -fuzz FuzzParse` explores.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "#a", "[A](" + ada + ")", "#ü_1 [x](" + alan + ") #ü_1", "[[](", "#\xff#", "a#b #c", "[a](" + ada + "))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		p := richtext.Parse(raw)
		tags := map[string]bool{}
		for _, h := range p.Hashtags {
			if h == "" || utf8.RuneCountInString(h) > richtext.MaxHashtagLen {
				t.Fatalf("bad hashtag %q", h)
			}
			if !strings.Contains(raw, "#"+h) {
				t.Fatalf("hashtag %q is not in %q", h, raw)
			}
			k := strings.ToLower(h)
			if tags[k] {
				t.Fatalf("duplicate hashtag %q", h)
			}
			tags[k] = true
		}
		users := map[uuid.UUID]bool{}
		for _, m := range p.Mentions {
			if m == uuid.Nil || !strings.Contains(strings.ToLower(raw), "("+m.String()+")") {
				t.Fatalf("mention %s is not in %q", m, raw)
			}
			if users[m] {
				t.Fatalf("duplicate mention %s", m)
			}
			users[m] = true
		}
	})
}

func TestPlain(t *testing.T) {
	id := "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
	for in, want := range map[string]string{
		"":                                       "",
		"no mentions #here":                      "no mentions #here",
		"hi [Ada Lovelace](" + id + "), welcome": "hi Ada Lovelace, welcome",
		"[A](" + id + ")[B](" + id + ")":         "AB",
		"[not a mention](https://example.com) ok": "[not a mention](https://example.com) ok",
		"[broken](" + id[:10] + ")":               "[broken](" + id[:10] + ")",
	} {
		if got := richtext.Plain(in); got != want {
			t.Errorf("Plain(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRewrite(t *testing.T) {
	ada, bob := uuid.MustParse("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"), uuid.MustParse("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c")
	names := func(id uuid.UUID) (string, bool) {
		if id == ada {
			return "Ada [the] (first)  Lovelace", true
		}
		return "", false
	}
	for in, want := range map[string]string{
		"":                                   "",
		"no mentions #here":                  "no mentions #here",
		"hi [Anyone](" + ada.String() + ")!": "hi [Ada the first Lovelace](" + ada.String() + ")!",
		"[Boss](" + bob.String() + ") #x":    "Boss #x",
		"[x](https://example.com)":           "[x](https://example.com)",
	} {
		if got := richtext.Rewrite(in, names); got != want {
			t.Errorf("Rewrite(%q) = %q, want %q", in, got, want)
		}
	}
}
