// easymoney serve: the pages. Every name is put on the page as text (textContent); the
// board's SVG comes from the server with its names escaped.
"use strict";
const $ = (id) => document.getElementById(id);
const page = document.body.dataset.page;
window.__timings = [];  // click to board drawn again, in ms (read by the tests and the bench)

async function call(method, url, body) {
  const opts = { method, headers: {} };
  if (body instanceof FormData) opts.body = body;
  else if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const res = await fetch(url, opts);
  let data = {};
  try { data = await res.json(); } catch (e) { data = { error: "the server answered " + res.status }; }
  // a refusal in words: the command line's `error: ` prefix is the terminal's, not the page's
  if (typeof data.error === "string") data.error = data.error.replace(/^error: /, "");
  return { ok: res.ok, status: res.status, data };
}

// the strategies a seat may be given, as [value, words]: the bots by name, then the server's
// trained agents (easymoney serve --agent NAME=FILE), seated by NAME, never by a file
function botChoices(data) {
  return [...(data.strategies || []).map((n) => [n, n]),
          ...(data.agents || []).map((a) => [a.name, `${a.label}: ${a.variant}, ${a.players} seats`])];
}
function strategiesText(data) {
  return botChoices(data).map(([n, words]) => (n === words ? n : `${words}, seated as NAME:${n}`)).join("; ");
}

function li(text, cls) { const e = document.createElement("li"); e.textContent = text; if (cls) e.className = cls; return e; }
// a transcript line; the one that opens a turn (the turn rule's `Turn 12: Ann`) heads its group
function line(text) { return li(text, /^Turn \d+: /.test(text) ? "turn" : ""); }

// --- the index page ----------------------------------------------------------------------
async function index() {
  const { data } = await call("GET", "/api/variants");
  for (const sel of document.querySelectorAll("select.variants")) {
    for (const name of data.variants || []) {
      const o = document.createElement("option"); o.value = name; o.textContent = name;
      if (name === "standard") o.selected = true;
      sel.appendChild(o);
    }
  }
  $("strategies").textContent = strategiesText(data);
  const submit = (formId, url, errId) => $(formId).addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const form = new FormData($(formId));
    const r = await call("POST", url, form);
    if (r.ok) location.href = r.data.url; else $(errId).textContent = r.data.error;
  });
  submit("play-form", "/api/games", "play-error");
  submit("watch-form", "/api/games", "watch-error");
  submit("step-form", "/api/replays", "step-error");
  document.body.dataset.state = "ready";
}

// --- a game played or watched -------------------------------------------------------------
let game = null, lines = 0, paused = false, clickAt = null, timer = null;
const gameId = () => location.pathname.split("/")[2];
const watching = () => location.pathname.startsWith("/watch/");

function render(view) {
  game = view;
  drawBoard(view, !(view.watch && Number($("pace").value) < 300));
  if (clickAt !== null) { window.__timings.push(performance.now() - clickAt); clickAt = null; }
  // the prompt in plain words for the person (`Your turn to roll`); the request line without it
  $("request").textContent = view.ending ? "The game is over." : view.prompt || (view.request ? view.request : "The game is over: " + view.over);
  $("typed").hidden = !view.request;
  drawControls(view.controls, act, view);
  showEnd(view, view.params.uploaded ? null : playAgain, `/api/games/${view.id}/script`);
  controlsEnabled(true);
  showRefused(view.refused);
  if (view.lines < lines) { $("transcript").replaceChildren(); lines = 0; }
  for (const t of view.transcript) $("transcript").appendChild(line(t));
  lines = view.lines;
  $("transcript").scrollTop = $("transcript").scrollHeight;
  const st = $("standings"); st.replaceChildren();
  for (const [name, worth] of view.standings) st.appendChild(li(`${name}: worth $${worth.toLocaleString("en-US")}`));
  drawShown(view.players);
  $("save").href = `/api/games/${view.id}/script`;
  // what the server needs to make the game again if it drops it: every decision, a deal's
  // answers included, and the bots decide theirs again
  localStorage.setItem("easymoney:" + view.id, JSON.stringify({ params: view.params, decisions: view.decisions, watch: view.watch }));
  document.body.dataset.steps = view.steps;
  for (const id of ["pause", "step"]) $(id).disabled = !view.request;  // nothing to step once over
  if (view.bot && view.request && !paused) {
    document.body.dataset.state = "bot";
    clearTimeout(timer);
    timer = setTimeout(botStep, Number($("pace").value));
  } else {
    document.body.dataset.state = !view.request ? "over" : paused ? "paused" : "ready";
  }
}

// what the plugins show of each player's state (their SHOWN facts): one line a player who
// has any, under the standings; the block is hidden when no player has one
function drawShown(players) {
  const list = $("shown");
  if (!list) return;
  list.replaceChildren();
  for (const p of players || []) {
    const facts = (p.shown || []).map((f) => f.words);
    if (facts.length) { const e = li(`${p.name}: ${facts.join("; ")}`); e.dataset.player = p.name; list.appendChild(e); }
  }
  list.parentElement.hidden = !list.children.length;
}

// the board: board.js animates it where it is loaded; otherwise the server's SVG as it is
function drawBoard(view, animate) {
  const board = $("board");
  const kept = [board.scrollLeft, board.scrollTop];
  if (window.EasyBoard) window.EasyBoard.show(board, view, { animate });
  else board.innerHTML = view.svg;
  markMe(board, view.me);
  zoomBoard(board, view, kept);
}

// a table's board is drawn once for every browser at it: the seat's own line in the
// centre is marked here, as the server marks it on a page's own game
function markMe(board, me) {
  if (!me) return;
  for (const t of board.querySelectorAll("svg text.centre")) {
    if (t.dataset.player !== me || t.textContent.endsWith("(you)")) continue;
    t.textContent += "  (you)";
    t.setAttribute("font-weight", "bold");
  }
}

// A phone: the board's smallest name or price is drawn at MIN_TEXT_PX at least, the board
// larger than the window and panned by a finger (the box scrolls), and the box no taller
// than half the window so that the controls stay on screen. "Whole board" shows it all.
const MIN_TEXT_PX = 11, NARROW = 600;
let wholeBoard = false, zoomedOnce = false;
function zoomBoard(board, view, kept) {
  const svg = board.querySelector("svg");
  const narrow = window.innerWidth < NARROW;
  document.body.dataset.zoom = narrow && !wholeBoard ? "on" : "off";
  if (!svg) return;
  if (!narrow || wholeBoard) { svg.style.width = ""; svg.style.maxHeight = ""; return; }
  const box = svg.viewBox.baseVal;
  let least = Infinity;
  for (const t of svg.querySelectorAll("text")) {
    const size = parseFloat(t.getAttribute("font-size") || getComputedStyle(t).fontSize);
    if (size > 0 && t.textContent.trim()) least = Math.min(least, size);
  }
  if (!box || !box.width || least === Infinity) return;
  const width = Math.max(board.clientWidth, Math.ceil(box.width * MIN_TEXT_PX / least) + 1);
  svg.style.width = width + "px"; svg.style.maxHeight = "none";
  if (zoomedOnce) { [board.scrollLeft, board.scrollTop] = kept; return; }
  zoomedOnce = true;  // the first drawing: the box shows the person's MAN, or the asked one's
  const who = view.me || (view.players || []).find((p) => p.you)?.name || view.asked;
  for (const m of svg.querySelectorAll("g.man")) {
    if (m.dataset.player !== who) continue;
    const r = m.getBoundingClientRect(), b = board.getBoundingClientRect();
    board.scrollLeft += r.left - b.left - board.clientWidth / 2;
    board.scrollTop += r.top - b.top - board.clientHeight / 2;
  }
}

function wholeBoardToggle() {
  const b = document.createElement("button"); b.id = "whole-board"; b.type = "button";
  b.className = "zoom"; b.textContent = "Whole board";
  b.onclick = () => {
    wholeBoard = !wholeBoard; b.textContent = wholeBoard ? "Zoom in" : "Whole board";
    zoomedOnce = false; zoomBoard($("board"), {}, [0, 0]);
  };
  $("board").before(b);
}
if (["play", "table"].includes(page)) {
  wholeBoardToggle();
  window.addEventListener("resize", () => zoomBoard($("board"), {}, [$("board").scrollLeft, $("board").scrollTop]));
}

const dollars = (n) => "$" + Number(n).toLocaleString("en-US");

// one button per legal action, and for an amount a number box bounded by its range, so
// nothing the controls send can be refused; `act` takes {index[, amount]}. An answer to
// an offer says what is given and taken; an auction shows its state beside its bid box;
// the offers to other players are one control, with a chooser of the deal.
function drawControls(list, act, view) {
  const controls = $("controls"); controls.replaceChildren();
  const offers = list.filter((c) => c.kind === "range" && c.offer);
  const deal = list.find((c) => c.deal && c.deal.words);
  if (deal) { const d = document.createElement("p"); d.className = "deal"; d.id = "deal"; d.textContent = deal.deal.words; controls.appendChild(d); }
  const me = view && (view.me || ((view.players || []).find((p) => p.you) || {}).name);
  if (view && view.auction && list.some((c) => c.kind === "range" && !c.offer)) controls.appendChild(auctionPanel(view.auction, me));
  for (const c of list) {
    const words = c.label || c.text;
    if (c.kind === "action") {
      const b = document.createElement("button"); b.textContent = words; b.title = c.text; b.className = "action";
      b.dataset.index = c.index; b.dataset.text = c.text; b.onclick = () => act({ index: c.index });
      controls.appendChild(b);
    } else if (!c.offer) {
      controls.appendChild(amountControl(c, act, view && view.auction));
    }
  }
  if (offers.length) controls.appendChild(offerPanel(offers, act));
}

// the amount a box holds, or why it cannot be sent (in words: the box's range and step)
function amountOf(input, c) {
  const n = Number(input.value);
  const show = (v) => (c.money ? dollars(v) : String(v));
  if (input.value.trim() === "" || !Number.isInteger(n)) return { why: `${c.label}: write a whole number from ${show(c.least)} to ${show(c.most)}; nothing was sent` };
  if (n < c.least) return { why: `${c.label}: ${show(n)} is below the least, ${show(c.least)}; nothing was sent` };
  if (n > c.most) return { why: `${c.label}: ${show(n)} is above the most, ${show(c.most)}; nothing was sent` };
  if ((n - c.least) % c.step) return { why: `${c.label}: ${show(n)} is not on a step of ${show(c.step)} from ${show(c.least)}; nothing was sent` };
  return { amount: n };
}

// a number box and a slider bounded by the range, each moving the other, starting at
// `start` (an auction's bid box at the least bid); quick buttons (+$10, +$100) within it
function amountBox(c, start, onchange) {
  const box = document.createElement("span"); box.className = "range";
  const slider = document.createElement("input"); slider.type = "range";
  const input = document.createElement("input"); input.type = "number";
  for (const e of [slider, input]) { e.min = c.least; e.max = c.most; e.step = c.step; }
  for (const e of [slider, input]) e.value = start;
  input.dataset.index = c.index; slider.setAttribute("aria-label", c.label);
  input.setAttribute("aria-label", c.label);
  const moved = () => { if (onchange) onchange(); };
  slider.oninput = () => { input.value = slider.value; moved(); };
  input.oninput = () => { slider.value = input.value; moved(); };
  box.append(slider, input);
  if (c.money) {
    for (const more of [10, 100]) {
      if (c.most - c.least < more) continue;
      const q = document.createElement("button"); q.type = "button"; q.className = "quick";
      q.textContent = `+${dollars(more)}`; q.dataset.more = more;
      q.onclick = () => {
        const n = Math.min(c.most, (Number(input.value) || c.least) + more);
        input.value = slider.value = n - ((n - c.least) % c.step); moved();
      };
      box.append(q);
    }
  }
  return { box, input, slider };
}

function amountControl(c, act, auction) {
  const row = document.createElement("div"); row.className = "amount-row";
  const label = document.createElement("span"); label.textContent = c.label;
  const b = document.createElement("button"); b.className = "amount"; b.dataset.text = c.text;
  const { box, input } = amountBox(c, c.least, () => name());
  const name = () => { const n = Number(input.value); b.textContent = Number.isInteger(n) ? (c.words || ["", ""]).join(c.money ? dollars(n) : String(n)).trim() || "OK" : "OK"; };
  name();
  b.onclick = () => {
    const got = amountOf(input, c);
    if (got.why) { $("refusal").textContent = got.why; return; }
    act({ index: c.index, amount: got.amount });
  };
  row.append(label, box, b);
  if (auction) row.classList.add("bid");
  return row;
}

// an auction at a glance (R11): the space, the high bid and its bidder, the least next bid
function auctionPanel(a, me) {
  const panel = document.createElement("div"); panel.id = "auction"; panel.className = "auction";
  const head = document.createElement("strong"); head.textContent = `Auction of ${a.space}` + (a.printed ? ` (printed ${dollars(a.printed)})` : "");
  const high = document.createElement("span"); high.className = "high";
  high.textContent = a.high === null ? "No bid yet" : `High bid ${dollars(a.high)} by ${a.bidder === me ? "you" : a.bidder}`;
  const least = document.createElement("span"); least.className = "least"; least.textContent = `least next bid ${dollars(a.least)}`;
  panel.append(head, " · ", high, " · ", least);
  return panel;
}

// the offers to other players, one control: a chooser of the deal, a price starting from
// the space's printed price (or the bots' valuation), and a confirmation below half of it
function offerPanel(offers, act) {
  const panel = document.createElement("div"); panel.id = "offer"; panel.className = "offer";
  const title = document.createElement("span"); title.textContent = "Make an offer:";
  const choose = document.createElement("select"); choose.id = "offer-choice"; choose.setAttribute("aria-label", "the offer");
  offers.forEach((c, k) => { const o = document.createElement("option"); o.value = k; o.textContent = c.label; choose.appendChild(o); });
  const slot = document.createElement("span");
  const hint = document.createElement("div"); hint.className = "hint";
  const confirm = document.createElement("div"); confirm.className = "confirm"; confirm.id = "offer-confirm"; confirm.hidden = true;
  const send = document.createElement("button"); send.id = "offer-send"; send.className = "amount";
  let box = null;
  const current = () => offers[Number(choose.value)];
  const name = () => { const n = Number(box.input.value); send.textContent = Number.isInteger(n) ? `Offer for ${dollars(n)}` : "Offer"; confirm.hidden = true; };
  const pick = () => {
    const c = current();
    box = amountBox(c, c.offer.start, name);
    box.input.id = "offer-price"; slot.replaceChildren(box.box);
    const o = c.offer;
    hint.textContent = [o.printed ? `printed price ${dollars(o.printed)}` : "", o.valued ? `worth ${dollars(o.valued)} to ${o.with} (R28)` : ""].filter(Boolean).join("; ");
    send.dataset.text = c.text; name();
  };
  choose.onchange = pick;
  send.onclick = () => {
    const c = current(), got = amountOf(box.input, c);
    if (got.why) { $("refusal").textContent = got.why; return; }
    if (c.offer.low !== null && got.amount < c.offer.low) {  // a gift: asked again first
      confirm.replaceChildren();
      const what = c.offer.thing || "it";
      const text = document.createElement("span");
      text.textContent = `${dollars(got.amount)} is less than half of what ${what} is worth (${dollars(c.offer.low * 2)}). Offer it anyway?`;
      const yes = document.createElement("button"); yes.id = "offer-yes"; yes.textContent = `Yes, offer it for ${dollars(got.amount)}`;
      yes.onclick = () => act({ index: c.index, amount: got.amount });
      const no = document.createElement("button"); no.id = "offer-no"; no.textContent = "No";
      no.onclick = () => { confirm.hidden = true; };
      confirm.append(text, " ", yes, " ", no); confirm.hidden = false;
      return;
    }
    act({ index: c.index, amount: got.amount });
  };
  pick();
  panel.append(title, " ", choose, slot, send, hint, confirm);
  return panel;
}

// the end of a game: who won and why (R27, R28, R29), the final standings with each
// seat's worth in its parts, the game's length, and what next ("Play again", the script)
function showEnd(view, again, scriptUrl) {
  const box = $("ending"), end = view.ending;
  box.hidden = !end;
  if (!end) return;
  box.replaceChildren();
  const h = document.createElement("h2"); h.id = "winner"; h.textContent = end.headline; box.appendChild(h);
  const why = document.createElement("p"); why.id = "why-won"; why.textContent = end.why; box.appendChild(why);
  const length = document.createElement("p"); length.className = "hint";
  length.textContent = `The game lasted ${end.turns.toLocaleString("en-US")} turn${end.turns === 1 ? "" : "s"}` + (end.steps ? ` (${end.steps.toLocaleString("en-US")} decisions)` : "") + ".";
  box.appendChild(length);
  const table = document.createElement("table"); table.id = "final"; table.className = "final";
  const head = table.createTHead().insertRow();
  for (const t of ["", "Player", "Worth", "= cash + what is owned (R28)"]) { const th = document.createElement("th"); th.textContent = t; head.appendChild(th); }
  const body = table.createTBody();
  for (const r of end.standings) {
    const tr = body.insertRow(); tr.dataset.player = r.name; if (r.you) tr.className = "you";
    const parts = [`cash ${dollars(r.cash)}`, ...r.spaces.map((s) => `${s.name} ${dollars(s.value)}` +
      (s.mortgaged ? " (mortgaged)" : s.houses > 1 ? ` (${s.houses} houses)` : ""))];
    if (r.other) parts.push(`other ${dollars(r.other)}`);
    const cells = [r.bankrupt ? "—" : `${r.rank}.`, r.name + (r.you && r.name.toLowerCase() !== "you" ? " (you)" : ""),
                   r.bankrupt ? "bankrupt" : dollars(r.worth), r.bankrupt ? "" : parts.join(" + ")];
    cells.forEach((t, k) => { const td = tr.insertCell(); td.textContent = t; if (k < 3) td.className = "nowrap"; });
  }
  box.appendChild(table);
  const bar = document.createElement("div"); bar.className = "bar";
  if (again) {
    const b = document.createElement("button"); b.id = "play-again"; b.className = "action"; b.textContent = "Play again";
    b.title = "the same seats, a new seed"; b.onclick = again; bar.append(b, " ");
  }
  bar.appendChild(link("Save the script", scriptUrl)); bar.lastChild.id = "save-end"; bar.lastChild.setAttribute("download", "");
  box.appendChild(bar);
}

// a new seed for "Play again": the browser's own randomness (any seed plays a game)
function newSeed() { return crypto.getRandomValues(new Uint32Array(1))[0] % 1000000000; }

// what the request would otherwise allow, and the rule that refuses it (R13: no buy)
function showRefused(refused) {
  const list = $("refused"); list.replaceChildren();
  for (const r of refused) {
    const more = r.also.length > 3 ? `; and ${r.also.length - 3} more` : "";
    list.appendChild(li((r.reason || r.words) + (r.also.length ? ` (so too: ${r.also.slice(0, 3).join("; ")}${more})` : "")));
  }
  $("why-count").textContent = refused.length;
  $("why").hidden = !refused.length;
  $("why").open = refused.length <= 3;
}

// a request names the version of the game the page shows: one made from an old drawing
// (a second click before the first was answered, another tab's move) is refused with 409
function send(what, body) {
  return call("POST", `/api/games/${game.id}/${what}`, { ...body, version: game.version, since: lines });
}

// the game moved on without this page: show it as it is now
async function redraw() {
  const r = await call("GET", `/api/games/${game.id}`);
  if (r.ok) { lines = 0; $("transcript").replaceChildren(); render(r.data); }
}

function controlsEnabled(on) {
  for (const e of document.querySelectorAll("#controls button, #controls input, #controls select, #send, #undo")) e.disabled = !on;
}

async function act(body) {
  if (document.body.dataset.state === "busy") return;  // one request at a time
  $("refusal").textContent = "";
  clickAt = performance.now();
  document.body.dataset.state = "busy";
  controlsEnabled(false);
  const r = await send("act", body);
  if (r.ok) { render(r.data); return; }
  clickAt = null;
  controlsEnabled(true);
  document.body.dataset.state = "ready";
  $("refusal").textContent = r.data.error;
  if (r.status === 409) await redraw();
}

// the same seats, variant and switches, a new seed: a new game at this browser
async function playAgain() {
  const r = await call("POST", "/api/games", { ...game.params, seed: newSeed(), watch: game.watch ? 1 : "" });
  if (r.ok) location.href = r.data.url; else $("refusal").textContent = r.data.error;
}

let stepAsked = Promise.resolve();  // the bot step asked last, until it is drawn
const LOST = "the server did not answer: paused (Resume or Step asks again)";
function botStep() {
  if (paused && !stepping) return stepAsked;
  stepAsked = (async () => {
    let r;
    try { r = await send("bot", {}); } catch (e) {
      // the server did not answer: the bots wait, paused, until Resume or Step asks again
      paused = true; clearTimeout(timer); $("pause").textContent = "Resume";
      $("refusal").textContent = LOST;
      if (game.request) document.body.dataset.state = "paused";
      return;
    }
    if ($("refusal").textContent === LOST) $("refusal").textContent = "";  // it answers again
    if (r.ok) render(r.data);
    else if (r.status === 409) await redraw();  // a step another request already took
    else $("refusal").textContent = r.data.error;
  })();
  return stepAsked;
}
let stepping = false;

async function playPage() {
  const watch = watching();
  $("mode").textContent = watch ? "watching bots" : "a game";
  if (!watch) { $("watchbar").style.display = "none"; $("pace").value = "300"; }
  else { $("typed").style.display = "none"; $("undo").style.display = "none"; }
  $("typed").addEventListener("submit", (ev) => { ev.preventDefault(); act({ line: $("line").value }); });
  $("undo").onclick = async () => {
    $("refusal").textContent = "";
    const r = await send("undo", {});
    if (r.ok) { render(r.data); return; }
    $("refusal").textContent = r.data.error;
    if (r.status === 409) await redraw();
  };
  $("pause").onclick = async () => {
    paused = !paused; $("pause").textContent = paused ? "Resume" : "Pause";
    if (!paused) { document.body.dataset.state = "bot"; if (game.bot) botStep(); return; }
    clearTimeout(timer);
    await stepAsked;  // a step asked before the pause is drawn first: paused means still
    if (paused && game.request) document.body.dataset.state = "paused";
  };
  $("step").onclick = async () => { stepping = true; await botStep(); stepping = false; };
  let r = await call("GET", `/api/games/${gameId()}`);
  if (r.status === 404) {  // the server forgot it: the game is its script, made again
    const kept = localStorage.getItem("easymoney:" + gameId());
    if (kept) {
      const again = await call("POST", "/api/games/rebuild", JSON.parse(kept));
      if (again.ok) {
        history.replaceState(null, "", `/${watch ? "watch" : "play"}/${again.data.id}`);
        r = await call("GET", `/api/games/${again.data.id}`);
      }
    }
  }
  if (r.ok) render(r.data);
  else { $("refusal").textContent = r.data.error; document.body.dataset.state = "gone"; }
}

// --- the lobby: tables being played, finished games, a new table ------------------------------
function seatChip(seat) {
  const e = document.createElement("span");
  e.className = "seat " + (seat.bot ? "bot" : seat.taken ? "taken" : "free");
  e.textContent = seat.bot ? `${seat.name} (bot: ${seat.bot})` : `${seat.name} (${seat.taken ? "taken" : "free"})`;
  return e;
}

function cell(...children) {
  const td = document.createElement("td");
  for (const c of children) td.append(c);
  return td;
}

function link(text, href) { const a = document.createElement("a"); a.textContent = text; a.href = href; return a; }

// a free seat taken: the server gives its credential once, in the seat's own link
async function takeSeat(tableId, name, errorId) {
  const r = await call("POST", `/api/tables/${tableId}/join`, { seat: name });
  if (r.ok) { location.href = r.data.link; if (page === "table") location.reload(); }
  else $(errorId).textContent = r.data.error;
}

// the lobby's two lists, as the server has them now
async function listTables() {
  const r = await call("GET", "/api/tables");
  if (!r.ok) return;
  const open = $("open-tables").tBodies[0], done = $("finished-tables").tBodies[0];
  open.replaceChildren(); done.replaceChildren();
  for (const t of r.data.open || []) {
    const seats = cell(...t.seats.map(seatChip));
    const acts = cell(link("Watch", t.url));
    for (const s of t.seats.filter((s) => !s.bot && !s.taken)) {
      const b = document.createElement("button"); b.textContent = `Sit as ${s.name}`;
      b.className = "join"; b.onclick = () => takeSeat(t.id, s.name, "table-error");
      acts.append(" ", b);
    }
    const tr = document.createElement("tr"); tr.dataset.table = t.id;
    tr.append(cell(t.id), cell(t.variant), seats, acts); open.appendChild(tr);
  }
  for (const t of r.data.finished || []) {
    const tr = document.createElement("tr"); tr.dataset.table = t.id;
    tr.append(cell(t.id), cell(t.variant), cell(t.over),
              cell(link("View", t.url), " · ", link("Save the script", `/api/tables/${t.id}/script`)));
    done.appendChild(tr);
  }
  $("no-tables").hidden = (r.data.open || []).length > 0;
}

async function lobbyPage() {
  const { data } = await call("GET", "/api/variants");
  for (const name of data.variants || []) {
    const o = document.createElement("option"); o.value = name; o.textContent = name;
    if (name === "standard") o.selected = true;
    document.querySelector("select.variants").appendChild(o);
  }
  $("strategies").textContent = strategiesText(data);
  $("table-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData($("table-form"));
    const body = Object.fromEntries(f.entries());
    body.pace = Number(body.pace);
    const r = await call("POST", "/api/tables", body);
    if (r.ok) location.href = r.data.link; else $("table-error").textContent = r.data.error;
  });
  await listTables();
  setInterval(listTables, 5000);  // tables open, seats taken and games end meanwhile
  document.body.dataset.state = "ready";
}

// --- a table: the state arrives over a WebSocket at each change ------------------------------
// The seat's credential and the creator's come after the `#` of the link the server gives
// them in (a browser never sends that part to a server). The page takes them out of the
// address bar as it loads and keeps them in this browser's localStorage, under the table
// (`easymoney:table:ID`): the address bar, copied to invite a friend, holds the table's
// link alone. The page sends a credential in a request's body and a socket's first message only.
function tableCredentials(tableId) {
  const key = "easymoney:table:" + tableId;
  let kept = {};
  try { kept = JSON.parse(localStorage.getItem(key) || "{}") || {}; } catch (e) { kept = {}; }
  const given = new URLSearchParams(location.hash.slice(1));
  if (given.get("seat")) kept.seat = given.get("seat");
  if (given.get("creator")) kept.creator = given.get("creator");
  if (location.hash) {
    localStorage.setItem(key, JSON.stringify(kept));
    history.replaceState(null, "", location.pathname + location.search);  // no secret shown
  }
  return { credential: kept.seat || "", creator: kept.creator || "", key };
}

function forgetSeat(tableId) {
  const key = "easymoney:table:" + tableId;
  try {
    const kept = JSON.parse(localStorage.getItem(key) || "{}") || {};
    delete kept.seat; localStorage.setItem(key, JSON.stringify(kept));
  } catch (e) { localStorage.removeItem(key); }
}

async function copyInvitation(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch (e) { /* below */ }
  const box = $("invite-link"); box.select();
  try { return document.execCommand("copy"); } catch (e) { return false; }
}

async function tablePage() {
  const tableId = location.pathname.split("/")[2];
  const { credential, creator } = tableCredentials(tableId);
  let view = null, shown = 0, socket = null, wait = 250, clicked = null;
  $("invite-link").value = `${location.origin}/table/${tableId}`;
  $("copy-invite").onclick = async () => {
    const done = await copyInvitation($("invite-link").value);
    $("copied").textContent = done ? "Copied: the table's link, no secret in it." : "Select the link and copy it.";
  };
  $("save").href = `/api/tables/${tableId}/script`;
  let choices = [["greedy", "greedy"]];  // until the server says which bots it seats
  const chosen = {};  // seat -> the bot picked for it, kept while the seats are drawn again
  call("GET", "/api/variants").then((r) => {  // the seats may be drawn already: again, with them
    if (r.ok) { choices = botChoices(r.data); if (view) drawSeats(view); }
  });

  // "Play again": a new table with the same seats and a new seed, this browser at its seat;
  // every browser at this table is shown its link
  async function again() {
    const players = view.seats.map((s) => (s.bot ? `${s.name}:${s.bot}` : s.name)).join(" ");
    const p = view.params;
    const r = await call("POST", "/api/tables", { variant: p.variant, players, seed: newSeed(),
      enable: p.enable, disable: p.disable, options: p.options, sit: view.me || "",
      after: tableId, credential: credential || creator });
    if (r.ok) location.href = r.data.link; else $("refusal").textContent = r.data.error;
  }

  function connect() {
    socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${tableId}`);
    socket.onopen = () => {
      wait = 250;
      // what this browser has: the server sends the table only if it is newer
      socket.send(JSON.stringify({ since: view ? view.stamp : -1, lines: shown, credential }));
      document.body.dataset.conn = "open"; $("conn").textContent = "live";
    };
    socket.onmessage = (m) => {
      const data = JSON.parse(m.data);
      if (data.unknown_credential) {  // a wrong link, or a seat given to a bot: kept no more
        $("refusal").textContent = data.unknown_credential;
        forgetSeat(tableId);
        return;
      }
      draw(data);
    };
    socket.onclose = (ev) => {
      document.body.dataset.conn = "closed";
      $("conn").textContent = ev.code >= 4000 ? ev.reason : "reconnecting…";
      if (ev.code === 4404) { document.body.dataset.state = "gone"; $("refusal").textContent = ev.reason; return; }
      setTimeout(connect, wait); wait = Math.min(wait * 2, 2000);
    };
  }

  function draw(v) {
    const animate = view !== null && v.version === view.version + 1;
    view = v;
    drawBoard(v, animate);
    if (clicked !== null && v.version > clicked.version) {
      window.__timings.push(performance.now() - clicked.at); clicked = null;
    }
    $("who").textContent = v.me ? `you are ${v.me}` : "watching";
    $("request").textContent = v.ending ? "The game is over." : v.prompt || (v.request ? v.request : "The game is over: " + v.over);
    drawControls(v.controls, act, v);
    // "Play again" for a person at the table (a spectator has no seat to take again)
    showEnd(v, v.next || !(v.me || creator) ? null : again, `/api/tables/${tableId}/script`);
    if (v.ending && v.next) {  // someone at the table opened the next game
      const p = document.createElement("p"); p.id = "next-table";
      p.append(`${v.next.by} opened a new table with the same seats: `, link("take your seat there", v.next.url));
      $("ending").appendChild(p);
    }
    showRefused(v.refused);
    $("typed").hidden = !v.me || !v.request;
    for (const t of v.transcript) $("transcript").appendChild(line(t));
    shown = v.lines;
    $("transcript").scrollTop = $("transcript").scrollHeight;
    const st = $("standings"); st.replaceChildren();
    for (const [name, worth] of v.standings) st.appendChild(li(`${name}: worth $${worth.toLocaleString("en-US")}`));
    drawShown(v.players);
    drawSeats(v);
    if (v.note) $("refusal").textContent = v.note;
    document.body.dataset.version = v.version;
    document.body.dataset.steps = v.steps;
    document.body.dataset.asked = v.asked || "";
    document.body.dataset.state = !v.request ? "over" : v.controls.length ? "ready" : "waiting";
  }

  function drawSeats(v) {
    const list = $("seats"); list.replaceChildren();
    for (const s of v.seats) {
      const item = document.createElement("li"); item.dataset.seat = s.name;
      item.append(seatChip(s));
      if (s.name === v.me) item.append(" ← you");
      if (!s.bot && !s.taken && !v.me && v.request) {
        const b = document.createElement("button"); b.textContent = "Take this seat"; b.className = "join";
        b.onclick = () => takeSeat(tableId, s.name, "refusal");
        item.append(b);
      }
      if (!s.bot && creator && v.request) {  // the person left: a bot plays on for them
        const pick = document.createElement("select"); pick.className = "bot-choice";
        pick.setAttribute("aria-label", `the bot for ${s.name}`);
        for (const [value, words] of choices) {
          const o = document.createElement("option"); o.value = value; o.textContent = words;
          o.selected = value === (chosen[s.name] || "greedy");
          pick.appendChild(o);
        }
        pick.onchange = () => { chosen[s.name] = pick.value; };
        const b = document.createElement("button"); b.textContent = "Give to a bot"; b.className = "to-bot";
        b.onclick = async () => {
          const r = await call("POST", `/api/tables/${tableId}/bot`, { creator, seat: s.name, strategy: pick.value });
          if (!r.ok) $("refusal").textContent = r.data.error;
        };
        item.append(" ", pick, b);
      }
      list.appendChild(item);
    }
    $("invite").hidden = !v.seats.some((s) => !s.bot && !s.taken) || !v.request;
    $("mine").hidden = !v.me;
  }

  async function act(body) {
    if (document.body.dataset.state === "busy") return;  // one request at a time
    $("refusal").textContent = "";
    clicked = { at: performance.now(), version: view.version };
    document.body.dataset.state = "busy";
    controlsEnabled(false);
    let r;
    try {
      r = await call("POST", `/api/tables/${tableId}/act`, { ...body, credential, version: view.version });
    } catch (e) {  // the server is away (a restart): the socket brings the table back
      r = { ok: false, data: { error: "the server did not answer: try again in a moment" } };
    }
    if (r.ok) return;  // the new state comes over the socket
    clicked = null;
    controlsEnabled(true);
    document.body.dataset.state = "ready";
    $("refusal").textContent = r.data.error;
  }

  $("typed").addEventListener("submit", (ev) => { ev.preventDefault(); act({ line: $("line").value }); });
  connect();
}

// --- a script stepped through ----------------------------------------------------------------
let replay = null, at = 0;
const replayId = () => location.pathname.split("/")[2];

async function show(k) {
  const n = replay.frames.length;
  at = Math.max(0, Math.min(n - 1, k));
  document.body.dataset.state = "busy";
  const r = await call("GET", `/api/replays/${replay.id}/frame/${at}`);
  if (!r.ok) { $("error").textContent = r.data.error; return; }
  $("board").innerHTML = r.data.svg;
  const items = $("transcript").children;
  for (let i = 0; i < items.length; i++) {
    items[i].className = i < r.data.lines - 1 ? "" : i === r.data.lines - 1 ? "current" : "future";
  }
  const cur = items[r.data.lines - 1]; if (cur) cur.scrollIntoView({ block: "nearest" });
  $("position").textContent = `event ${at} of ${n - 1} · turn ${r.data.turn}`;
  $("turn").value = r.data.turn;  // the box says the turn of the board shown
  document.body.dataset.frame = at; document.body.dataset.turn = r.data.turn;
  document.body.dataset.state = "ready";
}
// the last frame of turn t: the board after turn t, as `easymoney board --turn t` shows it
function endOfTurn(t) {
  let k = 0;
  replay.frames.forEach(([turn], i) => { if (turn <= t) k = i; });
  return k;
}

async function stepPage() {
  const r = await call("GET", `/api/replays/${replayId()}`);
  if (!r.ok) { $("error").textContent = r.data.error; document.body.dataset.state = "gone"; return; }
  replay = r.data;
  $("name").textContent = replay.name;
  $("error").textContent = replay.error || "";
  for (const t of replay.transcript) $("transcript").appendChild(li(t, "future"));
  const turnOf = () => replay.frames[at][0];
  $("first").onclick = () => show(0);
  $("last").onclick = () => show(replay.frames.length - 1);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("next-turn").onclick = () => show(endOfTurn(turnOf() + (at === endOfTurn(turnOf()) ? 1 : 0)));
  $("prev-turn").onclick = () => show(turnOf() === 0 ? 0 : endOfTurn(turnOf() - 1));
  $("jump").addEventListener("submit", (ev) => { ev.preventDefault(); show(endOfTurn(Number($("turn").value))); });
  if (replay.frames.length) show(replay.error ? replay.frames.length - 1 : 0);
  else document.body.dataset.state = "ready";  // the script does not parse: its error alone
}

if (page === "index") index();
else if (page === "play") playPage();
else if (page === "step") stepPage();
else if (page === "lobby") lobbyPage();
else if (page === "table") tablePage();
