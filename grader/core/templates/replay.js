/* The replay of a failed test's game (grader/core/replay.py): one viewer per
 * <div class="replay">, drawn from the JSON beside it.  It opens at the first
 * difference -- or, for a game the submission stopped in (a crash, a hang), at
 * the step the call in progress was made on, that call shown (kind "call");
 * the arrow keys, Home and End (while the replay has the focus) and the
 * slider step through the moves; every step has an address,
 * #<test id>/step-<n>.  Every string is set as text (textContent), never as
 * HTML: what a submission printed cannot become markup here.  Needs table.js. */
(function () {
  "use strict";
  var el = FCDTable.el, card = FCDTable.card;
  function unpack(data) {
    // The packed form of grader.core.replay.Replay.to_json: strings by index, null for a part unchanged.
    var text = data.strings, out = [];
    function names(list) { return list.map(function (i) { return text[i]; }); }
    data.frames.forEach(function (f) {
      var before = out[out.length - 1];
      out.push({
        step: f[0], move: text[f[1]],
        seats: f[3].map(function (s, i) {
          var seat = s === null ? before.seats[i] : {name: text[s[0]], cards: names(s[1])};
          return {name: seat.name, cards: seat.cards, current: i === f[2]};
        }),
        piles: f[4].map(function (p, i) {
          return p === null ? before.piles[i] : {name: text[p[0]], cards: names(p[1]), size: p[2]};
        }),
        facts: f[5] === null ? before.facts : f[5].map(function (p) { return [text[p[0]], text[p[1]]]; }),
        valid: f[6] === null ? before.valid : names(f[6])
      });
    });
    return out;
  }
  function viewer(box) {
    var data = JSON.parse(box.querySelector("script.replay-data").textContent);
    var test = box.getAttribute("data-test");
    var frames = unpack(data);
    var diffs = data.differences || [];
    var first = diffs.length ? Math.min.apply(null, diffs.map(function (d) { return d.step; })) : 0;
    box.id = test;
    box.tabIndex = 0;
    var bar = el("div", "bar");
    var prev = el("button", "prev", "\u2190");
    var next = el("button", "next", "\u2192");
    var slider = el("input", "slider");
    slider.type = "range"; slider.min = 0; slider.max = frames.length - 1;
    var label = el("span", "where");
    bar.appendChild(prev); bar.appendChild(slider); bar.appendChild(next); bar.appendChild(label);
    var body = el("div", "frame");
    box.appendChild(el("p", "meta", data.title + ": the game step by step (\u2190 \u2192 Home End)"));
    box.appendChild(bar); box.appendChild(body);
    var at = 0;
    function indexOf(step) {
      // Frames are steps base, base + 1, ...: a very long game keeps only the steps before its difference.
      return step - frames[0].step;
    }
    function show(k, push) {
      at = Math.max(0, Math.min(frames.length - 1, k));
      var f = frames[at];
      slider.value = at;
      label.textContent = "step " + f.step + " of " + frames[frames.length - 1].step + (f.move ? " (after " + f.move + ")" : " (as dealt)");
      body.textContent = "";
      diffs.filter(function (d) { return d.step === f.step; }).forEach(function (d) {
        // kind "call": the game stopped in a call (a crash, a hang): this is the game that call was made on.
        var call = d.kind === "call";
        var box2 = el("div", call ? "diff call" : "diff");
        box2.appendChild(el("div", "what", (call ? "The call in progress: " : "First difference: ") + d.what));
        box2.appendChild(el("div", "expected", "expected: " + d.expected));
        box2.appendChild(el("div", "got", "got: " + d.got));
        if (call) { box2.appendChild(el("div", "stopped", "The game below is the one that call was made on.")); }
        body.appendChild(box2);
      });
      f.seats.forEach(function (s) {
        var row = el("div", "seat" + (s.current ? " current" : ""));
        row.appendChild(el("span", "name", s.name + (s.current ? " (to move)" : "") + ": "));
        s.cards.forEach(function (c) { row.appendChild(card(c)); });
        body.appendChild(row);
      });
      FCDTable.rest(body, f);
      var valid = el("div", "valid", "valid moves: " + (f.valid.length ? "" : "none"));
      f.valid.forEach(function (mv) { valid.appendChild(card(mv)); });
      body.appendChild(valid);
      if (push) { history.replaceState(null, "", "#" + test + "/step-" + f.step); }
    }
    prev.onclick = function () { show(at - 1, true); };
    next.onclick = function () { show(at + 1, true); };
    slider.oninput = function () { show(Number(slider.value), true); };
    box.addEventListener("keydown", function (e) {
      var keys = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: frames.length - 1};
      if (e.key in keys) { e.preventDefault(); show(keys[e.key], true); }
    });
    return {test: test, show: show, first: indexOf(first), indexOf: indexOf};
  }
  var viewers = Array.prototype.map.call(document.querySelectorAll("div.replay"), viewer);
  function follow(atLoad) {
    var m = /^#(.*)\/step-(\d+)$/.exec(decodeURIComponent(location.hash));
    viewers.forEach(function (v) {
      if (m && m[1] === v.test) {
        v.show(v.indexOf(Number(m[2])), false);
        document.getElementById(v.test).scrollIntoView();
      } else if (atLoad) {
        v.show(v.first, false);
      }
    });
  }
  window.addEventListener("hashchange", function () { follow(false); });
  follow(true);
}());
