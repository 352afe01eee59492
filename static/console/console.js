// Hearken console: copy buttons and dismissable alerts. No inline scripts (strict CSP).
(function () {
  "use strict";

  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function announce(button, text) {
    var original = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", original);
    button.textContent = text;
    window.setTimeout(function () { button.textContent = original; }, 2000);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (button) {
      var source = document.getElementById(button.getAttribute("data-copy"));
      if (!source) return;
      var text = source.textContent.trim();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(
          function () { announce(button, "Copied"); },
          function () { selectText(source); announce(button, "Press Ctrl+C"); }
        );
      } else {
        selectText(source);
        var copied = false;
        try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
        announce(button, copied ? "Copied" : "Press Ctrl+C");
      }
      return;
    }
    var dismiss = event.target.closest("[data-dismiss]");
    if (dismiss) {
      var alert = dismiss.closest(".alert");
      if (alert) alert.remove();
    }
  });

  // After an in-place swap, keep keyboard users where the change happened.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (!target) return;
    // an outerHTML swap replaces the target: look the new one up by its id
    var root = (target.id && document.getElementById(target.id)) || target;
    if (!root.querySelector) return;
    var focusable = root.querySelector("[aria-invalid='true'], [role='status'] button, [role='alert']");
    if (focusable) {
      if (!focusable.hasAttribute("tabindex") && !/^(BUTTON|INPUT|SELECT|TEXTAREA|A)$/.test(focusable.tagName)) {
        focusable.setAttribute("tabindex", "-1");
      }
      focusable.focus();
    }
  });

  // A select marked data-autosubmit submits its form on change (status changed in place from the row).
  document.addEventListener("change", function (event) {
    var select = event.target.closest("select[data-autosubmit]");
    if (select && select.form) {
      select.form.requestSubmit();
    }
  });

  // Live lists (data-live-events: a Server-Sent Events URL): each event, and the stream's opening (what
  // came before it), fire `live-message` on the element, whose hx-trigger refreshes it. While the stream
  // is not open the same event fires every few seconds instead. The element may be swapped at any time:
  // it is looked up by the URL each time, and a stream whose element is gone is closed.
  var streams = {};
  var POLL_MS = 4000;

  function liveElement(url) {
    return document.querySelector('[data-live-events="' + url + '"]');
  }

  function refresh(url) {
    var element = liveElement(url);
    if (element && window.htmx) window.htmx.trigger(element, "live-message");
  }

  function follow() {
    document.querySelectorAll("[data-live-events]").forEach(function (element) {
      var url = element.getAttribute("data-live-events");
      if (streams[url] || !window.EventSource) return;
      var source = new EventSource(url);
      source.onopen = function () { refresh(url); };
      source.addEventListener("message", function () { refresh(url); });
      streams[url] = {
        source: source,
        timer: window.setInterval(function () {
          if (source.readyState !== EventSource.OPEN) refresh(url);
        }, POLL_MS),
      };
    });
    Object.keys(streams).forEach(function (url) {
      if (!liveElement(url)) {
        streams[url].source.close();
        window.clearInterval(streams[url].timer);
        delete streams[url];
      }
    });
  }

  document.addEventListener("DOMContentLoaded", follow);
  document.addEventListener("htmx:afterSettle", follow);
})();
