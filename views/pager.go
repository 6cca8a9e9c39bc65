package views

import (
	"fmt"
	"net/url"
)

// Pager pages a list: Offset of Total shown, Size a page.
type Pager struct {
	Base   string // the list's address with its filters, without the offset
	Offset int
	Size   int
	Total  int
}

// Prev and Next are the addresses of the pages before and after ("" at an
// end).
func (p Pager) Prev() string {
	if p.Offset <= 0 {
		return ""
	}
	return p.At(max(0, p.Offset-p.Size))
}

func (p Pager) Next() string {
	if p.Offset+p.Size >= p.Total {
		return ""
	}
	return p.At(p.Offset + p.Size)
}

// At is the address of the page from offset.
func (p Pager) At(offset int) string {
	u, _ := url.Parse(p.Base)
	q := u.Query()
	q.Del("from")
	if offset > 0 {
		q.Set("from", fmt.Sprint(offset))
	}
	u.RawQuery = q.Encode()
	return u.String()
}
