// Live refresh of the admin pages: every 2 s a Faces ajax request re-renders the page's "live"
// region (the hidden button of the "poll" form), unless the tab is hidden.
(function () {
  setInterval(function () {
    var tick = document.getElementById("poll:tick");
    if (tick && !document.hidden) {
      tick.click();
    }
  }, 2000);
})();
