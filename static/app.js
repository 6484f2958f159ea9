// Small enhancements; every flow also works without JavaScript.
(function () {
  function enhance(root) {
    root.querySelectorAll("button.step[hidden], button.copy-button[hidden], [data-js-only][hidden]").forEach(function (el) {
      el.hidden = false;
    });
  }
  document.addEventListener("click", function (event) {
    var step = event.target.closest("button.step");
    if (step) {
      var input = document.getElementById(step.dataset.for);
      var value = Math.max(0, Math.min(20, (parseInt(input.value, 10) || 0) + parseInt(step.dataset.step, 10)));
      input.value = value;
      var box = input.closest("details");
      var mode = box && box.querySelector("input[name^='mode-']");
      if (mode) { mode.checked = true; }
      input.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    var copy = event.target.closest("button.copy-button");
    if (copy) {
      var done = function () { copy.textContent = "Copied"; };
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

  document.addEventListener("DOMContentLoaded", function () { enhance(document); keepAwake(); });
  document.addEventListener("htmx:load", function (event) { enhance(event.target); });
})();
