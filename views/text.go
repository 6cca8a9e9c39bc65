package views

import (
	"context"
	"net/url"

	"cacao/views/i18n"
)

// t translates interface text for the page's language (see package i18n).
func t(ctx context.Context, msg string, args ...any) string {
	return i18n.From(ctx).T(msg, args...)
}

// tn translates a text about a count n: one for n == 1 in English, other
// otherwise (and the catalog key).
func tn(ctx context.Context, one, other string, n int, args ...any) string {
	return i18n.From(ctx).N(one, other, n, args...)
}

// lang is the page's language.
func lang(ctx context.Context) *i18n.Lang { return i18n.From(ctx) }

// num writes a number in the page's language.
func num(ctx context.Context, n int) string { return i18n.From(ctx).Num(n) }

// withNext is page's address with next (an address on this site) to go to
// after it, escaped whole; page alone when next is "" or "/".
func withNext(page, next string) string {
	if next == "" || next == "/" {
		return page
	}
	return page + "?next=" + url.QueryEscape(next)
}
