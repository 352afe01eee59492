// Offers similar ideas while someone types a suggestion: asks the server for the fragment of ideas
// that mean the same (any language) and shows it; marks the form as checked so sending does not ask again.
(function () {
  var form = document.querySelector("form[data-similar]");
  if (!form) return;
  var box = document.getElementById("similar");
  var title = form.elements.namedItem("title");
  var body = form.elements.namedItem("body");
  var checked = form.elements.namedItem("checked");
  var timer = 0;
  var last = "";
  function look() {
    var text = (title.value.trim() + "\n" + body.value.trim()).trim();
    if (text.length < 4 || text === last) return;
    last = text;
    var url = form.getAttribute("data-similar");
    url += (url.indexOf("?") < 0 ? "?" : "&") + "text=" + encodeURIComponent(text);
    fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (html) {
        if (text !== last) return;
        box.innerHTML = html;
        if (html.trim()) checked.value = "1";
      })
      .catch(function () {});
  }
  form.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(look, 350);
  });
})();
