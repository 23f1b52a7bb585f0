package paging_test

import (
	"testing"

	"agora/internal/apperr"
	"agora/internal/paging"
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
