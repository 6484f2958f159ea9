// Small enhancements; every flow also works without JavaScript.
(function () {
  document.documentElement.classList.add("js");  // what only works with JavaScript (CSS)
  // This phone's time zone, which the server learns from this cookie (web/zones.py): a live
  // screen shows its times on it, and a table or game started here is dated on it.
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && /^[A-Za-z0-9_+\-\/]+$/.test(zone) && document.cookie.indexOf("tz=" + zone) === -1) {
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax" +
        (location.protocol === "https:" ? "; secure" : "");
    }
  } catch (e) { /* no Intl: the server's own zone */ }
  function enhance(root) {
    root.querySelectorAll("button.step[hidden], button.copy-button[hidden], [data-js-only][hidden]").forEach(function (el) {
      el.hidden = false;
    });
    [root].concat(Array.prototype.slice.call(root.querySelectorAll(".so-far"))).forEach(function (el) {
      if (el.matches && el.matches(".so-far") && !el.dataset.since) { el.dataset.since = String(Date.now()); }
    });
    [root].concat(Array.prototype.slice.call(root.querySelectorAll("#hand-check"))).forEach(function (check) {
      if (check.id === "hand-check") { check.addEventListener("htmx:beforeSwap", dropIfFormGone); }
    });
  }
  // A live check answers for the form it was asked about. If a Save has replaced that form
  // meanwhile, its answer is dropped: its messages, swapped in beside the fields of the new
  // form, would take away the refusal's reasons. (The event fires on the detached element.)
  function dropIfFormGone(event) {
    if (!event.currentTarget.isConnected) { event.preventDefault(); }
  }
  // A game being played says how long it has taken so far: the server's count when the page
  // came, and a minute more for each minute this page has been open since.
  function tick() {
    document.querySelectorAll(".so-far[data-since]").forEach(function (el) {
      var total = parseInt(el.dataset.minutes, 10) + Math.floor((Date.now() - el.dataset.since) / 60000);
      var units = el.dataset.units.split("|");
      var hours = Math.floor(total / 60);
      var minutes = total % 60;
      var text = (!hours ? units[0] : !minutes ? units[1] : units[2]).replace("{h}", hours).replace("{m}", minutes);
      if (el.textContent !== text) { el.textContent = text; }
    });
  }
  setInterval(tick, 15000);
  // Card counts: the running total beside the steppers fills in the player's Points.
  function countCards(steppers) {
    var total = 0;
    var typed = false;
    steppers.querySelectorAll("input[data-worth]").forEach(function (input) {
      if (input.value.trim() !== "") { typed = true; }
      total += (parseInt(input.value, 10) || 0) * parseInt(input.dataset.worth, 10);
    });
    var output = steppers.parentElement.querySelector("output");
    if (output) { output.value = total; }
    var sentence = steppers.parentElement.querySelector(".count-total");
    var none = steppers.parentElement.querySelector(".count-none");
    if (sentence && none) {  // no "worth 0 points" before a card is counted
      sentence.hidden = !typed;
      none.hidden = typed;
    }
    var points = document.getElementById(steppers.dataset.points);
    if (points && typed) { points.value = total; }
  }
  document.addEventListener("input", function (event) {
    var steppers = event.target.closest(".steppers");
    if (steppers) { countCards(steppers); }
  });
  // A number field selects what it holds when tapped, so typing replaces it (35 -> 40, not 3540).
  var selectOnUp = null;
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input[inputmode=numeric]")) {
      event.target.select();
      selectOnUp = event.target;
    }
  });
  document.addEventListener("mouseup", function (event) {  // the tap's release would unselect it
    if (event.target === selectOnUp) { event.preventDefault(); }
    selectOnUp = null;
  }, true);
  document.addEventListener("click", function (event) {
    var step = event.target.closest("button.step");
    if (step) {
      var input = document.getElementById(step.dataset.for);
      var value = Math.max(0, Math.min(20, (parseInt(input.value, 10) || 0) + parseInt(step.dataset.step, 10)));
      input.value = value;
      countCards(input.closest(".steppers"));
      input.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    var copy = event.target.closest("button.copy-button");
    if (copy) {
      var done = function () { copy.textContent = copy.dataset.copied || "Copied"; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(copy.dataset.copy).then(done);
      } else {  // plain http on the home network: select the link and copy it the old way
        var field = copy.parentElement.querySelector("input");
        field.select();
        if (document.execCommand("copy")) { done(); }
      }
    }
  });

  // Live pages (elements marked data-live poll themselves): refresh at once when the phone
  // wakes, the tab comes back or the network returns, and do not poll from a pocket.
  function refreshLive() {
    if (!window.htmx) { return; }
    retry.until = 0;  // a phone waking, or the network back: ask at once, backing off or not
    document.querySelectorAll("[data-live]").forEach(function (el) {
      // a page put away stops its waiting poll (the server need not answer a pocket)
      htmx.trigger(el, document.hidden ? "htmx:abort" : "live-refresh");
    });
  }
  document.addEventListener("visibilitychange", refreshLive);
  window.addEventListener("focus", refreshLive);
  window.addEventListener("online", refreshLive);
  window.addEventListener("pageshow", function (event) { if (event.persisted) { refreshLive(); } });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt.hasAttribute("data-live") && (document.hidden || elt.dataset.leaving || Date.now() < retry.until)) {
      event.preventDefault();
    }
    // Leaving the page (a link, or a form such as Save): its waiting live poll has nobody to
    // tell, so let the server know at once rather than render an answer for it.
    if (event.detail.boosted) { leaving(); }
  });
  function leaving() {
    document.querySelectorAll("[data-live]").forEach(function (el) {
      el.dataset.leaving = "1";
      htmx.trigger(el, "htmx:abort");
    });
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.boosted && !event.detail.successful) {  // still here: keep up again
      document.querySelectorAll("[data-live][data-leaving]").forEach(function (el) { delete el.dataset.leaving; });
      refreshLive();
    }
  });

  // A hand form someone has started typing in is theirs: another phone's change updates the
  // scoreboard and the hands, and saving a stale hand is refused with an explanation. Only a
  // person's own input counts as typing (the page filling in players' points does not).
  ["input", "change"].forEach(function (kind) { document.addEventListener(kind, markTyping); });
  function markTyping(event) {
    var form = event.isTrusted && event.target.closest && event.target.closest("#record form, form[data-keep-typed]");
    if (form) {
      form.dataset.typing = "1";
      if (event.target.name) { event.target.dataset.typed = "1"; }  // moved with the hand
    }
  }
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "player-form" && target.querySelector("form[data-typing]")) {
      event.detail.shouldSwap = false;  // a player typing their points keeps them
      return;
    }
    var form = target && target.id === "record" && target.querySelector("form[data-typing]");
    if (!form) { return; }
    event.detail.shouldSwap = false;
    var fragment = event.detail.fragment;
    var incoming = fragment && fragment.querySelector("form.hand-form");
    if (incoming && sameHand(form, incoming)) {
      takePhases(form, incoming);
      fillFromPhones(form, incoming);
      var note = target.querySelector(".from-phones");
      var sent = fragment.querySelector(".from-phones");
      if (note && sent) { note.replaceChildren.apply(note, Array.from(sent.cloneNode(true).childNodes)); }
    } else {
      savedElsewhere(target, form, fragment);
    }
  });
  // Another phone saved the hand this one is typing: say so beside Save at once, keep what was
  // typed, and let the scorekeeper move it to the next hand, or discard it. The Save for the
  // hand already saved goes away: this form no longer holds the next hand.
  function savedElsewhere(record, form, fragment) {
    var next = fragment.cloneNode(true);
    var notice = next.querySelector("template.stale-notice");
    var old = form.querySelector(".alert.stale");
    if (old) { old.remove(); }
    var save = form.querySelector("button[type=submit]");
    if (!notice || !save) { return; }
    var alert = notice.content.firstElementChild.cloneNode(true);
    save.before(alert);
    save.hidden = true;
    var keep = alert.querySelector("[data-stale=keep]");
    var incoming = next.querySelector("#record");
    if (!incoming.querySelector("form.hand-form")) { keep.remove(); }  // the game is over
    keep.addEventListener("click", function () { moveToNextHand(record, form, incoming); });
    alert.querySelector("[data-stale=discard]").addEventListener("click", function () {
      record.replaceChildren.apply(record, Array.from(incoming.childNodes));
      htmx.process(record);
    });
  }
  // What was typed moves into the next hand's own form (its number, phases and Save), each
  // moved field marked, with a word above Save that these numbers were typed for the hand
  // before; the live check judges them against the new phases. Nothing is saved yet.
  function moveToNextHand(record, form, incoming) {
    var typed = Array.from(form.elements).filter(function (field) { return field.dataset.typed; });
    var names = typed.map(function (field) { return field.name; });
    record.replaceChildren.apply(record, Array.from(incoming.childNodes));
    htmx.process(record);
    var fresh = record.querySelector("form.hand-form");
    fresh.dataset.typing = "1";
    names.forEach(function (name, i) {
      if (names.indexOf(name) !== i) { return; }
      var mine = form.elements[name];
      var theirs = fresh.elements[name];
      if (!mine || !theirs) { return; }
      var marked = theirs;
      if (mine instanceof RadioNodeList) {
        theirs.value = mine.value;
        marked = fresh.querySelector("input[name=" + name + "]:checked");
      } else if (mine.type === "checkbox") {
        theirs.checked = mine.checked;
      } else {
        theirs.value = mine.value;
      }
      if (marked) { marked.classList.add("moved"); marked.dataset.typed = "1"; }
    });
    var template = record.querySelector("template.moved-notice");
    var save = fresh.querySelector("button[type=submit]");
    if (template && save) { save.before(template.content.firstElementChild.cloneNode(true)); }
    fresh.dispatchEvent(new Event("change", { bubbles: true }));
    if (save) { save.focus(); }
  }
  // Another phone changed an earlier hand (a Fix, an Undo): the phase each player plays this
  // hand on may have changed. The form being typed takes each player's new label (and the
  // version), and is checked again: no reason ever names a phase its label does not.
  function takePhases(form, incoming) {
    var changed = false;
    form.querySelectorAll("fieldset.hand-player").forEach(function (player) {
      var seat = player.className.replace(/.*seat-(\d+).*/, "$1");
      var mine = player.querySelector("legend small");
      var theirs = incoming.querySelector("fieldset.hand-player.seat-" + seat + " legend small");
      if (mine && theirs && mine.textContent !== theirs.textContent) {
        mine.replaceWith(theirs.cloneNode(true));
        changed = true;
      }
    });
    var version = form.querySelector("input[name=version]");
    var newer = incoming.querySelector("input[name=version]");
    if (version && newer) { version.value = newer.value; }
    if (changed) { form.dispatchEvent(new Event("change", { bubbles: true })); }
  }
  function sameHand(form, other) {
    var number = function (f) { var el = f.querySelector("input[name=hand_number]"); return el && el.value; };
    return number(form) === number(other);
  }
  // Points sent from players' phones arrive with the live poll. In a form someone is typing
  // in, they fill only the fields nobody changed by hand; nothing is saved here.
  function fillFromPhones(form, incoming) {
    var changed = false;
    incoming.querySelectorAll("input[data-phone]").forEach(function (sent) {
      var points = form.querySelector("input[name='" + sent.name + "']");
      if (!points || points.dataset.phone === sent.dataset.phone || document.activeElement === points) { return; }
      var seat = sent.name.split("-")[1];
      var parts = sent.dataset.phone.split(":");
      var untouched = points.value === "" || points.value === (points.dataset.phoneValue || "");
      if (parts[2] === "1") {
        var out = form.querySelector("input[name=went_out][value='" + seat + "']");
        if (out && !form.querySelector("input[name=went_out]:checked")) { out.checked = true; }
      } else if (untouched) {
        points.value = parts[0];
        points.dataset.phoneValue = points.value;
      }
      var made = form.querySelector("input[name='made-" + seat + "']");
      if (made && (parts[1] === "1" || points.dataset.phone)) { made.checked = parts[1] === "1"; }
      points.dataset.phone = sent.dataset.phone;
      points.classList.add("from-phone");
      changed = true;
    });
    if (changed) { form.dispatchEvent(new Event("change", { bubbles: true })); }
  }

  // While the server cannot be reached, every live page says so, with the time of the last
  // answer it had, and stops saying so as soon as an answer comes.
  var lastUpdate = new Date();
  function connection(up) {
    var banner = document.getElementById("reconnecting");
    if (!banner) { return; }
    if (up) {
      lastUpdate = new Date();
      banner.hidden = true;
    } else if (document.querySelector("[data-live]")) {
      // in the page's language, as the server writes times: "6:43 PM", "18:43"
      var time = lastUpdate.toLocaleTimeString(document.documentElement.lang || [], { timeStyle: "short" });
      banner.textContent = banner.dataset.text.replace("{time}", time);
      banner.hidden = false;
    }
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    var status = event.detail.xhr.status;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-live") && status) {
      connection(status < 502 || status > 504);  // a proxy's 502-504: the server is away
      if (status === 429 || status >= 500) { backOff(event.detail.xhr); } else { retry.failures = 0; }
    }
  });
  ["htmx:sendError", "htmx:timeout"].forEach(function (kind) {
    document.addEventListener(kind, function (event) {
      var elt = event.detail.elt;
      if (elt && elt.hasAttribute && elt.hasAttribute("data-live")) { connection(false); backOff(null); }
    });
  });
  // A live page the server cannot answer (restarting, or refusing with 429 or 503) waits
  // longer after each failure, 2, 4, 8 ... 60 s, or what Retry-After says, each wait drawn at
  // random between half and all of it: after a restart a thousand phones come back spread
  // out, not all in the same second. Any answer ends the waiting.
  var retry = { failures: 0, until: 0 };
  function backOff(xhr) {
    retry.failures = Math.min(retry.failures + 1, 6);
    var seconds = Math.min(60, Math.pow(2, retry.failures));
    var asked = xhr && parseInt(xhr.getResponseHeader("Retry-After") || "", 10);
    if (asked > 0) { seconds = Math.min(asked, 300); }
    retry.until = Date.now() + seconds * 1000 * (0.5 + Math.random() / 2);
  }
  window.addEventListener("offline", function () { connection(false); });

  // A change made on this phone (Save, Fix, Delete, a player's Send: the forms marked
  // data-keep-offline) that cannot reach the server is kept on the phone (this origin's
  // storage, under the form's address, with the page it was made on), shown plainly beside the
  // button just tapped, and sent once as soon as the connection is back, on the next page load
  // too. Any page sends it, not only the one it was made on (the scorekeeper may go back to the
  // game, or close the tab, before the connection is back), and says it is waiting until then.
  // The server records a hand once however often it is sent (by its number), a correction or
  // a deletion only on the version it was made on, a player's points as their latest. The
  // answer is a whole page, as without JavaScript: the page the change led to, or the form
  // with the reasons it was refused. Any other change (Undo, End the game...) is refused at
  // once beside its button, saying nothing was changed.
  var PENDING = "scorekeeper:pending:";
  var sending = null;  // the key of the kept change on its way
  function actionOf(form) {
    var url = new URL(form.action, location.href);
    return url.pathname + url.search;
  }
  // Every change kept on this phone, the oldest first: {key, page, url, body, words, title}.
  function keptChanges() {
    var found = [];
    for (var i = 0; i < localStorage.length; i++) {
      var key = localStorage.key(i);
      if (!key || key.indexOf(PENDING) !== 0) { continue; }
      var kept = null;
      try { kept = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { /* unreadable */ }
      if (kept && kept.url && kept.body) {
        kept.key = key;
        kept.page = kept.page || key.slice(PENDING.length);  // where it was made (older: the key)
        found.push(kept);
      }
    }
    return found.sort(function (a, b) { return (a.at || 0) - (b.at || 0); });
  }
  function handInWords(form, outWord) {
    var out = form.querySelector("input[name=went_out]:checked");
    var parts = [];
    form.querySelectorAll("fieldset.hand-player").forEach(function (player) {
      var seat = player.className.replace(/.*seat-(\d+).*/, "$1");
      var name = player.querySelector("legend strong").textContent;
      var points = player.querySelector("input[name^=points-]");
      if (out && out.value === seat) { parts.push(name + " " + outWord); }
      else if (points && points.value) { parts.push(name + " " + points.value); }
    });
    return parts.join(", ");
  }
  // What a kept change holds, said beside it: "Ann out, Bob 45"; a player's "45, made phase".
  function changeInWords(form) {
    var template = form.querySelector("template.pending-notice");
    var words = template ? template.dataset : {};
    if (form.matches(".hand-form")) { return handInWords(form, words.out || ""); }
    if (form.matches(".player-form")) {
      if (form.elements.went_out.checked) { return words.out || ""; }
      var points = form.elements.points.value;
      return form.elements.made.checked ? points + ", " + (words.made || "") : points;
    }
    return "";
  }
  function formFor(url) {
    return Array.prototype.find.call(document.querySelectorAll("form[data-keep-offline]"), function (form) {
      return actionOf(form) === url;
    });
  }
  // A kept change is said beside the button of the form it was made in, when that form is on
  // this page; one made on another page, at the top, with the heading of its form
  // ("Correct hand 1 – Bob 40").
  function showPending(scroll) {
    document.querySelectorAll(".notice.pending").forEach(function (old) { old.remove(); });
    var main = document.querySelector("main");
    var elsewhere = document.getElementById("pending-kept");
    keptChanges().forEach(function (kept) {
      var form = kept.page === location.pathname ? formFor(kept.url) : null;
      var own = form && form.querySelector("template.pending-notice");
      var button = form && form.querySelector("button[type=submit]");
      if (own && button) {
        var notice = own.content.firstElementChild.cloneNode(true);
        notice.querySelector(".pending-hand").textContent = kept.words;
        button.before(notice);
        if (scroll) { button.scrollIntoView({ block: "nearest" }); }  // the notice just above it
      } else if (elsewhere && main) {
        var note = elsewhere.content.firstElementChild.cloneNode(true);
        var words = [kept.title, kept.words].filter(Boolean).join(" – ");
        note.querySelector(".pending-hand").textContent = words;
        main.prepend(note);
      }
    });
  }
  // A change made on another page is sent only while nobody is typing here in another form
  // (the form it was made in may still be shown, after Back while offline): its answer
  // replaces this page.
  function sendable(kept) {
    if (kept.page === location.pathname) { return true; }
    return Array.prototype.every.call(document.querySelectorAll("form[data-typing]"), function (form) {
      return actionOf(form) === kept.url;
    });
  }
  function sendPending() {
    var kept = keptChanges().filter(sendable)[0];
    if (!kept || sending || !navigator.onLine) { return; }
    sending = kept.key;
    fetch(kept.url, {  // a plain form post: its answer is a whole page, never a fragment
      method: "POST",
      body: kept.body,
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (response) {
      if (response.status >= 500) { throw new Error("not yet"); }
      localStorage.removeItem(kept.key);  // recorded, refused or already there: say which
      return response.text().then(function (page) {
        leaving();
        // saved: the page it led to; refused: the form it was made in, with the reasons
        if (response.redirected) { history.replaceState(null, "", response.url); }
        else if (kept.page !== location.pathname) { history.replaceState(null, "", kept.page); }
        newPage();
        htmx.swap(document.body, page, { swapStyle: "innerHTML" });
        landOnNextHand(true);
        showPending();  // any other change still waiting
        heardOnPage();
      });
    }).catch(function () { /* still unreachable: the next try will do */ }).then(function () {
      sending = null;
    });
  }
  function keep(form) {
    var url = actionOf(form);
    var section = form.closest("section") || form.closest("main");
    var heading = section && section.querySelector("h1, h2");
    localStorage.setItem(PENDING + url, JSON.stringify({
      page: location.pathname,
      url: url,
      body: new URLSearchParams(new FormData(form)).toString(),
      words: changeInWords(form),
      title: heading ? heading.textContent.replace(/\s+/g, " ").trim() : "",
      at: Date.now()
    }));
    showPending(true);
  }
  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt;
    if (!form || !form.matches || !form.matches("form")) { return; }
    if (form.matches("[data-keep-offline]")) { keep(form); } else { notSent(form); }
  });
  function notSent(form) {
    var template = document.getElementById("offline-refused");
    var button = form.querySelector("button[type=submit], button:not([type])");
    var old = form.querySelector(".alert.offline");
    if (old) { old.remove(); }
    if (!template || !button) { return; }
    var alert = template.content.firstElementChild.cloneNode(true);
    button.before(alert);
    button.scrollIntoView({ block: "nearest" });
  }
  // A change is sent once: a second tap while the first is on its way (or while the phone
  // sends the same change it kept) does nothing, and a tap on a form whose change was kept
  // sends what the form holds now instead of it.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-keep-offline]")) { return; }
    if (form.dataset.sending || sending === PENDING + actionOf(form)) {
      event.preventDefault();
      event.stopImmediatePropagation();  // before htmx's own listener on the form
    }
  }, true);
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (event.defaultPrevented || !form.matches || !form.matches("form[data-keep-offline]")) { return; }
    form.dataset.sending = "1";
    localStorage.removeItem(PENDING + actionOf(form));
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.dataset) { delete form.dataset.sending; }
  });
  // The phone is back: its offline notices go at once (a poll that still fails brings the
  // reconnecting one back), and what it kept is sent.
  window.addEventListener("online", function () {
    var banner = document.getElementById("reconnecting");
    if (banner) { banner.hidden = true; }
    document.querySelectorAll(".alert.offline").forEach(function (alert) { alert.remove(); });
    sendPending();
  });
  setInterval(sendPending, 5000);
  document.addEventListener("DOMContentLoaded", function () { showPending(); sendPending(); });
  document.addEventListener("htmx:afterSettle", function (event) {  // a link or Back: a new page
    if (event.detail.target === document.body) { showPending(); }
  });

  // After a saved hand the page opens at the next hand's "Who went out?" (the hand form asks
  // htmx to show #record; without JavaScript the server's redirect to #record does the same),
  // and the keyboard starts there too.
  function landOnNextHand(scroll) {
    var record = document.getElementById("record");
    if (!record || !record.querySelector("[data-saved]")) { return; }
    if (scroll) { record.scrollIntoView({ block: "start" }); }
    var heading = document.getElementById("record-heading");
    if (heading) { heading.focus({ preventScroll: true }); }
  }
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target === document.body) { landOnNextHand(false); }
  });

  // The table view stays on: ask for a screen wake lock where the browser has one.
  var wakeLock = null;
  function keepAwake() {
    if (!document.querySelector("[data-keep-awake]") || !("wakeLock" in navigator) || document.hidden) { return; }
    if (wakeLock && !wakeLock.released) { return; }
    navigator.wakeLock.request("screen").then(function (lock) { wakeLock = lock; }, function () {});
  }
  document.addEventListener("visibilitychange", keepAwake);  // a lock is released when hidden

  // Installable, with the static files kept on the phone: only where a service worker may run
  // (HTTPS, or localhost on the computer that runs the server). /sw.js sits beside /static/.
  var worker = new URL("../sw.js", document.currentScript.src);
  if (window.isSecureContext && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker.pathname).catch(function () {});
  }

  // Enter in a points field goes on to the next one (the phone's "Next" key), then to Save,
  // instead of sending a half-typed hand; Save itself is a tap (or Enter on the button).
  document.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key !== "Enter" || !field.matches || !field.matches(".hand-form input[inputmode=numeric]")) { return; }
    event.preventDefault();
    var form = field.form;
    var fields = Array.prototype.filter.call(form.querySelectorAll("input[inputmode=numeric]"), function (input) {
      // shown: not the player who went out, nor in a closed "Count cards instead"
      return input.getClientRects().length > 0 && !input.closest("details:not([open])");
    });
    var next = fields[fields.indexOf(field) + 1] || form.querySelector("button[type=submit]");
    if (next) { next.focus(); }
  });
  // The page's one announcer (base.html) says each change that reaches the page in a
  // sentence: another phone's change or players' points, with the live poll (the server's
  // words, in its "news" event); a Send confirmed (a "news" note of the page); the change that
  // took the table to the game this page followed it to. Changes that come close together
  // are merged into one announcement, not queued one after another. A scorekeeper's page
  // shows the same words above the scoreboard: that change came from another phone.
  var MERGE = 1000;  // ms after the latest change, and at most three times that after the first
  var heard = { text: "", first: 0, timer: 0, elsewhere: false };
  function hear(text, elsewhere) {
    text = (text || "").replace(/\s+/g, " ").trim();
    if (!text) { return; }
    if (!heard.text) { heard.first = Date.now(); }
    heard.text = heard.text ? heard.text + " " + text : text;
    heard.elsewhere = heard.elsewhere || Boolean(elsewhere);
    clearTimeout(heard.timer);
    heard.timer = setTimeout(say, Math.max(0, Math.min(MERGE, heard.first + 3 * MERGE - Date.now())));
  }
  function say() {
    var text = heard.text;
    var elsewhere = heard.elsewhere;
    heard.text = "";
    heard.elsewhere = false;
    var announcer = document.getElementById("announcer");
    if (announcer && announcer.textContent === text) {  // the same words again are news again
      announcer.textContent = "";
      setTimeout(function () { announcer.textContent = text; }, 100);
    } else if (announcer) {
      announcer.textContent = text;
    }
    var line = document.getElementById("elsewhere");
    if (line && elsewhere) {
      line.textContent = line.dataset.words.replace("{change}", text);
      line.hidden = false;
    }
  }
  document.addEventListener("news", function (event) { hear(event.detail.value, true); });
  // A page that follows the table to its next game is loaded anew: what took it there is
  // kept for that page (this tab's session storage) and said once it is shown.
  var FOLLOWED = "scorekeeper:followed";
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail.xhr;
    var next = xhr.getResponseHeader("HX-Redirect");
    var trigger = xhr.getResponseHeader("HX-Trigger");
    if (!next || !trigger) { return; }
    try {
      var page = new URL(next, location.href).pathname;
      sessionStorage.setItem(FOLLOWED, JSON.stringify({ page: page, text: JSON.parse(trigger).news }));
    } catch (e) { /* nothing kept: the page is still right */ }
  });
  function heardOnPage() {
    document.querySelectorAll("template.news").forEach(function (note) {
      hear(note.content.textContent);
      note.remove();
    });
    var followed = null;
    try {
      followed = JSON.parse(sessionStorage.getItem(FOLLOWED) || "null");
      sessionStorage.removeItem(FOLLOWED);
    } catch (e) { /* none */ }
    if (followed && followed.page === location.pathname) { hear(followed.text, true); }
  }
  // A new page (a link, a Save, Back) starts with nothing said: the announcer it keeps is
  // emptied, and what the old page had still to say is dropped.
  function newPage() {
    clearTimeout(heard.timer);
    heard.text = "";
    heard.elsewhere = false;
    var announcer = document.getElementById("announcer");
    if (announcer) { announcer.textContent = ""; }
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target === document.body && event.detail.shouldSwap) { newPage(); }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target === document.body) { heardOnPage(); }
  });
  document.addEventListener("DOMContentLoaded", heardOnPage);
  // A checker's page is swapped whole, live region and all: say its new verdict in one that stays.
  document.addEventListener("htmx:afterSettle", function () {
    var announcer = document.getElementById("announcer");
    var verdict = document.querySelector("main #verdict");
    var text = verdict ? verdict.textContent.replace(/\s+/g, " ").trim() : "";
    if (announcer && text && announcer.textContent !== text) { announcer.textContent = text; }
  });
  // The hand check's messages appear beside the fields and above Save. When they change, keep
  // what the thumb is on where it is: the control last pressed or focused (a tap whose target
  // moved between press and lift would be lost), or Save once the thumb has gone to type.
  var touched = null;
  ["pointerdown", "focusin"].forEach(function (kind) {
    document.addEventListener(kind, function (event) { touched = event.target; }, true);
  });
  document.addEventListener("input", function (event) {
    if (event.target.type === "text") { touched = null; }
  }, true);
  // A checker's page is swapped whole after each tapped card: the card tapped (found again by
  // its id) stays where it was on screen, as the palette grows chips above it.
  var held = null;
  function underThumb(target) {
    if (target.matches && target.matches("main") && touched && touched.id && target.contains(touched)) {
      return touched;
    }
    var form = target.id === "hand-check" && target.closest("form");
    if (!form) { return null; }
    return touched && form.contains(touched) ? touched : form.querySelector("button[type=submit]");
  }
  // Where it sits in the page's flow: Save, held at the foot of the screen (app.css), is
  // measured where it would be, or a page moved under it would move it.
  function flowTop(el) {
    if (getComputedStyle(el).position !== "sticky") { return el.getBoundingClientRect().top; }
    el.style.position = "static";
    var top = el.getBoundingClientRect().top;
    el.style.position = "";
    return top;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var el = underThumb(event.detail.target);
    held = el ? { el: el, id: el.id, top: flowTop(el) } : null;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var el = held && (held.el.isConnected ? held.el : held.id && document.getElementById(held.id));
    if (el) { window.scrollBy(0, flowTop(el) - held.top); }
    held = null;
  });
  // Save stays in reach of the last points field: when that field takes the thumb, and when the
  // live check's words grow the form under it, the page moves up just enough to show Save,
  // never so far that the field leaves the screen (a 360 x 740 phone, four players).
  function keepSaveInReach(field) {
    var form = field && field.matches && field.matches(".hand-form input[name^=points-]") && field.form;
    if (!form) { return; }
    var shown = Array.prototype.filter.call(form.querySelectorAll("input[name^=points-]"), function (input) {
      return input.getClientRects().length > 0;  // not the player who went out
    });
    var save = form.querySelector("button[type=submit]");
    if (!save || shown[shown.length - 1] !== field) { return; }
    var below = save.getBoundingClientRect().bottom + 8 - window.innerHeight;
    var room = field.getBoundingClientRect().top - 8;
    if (below > 0 && room > 0) { window.scrollBy(0, Math.min(below, room)); }
  }
  document.addEventListener("focusin", function (event) { keepSaveInReach(event.target); });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "hand-check") { keepSaveInReach(document.activeElement); }
  });
  // The live check marks each field it complains about, as a refused save does without
  // JavaScript: aria-invalid, described by its message beside the field (id "<field>-error").
  function markInvalid(form) {
    form.querySelectorAll("[aria-invalid]").forEach(function (field) {
      field.removeAttribute("aria-invalid");
      field.removeAttribute("aria-describedby");
    });
    form.querySelectorAll(".field-error[id$='-error']").forEach(function (message) {
      var name = message.id.slice(0, -"-error".length);
      form.querySelectorAll("[name='" + name + "']").forEach(function (field) {
        field.setAttribute("aria-invalid", "true");
        field.setAttribute("aria-describedby", message.id);
      });
    });
  }
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    var form = target && target.id === "hand-check" && target.closest("form");
    if (form) { markInvalid(form); }
  });
  // A refused Save opens at its reasons (the hand form's action ends in #refused; the server
  // asks htmx to show that element): the keyboard goes there too. A saved hand has no
  // reasons to show, so its address keeps no #refused.
  document.addEventListener("htmx:beforeHistoryUpdate", function (event) {
    var history = event.detail.history;
    if (event.detail.xhr.status < 400 && history.path) {
      history.path = history.path.replace(/#refused$/, "");
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var refused = document.getElementById("refused");
    if (refused && event.detail.target === document.body) { refused.focus({ preventScroll: true }); }
  });
  // A live part that holds a form someone is choosing in (a club night's swap, move or plan)
  // is not replaced under them: saving it says whether the night moved meanwhile. Any other
  // swap keeps the <details> that were open (the room's controls) open.
  var openDetails = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || !target.hasAttribute || !target.hasAttribute("data-live")) { return; }
    if (target.querySelector("form[data-keep-typed][data-typing]")) {
      event.detail.shouldSwap = false;
      return;
    }
    openDetails = Array.prototype.map.call(target.querySelectorAll("details[id][open]"), function (d) { return d.id; });
  });
  document.addEventListener("htmx:afterSettle", function () {
    openDetails.forEach(function (id) {
      var details = document.getElementById(id);
      if (details) { details.open = true; }
    });
    openDetails = [];
  });

  // The round clock of a club night: the server says how many seconds are left (its own
  // time, so no phone's clock matters), and the page counts down from when it got them, on
  // the monotonic clock. At 0 it calls the last hand; nothing is enforced.
  function tickClocks() {
    document.querySelectorAll(".round-clock[data-left]").forEach(function (clock) {
      if (clock.ends === undefined) {
        clock.ends = performance.now() + parseInt(clock.dataset.left, 10) * 1000;
      }
      var left = Math.max(0, Math.ceil((clock.ends - performance.now()) / 1000));
      var time = clock.querySelector(".clock-time");
      if (time) { time.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0"); }
      if (left === 0 && !clock.classList.contains("last-hand")) {
        clock.classList.add("last-hand");
        clock.querySelector(".clock-running").hidden = true;
        var up = clock.querySelector(".clock-up");
        up.hidden = false;
        var announcer = document.getElementById("announcer");
        if (announcer) { announcer.textContent = up.textContent.trim(); }
      }
    });
  }
  setInterval(tickClocks, 250);  // a quarter second: the shown second is never late by more
  document.addEventListener("htmx:afterSettle", tickClocks);
  // Counted from when the page got the seconds, not from the first tick a second later.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", tickClocks);
  } else {
    tickClocks();
  }

  // The room's screen (a club night's TV): what does not fit one screen is cut into pages,
  // each as much as fits, shown in turn every TURN seconds, with the page count; "Pause the
  // pages" stops them (WCAG 2.2.2) and "Next page" turns one by hand. Pages are cut again
  // after every live update and when the window changes size; the page shown stays.
  var TURN = 12;
  var tv = { page: 0, paused: false, pages: [] };
  function cutPages(screen) {
    var pages = [];
    var sections = Array.prototype.slice.call(screen.querySelectorAll(".tv-section"));
    sections.forEach(function (section) { section.hidden = true; });
    sections.forEach(function (section) {
      var flow = section.querySelector(".tv-flow");
      var items = Array.prototype.slice.call(section.querySelectorAll(".tv-item"));
      section.hidden = false;
      var rest = items;
      while (rest.length) {
        items.forEach(function (item) { item.hidden = rest.indexOf(item) < 0; });
        var box = flow.getBoundingClientRect();
        var count = 0;
        while (count < rest.length) {
          var r = rest[count].getBoundingClientRect();
          if (r.right > box.right + 1 || r.bottom > box.bottom + 1) { break; }
          count++;
        }
        count = Math.max(count, 1);  // one item taller than the screen: alone on its page
        pages.push({ section: section, items: rest.slice(0, count) });
        rest = rest.slice(count);
      }
      if (!items.length) { pages.push({ section: section, items: [] }); }
      section.hidden = true;
    });
    return pages;
  }
  function showPage(screen) {
    if (!tv.pages.length) { return; }
    tv.page = tv.page % tv.pages.length;
    var shown = tv.pages[tv.page];
    screen.querySelectorAll(".tv-section").forEach(function (section) { section.hidden = section !== shown.section; });
    shown.section.querySelectorAll(".tv-item").forEach(function (item) { item.hidden = shown.items.indexOf(item) < 0; });
    var pager = screen.querySelector(".tv-pager");
    var count = screen.querySelector(".tv-count");
    pager.hidden = tv.pages.length < 2;
    count.textContent = count.dataset.text.replace("{page}", tv.page + 1).replace("{pages}", tv.pages.length);
    screen.querySelector(".tv-pause").setAttribute("aria-pressed", tv.paused ? "true" : "false");
    screen.dataset.page = tv.page + 1;
    screen.dataset.pages = tv.pages.length;
  }
  // A small night's screen is drawn larger, as large as lets each part fit one page.
  var SCALES = [1.75, 1.5, 1.25, 1];
  function layOutScreen() {
    var screen = document.querySelector(".night-tv");
    if (!screen) { return; }
    var parts = screen.querySelectorAll(".tv-section").length;
    screen.style.fontSize = "";
    var base = parseFloat(getComputedStyle(screen).fontSize);
    for (var i = 0; i < SCALES.length; i++) {
      screen.style.fontSize = SCALES[i] === 1 ? "" : base * SCALES[i] + "px";
      tv.pages = cutPages(screen);
      if (tv.pages.length <= parts) { break; }
    }
    showPage(screen);
  }
  setInterval(function () {
    var screen = document.querySelector(".night-tv");
    if (!screen || tv.paused || tv.pages.length < 2) { return; }
    tv.page = (tv.page + 1) % tv.pages.length;
    showPage(screen);
  }, TURN * 1000);
  document.addEventListener("click", function (event) {
    var screen = document.querySelector(".night-tv");
    if (!screen || !event.target.closest) { return; }
    if (event.target.closest(".tv-pause")) {
      tv.paused = !tv.paused;
      showPage(screen);
    } else if (event.target.closest(".tv-next") && tv.pages.length) {
      tv.page = (tv.page + 1) % tv.pages.length;
      showPage(screen);
    }
  });
  document.addEventListener("htmx:afterSettle", layOutScreen);
  window.addEventListener("resize", layOutScreen);

  document.addEventListener("DOMContentLoaded", function () { enhance(document); keepAwake(); layOutScreen(); tickClocks(); });
  document.addEventListener("htmx:load", function (event) { enhance(event.target); });
})();
