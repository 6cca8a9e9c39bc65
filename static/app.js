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
