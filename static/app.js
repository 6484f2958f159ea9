// Small enhancements; every flow also works without JavaScript.
(function () {
  function enhance(root) {
    root.querySelectorAll("button.step[hidden], button.copy-button[hidden], [data-js-only][hidden]").forEach(function (el) {
      el.hidden = false;
    });
  }
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
    var points = document.getElementById(steppers.dataset.points);
    if (points && typed) { points.value = total; }
  }
  document.addEventListener("input", function (event) {
    var steppers = event.target.closest(".steppers");
    if (steppers) { countCards(steppers); }
  });
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches(".stepper input")) { event.target.select(); }
  });
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
    if (document.hidden || !window.htmx) { return; }
    document.querySelectorAll("[data-live]").forEach(function (el) { htmx.trigger(el, "live-refresh"); });
  }
  document.addEventListener("visibilitychange", refreshLive);
  window.addEventListener("focus", refreshLive);
  window.addEventListener("online", refreshLive);
  window.addEventListener("pageshow", function (event) { if (event.persisted) { refreshLive(); } });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.hidden && event.detail.elt.hasAttribute("data-live")) { event.preventDefault(); }
  });

  // A hand form someone has started typing in is theirs: another phone's change updates the
  // scoreboard and the hands, and saving a stale hand is refused with an explanation.
  ["input", "change"].forEach(function (kind) { document.addEventListener(kind, markTyping); });
  function markTyping(event) {
    var form = event.target.closest && event.target.closest("#record form");
    if (form) { form.dataset.typing = "1"; }
  }
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "record" && target.querySelector("form[data-typing]")) {
      event.detail.shouldSwap = false;
    }
  });

  // The table view stays on: ask for a screen wake lock where the browser has one.
  var wakeLock = null;
  function keepAwake() {
    if (!document.querySelector("[data-keep-awake]") || !("wakeLock" in navigator) || document.hidden) { return; }
    if (wakeLock && !wakeLock.released) { return; }
    navigator.wakeLock.request("screen").then(function (lock) { wakeLock = lock; }, function () {});
  }
  document.addEventListener("visibilitychange", keepAwake);  // a lock is released when hidden

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
  var held = null;
  function underThumb(target) {
    var form = target.id === "hand-check" && target.closest("form");
    if (!form) { return null; }
    return touched && form.contains(touched) ? touched : form.querySelector("button[type=submit]");
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var el = underThumb(event.detail.target);
    held = el ? { el: el, top: el.getBoundingClientRect().top } : null;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (held && held.el.isConnected && event.detail.target.id === "hand-check") {
      window.scrollBy(0, held.el.getBoundingClientRect().top - held.top);
    }
    held = null;
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
  document.addEventListener("DOMContentLoaded", function () { enhance(document); keepAwake(); });
  // Points sent from players' phones fill in the scorekeeper's form as they arrive.
  // A field the scorekeeper changed by hand is left alone; nothing is saved here.
  function fillFromPhones() {
    var box = document.querySelector("[data-entries-url]");
    var form = box && box.querySelector("form.hand-form");
    if (!form || document.hidden) { return; }
    fetch(box.dataset.entriesUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data || String(data.hand) !== box.dataset.hand) { return; }
        var changed = false;
        var sent = [];  // [name, what they sent]
        var note = box.querySelector(".from-phones");
        var words = (note && note.dataset) || {};  // the page's language, from the template
        Object.keys(data.entries).forEach(function (seat) {
          var entry = data.entries[seat];
          sent.push([entry.name, entry.went_out ? words.wentOut || "went out"
            : entry.points + (entry.made ? ", " + (words.made || "made phase") : "")]);
          var points = form.querySelector("input[name='points-" + seat + "']");
          var made = form.querySelector("input[name='made-" + seat + "']");
          var stamp = [entry.points, entry.made, entry.went_out].join(":");
          if (!points || points.dataset.phone === stamp || document.activeElement === points) { return; }
          var untouched = points.value === "" || points.value === points.dataset.phoneValue;
          if (entry.went_out) {
            var out = form.querySelector("input[name=went_out][value='" + seat + "']");
            if (out && !form.querySelector("input[name=went_out]:checked")) { out.checked = true; }
          } else if (untouched) {
            points.value = String(entry.points);
            points.dataset.phoneValue = points.value;
          }
          if (made && (entry.made || points.dataset.phone)) { made.checked = entry.made; }
          points.dataset.phone = stamp;
          points.classList.add("from-phone");
          changed = true;
        });
        if (note && sent.length) {
          note.textContent = (words.sent || "Sent from phones (check, then save):") + " ";
          sent.forEach(function (item, index) {
            var name = document.createElement("bdi");  // "محمد: 55" stays so, as in the page
            name.textContent = item[0];
            if (index) { note.appendChild(document.createTextNode("; ")); }
            note.appendChild(name);
            note.appendChild(document.createTextNode(": " + item[1]));
          });
        }
        if (changed) { form.dispatchEvent(new Event("change", { bubbles: true })); }
      })
      .catch(function () { /* offline for a moment: the next round tries again */ });
  }
  setInterval(fillFromPhones, 2000);
  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (event) { enhance(event.target); });
})();
