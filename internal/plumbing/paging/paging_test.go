package paging_test

import (
	"errors"
	"strings"
	"testing"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/paging"
)

func TestRequest(t *testing.T) {
	for _, c := range []struct {
		r      paging.Request
		bad    []string
		offset int
	}{
		{paging.Request{Page: 1, PageSize: 25}, nil, 0},
		{paging.Request{Page: 3, PageSize: 10}, nil, 20},
		{paging.Request{Page: 1, PageSize: 100}, nil, 0},
		{paging.Request{Page: 0, PageSize: 10}, []string{"page"}, -10},
		{paging.Request{Page: 1, PageSize: 0}, []string{"pageSize"}, 0},
		{paging.Request{Page: -1, PageSize: 101}, []string{"page", "pageSize"}, -202},
		{paging.Request{Page: paging.MaxPage, PageSize: 100}, nil, (paging.MaxPage - 1) * 100},
		// Past the last page: its offset would overflow (schemathesis asked
		// for page 8645245369921939456, a 500 from Postgres).
		{paging.Request{Page: paging.MaxPage + 1, PageSize: 100}, []string{"page"}, paging.MaxPage * 100},
	} {
		bad := apperr.Fields{}
		c.r.Check(bad, 100)
		for _, name := range c.bad {
			if bad[name] == "" {
				t.Errorf("%+v: %s not refused", c.r, name)
			}
		}
		if len(bad) != len(c.bad) {
			t.Errorf("%+v: refused %v, want %v", c.r, bad, c.bad)
		}
		if got := c.r.Offset(); got != c.offset {
			t.Errorf("%+v: offset %d, want %d", c.r, got, c.offset)
		}
	}
}

func TestWindowed(t *testing.T) {
	list := []string{"a", "b", "c"}
	for _, c := range []struct {
		r      paging.Request
		want   []string
		total  int
		counts int
	}{
		{paging.Request{Page: 1, PageSize: 2}, []string{"a", "b"}, 3, 0},
		{paging.Request{Page: 2, PageSize: 2}, []string{"c"}, 3, 0},
		// Past the end: no row carries the total, which is counted.
		{paging.Request{Page: 3, PageSize: 2}, nil, 3, 1},
		{paging.Request{Page: 9, PageSize: 25}, nil, 3, 1},
	} {
		counts := 0
		read := func() (paging.Page[string], error) {
			page := paging.Page[string]{Results: []string{}}
			for i := c.r.Offset(); i < len(list) && i < c.r.Offset()+c.r.PageSize; i++ {
				page.Results, page.Total = append(page.Results, list[i]), len(list)
			}
			return page, nil
		}
		count := func() (int, error) { counts++; return len(list), nil }
		page, err := paging.Windowed(c.r, read, count)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(page.Results, ",") != strings.Join(c.want, ",") || page.Results == nil || page.Total != c.total || counts != c.counts {
			t.Errorf("%+v: %+v after %d counts, want %v of %d after %d", c.r, page, counts, c.want, c.total, c.counts)
		}
	}
	// An empty list's first page is empty without a count.
	empty, err := paging.Windowed(paging.Request{Page: 1, PageSize: 10},
		func() (paging.Page[int], error) { return paging.Page[int]{Results: []int{}}, nil },
		func() (int, error) { t.Error("counted"); return 0, nil })
	if err != nil || empty.Total != 0 || len(empty.Results) != 0 {
		t.Errorf("empty list: %+v, %v", empty, err)
	}
	// A failed read is not counted after.
	boom := errors.New("boom")
	if _, err := paging.Windowed(paging.Request{Page: 2, PageSize: 10},
		func() (paging.Page[int], error) { return paging.Page[int]{}, boom },
		func() (int, error) { t.Error("counted after a failure"); return 0, nil }); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
}

func TestCheckKeyword(t *testing.T) {
	for k, refused := range map[string]bool{"": false, "ada": false, strings.Repeat("é", 200): false, strings.Repeat("k", 201): true} {
		bad := apperr.Fields{}
		paging.CheckKeyword(bad, k)
		if (bad["keyword"] != "") != refused || (refused && bad["keyword"] != "must be at most 200 characters") {
			t.Errorf("%d characters: %v", len([]rune(k)), bad)
		}
	}
}
