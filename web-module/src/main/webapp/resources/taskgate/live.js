// Live refresh of the admin pages: every 2 s a Faces ajax request re-renders the page's "live"
// region (the hidden button of the "poll" form), unless the tab is hidden. After each render, the
// cells of every data table are labelled with their column's heading, so that a narrow screen can
// show each row as a list of "heading: value" lines.
(function () {
  function label() {
    var tables = document.querySelectorAll("table.data");
    Array.prototype.forEach.call(tables, function (table) {
      var headings = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
        return th.textContent.replace(/[▲▼]/g, "").trim();
      });
      Array.prototype.forEach.call(table.querySelectorAll("tbody tr"), function (row) {
        Array.prototype.forEach.call(row.children, function (cell, i) {
          if (headings[i] && !cell.hasAttribute("data-label")) {
            cell.setAttribute("data-label", headings[i]);
          }
        });
      });
    });
  }
  var ajax = window.faces && faces.ajax ? faces.ajax : window.jsf && jsf.ajax ? jsf.ajax : null;
  if (ajax) {
    ajax.addOnEvent(function (e) {
      if (e.status === "success") {
        label();
      }
    });
  }
  label();
  setInterval(function () {
    var tick = document.getElementById("poll:tick");
    if (tick && !document.hidden) {
      tick.click();
    }
  }, 2000);
})();
