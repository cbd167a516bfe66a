/* fcd-play --web (grader/core/arena/web.py): the replay's view made playable.  The server says which moves
 * are legal; only those buttons are enabled.  It sends only what the person's seat may see: another seat's
 * hand comes as a count (drawn as card backs) until the game is over.  Every string is set as text, never as
 * HTML.  Needs table.js. */
(function () {
  "use strict";
  var el = FCDTable.el, face = FCDTable.face, COLOURS = FCDTable.COLOURS;
  var speed = Number((/[?&]speed=(\d+)/.exec(location.search) || [0, 400])[1]);
  var view = null, shown = 0, busy = false;
  var MAX_BACKS = 30;  // card backs drawn for a hand; a count says the rest
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
  function backs(row, count) {
    // Cards this seat may not see: their number and as many card backs (the server sent no card).
    row.appendChild(el("span", "count", count + (count === 1 ? " card " : " cards ")));
    for (var k = 0; k < Math.min(count, MAX_BACKS); k++) {
      var back = el("span", "card back", "\u00a0");
      back.title = "a card you cannot see";
      row.appendChild(back);
    }
    if (count > MAX_BACKS) { row.appendChild(el("span", "more", " +" + (count - MAX_BACKS))); }
  }
  function myCard(c, live) {
    var b = face(el("button", "mine"), c);
    var mine = live ? movesOf(c) : [];
    b.disabled = busy || mine.length === 0;
    b.dataset.card = c;
    b.onclick = function () { if (mine.length > 1 || mine[0].indexOf("/") >= 0) { pick(c, mine); } else { play(mine[0]); } };
    return b;
  }
  function otherMoves(frame, live) {
    // The legal moves no card button, draw or end makes (a game whose moves name more than one card): as buttons.
    var box = document.getElementById("moves");
    box.textContent = "";
    if (!live) { return; }
    var cards = [];
    frame.seats.forEach(function (s) { if (s.seat === 0 && !s.hidden) { cards = cards.concat(s.cards); } });
    view.legal.filter(function (mv) {
      return mv !== "draw" && mv !== "end" && cards.indexOf(mv.split("/")[0]) < 0;
    }).forEach(function (mv) {
      var b = el("button", "card plain move", mv);
      b.dataset.move = mv;
      b.disabled = busy;
      b.onclick = function () { play(mv); };
      box.appendChild(b);
    });
  }
  function piles(box, frame) {
    frame.piles.forEach(function (p) {
      var row = el("div", "pile" + (p.hidden ? " hidden" : ""));
      if (p.hidden) {
        row.appendChild(el("span", "name", p.name + " (" + p.size + "): face down"));
      } else {
        row.appendChild(el("span", "name", p.name + " (" + p.size + "): "));
        p.cards.forEach(function (c) { row.appendChild(FCDTable.card(c)); });
      }
      box.appendChild(row);
    });
  }
  function draw(frame, live) {
    var table = document.getElementById("table");
    table.textContent = "";
    table.appendChild(el("div", "where", "step " + frame.step + (frame.move ? " (after " + frame.move + ")" : " (as dealt)")));
    frame.seats.forEach(function (s) {
      var row = el("div", "seat" + (s.current ? " current" : "") + (s.hidden ? " hidden" : ""));
      row.dataset.seat = s.seat;
      row.appendChild(el("span", "name", s.label + (s.current ? " (to move)" : "") + ": "));
      if (s.hidden) {
        backs(row, s.count);
      } else {
        s.cards.forEach(function (c) { row.appendChild(s.seat === 0 ? myCard(c, live) : FCDTable.card(c)); });
      }
      table.appendChild(row);
    });
    piles(table, frame);
    FCDTable.rest(table, {piles: [], facts: frame.facts});
    otherMoves(frame, live);
    document.getElementById("draw").disabled = busy || !live || view.legal.indexOf("draw") < 0;
    document.getElementById("end").disabled = busy || !live || view.legal.indexOf("end") < 0;
  }
  function status() {
    var s = document.getElementById("status");
    if (view.finished) {
      s.textContent = "Game over: " + (view.winner === null ? "no winner" : view.winner + " won") +
        ". Every card is shown now.";
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
      var mover = view.frames[f.step - 1].seats.find(function (s) { return s.current; });
      var who = mover && mover.seat >= 0 ? view.names[mover.seat] : "?";
      box.appendChild(el("div", "entry", "step " + f.step + ": " + who + ": " + f.move));
    });
    box.scrollTop = box.scrollHeight;
  }
  function step() {
    var last = view.frames.length - 1;
    if (speed === 0) { shown = last; }  // no animation: the table as it is now, however many moves came in
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
    document.title = view.title + ": play a seat";
    document.getElementById("title").textContent = document.title;
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
