/* How a game's table is drawn, shared by the replay (replay.js) and the playable page (play.js): a card
 * written value, colour letter, suit letter -- its colour drawn, the letter in bold and spelt out in the
 * tooltip, so no one needs to tell colours apart -- the piles, and the facts.  Text only, never HTML. */
var FCDTable = (function () {
  "use strict";
  var COLOURS = {R: "red", B: "blue", G: "green", Y: "yellow", P: "purple"};
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function face(node, name) {
    // ``node`` (a span or a button) shows the card ``name``; anything else is shown as it is, plain.
    var m = /^([0-9A-F])([RBGYP])(.*)$/.exec(name);
    node.classList.add("card");
    if (!m) { node.classList.add("plain"); node.textContent = name; return node; }
    node.classList.add(m[2]);
    node.appendChild(document.createTextNode(m[1]));
    node.appendChild(el("b", "", m[2]));
    node.appendChild(document.createTextNode(m[3]));
    node.title = name + ": " + COLOURS[m[2]];
    return node;
  }
  function card(name) { return face(el("span"), name); }
  function rest(box, frame) {
    // The piles and the facts of a frame, below its seats.
    frame.piles.forEach(function (p) {
      var row = el("div", "pile");
      row.appendChild(el("span", "name", p.name + " (" + p.size + "): "));
      p.cards.forEach(function (c) { row.appendChild(card(c)); });
      box.appendChild(row);
    });
    var table = el("table", "facts");
    frame.facts.forEach(function (pair) {
      var tr = el("tr");
      tr.appendChild(el("td", "fact", pair[0])); tr.appendChild(el("td", "value", pair[1]));
      table.appendChild(tr);
    });
    box.appendChild(table);
  }
  return {COLOURS: COLOURS, el: el, face: face, card: card, rest: rest};
}());
