/* fcd-play --web (grader/core/arena/web.py): the replay's view made playable.  The server says which moves
 * are legal; only those buttons are enabled.  Every string is set as text, never as HTML.  Needs table.js. */
(function () {
  "use strict";
  var el = FCDTable.el, face = FCDTable.face, COLOURS = FCDTable.COLOURS;
  var speed = Number((/[?&]speed=(\d+)/.exec(location.search) || [0, 400])[1]);
  var view = null, shown = 0, busy = false;
  function movesOf(card) {
    return view.legal.filter(function (mv) { return mv.split("/")[0] === card; });
  }
  function send(path, body, fresh) {
    busy = true;
    return fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (r) { return r.json(); })
      .then(function (data) { busy = false; arrive(data, fresh); });
  }
  function play(move) {
    document.getElementById("picker").hidden = true;
    send("/api/move", {move: move});
  }
  function pick(card, moves) {
    var box = document.getElementById("picker");
    box.textContent = "";
    box.appendChild(el("span", "", "Declare a colour for " + card + ": "));
    moves.forEach(function (mv) {
      var letter = mv.split("/")[1];
      var b = el("button", "card " + letter, COLOURS[letter] || letter);
      b.dataset.move = mv;
      b.onclick = function () { play(mv); };
      box.appendChild(b);
    });
    box.hidden = false;
  }
  function draw(frame, live) {
    var table = document.getElementById("table");
    table.textContent = "";
    table.appendChild(el("div", "where", "step " + frame.step + (frame.move ? " (after " + frame.move + ")" : " (as dealt)")));
    frame.seats.forEach(function (s, i) {
      var row = el("div", "seat" + (s.current ? " current" : ""));
      row.appendChild(el("span", "name", view.names[i] + (s.current ? " (to move)" : "") + ": "));
      s.cards.forEach(function (c) {
        if (i === 0) {
          var b = face(el("button", "mine"), c);
          var mine = live ? movesOf(c) : [];
          b.disabled = busy || mine.length === 0;
          b.dataset.card = c;
          b.onclick = function () { if (mine.length > 1 || mine[0].indexOf("/") >= 0) { pick(c, mine); } else { play(mine[0]); } };
          row.appendChild(b);
        } else {
          row.appendChild(FCDTable.card(c));
        }
      });
      table.appendChild(row);
    });
    FCDTable.rest(table, frame);
    document.getElementById("draw").disabled = busy || !live || view.legal.indexOf("draw") < 0;
    document.getElementById("end").disabled = busy || !live || view.legal.indexOf("end") < 0;
  }
  function status() {
    var s = document.getElementById("status");
    if (view.finished) {
      s.textContent = "Game over: " + (view.winner === null ? "no winner" : view.winner + " won") + ".";
    } else if (shown < view.frames.length - 1) {
      s.textContent = "The others are playing...";
    } else {
      s.textContent = view.legal.length ? "Your turn." : "Waiting.";
    }
    s.dataset.state = view.finished ? "over" : (shown < view.frames.length - 1 ? "animating" : "yours");
  }
  function log(from) {
    var box = document.getElementById("log");
    if (from === 0) { box.textContent = ""; }
    view.frames.slice(Math.max(from, 1)).forEach(function (f) {
      var who = view.frames[f.step - 1].seats.findIndex(function (s) { return s.current; });
      box.appendChild(el("div", "entry", "step " + f.step + ": " + view.names[who] + ": " + f.move));
    });
    box.scrollTop = box.scrollHeight;
  }
  function step() {
    var last = view.frames.length - 1;
    draw(view.frames[shown], shown === last && !view.finished);
    status();
    if (shown < last) {
      shown++;
      setTimeout(step, speed);
    }
  }
  function arrive(data, fresh) {
    var from = view && !fresh ? view.frames.length : 0;
    view = data;
    log(from);
    shown = Math.min(from, view.frames.length - 1);
    step();
  }
  document.getElementById("new").onclick = function () {
    send("/api/new", {seed: Number(document.getElementById("seed").value) || 0}, true);
  };
  document.getElementById("draw").onclick = function () { play("draw"); };
  document.getElementById("end").onclick = function () { play("end"); };
  fetch("/api/state").then(function (r) { return r.json(); }).then(function (data) { arrive(data, true); });
}());
