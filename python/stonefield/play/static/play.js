// stonefield play: the page's script. It draws what the server sends and sends what the user
// does; the rules live on the server. No dependencies, no build step.
"use strict";

const COLOURS = ["#202020", "#f7f7f2", "#cf3a30", "#2f6bd0"];
const NAMES = ["Black", "White", "Red", "Blue"];
const SVGNS = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);
let catalog = null; // GET /api/games
let view = null; // the session as the server last described it
let busy = false; // a request that changes the game is in flight
let paused = false; // agents wait (a record was just loaded)
let thinkTimer = null;
let hinted = null; // the last hint: {version, ...answer}
let reviewed = null; // the last review: {version, ...answer}
let perfected = null; // the last perfect-play answer: {version, ...answer}
let hoverCache = new Map(); // "version:action" -> the server's preview of that action
let clocks = null; // {ms: [per player], last: timestamp, flagged} when the game has clocks
let clockTimer = null;
let resignArmed = 0; // when the resign button was first clicked (it asks for a second click)
// Milliseconds from a click to the new board on screen, one entry per human move.
window.sfTimings = [];

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error((data && data.error) || response.statusText);
  return data;
}

function setState(name) {
  document.body.dataset.state = name;
}

function message(text, isError = true) {
  const box = $("message");
  box.textContent = text || "";
  box.classList.toggle("error", Boolean(text) && isError);
}

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

function sessionPath(suffix = "") {
  return `/api/sessions/${view.id}${suffix}`;
}

// ---- the form ---------------------------------------------------------------------------

function gameSpec(name) {
  return catalog.games.find((g) => g.name === name);
}

function buildOptions(name, given = {}) {
  const box = $("options");
  box.replaceChildren();
  for (const opt of gameSpec(name).options) {
    const label = el("label", { class: "row", title: opt.help || "" });
    label.append(opt.name.replaceAll("_", " ") + " ");
    let input;
    const value = opt.name in given ? given[opt.name] : opt.default;
    if (opt.kind === "bool") {
      input = el("input", { type: "checkbox" });
      input.checked = value === true || value === "true";
    } else if (opt.values) {
      input = el("select");
      if (opt.default === null) input.append(el("option", { value: "" }, "(default)"));
      const helps = opt.value_help || {};
      for (const v of opt.values) input.append(el("option", { value: String(v), title: helps[v] || "" }, String(v)));
      input.value = value === null || value === undefined ? "" : String(value);
    } else if (opt.kind === "int") {
      input = el("input", { type: "number", step: "1" });
      if (opt.min !== undefined) input.min = opt.min;
      if (opt.max !== undefined && opt.max < 1e9) input.max = opt.max;
      if (opt.default === null) input.placeholder = "default";
      input.value = value === null || value === undefined ? "" : String(value);
    } else {
      input = el("input", { type: "text" });
      input.value = value === null || value === undefined ? "" : String(value);
    }
    input.name = opt.name;
    input.dataset.kind = opt.kind;
    input.addEventListener("change", () => {
      if (opt.name === "players") buildSeats(readSeats());
      showPreview();
      if (!view) showRules($("game").value, readOptions());
    });
    label.append(input);
    box.append(label);
  }
  buildSeats();
  showPreview();
  if (!view) showRules(name, readOptions());
}

// Before the first game, the page shows the empty board the form describes.
let previewError = false; // the message shown is the preview's own error
async function showPreview() {
  if (view) return;
  try {
    const p = await api("POST", "/api/preview", { game: $("game").value, options: readOptions() });
    $("preview").innerHTML = p.svg;
    $("preview-text").textContent = `${p.board_shape}, ${p.num_sites} sites, ${p.num_players} players`;
    if (previewError) message("");
    previewError = false;
  } catch (e) {
    $("preview").replaceChildren();
    $("preview-text").textContent = "";
    message(e.message);
    previewError = true;
  }
}

function playerCount() {
  const input = $("options").querySelector('[name="players"]');
  return input ? Number(input.value) : 2;
}

// A seat as the server describes it, written as an agent string (for addresses).
function seatText(seat) {
  if (seat.kind !== "mcts") return seat.agent || seat.kind;
  return seat.preset ? `mcts:preset=${seat.preset},iterations=${seat.iterations}` : `mcts:${seat.iterations}`;
}

// An agent string of an address ("mcts:500", "mcts:preset=strong,iterations=500") as the form's
// seat: its kind ("strong" for the strong preset) and budget.
function parseSeatText(text) {
  const [kind, rest = ""] = text.split(":");
  // A PUCT search with only a budget is the form's "puct" seat; any other agent string (a
  // network checkpoint, a kind the form has no fields for) is kept whole as an agent string.
  const items = rest.split(",").filter(Boolean);
  if (kind === "puct" && items.every((i) => i.startsWith("simulations=") || /^\d+$/.test(i))) {
    const budget = items.length ? Number(items[0].split("=").pop()) : 0;
    return budget ? { kind, iterations: budget } : { kind };
  }
  // The expert at its own settings is the form's "expert" level.
  if (kind === "expert" && !items.length) return { kind };
  if (!["human", "random", "mcts", "perfect"].includes(kind)) return { kind: "agent", text };
  const seat = { kind };
  for (const item of rest.split(",").filter(Boolean)) {
    const [key, value] = item.includes("=") ? item.split("=") : ["iterations", item];
    if (key === "iterations") seat.iterations = Number(value);
    if (key === "preset" && value === "strong") seat.kind = "strong";
  }
  return seat;
}

// The form's seat kinds: the server's, and the strong search where the server has it.
function seatKinds() {
  // Weakest to strongest: the expert (the trained network) after the strong search, then the
  // solver (small boards only).
  const last = ["expert", "perfect"];
  const others = catalog.agents.filter((k) => !last.includes(k));
  const top = last.filter((k) => catalog.agents.includes(k));
  return [...others, ...(catalog.strong ? ["strong"] : []), ...top, "agent"];
}

function buildSeats(given = null) {
  const box = $("seats");
  box.replaceChildren();
  const n = playerCount();
  const fallback = catalog.strong ? "strong" : catalog.agents.includes("mcts") ? "mcts" : "random";
  const kinds = seatKinds();
  const shown = { mcts: "MCTS", strong: "strong MCTS", puct: "PUCT", expert: "Expert (trained network)", perfect: "perfect (solver)", agent: "agent string" };
  for (let p = 0; p < n; p++) {
    const row = el("div", { class: "seat row" });
    const dot = el("span", { class: `dot p${p}` });
    const kind = el("select", { name: `seat${p}`, "aria-label": `seat ${p}` });
    for (const k of kinds) kind.append(el("option", { value: k }, shown[k] || k));
    const budget = el("input", {
      type: "number",
      min: "1",
      max: String(catalog.limits.max_iterations),
      step: "100",
      name: `budget${p}`,
      title: "MCTS iterations per move",
    });
    // Any agent string `stonefield match` reads (e.g. puct:simulations=400,checkpoint=PATH).
    const text = el("input", {
      type: "text",
      name: `agent${p}`,
      placeholder: "mcts:iterations=2000,c=0.8",
      title: "an agent string, as stonefield match reads it",
    });
    const mine = given && given[p] ? given[p] : { kind: p === 0 ? "human" : fallback };
    kind.value = kinds.includes(mine.kind) ? mine.kind : "random";
    budget.value = String(mine.iterations || catalog.limits.default_iterations);
    text.value = mine.text || "";
    const sync = () => {
      budget.hidden = !["mcts", "strong", "puct"].includes(kind.value);
      budget.title = kind.value === "puct" ? "PUCT simulations per move" : "MCTS iterations per move";
      text.hidden = kind.value !== "agent";
    };
    kind.addEventListener("change", sync);
    sync();
    row.append(dot, ` ${NAMES[p]} `, kind, budget, text);
    box.append(row);
  }
}

function readOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("[name]")) {
    if (input.dataset.kind === "bool") options[input.name] = input.checked;
    else if (input.value === "") continue;
    else if (input.dataset.kind === "int" || /^-?\d+$/.test(input.value)) options[input.name] = Number(input.value);
    else options[input.name] = input.value;
  }
  return options;
}

function readSeats() {
  const seats = [];
  for (const row of $("seats").querySelectorAll(".seat")) {
    const kind = row.querySelector("select").value;
    const iterations = Number(row.querySelector('input[type="number"]').value);
    if (kind === "strong") seats.push({ kind: "mcts", preset: "strong", iterations });
    else if (kind === "mcts") seats.push({ kind, iterations });
    else if (kind === "puct") seats.push({ kind, simulations: iterations });
    else if (kind === "agent") seats.push(row.querySelector('input[type="text"]').value.trim());
    else seats.push({ kind });
  }
  return seats;
}

async function newGame(event) {
  if (event) event.preventDefault();
  if (busy) return;
  busy = true;
  paused = false;
  message("");
  try {
    const v = await api("POST", "/api/sessions", {
      game: $("game").value,
      options: readOptions(),
      seats: readSeats(),
    });
    history.replaceState(null, "", urlFor(v));
    busy = false;
    const old = view;
    startClocks(v);
    show(v);
    forget(old);
  } catch (e) {
    busy = false;
    message(e.message);
    setState(view ? "idle" : "setup");
  }
}

// A share link: the game with its moves, at the last move, the agents waiting until the user
// plays on or presses "Continue from here".
async function openShared(text) {
  busy = true;
  try {
    const moves = text.split(",").map((m) => m.trim()).filter(Boolean);
    const v = await api("POST", "/api/sessions", {
      game: $("game").value,
      options: readOptions(),
      seats: readSeats(),
      moves,
    });
    busy = false;
    paused = true;
    show(v);
    message(`Opened a shared game at move ${v.step}.`, false);
  } catch (e) {
    busy = false;
    setState("setup");
    $("setup").open = true;
    message(`This link's game cannot be opened: ${e.message}`);
  }
}

function urlFor(v) {
  const q = new URLSearchParams({ game: v.game });
  const defaults = gameSpec(v.game).options;
  for (const opt of defaults) {
    const value = v.options[opt.name];
    if (value !== undefined && value !== opt.default && opt.default !== null) q.set(`o.${opt.name}`, String(value));
  }
  q.set("seats", v.players.map(seatText).join(","));
  if (clocks) q.set("clock", String(clocks.minutes));
  return "/?" + q.toString();
}

// The share link: the game, its options, seats and every move in the core's notation; it
// opens at the last move.
function shareUrl(v) {
  const url = new URL(urlFor(v), location.href);
  url.searchParams.delete("clock");
  if (v.moves.length) url.searchParams.set("moves", v.moves.map((m) => m.name).join(","));
  return url.toString();
}

// The game being replaced is dropped on the server (if an agent still thinks there, the
// server keeps it until it is the idlest and room is needed).
function forget(old) {
  if (old && (!view || view.id !== old.id)) fetch(`/api/sessions/${old.id}`, { method: "DELETE" }).catch(() => {});
}

// ---- drawing ----------------------------------------------------------------------------

function show(v) {
  const previous = view;
  view = v;
  $("board").innerHTML = v.svg;
  const svg = $("board").querySelector("svg");
  addHitTargets(svg, new Set(v.human_to_move ? v.legal_sites : []));
  $("board").classList.toggle("no-coordinates", !$("coordinates").checked);
  if ($("edges").checked) addEdgeNumbers(svg);
  if (!previous || previous.game !== v.game || JSON.stringify(previous.options) !== JSON.stringify(v.options)) {
    showRules(v.game, v.options);
  }
  if (previous && previous.id !== v.id) hoverCache = new Map();
  $("hover-text").textContent = "";
  if (hinted && hinted.version === v.version) drawHint(hinted);
  else {
    hinted = null;
    $("hint-text").textContent = "";
    delete $("hint-text").dataset.action;
  }
  if (!perfected || perfected.version !== v.version) {
    perfected = null;
    $("perfect-text").textContent = "";
  }
  // The title names the options that differ from the defaults; the tooltip lists them all.
  const spec = gameSpec(v.game).options;
  const changed = spec.filter((o) => o.default !== null && v.options[o.name] !== o.default);
  $("title").textContent = [v.game, ...changed.map((o) => `${o.name.replaceAll("_", " ")} ${v.options[o.name]}`)].join(" · ");
  $("title").title = Object.entries(v.options).map(([k, x]) => `${k} = ${x}`).join("\n");

  // Whose turn, or the result.
  const turn = $("turn");
  turn.replaceChildren();
  if (v.over) {
    turn.append(resultText(v));
  } else {
    const p = v.current_player;
    const seat = v.players[p];
    turn.append(el("span", { class: `dot p${p}` }), ` ${NAMES[p]} to move`);
    const waits = paused || v.step < v.line.length || (clocks && clocks.flagged);
    turn.append(seat.kind === "human" ? " — your move" : waits ? ` — ${seat.label} waits (Continue from here)` : ` — ${seat.label} is thinking…`);
    if (v.phase) turn.append(` (${v.phase} phase)`);
  }

  // Buttons for the actions that are not sites.
  const buttons = $("buttons");
  buttons.replaceChildren();
  for (const b of v.human_to_move ? v.buttons : []) {
    const button = el("button", { type: "button", class: "action", "data-action": String(b.action) }, b.label);
    button.addEventListener("click", () => play(b.action));
    buttons.append(button);
  }
  $("offer-colour").hidden = !(v.offer && v.human_to_move);
  $("undo").disabled = v.step === 0 && v.resigned === null;
  $("pause").hidden = true;
  $("hint").disabled = !v.human_to_move;
  $("perfect").disabled = v.over;
  $("perfect").title = perfectRefusal(v) || "the solver's win / draw / loss for the player to move after every legal move (p)";
  $("resign").disabled = v.over || v.step < v.line.length || !v.players.some((s) => s.kind === "human");
  $("resign").textContent = "Resign";
  resignArmed = 0;
  $("move-input").disabled = !v.human_to_move;
  $("review").disabled = v.line.length === 0;
  if (reviewed && (reviewed.id !== v.id || reviewed.length !== v.line.length)) {
    reviewed = null;
    $("review-panel").hidden = true;
  }
  if (reviewed) drawReview(reviewed);
  $("share-link").hidden = true;
  drawClocks();

  // Players: seat, score, rank.
  const body = $("players").querySelector("tbody");
  body.replaceChildren();
  v.players.forEach((seat, p) => {
    const winner = v.over && (v.resigned !== null ? p !== v.resigned : v.ranks && v.ranks[p] === Math.min(...v.ranks));
    const row = el("tr", { class: p === v.current_player ? "to-move" : winner ? "winner" : "" });
    const dotCell = el("td");
    dotCell.append(el("span", { class: `dot p${p}` }));
    row.append(dotCell, el("td", {}, `${NAMES[p]} · ${seat.label}`));
    row.append(el("td", { class: "num" }, v.scores ? fmt(v.scores[p]) : "–"));
    row.append(el("td", { class: "num" }, v.terminal && v.ranks ? fmt(v.ranks[p]) : ""));
    body.append(row);
  });

  // The move list; the current step is marked and every entry jumps there.
  const moves = $("moves");
  moves.replaceChildren();
  // One row per round when turns alternate; Faraday's runs of placements make rows of two.
  moves.style.setProperty("--columns", String(v.game === "windflowers" ? v.num_players : 2));
  for (const m of v.moves) {
    const item = el("li", { "data-action": String(m.action), "data-player": String(m.player), "data-step": String(m.step) });
    item.dataset.name = m.name;
    item.append(el("span", { class: "n" }, `${m.step}.`), " ", el("span", { class: `dot small p${m.player}` }), " " + m.label);
    if (m.step === v.step) item.classList.add("current");
    if (reviewed && reviewed.id === v.id && reviewed.length === v.line.length) {
      if (reviewed.worst.includes(m.step)) item.classList.add("worst");
      if (reviewed.thrown.includes(m.step)) item.classList.add("thrown");
      if (reviewed.changed.includes(m.step)) item.classList.add("changed");
    }
    if (m.step > v.step) item.classList.add("ahead");
    item.addEventListener("click", () => goto(m.step));
    moves.append(item);
  }
  const current = moves.querySelector(".current");
  if (current) {
    const top = current.offsetTop - moves.offsetTop;
    if (top < moves.scrollTop || top + current.offsetHeight > moves.scrollTop + moves.clientHeight) {
      moves.scrollTop = top - moves.clientHeight / 2;
    }
  }
  if (perfected && perfected.version === v.version) drawPerfect(perfected);

  // Stepping through the line.
  const slider = $("slider");
  slider.max = String(v.line.length);
  slider.value = String(v.step);
  $("step-text").textContent = `step ${v.step} of ${v.line.length}`;
  const reviewing = v.step < v.line.length;
  $("continue").hidden = !(reviewing || (paused && v.agent_to_move));
  $("first").disabled = $("back").disabled = v.step === 0;
  $("forward").disabled = $("last").disabled = !reviewing;
  $("download").href = sessionPath("/record?download=1");
  $("download").setAttribute("download", `${v.game}-${v.line.length}.json`);

  document.body.dataset.session = v.id;
  document.body.dataset.step = String(v.step);
  document.body.dataset.version = String(v.version);
  setState("idle");
  maybeAgent();
}

function fmt(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

function resultText(v) {
  if (v.resigned !== null) {
    const others = v.players.map((_, p) => NAMES[p]).filter((_, p) => p !== v.resigned);
    const why = v.resign_reason === "time" ? "ran out of time" : "resigned";
    return `Game over: ${NAMES[v.resigned]} ${why}; ${others.join(" and ")} ${others.length === 1 ? "wins" : "win"}.`;
  }
  if (v.truncated) return "Game over: the move cap was reached, a draw.";
  if (!v.ranks) return "Game over.";
  const best = Math.min(...v.ranks);
  const winners = v.ranks.map((r, p) => (r === best ? NAMES[p] : null)).filter(Boolean);
  if (winners.length === v.ranks.length) return "Game over: a draw.";
  if (winners.length === 1) return `Game over: ${winners[0]} wins.`;
  return `Game over: ${winners.join(" and ")} share the win.`;
}

// Transparent shapes over every site, on top of everything, so a click anywhere on a site
// (its cell, its stone, its marks) lands on one element that says which site it is.
function addHitTargets(svg, legal) {
  const layer = document.createElementNS(SVGNS, "g");
  layer.setAttribute("class", "hits");
  const edge = svg.querySelector("line.edge");
  let radius = 10;
  if (edge) {
    const dx = edge.x2.baseVal.value - edge.x1.baseVal.value;
    const dy = edge.y2.baseVal.value - edge.y1.baseVal.value;
    radius = 0.45 * Math.hypot(dx, dy);
  }
  for (const site of svg.querySelectorAll(".site[data-site]")) {
    let hit;
    if (site.tagName === "polygon") {
      hit = document.createElementNS(SVGNS, "polygon");
      hit.setAttribute("points", site.getAttribute("points"));
    } else {
      hit = document.createElementNS(SVGNS, "circle");
      hit.setAttribute("cx", site.getAttribute("cx"));
      hit.setAttribute("cy", site.getAttribute("cy"));
      hit.setAttribute("r", String(radius));
    }
    const s = Number(site.dataset.site);
    hit.setAttribute("class", legal.has(s) ? "hit legal" : "hit");
    hit.setAttribute("data-site", String(s));
    hit.setAttribute("fill", "transparent");
    layer.append(hit);
  }
  svg.append(layer);
}

// The board's edges, like a chessboard's coordinates: sites are numbered row by row from the
// bottom left, so each row's first and last site numbers are written beside it.
function addEdgeNumbers(svg) {
  const rows = new Map();
  for (const hit of svg.querySelectorAll("g.hits .hit")) {
    const box = hit.getBBox();
    const y = Math.round(box.y + box.height / 2);
    const site = Number(hit.dataset.site);
    const row = rows.get(y) || [];
    row.push({ site, x: box.x, right: box.x + box.width, y: box.y + box.height / 2 });
    rows.set(y, row);
  }
  const layer = document.createElementNS(SVGNS, "g");
  layer.setAttribute("class", "edge-numbers");
  for (const row of rows.values()) {
    row.sort((a, b) => a.site - b.site);
    const first = row[0];
    const last = row[row.length - 1];
    for (const [item, x, anchor] of [[first, first.x - 2, "end"], [last, last.right + 2, "start"]]) {
      const label = document.createElementNS(SVGNS, "text");
      label.setAttribute("x", String(x));
      label.setAttribute("y", String(item.y));
      label.setAttribute("text-anchor", anchor);
      label.setAttribute("class", "edge-number");
      label.setAttribute("data-site", String(item.site));
      label.textContent = String(item.site);
      layer.append(label);
    }
  }
  svg.insertBefore(layer, svg.querySelector("g.hits"));
}

// ---- playing ----------------------------------------------------------------------------

function onBoardClick(event) {
  clearTimeout(hoverTimer);
  const hit = event.target.closest(".hit");
  if (!hit || !view || busy) return;
  if (!view.human_to_move) {
    message(view.over ? "The game is over." : "Wait for the agent's move.");
    return;
  }
  const s = Number(hit.dataset.site);
  const n = view.num_sites;
  const legal = new Set(view.legal);
  let action = s;
  if (view.offer) {
    const white = document.querySelector('input[name="colour"]:checked').value === "1";
    action = white ? s + n : s;
  }
  if (!legal.has(action)) {
    message(`Site ${s} is not a legal move here.`);
    return;
  }
  play(action);
}

async function play(action) {
  if (busy) return;
  busy = true;
  paused = false;
  setState("busy");
  message("");
  const start = performance.now();
  try {
    const v = await api("POST", sessionPath("/move" + numbersQuery()), { action });
    busy = false;
    show(v);
    requestAnimationFrame(() => window.sfTimings.push(performance.now() - start));
  } catch (e) {
    busy = false;
    setState("idle");
    message(e.message);
  }
}

async function change(path, body) {
  if (busy || !view) return;
  busy = true;
  setState("busy");
  message("");
  try {
    const v = await api("POST", sessionPath(path + numbersQuery()), body);
    busy = false;
    show(v);
  } catch (e) {
    busy = false;
    setState("idle");
    message(e.message);
  }
}

function undo() {
  paused = true; // after taking a move back, the agents wait until the user plays on
  const humans = view.players.some((s) => s.kind === "human");
  change("/undo", { until_human: humans });
}

function goto(step) {
  paused = true;
  change("/goto", { step });
}

function numbersQuery() {
  return $("numbers").checked ? "?numbers=1" : "";
}

function maybeAgent() {
  const v = view;
  if (!v || busy || paused || v.over || !v.agent_to_move || v.step < v.line.length) return;
  if (clocks && clocks.flagged) return;
  runAgent();
}

async function runAgent() {
  busy = true;
  setState("thinking");
  $("undo").disabled = true;
  // Games between agents alone run on by themselves; the user may stop them between moves.
  $("pause").hidden = view.players.some((s) => s.kind === "human");
  const sid = view.id;
  thinkTimer = setInterval(() => pollThinking(sid), 150);
  try {
    const v = await api("POST", sessionPath("/agent" + numbersQuery()), agentBudget());
    stopThinking();
    busy = false;
    if (view && view.id === sid) {
      if (v.analysis) showAnalysis(v.analysis, v.players[v.analysis.player]);
      show(v);
    }
  } catch (e) {
    stopThinking();
    busy = false;
    paused = true;
    setState("idle");
    message(e.message);
  }
}

function stopThinking() {
  clearInterval(thinkTimer);
  thinkTimer = null;
}

async function pollThinking(sid) {
  if (!view || view.id !== sid || !thinkTimer) return;
  try {
    const snap = await api("GET", `/api/sessions/${sid}/thinking`);
    if (snap.active && snap.sites && thinkTimer) {
      showAnalysis(snap, view.players[snap.player]);
      drawHeat(snap);
    }
  } catch (e) {
    // A poll that fails changes nothing: the move request reports the real outcome.
  }
}

// The value bar: the mover's expected result from -1 (loss) to +1 (win).
function showAnalysis(snap, seat) {
  if (!snap || snap.value === undefined) return;
  const box = $("think");
  box.hidden = false;
  const share = Math.max(0, Math.min(1, (snap.value + 1) / 2));
  const fill = $("think-fill");
  fill.style.width = `${(100 * share).toFixed(1)}%`;
  // White on the light bar would vanish: a grey stands for it.
  fill.style.background = snap.player % 4 === 1 ? "#c9c9bd" : COLOURS[snap.player % 4];
  $("think-text").textContent =
    `${NAMES[snap.player]} (${seat ? seat.label : "agent"}) value ${snap.value >= 0 ? "+" : ""}${snap.value.toFixed(2)}` +
    ` · ${snap.iterations.toLocaleString()} of ${snap.budget.toLocaleString()} iterations` +
    (snap.proven === null || snap.proven === undefined ? "" : ` · proven ${{ 1: "win", 0: "draw", "-1": "loss" }[snap.proven]}`);
}

// A heat map of the search's visit shares, over the sites under the hit layer.
function drawHeat(snap) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  let layer = svg.querySelector("g.heat");
  if (!layer) {
    layer = document.createElementNS(SVGNS, "g");
    layer.setAttribute("class", "heat");
    svg.insertBefore(layer, svg.querySelector("g.hits"));
  }
  layer.replaceChildren();
  const shares = Object.entries(snap.sites).sort((a, b) => b[1] - a[1]);
  const top = Math.max(1e-9, ...shares.map(([, x]) => x));
  shares.forEach(([site, x], rank) => {
    const hit = svg.querySelector(`.hit[data-site="${site}"]`);
    if (!hit || x <= 0) return;
    const mark = hit.cloneNode();
    mark.setAttribute("class", "heat-mark");
    mark.removeAttribute("data-site");
    mark.setAttribute("fill", "#ff7a00");
    // Relative to the most visited site, so that an open board where the best sites hold 2-3 %
    // of the visits is as readable as a decided one.
    mark.setAttribute("fill-opacity", String((0.08 + 0.72 * (x / top)).toFixed(3)));
    layer.append(mark);
    // The three most visited sites get their share written on them.
    if (rank < 3 && x > 0) {
      const label = document.createElementNS(SVGNS, "text");
      const box = hit.getBBox();
      label.setAttribute("x", String(box.x + box.width / 2));
      label.setAttribute("y", String(box.y + box.height / 2));
      label.setAttribute("class", "heat-label");
      label.textContent = x < 0.1 ? `${(100 * x).toFixed(1)}%` : `${Math.round(100 * x)}%`;
      layer.append(label);
    }
  });
}


// ---- rules ------------------------------------------------------------------------------

let rulesFor = ""; // the game and options the rules panel shows
async function showRules(game, options) {
  const key = JSON.stringify([game, options]);
  if (key === rulesFor) return;
  rulesFor = key;
  try {
    const r = await api("POST", "/api/rules", { game, options });
    if (rulesFor !== key) return;
    const box = $("rules");
    box.replaceChildren();
    box.dataset.game = r.game;
    box.append(el("p", { class: "rules-title" }, r.title), el("p", { class: "rules-summary" }, r.summary));
    for (const section of r.sections) {
      const part = el("section", { class: "rule" });
      part.append(el("h3", {}, section.heading));
      for (const text of section.text) part.append(el("p", {}, text));
      for (const d of section.diagrams) {
        const figure = el("figure", { class: "diagram" });
        // An image, not inline SVG: the page's layout after each move never walks its nodes.
        const picture = el("img", { alt: d.caption, class: "diagram-picture" });
        picture.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(d.svg);
        figure.append(picture, el("figcaption", {}, d.caption));
        part.append(figure);
      }
      box.append(part);
    }
  } catch (e) {
    rulesFor = "";
    $("rules").textContent = `The rules could not be loaded: ${e.message}`;
  }
}

// ---- typing a move ----------------------------------------------------------------------

async function typedMove(event) {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text || !view || busy) return;
  if (!view.human_to_move) {
    message(view.over ? "The game is over." : "Wait for the agent's move.");
    return;
  }
  busy = true;
  paused = false;
  setState("busy");
  message("");
  try {
    const v = await api("POST", sessionPath("/move" + numbersQuery()), { move: text });
    busy = false;
    input.value = "";
    show(v);
    input.focus();
  } catch (e) {
    busy = false;
    setState("idle");
    message(e.message);
  }
}

// ---- hint -------------------------------------------------------------------------------

// Who answered a hint or a review (the server's coach for the board) and its budget.
function coachText(r) {
  const budget = r.iterations.toLocaleString();
  return r.coach === "expert" ? `expert (trained network), ${budget} simulations` : `strong agent, ${budget} iterations`;
}

async function requestHint() {
  if (busy || !view || !view.human_to_move) return;
  busy = true;
  setState("busy");
  $("hint-text").textContent = "The coach is looking…";
  try {
    const h = await api("POST", sessionPath("/hint"), {});
    busy = false;
    setState("idle");
    if (!view || h.version !== view.version) return;
    hinted = h;
    drawHint(h);
  } catch (e) {
    busy = false;
    setState("idle");
    $("hint-text").textContent = "";
    message(e.message);
  }
}

function drawHint(h) {
  const text = $("hint-text");
  text.dataset.action = String(h.action);
  text.dataset.seed = String(h.seed);
  text.dataset.iterations = String(h.iterations);
  text.dataset.step = String(h.step);
  const value = `${h.value >= 0 ? "+" : ""}${h.value.toFixed(2)}`;
  const proven = h.proven === null ? "" : ` (proven ${{ 1: "win", 0: "draw", "-1": "loss" }[h.proven]})`;
  text.textContent = `Hint: ${h.label}, value ${value} for ${NAMES[h.player]}${proven} · ${coachText(h)}`;
  const svg = $("board").querySelector("svg");
  if (h.site !== null && svg) {
    const hit = svg.querySelector(`.hit[data-site="${h.site}"]`);
    if (hit) {
      const box = hit.getBBox();
      const ring = document.createElementNS(SVGNS, "circle");
      ring.setAttribute("class", "hint-mark");
      ring.setAttribute("data-site", String(h.site));
      ring.setAttribute("cx", String(box.x + box.width / 2));
      ring.setAttribute("cy", String(box.y + box.height / 2));
      ring.setAttribute("r", String(0.42 * Math.min(box.width, box.height)));
      svg.insertBefore(ring, svg.querySelector("g.hits"));
    }
  }
  for (const b of document.querySelectorAll("#buttons button.action")) {
    b.classList.toggle("hinted", Number(b.dataset.action) === h.action);
  }
}

// ---- perfect play -----------------------------------------------------------------------

// Why perfect play is not offered for this game (as the server says it), or null.
function perfectRefusal(v) {
  const most = catalog.limits.perfect_max_sites;
  if (v.num_players !== 2) return `Perfect play is offered in two-player games; this one has ${v.num_players} players.`;
  if (v.num_sites > most) return `Perfect play is offered on boards of at most ${most} sites (those the solver settles); this one has ${v.num_sites}.`;
  return null;
}

async function requestPerfect() {
  if (busy || !view || view.over) return;
  const refusal = perfectRefusal(view);
  if (refusal) {
    message(refusal);
    return;
  }
  busy = true;
  setState("busy");
  $("perfect-text").textContent = "The solver is looking…";
  try {
    const p = await api("POST", sessionPath("/perfect"), {});
    busy = false;
    setState("idle");
    if (!view || p.version !== view.version) return;
    perfected = p;
    show(view);
  } catch (e) {
    busy = false;
    setState("idle");
    $("perfect-text").textContent = "";
    message(e.message);
  }
}

// Each legal move's perfect-play value for the player to move, as W / D / L on its site (a
// site with several actions, Faraday's offers, shows each), and on the buttons of the others.
function drawPerfect(p) {
  const letters = { win: "W", draw: "D", loss: "L", unknown: "?" };
  const text = $("perfect-text");
  const others = p.moves.filter((m) => m.site === null).map((m) => `${m.label}: ${m.word}`);
  text.textContent = `${p.message} (${NAMES[p.player]} to move${others.length ? "; " + others.join(", ") : ""}).`;
  text.dataset.value = String(p.value);
  const svg = $("board").querySelector("svg");
  const bySite = new Map();
  for (const m of p.moves) {
    if (m.site === null) continue;
    if (!bySite.has(m.site)) bySite.set(m.site, []);
    bySite.get(m.site).push(m);
  }
  if (svg) {
    for (const [site, moves] of bySite) {
      const hit = svg.querySelector(`.hit[data-site="${site}"]`);
      if (!hit) continue;
      const box = hit.getBBox();
      const label = document.createElementNS(SVGNS, "text");
      const words = [...new Set(moves.map((m) => m.word))];
      label.setAttribute("class", `perfect-mark ${words.length === 1 ? words[0] : "unknown"}`);
      label.setAttribute("data-site", String(site));
      label.setAttribute("data-word", words.join("/"));
      label.setAttribute("x", String(box.x + box.width / 2));
      label.setAttribute("y", String(box.y + box.height / 2));
      label.setAttribute("font-size", String(0.5 * Math.min(box.width, box.height)));
      label.textContent = moves.map((m) => letters[m.word]).join("");
      const title = document.createElementNS(SVGNS, "title");
      title.textContent = moves.map((m) => `${m.label}: ${m.word} for ${NAMES[p.player]}`).join("\n");
      label.append(title);
      svg.insertBefore(label, svg.querySelector("g.hits"));
    }
  }
  const byAction = new Map(p.moves.map((m) => [m.action, m.word]));
  for (const b of document.querySelectorAll("#buttons button.action")) {
    const word = byAction.get(Number(b.dataset.action));
    for (const w of ["win", "draw", "loss"]) b.classList.toggle(`perfect-${w}`, word === w);
  }
}

// ---- resign and clocks ------------------------------------------------------------------

function resigner(v) {
  if (v.human_to_move) return v.current_player;
  const humans = v.players.map((s, p) => (s.kind === "human" ? p : null)).filter((p) => p !== null);
  return humans.length === 1 ? humans[0] : null;
}

function resign() {
  if (!view || busy) return;
  const player = resigner(view);
  if (player === null) {
    message("Resign on your move: several humans play here.");
    return;
  }
  const now = performance.now();
  if (!resignArmed || now - resignArmed > 4000) {
    resignArmed = now;
    $("resign").textContent = `Resign as ${NAMES[player]}? Click again`;
    return;
  }
  change("/resign", { player, reason: "resigned" });
}

function startClocks(v) {
  const minutes = Number($("clock").value) || 0;
  stopClocks();
  if (minutes <= 0) {
    clocks = null;
    $("clocks").hidden = true;
    return;
  }
  clocks = { minutes, ms: v.players.map(() => minutes * 60000), last: performance.now(), flagged: false };
  clockTimer = setInterval(tickClocks, 200);
}

function stopClocks() {
  if (clockTimer) clearInterval(clockTimer);
  clockTimer = null;
}

// The clock of the player to move runs while the game is live (not while stepping through it
// or paused between agents' moves).
function tickClocks() {
  const now = performance.now();
  const elapsed = now - clocks.last;
  clocks.last = now;
  const v = view;
  if (!v || v.over || clocks.flagged || v.step < v.line.length || (paused && !v.human_to_move)) return;
  const p = v.current_player;
  clocks.ms[p] = Math.max(0, clocks.ms[p] - elapsed);
  drawClocks();
  if (clocks.ms[p] === 0) {
    clocks.flagged = true;
    flag(p);
  }
}

async function flag(player) {
  // An agent still thinking finishes its request first; the flag falls after it.
  while (busy) await new Promise((r) => setTimeout(r, 50));
  if (view && !view.over) change("/resign", { player, reason: "time" });
}

function drawClocks() {
  const box = $("clocks");
  if (!clocks || !view) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.replaceChildren();
  clocks.ms.forEach((ms, p) => {
    const s = Math.ceil(ms / 1000);
    const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    const item = el("span", { class: "clock" + (p === view.current_player && !view.over ? " running" : ""), "data-player": String(p) });
    item.append(el("span", { class: `dot small p${p}` }), " " + text);
    box.append(item);
  });
}

// An agent with a clock thinks for a twentieth of what it has left (at least 50 ms).
function agentBudget() {
  if (!clocks || !view || view.current_player === null) return {};
  const left = clocks.ms[view.current_player] / 1000;
  return { time: Math.min(20, Math.max(0.05, left / 20)) };
}

// ---- share link -------------------------------------------------------------------------

async function share() {
  if (!view) return;
  const box = $("share-link");
  box.value = shareUrl(view);
  box.hidden = false;
  box.select();
  try {
    await navigator.clipboard.writeText(box.value);
    message("The link is copied: it opens this game at its last move.", false);
  } catch (e) {
    message("Copy the link: it opens this game at its last move.", false);
  }
}

// ---- review -----------------------------------------------------------------------------

async function requestReview() {
  if (busy || !view || !view.line.length) return;
  busy = true;
  setState("busy");
  $("review-panel").hidden = false;
  $("review-notes").replaceChildren(el("li", {}, "The coach is reviewing every move…"));
  const id = view.id;
  const length = view.line.length;
  try {
    const r = await api("POST", sessionPath("/review"), {});
    busy = false;
    setState("idle");
    if (!view || view.id !== id || view.line.length !== length) return;
    reviewed = { ...r, id, length };
    show(view);
  } catch (e) {
    busy = false;
    setState("idle");
    $("review-panel").hidden = true;
    message(e.message);
  }
}

// The value after each move as a graph: for Black in two-player games (up is good for Black),
// for the mover otherwise; the moves that lost the most are marked, and each point jumps there.
function drawReview(r) {
  $("review-panel").hidden = false;
  const two = view.num_players === 2;
  const width = 300;
  const height = 120;
  const pad = 8;
  const n = r.moves.length;
  const x = (i) => pad + ((width - 2 * pad) * i) / Math.max(1, n);
  const y = (value) => height / 2 - ((height / 2 - pad) * Math.max(-1, Math.min(1, value)));
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "graph");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", two ? "value for Black after each move" : "value for the mover after each move");
  const axis = document.createElementNS(SVGNS, "line");
  axis.setAttribute("x1", String(pad));
  axis.setAttribute("x2", String(width - pad));
  axis.setAttribute("y1", String(height / 2));
  axis.setAttribute("y2", String(height / 2));
  axis.setAttribute("class", "axis");
  svg.append(axis);
  const start = two ? r.start : r.start;
  const points = [[x(0), y(start)]].concat(r.moves.map((m, i) => [x(i + 1), y(two ? m.black : m.after)]));
  const path = document.createElementNS(SVGNS, "polyline");
  path.setAttribute("points", points.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" "));
  path.setAttribute("class", "curve");
  svg.append(path);
  const worst = new Set(r.worst);
  const thrown = new Set(r.thrown);
  const changed = new Set(r.changed);
  r.moves.forEach((m, i) => {
    const dot = document.createElementNS(SVGNS, "circle");
    const [cx, cy] = points[i + 1];
    dot.setAttribute("cx", cx.toFixed(1));
    dot.setAttribute("cy", cy.toFixed(1));
    dot.setAttribute("r", worst.has(m.step) || changed.has(m.step) ? "4" : "2.2");
    dot.setAttribute("class", "review-point" + (worst.has(m.step) ? " worst" : "") + (thrown.has(m.step) ? " thrown" : "") + (changed.has(m.step) ? " changed" : "") + (m.step === view.step ? " current" : ""));
    dot.setAttribute("data-step", String(m.step));
    dot.setAttribute("data-value", String(two ? m.black : m.after));
    const title = document.createElementNS(SVGNS, "title");
    title.textContent = `${m.step}. ${NAMES[m.player]} ${m.label}: ${m.before.toFixed(2)} → ${m.after.toFixed(2)} for ${NAMES[m.player]}`;
    dot.append(title);
    dot.addEventListener("click", () => goto(m.step));
    svg.append(dot);
  });
  $("review-graph").replaceChildren(svg);
  const notes = $("review-notes");
  notes.replaceChildren();
  notes.append(el("li", { class: "muted" }, (two ? "Value for Black" : "Value for the mover") + " after each move (" + coachText(r) + " a position); click a point to go there."));
  for (const step of r.worst) {
    const m = r.moves[step - 1];
    const item = el("li", { class: "worst", "data-step": String(step) }, `Move ${step}, ${NAMES[m.player]} ${m.label}: lost ${m.loss.toFixed(2)} (${m.before.toFixed(2)} → ${m.after.toFixed(2)})`);
    item.addEventListener("click", () => goto(step));
    notes.append(item);
  }
  // Every move that changed the perfect-play value (the solver proves both sides).
  for (const step of r.changed) {
    const m = r.moves[step - 1];
    const words = thrown.has(step)
      ? `had a won position (the solver proves it) and ${m.label} threw it away: ${m.perfect}.`
      : `${m.label} changed the perfect-play value: ${m.perfect} (the solver proves both).`;
    const item = el("li", { class: thrown.has(step) ? "changed thrown" : "changed", "data-step": String(step) }, `Move ${step}: ${NAMES[m.player]} ${words}`);
    item.addEventListener("click", () => goto(step));
    notes.append(item);
  }
  if (!r.worst.length && !r.changed.length) notes.append(el("li", {}, "No move lost much value."));
  if (!r.complete) notes.append(el("li", { class: "muted" }, "The game is long: the review stops part way."));
}

// ---- preview on hover -------------------------------------------------------------------

let hovered = null;
let hoverTimer = null;
// The preview is asked for once the pointer rests on a site (60 ms), so passing over the board
// or clicking at once costs nothing.
function onBoardHover(event) {
  clearTimeout(hoverTimer);
  const hit = event.target.closest(".hit.legal");
  if (!hit) return;
  hoverTimer = setTimeout(() => previewSite(hit), 60);
}

async function previewSite(hit) {
  if (!hit.isConnected || !view || !view.human_to_move || busy) return;
  const s = Number(hit.dataset.site);
  let action = s;
  if (view.offer) {
    const white = document.querySelector('input[name="colour"]:checked').value === "1";
    action = white ? s + view.num_sites : s;
  }
  if (!view.legal.includes(action)) return;
  const key = `${view.id}:${view.version}:${action}`;
  hovered = key;
  let p = hoverCache.get(key);
  if (!p) {
    try {
      p = await api("GET", sessionPath(`/hover?action=${action}`));
    } catch (e) {
      return;
    }
    hoverCache.set(key, p);
  }
  if (hovered === key && view && `${view.id}:${view.version}:${action}` === key) drawPreview(p);
}

function clearPreview() {
  clearTimeout(hoverTimer);
  hovered = null;
  const layer = $("board").querySelector("g.preview");
  if (layer) layer.remove();
  $("hover-text").textContent = "";
}

// What the placement would do: a faint stone where it goes, crosses on the stones it takes off,
// rings in the new colour on those it turns, dots on the territory it adds and, in Faraday, on
// the sites open for the next placement of the same turn, with the charge counts it changes.
function drawPreview(p) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  let layer = svg.querySelector("g.preview");
  if (layer) layer.remove();
  layer = document.createElementNS(SVGNS, "g");
  layer.setAttribute("class", "preview");
  layer.dataset.action = String(p.action);
  const centre = (site) => {
    const hit = svg.querySelector(`.hit[data-site="${site}"]`);
    if (!hit) return null;
    const box = hit.getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2, 0.5 * Math.min(box.width, box.height)];
  };
  const add = (tag, attrs) => {
    const node = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    layer.append(node);
    return node;
  };
  if (p.site !== null && p.colour !== null && p.colour >= 0) {
    const c = centre(p.site);
    if (c) add("circle", { class: "preview-stone", cx: c[0], cy: c[1], r: 0.8 * c[2], fill: COLOURS[p.colour % 4], "fill-opacity": 0.55, stroke: "#111", "stroke-opacity": 0.5 });
  }
  for (const site of p.removed) {
    const c = centre(site);
    if (!c) continue;
    const d = 0.5 * c[2];
    add("path", { class: "preview-removed", "data-site": site, d: `M${c[0] - d},${c[1] - d}L${c[0] + d},${c[1] + d}M${c[0] - d},${c[1] + d}L${c[0] + d},${c[1] - d}`, stroke: "#c62828", "stroke-width": 3, "stroke-linecap": "round" });
  }
  for (const site of p.turned) {
    const c = centre(site);
    if (!c) continue;
    add("circle", { class: "preview-turned", "data-site": site, cx: c[0], cy: c[1], r: 0.9 * c[2], fill: "none", stroke: COLOURS[(p.player ?? 0) % 4] === "#f7f7f2" ? "#9c9c90" : COLOURS[(p.player ?? 0) % 4], "stroke-width": 3, "stroke-dasharray": "4 3" });
  }
  for (const [owner, sites] of Object.entries(p.territory || {})) {
    for (const site of sites) {
      const c = centre(site);
      if (c) add("rect", { class: "preview-territory", "data-site": site, x: c[0] - 0.25 * c[2], y: c[1] - 0.25 * c[2], width: 0.5 * c[2], height: 0.5 * c[2], fill: COLOURS[Number(owner) % 4], "fill-opacity": 0.6, stroke: "#555" });
    }
  }
  for (const site of p.next || []) {
    const c = centre(site);
    if (c) add("circle", { class: "preview-next", "data-site": site, cx: c[0], cy: c[1], r: 0.22 * c[2], fill: "#1f9e55", "fill-opacity": 0.7 });
  }
  // Faraday: each player's new charge count beside every site it changes, Black's above and to
  // the left, White's below and to the right, in the player's ink.
  for (const [owner, entries] of Object.entries(p.charges || {})) {
    const k = Number(owner);
    for (const [site, count] of entries) {
      const c = centre(site);
      if (!c) continue;
      const dx = (k === 0 ? -0.45 : 0.45) * c[2];
      const dy = (k === 0 ? -0.35 : 0.65) * c[2];
      const ink = COLOURS[k % 4] === "#f7f7f2" ? "#6d6d62" : COLOURS[k % 4];
      const label = add("text", { class: "preview-charge", "data-site": site, "data-player": k, x: c[0] + dx, y: c[1] + dy, "text-anchor": "middle", "font-size": Math.max(8, 0.7 * c[2]), "font-weight": "bold", fill: ink, stroke: "#fff", "stroke-width": 0.6, "paint-order": "stroke" });
      label.textContent = String(count);
    }
  }
  svg.insertBefore(layer, svg.querySelector("g.hits"));
  $("hover-text").textContent = p.text;
}

// ---- records ----------------------------------------------------------------------------

async function loadRecord() {
  const file = $("load").files[0];
  if (!file || busy) return;
  busy = true;
  setState("busy");
  try {
    const text = await file.text();
    const v = await api("POST", "/api/sessions", { record: text, seats: readSeats() });
    busy = false;
    paused = true;
    const old = view;
    show(v);
    forget(old);
    message(`Loaded ${file.name}: ${v.line.length} actions.`, false);
  } catch (e) {
    busy = false;
    setState(view ? "idle" : "setup");
    message(e.message);
  }
  $("load").value = "";
}

// Arrow keys step through the game, Home and End jump, u undoes (not while typing in the form).
function onKey(event) {
  if (!view || event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
  const keys = {
    ArrowLeft: () => view.step > 0 && goto(view.step - 1),
    ArrowRight: () => view.step < view.line.length && goto(view.step + 1),
    Home: () => goto(0),
    End: () => goto(view.line.length),
    u: () => view.step > 0 && undo(),
    h: () => requestHint(),
    p: () => requestPerfect(),
  };
  if (keys[event.key]) {
    event.preventDefault();
    keys[event.key]();
  }
}

// ---- start ------------------------------------------------------------------------------

async function init() {
  try {
    catalog = await api("GET", "/api/games");
  } catch (e) {
    message(`Cannot reach the server: ${e.message}`);
    return;
  }
  const select = $("game");
  for (const g of catalog.games) select.append(el("option", { value: g.name }, g.name));
  const query = new URLSearchParams(location.search);
  const wanted = query.get("game");
  const given = {};
  for (const [k, v] of query) if (k.startsWith("o.")) given[k.slice(2)] = v;
  select.value = wanted && gameSpec(wanted) ? wanted : catalog.games[0].name;
  buildOptions(select.value, given);
  if (query.get("clock")) $("clock").value = query.get("clock");
  if (query.get("seats")) {
    // Seats are separated by commas, and so are an agent's settings: a part without a colon
    // that is a setting ("iterations=500") or a number belongs to the seat before it.
    const seats = [];
    for (const part of query.get("seats").split(",")) {
      const setting = !part.includes(":") && (part.includes("=") || /^\d+$/.test(part));
      if (seats.length && setting) seats[seats.length - 1] += "," + part;
      else seats.push(part);
    }
    buildSeats(seats.map(parseSeatText));
  }
  select.addEventListener("change", () => buildOptions(select.value));
  $("setup-form").addEventListener("submit", newGame);
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("mouseover", onBoardHover);
  $("board").addEventListener("mouseleave", clearPreview);
  $("move-form").addEventListener("submit", typedMove);
  $("hint").addEventListener("click", requestHint);
  $("perfect").addEventListener("click", requestPerfect);
  $("resign").addEventListener("click", resign);
  $("share").addEventListener("click", share);
  $("review").addEventListener("click", requestReview);
  $("undo").addEventListener("click", undo);
  $("first").addEventListener("click", () => goto(0));
  $("back").addEventListener("click", () => goto(view.step - 1));
  $("forward").addEventListener("click", () => goto(view.step + 1));
  $("last").addEventListener("click", () => goto(view.line.length));
  $("slider").addEventListener("change", () => goto(Number($("slider").value)));
  $("continue").addEventListener("click", () => {
    paused = false;
    change("/truncate", {});
  });
  $("numbers").addEventListener("change", () => view && change("/goto", { step: view.step }));
  $("edges").addEventListener("change", () => view && show(view));
  $("coordinates").addEventListener("change", () => $("board").classList.toggle("no-coordinates", !$("coordinates").checked));
  $("load").addEventListener("change", loadRecord);
  $("pause").addEventListener("click", () => {
    paused = true;
    $("pause").hidden = true;
    message("The agents stop after this move; “Continue from here” resumes.", false);
  });
  document.addEventListener("keydown", onKey);
  if (wanted && gameSpec(wanted) && query.get("moves") !== null) {
    $("setup").open = false;
    await openShared(query.get("moves"));
  } else if (wanted && gameSpec(wanted)) {
    $("setup").open = false;
    await newGame();
  } else {
    setState("setup");
  }
}

document.addEventListener("DOMContentLoaded", init);
