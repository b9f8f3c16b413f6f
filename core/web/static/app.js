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
  return { ok: res.ok, status: res.status, data };
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
  $("strategies").textContent = (data.strategies || []).join(", ");
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
  $("request").textContent = view.prompt || (view.request ? view.request : "The game is over: " + view.over);
  drawControls(view.controls, act);
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
  if (window.EasyBoard) window.EasyBoard.show($("board"), view, { animate });
  else $("board").innerHTML = view.svg;
}

// one button per legal action, and for an amount a number box bounded by its range, so
// nothing the controls send can be refused; `act` takes {index[, amount]}
function drawControls(list, act) {
  const controls = $("controls"); controls.replaceChildren();
  for (const c of list) {
    const words = c.label || c.text;
    if (c.kind === "action") {
      const b = document.createElement("button"); b.textContent = words; b.title = c.text; b.className = "action";
      b.dataset.index = c.index; b.dataset.text = c.text; b.onclick = () => act({ index: c.index });
      controls.appendChild(b);
    } else {
      const box = document.createElement("span"); box.className = "range";
      const label = document.createElement("span"); label.textContent = words;
      // a slider bounded by the range, and the number it stands at, either one moving the other
      const slider = document.createElement("input"); slider.type = "range";
      const input = document.createElement("input"); input.type = "number";
      for (const e of [slider, input]) { e.min = c.least; e.max = c.most; e.step = c.step; e.value = c.least; }
      input.dataset.index = c.index; slider.setAttribute("aria-label", words);
      slider.oninput = () => { input.value = slider.value; };
      input.oninput = () => { slider.value = input.value; };
      const b = document.createElement("button"); b.textContent = "OK"; b.className = "amount";
      b.dataset.text = c.text;
      b.onclick = () => {
        const n = Number(input.value);
        if (!Number.isInteger(n) || n < c.least || n > c.most || (n - c.least) % c.step) {
          $("refusal").textContent = `${words}: from ${c.least} to ${c.most} in steps of ${c.step}`;
          return;
        }
        act({ index: c.index, amount: n });
      };
      box.append(label, slider, input, b); controls.appendChild(box);
    }
  }
}

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
  for (const e of document.querySelectorAll("#controls button, #controls input, #send, #undo")) e.disabled = !on;
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

let stepAsked = Promise.resolve();  // the bot step asked last, until it is drawn
function botStep() {
  if (paused && !stepping) return stepAsked;
  stepAsked = (async () => {
    const r = await send("bot", {});
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
  $("strategies").textContent = (data.strategies || []).join(", ");
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
// The seat's credential and the creator's are after the `#` of the page's link: a browser
// never sends that part to a server, so it is in no request line and no log; the page sends
// it in a request's body and a socket's first message only.
async function tablePage() {
  const tableId = location.pathname.split("/")[2];
  const secret = new URLSearchParams(location.hash.slice(1));
  const credential = secret.get("seat") || "", creator = secret.get("creator") || "";
  let view = null, shown = 0, socket = null, wait = 250, clicked = null;
  $("invite-link").value = `${location.origin}/table/${tableId}`;
  $("save").href = `/api/tables/${tableId}/script`;

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
      if (data.unknown_credential) { $("refusal").textContent = data.unknown_credential; return; }
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
    $("request").textContent = v.prompt || (v.request ? v.request : "The game is over: " + v.over);
    drawControls(v.controls, act);
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
        const b = document.createElement("button"); b.textContent = "Give to a bot"; b.className = "to-bot";
        b.onclick = async () => {
          const r = await call("POST", `/api/tables/${tableId}/bot`, { creator, seat: s.name, strategy: "greedy" });
          if (!r.ok) $("refusal").textContent = r.data.error;
        };
        item.append(b);
      }
      list.appendChild(item);
    }
    $("invite").hidden = !v.seats.some((s) => !s.bot && !s.taken) || !v.request;
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
