// Pages the browser keeps in its back/forward cache would keep their event
// streams open, and a browser allows only six connections to a site: close
// the streams when a page is left, and reload a page shown again from that
// cache so that it is current and listening.
addEventListener("pagehide", function () {
  document.querySelectorAll("[sse-connect]").forEach(function (el) {
    var data = el["htmx-internal-data"];
    if (data && data.sseEventSource) data.sseEventSource.close();
  });
});
addEventListener("pageshow", function (e) {
  if (e.persisted) location.reload();
});

// The game area asks one thing at a time (its hx-sync): a new step aborts
// the one under way. A move or a choice being confirmed is not aborted:
// while its form waits for its answer, nothing else in the game area is
// asked (a second click on Confirm, a cell clicked meanwhile).
document.addEventListener("htmx:confirm", function (e) {
  var main = document.getElementById("game-main");
  if (main && main.contains(e.target) && main.querySelector("form.htmx-request")) e.preventDefault();
});

// A live refetch (data-live-version: the version shown) runs when the
// event's version is past that version; the game area's, not while a move
// of this page is under way: its answer is newer than the event. (Here,
// not in an htmx trigger filter: those are evaluated from strings, which
// the site's content security policy forbids.)
document.addEventListener("htmx:confirm", function (e) {
  var shown = e.target.dataset && e.target.dataset.liveVersion;
  if (shown === undefined) return;
  var msg = e.detail.triggeringEvent && e.detail.triggeringEvent.detail, version = NaN;
  try { version = Number(JSON.parse(msg.data).version); } catch (_) {}
  var main = document.getElementById("game-main");
  var moving = main && main.contains(e.target) && main.querySelector(".htmx-request");
  if (!(version > Number(shown)) || moving) e.preventDefault();
});

// The board as a list (a details element) stays open across the game
// area's swaps: a reader who opened it would otherwise find it closed after
// every step. The board, where it scrolls (a phone, a large board), stays
// scrolled where it was: a player comparing cells at its far side would
// otherwise be taken back to its corner at every cell. And the board stays
// where it was on the screen: what changes above it (the bar of the move
// growing with Confirm, news of another player's move) moves the page by
// as much, and the control a step focuses (Rotate, Confirm, the hand after
// a move) is focused without scrolling to it. Only so far, though, that the
// bar, staying at the top as it grows, does not slide over the hand below
// it (a laptop's row under the bar): past that the board moves down.
var openDetails = [], boardScroll = null, pageScroll = null, boardTop = null, handClear = false;
document.addEventListener("htmx:beforeSwap", function (e) {
  if (!e.detail.shouldSwap || !e.detail.target || (e.detail.target.id !== "game-main" && e.detail.target.id !== "game-turn")) return;
  openDetails = Array.prototype.map.call(e.detail.target.querySelectorAll("details[open][id]"), function (d) { return d.id; });
  var w = document.getElementById("board-wrap");
  boardScroll = w ? [w.scrollLeft, w.scrollTop] : null;
  boardTop = w ? w.getBoundingClientRect().top : null;
  pageScroll = [window.scrollX, window.scrollY];
  handClear = handUnderBar() <= 0;
});
// handUnderBar is how far the bar of the move reaches over the hand, where
// the hand is a row of the page (not a phone's tray of its own).
function handUnderBar() {
  var hand = document.querySelector(".game-hand"), bar = document.getElementById("play");
  if (!hand || !bar || getComputedStyle(hand).position === "sticky") return -Infinity;
  return bar.getBoundingClientRect().bottom - hand.getBoundingClientRect().top;
}
document.addEventListener("htmx:afterSettle", function () {
  markPans(); // first: the line it shows above the board moves the board
  // A new lesson of the tutorial (its title takes the focus) opens at its
  // title, not where the move before it left the page.
  if (document.querySelector("#lesson-h[autofocus]")) {
    pageScroll = boardTop = null;
    document.getElementById("lesson").scrollIntoView({ block: "start" });
  }
  if (!pageScroll) return;
  if (window.scrollX !== pageScroll[0] || window.scrollY !== pageScroll[1]) window.scrollTo(pageScroll[0], pageScroll[1]);
  pageScroll = null;
  var w = document.getElementById("board-wrap");
  if (w && boardTop !== null) {
    var moved = w.getBoundingClientRect().top - boardTop;
    window.scrollBy(0, moved);
    var over = handUnderBar();
    if (handClear && moved > 0 && over > 0) window.scrollBy(0, -Math.min(over + 8, moved));
  }
  boardTop = null;
  // The tile on its chosen cell stays in sight: where the bar of the move
  // at the top covers it, the page moves just enough.
  var ghost = document.querySelector("svg.board .chosen"), bar = document.getElementById("play");
  if (ghost && bar) {
    var over = bar.getBoundingClientRect().bottom + 32 - ghost.getBoundingClientRect().top; // the board's numbers under the bar
    if (over > 0) window.scrollBy(0, -over);
  }
});
document.addEventListener("htmx:afterSwap", function () {
  openDetails.forEach(function (id) {
    var d = document.getElementById(id);
    if (d) d.open = true;
  });
  openDetails = [];
  var w = document.getElementById("board-wrap");
  if (w && boardScroll) {
    w.scrollLeft = boardScroll[0];
    w.scrollTop = boardScroll[1];
  }
  boardScroll = null;
});

// The language form takes the player back to the address shown: with htmx
// steps, that is no longer the one the page was loaded with (a tile and a
// cell chosen would be lost).
function syncNext() {
  document.querySelectorAll(".lang-form input[name=next], #zoom input[name=next]").forEach(function (i) {
    i.value = location.pathname + location.search;
  });
}
["htmx:pushedIntoHistory", "htmx:replacedInHistory", "htmx:historyRestore"].forEach(function (n) {
  document.addEventListener(n, syncNext);
});
addEventListener("popstate", syncNext);

// What the browser scrolls into view (a cell focused by Tab or an arrow
// key) is kept below the bar of the move, which stays at the top of the
// screen and grows with what the move brings, and above a phone's hand
// tray, which stays at its foot: the page's scroll padding is their
// heights. The board's box is as much shorter as the bar (--bar-h,
// app.css), so that it stays on the screen with the bar above it.
function padForBar() {
  var bar = document.getElementById("play"), tray = document.querySelector(".game-hand"), root = document.documentElement.style;
  var stays = bar && getComputedStyle(bar).position === "sticky";
  root.scrollPaddingTop = stays ? bar.offsetHeight + 40 + "px" : ""; // the bar, the board's numbers under it and a margin
  root.scrollPaddingBottom = tray && getComputedStyle(tray).position === "sticky" ? tray.offsetHeight + 8 + "px" : "";
  if (stays) root.setProperty("--bar-h", bar.offsetHeight + "px");
  else root.removeProperty("--bar-h");
}
document.addEventListener("DOMContentLoaded", padForBar);
document.addEventListener("htmx:afterSettle", padForBar);
document.addEventListener("toggle", padForBar, true);

// The hint that the board can be dragged goes once the player has dragged
// (or wheeled) it: the browser keeps that they know.
function pannedOnce() {
  try { return localStorage.getItem("cacao-panned") === "1"; } catch (e) { return false; }
}
if (pannedOnce()) document.documentElement.classList.add("panned");
["touchmove", "wheel"].forEach(function (n) {
  document.addEventListener(n, function (e) {
    if (pannedOnce() || !e.target.closest || !e.target.closest("#board-wrap")) return;
    try { localStorage.setItem("cacao-panned", "1"); } catch (x) { return; }
    document.documentElement.classList.add("panned");
  }, { passive: true });
});

// A board larger than its box opens framed on the tile chosen (else the
// cells the player may choose; else the board's middle), not on its corner;
// so does it at another size. Such a box is marked (pans): the page then
// says the board can be dragged.
function markPans() {
  var w = document.getElementById("board-wrap");
  if (w) w.classList.toggle("pans", w.scrollWidth > w.clientWidth + 1 || w.scrollHeight > w.clientHeight + 1);
  pinNumbers();
}
// The board's column numbers stay along the top of what shows of its box
// (under the bar of the move where that stays at the screen's top, else
// under the screen's top), and its row numbers along the box's left, as
// the board is scrolled in its box or the page is.
function pinNumbers() {
  var w = document.getElementById("board-wrap"), board = document.getElementById("board"), bar = document.getElementById("play");
  var cols = board && board.querySelector(".numbers.cols"), rows = board && board.querySelector(".numbers.rows"), m = board && board.getScreenCTM();
  if (!w || !cols || !rows || !m) return;
  var v = w.getBoundingClientRect(), shown = bar && getComputedStyle(bar).position === "sticky" ? bar.getBoundingClientRect().bottom : 0;
  var top = Math.max(v.top + w.clientTop, Math.min(shown, v.bottom - 48));
  // From the screen to the drawing's units (a board fitted to its box's
  // height stands in the middle of a wider box).
  cols.setAttribute("transform", "translate(0 " + Math.max(0, (top - m.f) / m.d) + ")");
  rows.setAttribute("transform", "translate(" + Math.max(0, (v.left + w.clientLeft - m.e) / m.a) + " 0)");
}
document.addEventListener("scroll", function (e) {
  if (e.target === document || e.target.id === "board-wrap") pinNumbers();
}, { capture: true, passive: true });
// The mark follows every change of the board's or its box's size (a size
// chosen, a window resized, a board swapped in).
var sized = window.ResizeObserver ? new ResizeObserver(markPans) : null, watched = null;
function watchBoard() {
  var w = document.getElementById("board-wrap"), board = document.getElementById("board");
  if (!sized || !w || !board || w === watched) return;
  sized.disconnect();
  sized.observe(w);
  sized.observe(board);
  watched = w;
}
document.addEventListener("DOMContentLoaded", watchBoard);
document.addEventListener("htmx:afterSettle", watchBoard);
function frameBoard() {
  var w = document.getElementById("board-wrap"), board = document.getElementById("board");
  markPans();
  if (!w || !board || (w.scrollWidth <= w.clientWidth && w.scrollHeight <= w.clientHeight)) return;
  var marks = w.querySelectorAll("svg.board .chosen"), box = board.getBoundingClientRect();
  if (!marks.length) marks = w.querySelectorAll("#place-cells rect");
  if (marks.length) {
    box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    marks.forEach(function (m) {
      var r = m.getBoundingClientRect();
      box = { left: Math.min(box.left, r.left), top: Math.min(box.top, r.top), right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom) };
    });
  }
  var v = w.getBoundingClientRect();
  w.scrollLeft += (box.left + box.right) / 2 - (v.left + v.width / 2);
  w.scrollTop += (box.top + box.bottom) / 2 - (v.top + v.height / 2);
}
document.addEventListener("DOMContentLoaded", frameBoard);
// A screen turned or a window resized frames the board again; a phone's
// address bar coming and going (the height alone) does not.
var framedWidth = innerWidth;
addEventListener("resize", function () {
  padForBar();
  if (innerWidth === framedWidth) return;
  framedWidth = innerWidth;
  frameBoard();
});
document.addEventListener("change", function (e) {
  if (e.target.closest && e.target.closest("#zoom")) requestAnimationFrame(frameBoard);
});

// A legal cell under the pointer or the focus tells, in the bar, what
// placing the tile there would bring: its label (a screen reader hears
// the label itself).
function cellHint(e) {
  var h = document.getElementById("cell-hint");
  if (!h || !e.target.closest) return;
  var a = e.target.closest("#place-cells a.cell");
  h.textContent = a && (e.type === "mouseover" || e.type === "focusin") ? a.getAttribute("aria-label") : "";
}
["mouseover", "mouseout", "focusin", "focusout"].forEach(function (n) {
  document.addEventListener(n, cellHint);
});

// A legal cell given the focus by the keyboard (Tab, an arrow key) is
// scrolled wholly into the board's box, clear of the numbers along its
// edges, and then into the screen, clear of the bar and a phone's tray
// (padForBar): the browser would scroll only until some of it shows. A
// cell tapped or clicked stays where it is.
document.addEventListener("focusin", function (e) {
  var a = e.target.closest && e.target.closest("#place-cells a"), w = document.getElementById("board-wrap");
  if (!a || !w || pageScroll || !a.matches(":focus-visible")) return; // not htmx's focus in a swap, which keeps the scroll
  pinNumbers(); // the bands where the box's last scroll leaves them
  var r = a.getBoundingClientRect(), v = w.getBoundingClientRect();
  var rows = w.querySelector(".numbers.rows"), cols = w.querySelector(".numbers.cols");
  var left = Math.max(v.left + w.clientLeft, rows ? rows.getBoundingClientRect().right : 0), right = v.left + w.clientLeft + w.clientWidth;
  var top = Math.max(v.top + w.clientTop, cols ? cols.getBoundingClientRect().bottom : 0), bottom = v.top + w.clientTop + w.clientHeight;
  if (r.left < left) w.scrollLeft -= left - r.left;
  else if (r.right > right) w.scrollLeft += r.right - right;
  if (r.top < top) w.scrollTop -= top - r.top;
  else if (r.bottom > bottom) w.scrollTop += r.bottom - bottom;
  a.scrollIntoView({ block: "nearest", inline: "nearest" });
});

// From a legal cell with the focus, an arrow key moves it to the nearest
// legal cell that way on the board (the board is drawn left to right on
// every page): the one least far along, a step aside counting as two.
// With none that way the key scrolls the board, as before.
var arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
function cellAt(a) {
  return a.getAttribute("data-cell").split(",").map(Number);
}
document.addEventListener("keydown", function (e) {
  var d = arrows[e.key];
  if (!d || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || !e.target.closest) return;
  var from = e.target.closest("#place-cells a[data-cell]");
  if (!from) return;
  var p = cellAt(from), best = null, bestCost = Infinity;
  from.parentNode.querySelectorAll("a[data-cell]").forEach(function (a) {
    var q = cellAt(a), dx = q[0] - p[0], dy = q[1] - p[1];
    var along = dx * d[0] + dy * d[1], aside = Math.abs(dx * d[1] + dy * d[0]);
    if (along > 0 && along + 2 * aside < bestCost) {
      best = a;
      bestCost = along + 2 * aside;
    }
  });
  if (!best) return;
  e.preventDefault();
  best.focus();
});

// Motion: the tiles laid and the gains won since the page last showed the
// game (a move confirmed, another player's move on a live refresh) arrive
// with a short animation. The board and the villages carry the number of
// log entries they show (data-seq), each recent tile the entry that laid it;
// the animation itself is CSS, only for those who do not ask for reduced
// motion. A page just loaded shows the game as it is.
var shownSeq = null;
function arrive() {
  var board = document.getElementById("board");
  if (!board) return;
  var seq = Number(board.getAttribute("data-seq"));
  if (shownSeq !== null && seq > shownSeq) {
    var from = shownSeq;
    board.querySelectorAll("g.new[data-seq]").forEach(function (g) {
      if (Number(g.getAttribute("data-seq")) > from) g.classList.add("arrive");
    });
    var v = document.getElementById("villages");
    if (v && Number(v.getAttribute("data-seq")) > from) v.classList.add("arrive");
  }
  shownSeq = seq;
}
document.addEventListener("DOMContentLoaded", arrive);
document.addEventListener("htmx:afterSettle", arrive);

// A replay's steps follow the arrow keys: the previous step back, the next
// on (mirrored on a right-to-left page), unless the key scrolls or edits
// what has the focus.
document.addEventListener("keydown", function (e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || !document.querySelector("[data-replay]")) return;
  var t = e.target;
  if (t && t.closest && t.closest("input, textarea, select, [contenteditable], [role=region]")) return;
  var back = e.key === "ArrowLeft", on = e.key === "ArrowRight";
  if (!back && !on) return;
  if (document.documentElement.dir === "rtl") { var b = back; back = on; on = b; }
  var el = document.getElementById(back ? "replay-prev" : "replay-next");
  if (!el || el.disabled) return;
  e.preventDefault();
  el.click();
});

// r turns the chosen tile, as Rotate does (the key's place, so that it is
// r on every keyboard layout), unless it types into a field.
document.addEventListener("keydown", function (e) {
  if (e.code !== "KeyR" || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  var t = e.target;
  if (t && t.closest && t.closest("input, textarea, select, [contenteditable]")) return;
  var el = document.getElementById("rotate");
  if (!el) return;
  e.preventDefault();
  el.click();
});

// The sign that others wrote in the table chat (ChatNews, with the chat's
// live refetch) goes once the chat is in sight, or once followed.
function chatNews() {
  var n = document.getElementById("chat-news"), c = document.getElementById("chat");
  if (!n || n.hidden || !c) return;
  var r = c.getBoundingClientRect();
  if (r.top < innerHeight && r.bottom > 0) n.hidden = true;
}
document.addEventListener("htmx:afterSettle", chatNews);
addEventListener("scroll", chatNews, { passive: true });
document.addEventListener("click", function (e) {
  var n = e.target.closest && e.target.closest("#chat-news");
  if (n) n.hidden = true;
});

// Every request of the page says whether the page is shown (the Page
// Visibility API): the live refresh of a page in a hidden tab marks
// nothing seen, so the "your turn" mail of a forgotten tab still goes.
// Once the page is shown again, its live addresses are asked again as
// seen (the page itself is current already).
var refreshedHidden = false;
document.addEventListener("htmx:configRequest", function (e) {
  var hidden = document.visibilityState === "hidden";
  e.detail.headers["X-Page-Visibility"] = hidden ? "hidden" : "visible";
  if (hidden) refreshedHidden = true;
});
document.addEventListener("visibilitychange", function () {
  if (document.visibilityState !== "visible" || !refreshedHidden) return;
  refreshedHidden = false;
  document.querySelectorAll("#game-main [data-live-version], #chat-log [data-live-version]").forEach(function (el) {
    fetch(el.getAttribute("hx-get"), { credentials: "same-origin", headers: { "HX-Request": "true", "X-Page-Visibility": "visible" } });
  });
});

// Sign-up guesses the new player's time zone from the browser.
document.addEventListener("DOMContentLoaded", function () {
  var tz = document.getElementById("signup-tz");
  if (tz && window.Intl) {
    tz.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  }
});

// "Notify this device" (Settings): shown where the browser can push. It
// registers the service worker (/sw.js), subscribes with the site's key
// and posts the subscription as a plain form.
function pushForm() {
  var form = document.getElementById("push-form");
  if (!form || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
  form.hidden = false;
  document.getElementById("push-none").hidden = true;
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var status = document.getElementById("push-status");
    var key = atob(form.dataset.key.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(key.length);
    for (var i = 0; i < key.length; i++) bytes[i] = key.charCodeAt(i);
    Notification.requestPermission().then(function (p) {
      if (p !== "granted") throw { denied: true };
      return navigator.serviceWorker.register("/sw.js").then(function () { return navigator.serviceWorker.ready; });
    }).then(function (reg) {
      return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
    }).then(function (sub) {
      var j = sub.toJSON();
      form.elements.endpoint.value = j.endpoint;
      form.elements.p256dh.value = j.keys.p256dh;
      form.elements.auth.value = j.keys.auth;
      form.submit();
    }).catch(function (err) {
      status.textContent = err && err.denied ? status.dataset.denied : status.dataset.failed + " (" + String(err && err.message || err) + ")";
    });
  });
}
document.addEventListener("DOMContentLoaded", pushForm);

// A copy button (data-copy: the id of the element whose text it copies)
// is hidden in the page and shown here, where it can work: a click puts
// the text on the clipboard, and the button and the live region beside it
// say so (data-copied).
function showCopy() {
  document.querySelectorAll("button[data-copy]").forEach(function (b) { b.hidden = false; });
}
document.addEventListener("DOMContentLoaded", showCopy);
document.addEventListener("htmx:afterSettle", showCopy);
document.addEventListener("click", function (e) {
  var b = e.target.closest ? e.target.closest("button[data-copy]") : null;
  var src = b && document.getElementById(b.dataset.copy);
  if (!src || !navigator.clipboard) return;
  navigator.clipboard.writeText(src.textContent.trim()).then(function () {
    b.textContent = b.dataset.copied;
    var status = b.parentElement.querySelector("[role=status]");
    if (status) status.textContent = b.dataset.copied;
  });
});

// A step or a move that did not go through (the site out of reach, or an
// answer the page does not swap in: a refusal, the database away) says so
// at the top of the screen, in the answer's own words where it has them;
// the game area stays as it was, with what the player chose. The next
// request that goes through takes the message away.
function requestError(text) {
  var p = document.getElementById("request-error");
  if (!p) return;
  p.textContent = text || "";
  p.hidden = !text;
}
document.addEventListener("htmx:sendError", function () {
  var p = document.getElementById("request-error");
  if (p) requestError(p.dataset.offline);
});
document.addEventListener("htmx:responseError", function (e) {
  var p = document.getElementById("request-error"), said = null;
  if (!p) return;
  try { said = new DOMParser().parseFromString(e.detail.xhr.responseText, "text/html").querySelector(".error"); } catch (x) {}
  requestError(said && said.textContent.trim() || p.dataset.failed);
});
document.addEventListener("htmx:afterRequest", function (e) {
  if (e.detail.successful) requestError("");
});
