// The chart of the last hour (<tg:lastHourChart>): the counts the page lists in its data (started,
// parked, rejected, failed on the overview; tasks the job throttlers made wait or dropped and calls
// the @RateLimited limiters made wait or refused on the Throttlers page) per minute, for all queues,
// task types and limiters or the one chosen. A series is a queue and task type's or a limiter's,
// and holds the counts that apply to it. The data comes
// with the page's live region (#last-hour-data) and is drawn again after each refresh, without
// touching the focus.
(function () {
  var STYLES = {
    started: { label: "started", color: "#067647" },
    parked: { label: "parked", color: "#b45309" },
    rejected: { label: "rejected", color: "#b42318" },
    failed: { label: "failed", color: "#5b21b6" },
    throttleWaited: { label: "made to wait", color: "#b45309" },
    throttleDropped: { label: "dropped", color: "#b42318" },
    callsWaited: { label: "calls made to wait", color: "#1d4ed8" },
    callsRefused: { label: "calls refused", color: "#5b21b6" }
  };
  var COUNTS = [];
  var chart = null;
  var select = document.getElementById("chart-series");
  var box = document.getElementById("last-hour");

  function read() {
    var holder = document.getElementById("last-hour-data");
    return holder ? JSON.parse(holder.getAttribute("data-stats")) : null;
  }

  function options(stats) {
    var known = {};
    Array.prototype.forEach.call(select.options, function (o) { known[o.value] = true; });
    stats.series.forEach(function (s) {
      var choices = s.limiter !== undefined
        ? [["limiter:" + s.limiter, "limiter " + s.limiter]]
        : [["queue:" + s.queue, "queue " + s.queue], ["type:" + s.type, "task type " + simple(s.type)]];
      choices.forEach(function (pair) {
        if (!known[pair[0]]) {
          known[pair[0]] = true;
          var option = document.createElement("option");
          option.value = pair[0];
          option.textContent = pair[1];
          select.appendChild(option);
        }
      });
    });
  }

  function simple(type) {
    var cut = Math.max(type.lastIndexOf("."), type.lastIndexOf("$"));
    return type.substring(cut + 1);
  }

  function data(stats) {
    var chosen = select.value;
    var x = [];
    for (var i = 0; i < stats.minutes; i++) {
      x.push(stats.from + i * 60);
    }
    var columns = [x];
    COUNTS.forEach(function (count) {
      var sum = new Array(stats.minutes).fill(0);
      stats.series.forEach(function (s) {
        var mine = s.limiter !== undefined
          ? chosen === "limiter:" + s.limiter
          : chosen === "queue:" + s.queue || chosen === "type:" + s.type;
        if ((chosen === "" || mine) && s[count.name]) {
          s[count.name].forEach(function (v, i) { sum[i] += v; });
        }
      });
      columns.push(sum);
    });
    return columns;
  }

  function width() {
    return Math.max(240, Math.min(box.clientWidth - 12, 1100));
  }

  function draw() {
    var stats = read();
    if (!stats || !box || typeof uPlot === "undefined") {
      return;
    }
    options(stats);
    COUNTS = stats.counts.map(function (name) {
      var style = STYLES[name] || { label: name, color: "#344054" };
      return { name: name, label: style.label, color: style.color };
    });
    var columns = data(stats);
    if (chart) {
      chart.setData(columns);
      return;
    }
    chart = new uPlot({
      width: width(),
      height: 220,
      scales: { x: { time: true }, y: { range: function (u, min, max) { return [0, Math.max(4, max)]; } } },
      axes: [{}, { label: stats.unit || "tasks a minute", size: 60 }],
      series: [{ label: "minute" }].concat(COUNTS.map(function (c) {
        return { label: c.label, stroke: c.color, width: 2, points: { show: false } };
      }))
    }, columns, box);
  }

  select.addEventListener("change", draw);
  window.addEventListener("resize", function () {
    if (chart) {
      chart.setSize({ width: width(), height: 220 });
    }
  });
  if (window.faces && faces.ajax) {
    faces.ajax.addOnEvent(function (e) { if (e.status === "success") { draw(); } });
  }
  draw();
})();
