package views

import (
	"fmt"
	"net/url"
)

// Pager pages a list: Offset of Total shown, Size a page.
type Pager struct {
	Base   string // the list's address with its filters, without the offset
	Param  string // the offset's name in the address ("" is "from")
	Offset int
	Size   int
	Total  int
	More   bool // there are more than Total (a list that counts only so far)
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
	name := p.Param
	if name == "" {
		name = "from"
	}
	q.Del(name)
	if offset > 0 {
		q.Set(name, fmt.Sprint(offset))
	}
	u.RawQuery = q.Encode()
	return u.String()
}
