// Live refresh of the admin pages: every 2 s a Faces ajax request re-renders the page's live
// regions (the hidden button of the "poll" form), unless the tab is hidden or the keyboard focus is
// inside a region (re-rendering it would take the focus away). The state line says which: live,
// paused, connection lost (retrying), or session ended, when a banner offers to log in again and
// the refresh stops, so that figures never go stale silently. Instants are shown in the browser's
// time zone.
(function () {
  var state = document.getElementById("live-state");
  var banner = document.getElementById("session-ended");
  var lastGood = new Date();
  var stopped = false;
  var timer = null;

  function clock(date) {
    return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  }

  function show(kind, text) {
    if (!state) {
      return;
    }
    state.setAttribute("data-state", kind);
    if (state.textContent !== text) {
      state.textContent = text;
    }
  }

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

  // instants: the page writes them in UTC; shown here in the browser's time zone, UTC on hover
  function localize() {
    var times = document.querySelectorAll("time.at[datetime]:not([data-local])");
    Array.prototype.forEach.call(times, function (t) {
      var at = new Date(t.getAttribute("datetime"));
      if (!isNaN(at.getTime())) {
        t.textContent = at.toLocaleString([], {
          year: "numeric", month: "short", day: "numeric",
          hour: "2-digit", minute: "2-digit", second: "2-digit", timeZoneName: "short"
        });
        t.setAttribute("data-local", "true");
      }
    });
  }

  function focusInside() {
    var active = document.activeElement;
    if (!active || active === document.body) {
      return false;
    }
    var regions = document.querySelectorAll("[data-live-region]");
    for (var i = 0; i < regions.length; i++) {
      if (regions[i].contains(active)) {
        return true;
      }
    }
    return false;
  }

  function tick() {
    var button = document.getElementById("poll:tick");
    if (stopped || !button || document.hidden) {
      return;
    }
    if (focusInside()) {
      show("paused", "Paused while the keyboard is in the live figures; updated " + clock(lastGood));
      return;
    }
    button.click();
  }

  function ended() {
    stopped = true;
    clearInterval(timer);
    if (banner) {
      document.getElementById("stale-since").textContent = clock(lastGood);
      document.getElementById("relogin").href = window.location.href;
      banner.hidden = false;
    }
    show("ended", "Not updating: your session has ended");
  }

  var ajax = window.faces && faces.ajax ? faces.ajax : window.jsf && jsf.ajax ? jsf.ajax : null;
  if (ajax) {
    ajax.addOnEvent(function (e) {
      if (e.status === "success") {
        lastGood = new Date();
        label();
        localize();
        show("live", "Live: updated " + clock(lastGood) + ", every 2 s");
      }
    });
    ajax.addOnError(function (e) {
      if (e.responseCode === 401) {
        ended();
      } else {
        show("lost", "Connection lost at " + clock(lastGood) + "; retrying every 2 s. The figures below are from then.");
      }
    });
  }
  label();
  localize();
  timer = setInterval(tick, 2000);
})();
