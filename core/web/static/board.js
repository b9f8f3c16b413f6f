// easymoney serve: the board a page shows. EasyBoard.show(container, view, options) puts the
// server's SVG (view.svg, every name escaped there) in `container`, shows the last throw
// (view.throw = {seq, dice, player, path}) as two dice, and moves the MAN who threw space by
// space along its path, the first time the page shows that throw. A click on the board
// skips the move; options.animate = false (a watched game at a high pace) shows the dice
// and the MEN where they are, with no move. `container` says data-moving while a MAN moves,
// and hears "easyboard:moved" when the move is over.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const STEP_MS = 140;  // one space of a MAN's move
  const DIE = 54;       // a die's side, in the board's units
  // where each face's pips are, in thirds of a die from its centre
  const PIPS = {
    1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  };
  const moving = new WeakMap();  // container -> the move under way: {finish}

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (parent) parent.appendChild(e);
    return e;
  }

  // the MAN of `player` in the drawing (an attribute selector would need the name escaped)
  function manOf(svg, player) {
    for (const m of svg.querySelectorAll("g.man")) if (m.dataset.player === player) return m;
    return null;
  }

  function drawDice(svg, thrown, fresh) {
    const spot = svg.querySelector("g.dice");
    if (!spot) return;
    spot.replaceChildren();
    const man = manOf(svg, thrown.player);
    const colour = man && man.querySelector("circle") ? man.querySelector("circle").getAttribute("fill") : "#333";
    spot.setAttribute("data-dice", thrown.dice.join(" "));
    thrown.dice.forEach((value, k) => {
      const g = el("g", { class: "die" + (fresh ? " fresh" : ""), "data-value": value,
                          transform: `translate(${(k - 0.5) * (DIE + 16)} 0)` }, spot);
      el("rect", { x: -DIE / 2, y: -DIE / 2, width: DIE, height: DIE, rx: 10, fill: "white",
                   stroke: colour, "stroke-width": 3 }, g);
      for (const [px, py] of PIPS[value] || []) {
        el("circle", { cx: px * DIE / 3.4, cy: py * DIE / 3.4, r: 5.5, fill: "#222" }, g);
      }
    });
    const total = thrown.dice.reduce((a, b) => a + b, 0);
    const words = el("text", { y: DIE / 2 + 26, "text-anchor": "middle", "font-size": 18,
                               fill: colour, "font-weight": "bold", class: "dice-words" }, spot);
    words.textContent = `${thrown.player} threw ${total}`;
  }

  function spotOf(svg, index) {
    for (const s of svg.querySelectorAll("circle.spot")) {
      if (Number(s.dataset.index) === index) return [Number(s.getAttribute("cx")), Number(s.getAttribute("cy"))];
    }
    return null;
  }

  // move the thrower's MAN along the path, one space a STEP_MS; a click on the board ends
  // it. A drawing of the same throw arriving meanwhile (the game went on: a buy, a bot's
  // next decision) takes the move over where it was.
  function walk(container, svg, thrown, key, from) {
    const man = manOf(svg, thrown.player);
    const points = (thrown.path || []).map((i) => spotOf(svg, i)).filter(Boolean);
    if (!man || points.length < 2 || from >= points.length - 1) { ended(container); return; }
    container.dataset.moving = "1";
    man.classList.add("walking");
    const move = { key, k: from, timer: null, finish: null };
    const place = ([x, y]) => { man.style.transform = `translate(${x}px, ${y}px)`; };
    const stop = () => {  // the move is left here (a new drawing takes it over, or not)
      clearTimeout(move.timer);
      container.removeEventListener("click", finish, true);
      moving.delete(container);
    };
    const finish = () => {
      stop();
      man.removeAttribute("style");  // back where the server drew it, as it drew it
      man.classList.remove("walking");
      ended(container);
    };
    move.finish = finish;
    move.stop = stop;
    place(points[move.k]);
    const next = () => {
      move.k += 1;
      if (move.k >= points.length) { finish(); return; }
      place(points[move.k]);
      move.timer = setTimeout(next, STEP_MS);
    };
    move.timer = setTimeout(next, STEP_MS);
    container.addEventListener("click", finish, true);
    moving.set(container, move);
  }

  function ended(container) {
    if (container.dataset.moving === undefined) return;
    delete container.dataset.moving;
    container.dispatchEvent(new CustomEvent("easyboard:moved"));
  }

  function show(container, view, options) {
    const animate = !options || options.animate !== false;
    const thrown = view.throw;
    const key = thrown ? `${thrown.seq}:${thrown.player}:${thrown.dice.join(",")}` : null;
    const under = moving.get(container);
    let from = null;
    if (under && under.key === key && animate) { under.stop(); from = under.k; }
    else if (under) under.finish();  // another throw, or no moves now: this one is over
    container.innerHTML = view.svg;
    const svg = container.querySelector("svg");
    if (!svg || !thrown) { delete container.dataset.thrown; ended(container); return; }
    // a throw is new once: the first drawing of a page shows the last throw standing still
    const fresh = container.dataset.thrown !== undefined && container.dataset.thrown !== key;
    container.dataset.thrown = key;
    drawDice(svg, thrown, fresh && animate);
    if (from !== null) walk(container, svg, thrown, key, from);
    else if (fresh && animate) walk(container, svg, thrown, key, 0);
  }

  // whether a MAN is moving on `container`'s board (a page may wait for "easyboard:moved")
  function busy(container) { return container.dataset.moving !== undefined; }

  window.EasyBoard = { show, busy };
})();
