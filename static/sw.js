// The service worker of Cacao's push notices (served at /sw.js, the whole
// site its scope). A push carries {title, body, url, tag}: it is shown as a
// notice, a newer one of the same game replacing the older; a tap opens
// the game, in a window of the site already open if there is one.
self.addEventListener("push", function (e) {
  var n = {};
  try { n = e.data.json(); } catch (_) { n = { body: e.data ? e.data.text() : "" }; }
  e.waitUntil(self.registration.showNotification(n.title || "Cacao", {
    body: n.body || "",
    tag: n.tag || undefined,
    data: { url: n.url || "/" },
    icon: "/static/icon-192.png",
    badge: "/static/icon-192.png"
  }));
});

self.addEventListener("notificationclick", function (e) {
  e.notification.close();
  var url = new URL(e.notification.data.url, self.location.origin).href;
  e.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
    for (var i = 0; i < list.length; i++) {
      if (new URL(list[i].url).origin === self.location.origin && "navigate" in list[i]) {
        return list[i].focus().then(function (c) { return c.navigate(url); })
          .catch(function () { return self.clients.openWindow(url); });
      }
    }
    return self.clients.openWindow(url);
  }));
});
