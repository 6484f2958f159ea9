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
  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (event) { enhance(event.target); });
})();
