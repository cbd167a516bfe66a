/* Sortable tables of the class dashboard (grader/core/templates/dashboard.html): a click (or Enter) on a
 * heading sorts the rows by that column, again to reverse.  A cell's data-sort, when it has one, is the
 * number it sorts by; otherwise its text.  Rows are moved, never rewritten: no text becomes markup. */
(function () {
  "use strict";
  function key(row, col) {
    var cell = row.cells[col];
    var n = cell.getAttribute("data-sort");
    return n === null ? cell.textContent.trim() : Number(n);
  }
  function sortBy(table, th, col) {
    var up = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", up ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a, col), y = key(b, col);
      var c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      return up ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable-table"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.tabIndex = 0;
      th.addEventListener("click", function () { sortBy(table, th, col); });
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") { sortBy(table, th, col); } });
    });
  });
}());
