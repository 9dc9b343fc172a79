// Search as you type on /ui/entities: fetch the page with the form's values and swap the results in (no build step).
// A static file, not an inline script, so the Content-Security-Policy can forbid inline script everywhere.
(function () {
  var form = document.getElementById("filters"), timer = null;
  if (!form) { return; }
  function refresh() {
    var url = "/ui/entities?" + new URLSearchParams(new FormData(form)).toString();
    fetch(url, {credentials: "same-origin"}).then(function (r) { return r.text(); }).then(function (text) {
      var doc = new DOMParser().parseFromString(text, "text/html");
      var fresh = doc.getElementById("results");
      if (fresh) { document.getElementById("results").replaceChildren(...fresh.childNodes); history.replaceState(null, "", url); }
    });
  }
  form.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(refresh, 200); });
})();
