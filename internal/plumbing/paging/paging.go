// Package paging is the one page envelope of the API's lists and the one page
// request: every list answers {results, total}, and every paged list is
// asked with page (from 1) and pageSize.
package paging

import (
	"fmt"
	"math"
	"unicode/utf8"

	"agora/internal/plumbing/apperr"
)

// Page is one page of a list and how many entries the list has in all.
type Page[T any] struct {
	Results []T `json:"results"`
	Total   int `json:"total"`
}

// Request asks for page Page (from 1) of PageSize entries.
type Request struct {
	Page     int
	PageSize int
}

// MaxPage is the last page any list may be asked for. Without a bound, a
// page such as 2^62 made Offset overflow into a negative OFFSET, which
// Postgres refused with a 500; at 2^31-1 pages the offset of any page size
// fits in 64 bits, and no list comes near that many pages.
const MaxPage = math.MaxInt32

// Check adds to bad what is out of range in r, for lists of at most max
// entries a page.
func (r Request) Check(bad apperr.Fields, max int) {
	if r.Page < 1 || r.Page > MaxPage {
		bad.Add("page", fmt.Sprintf("must be 1 to %d", MaxPage))
	}
	if r.PageSize < 1 || r.PageSize > max {
		bad.Add("pageSize", fmt.Sprintf("must be 1 to %d", max))
	}
}

// KeywordMax bounds the keyword a list is searched with.
const KeywordMax = 200

// CheckKeyword adds to bad a list's keyword of more than KeywordMax
// characters.
func CheckKeyword(bad apperr.Fields, keyword string) {
	if utf8.RuneCountInString(keyword) > KeywordMax {
		bad.Add("keyword", fmt.Sprintf("must be at most %d characters", KeywordMax))
	}
}

// Offset is how many entries come before the page.
func (r Request) Offset() int { return (r.Page - 1) * r.PageSize }

// Windowed is a page read in one statement that also counts the whole list
// (COUNT(*) OVER ()), each row carrying the total: read runs that statement
// for r, and count counts the list alone. A page past the end has no row to
// carry the total, so count runs then only, and the list is read once
// otherwise.
func Windowed[T any](r Request, read func() (Page[T], error), count func() (int, error)) (Page[T], error) {
	page, err := read()
	if err != nil || len(page.Results) > 0 || r.Page <= 1 {
		return page, err
	}
	page.Total, err = count()
	return page, err
}
