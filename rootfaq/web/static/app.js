// Enhancements only: every page asks, answers and browses without this file (the question box is a plain
// GET form). Served as a static file: the Content-Security-Policy allows no inline script.
(function () {
  "use strict";
  document.documentElement.classList.add("js");  // styles may tell the enhanced page apart
  var box = document.getElementById("q");
  var form = box ? box.form : null;
  if (!form) {
    return;
  }
  var button = form.querySelector("button[type=submit]");
  var quiet = form.querySelectorAll("select, input[type=checkbox]");

  // "/" anywhere outside a field goes to the question box, as on most sites with a search box.
  document.addEventListener("keydown", function (event) {
    var active = document.activeElement;
    var typing = active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      box.focus();
      box.select();
    }
  });

  function ask() {
    if (form.requestSubmit) {
      form.requestSubmit();
    } else {
      form.submit();
    }
  }

  // The box is a textarea so a pasted post keeps its lines; Enter still asks, as in a search box, and
  // Shift+Enter starts a new line (without JavaScript, Enter starts a line and the button asks).
  box.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      ask();
    }
  });

  // Where CSS cannot size a field to its content (field-sizing), the box grows with what is typed or pasted.
  if (!(window.CSS && CSS.supports && CSS.supports("field-sizing", "content"))) {
    var grow = function () {
      box.style.height = "auto";
      box.style.height = box.scrollHeight + 4 + "px";  // + the 2px border above and below
    };
    box.addEventListener("input", grow);
    grow();
  }

  form.addEventListener("submit", function () {
    // An empty filter stays out of the address, so a shared link reads /?q=hand+limit.
    quiet.forEach(function (field) {
      if (field.tagName === "SELECT" && !field.value) {
        field.disabled = true;
      }
    });
    button.textContent = "Asking…";
    form.setAttribute("aria-busy", "true");
  });

  // Changing a filter under an answer asks again at once (without JavaScript: press Ask).
  quiet.forEach(function (field) {
    field.addEventListener("change", function () {
      if (box.value.trim()) {
        ask();
      }
    });
  });

  // Back to a page from the browser's cache: the form as it was before it was sent.
  window.addEventListener("pageshow", function () {
    quiet.forEach(function (field) {
      field.disabled = false;
    });
    button.textContent = "Ask";
    form.removeAttribute("aria-busy");
  });
})();
