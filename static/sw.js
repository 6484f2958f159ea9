// Phase 10 Scorekeeper's service worker, registered only in a secure context (HTTPS or
// localhost). It keeps the static files (styles, scripts, icons) and nothing else: pages,
// games and the API always come from the server. Static URLs carry their content's digest
// (?v=...), so a kept copy is never stale; an older copy of the same file is dropped.
"use strict";
var CACHE = "scorekeeper-static";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function isStatic(request) {
  var url = new URL(request.url);
  var folder = new URL("static/", self.registration.scope);
  return request.method === "GET" && url.origin === folder.origin &&
    url.pathname.indexOf(folder.pathname) === 0 && url.searchParams.has("v");
}

function keep(cache, request, response) {
  var path = new URL(request.url).pathname;
  return cache.keys().then(function (kept) {
    kept.forEach(function (old) {
      if (new URL(old.url).pathname === path) { cache.delete(old); }
    });
    return cache.put(request, response);
  });
}

self.addEventListener("fetch", function (event) {
  if (!isStatic(event.request)) { return; }  // the browser asks the server as usual
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(event.request).then(function (hit) {
      return hit || fetch(event.request).then(function (response) {
        if (response.ok) { event.waitUntil(keep(cache, event.request, response.clone())); }
        return response;
      });
    });
  }));
});
