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
    });
    label.append(input);
    box.append(label);
  }
  buildSeats();
  showPreview();
}

// Before the first game, the page shows the empty board the form describes.
async function showPreview() {
  if (view) return;
  try {
    const p = await api("POST", "/api/preview", { game: $("game").value, options: readOptions() });
    $("preview").innerHTML = p.svg;
    $("preview-text").textContent = `${p.board_shape}, ${p.num_sites} sites, ${p.num_players} players`;
    message("");
  } catch (e) {
    $("preview").replaceChildren();
    $("preview-text").textContent = "";
    message(e.message);
  }
}

function playerCount() {
  const input = $("options").querySelector('[name="players"]');
  return input ? Number(input.value) : 2;
}

function seatText(seat) {
  return seat.kind === "mcts" ? `mcts:${seat.iterations}` : seat.kind;
}

function buildSeats(given = null) {
  const box = $("seats");
  box.replaceChildren();
  const n = playerCount();
  const fallback = catalog.agents.includes("mcts") ? "mcts" : "random";
  for (let p = 0; p < n; p++) {
    const row = el("div", { class: "seat row" });
    const dot = el("span", { class: `dot p${p}` });
    const kind = el("select", { name: `seat${p}`, "aria-label": `seat ${p}` });
    for (const k of catalog.agents) kind.append(el("option", { value: k }, k === "mcts" ? "MCTS" : k));
    const budget = el("input", {
      type: "number",
      min: "1",
      max: String(catalog.limits.max_iterations),
      step: "100",
      name: `budget${p}`,
      title: "MCTS iterations per move",
    });
    const mine = given && given[p] ? given[p] : { kind: p === 0 ? "human" : fallback };
    kind.value = catalog.agents.includes(mine.kind) ? mine.kind : "random";
    budget.value = String(mine.iterations || catalog.limits.default_iterations);
    const sync = () => (budget.hidden = kind.value !== "mcts");
    kind.addEventListener("change", sync);
    sync();
    row.append(dot, ` ${NAMES[p]} `, kind, budget);
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
    const seat = { kind };
    if (kind === "mcts") seat.iterations = Number(row.querySelector("input").value);
    seats.push(seat);
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
    show(v);
    forget(old);
  } catch (e) {
    busy = false;
    message(e.message);
    setState(view ? "idle" : "setup");
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
  return "/?" + q.toString();
}

// The game being replaced is dropped on the server (if an agent still thinks there, the
// server keeps it until it is the idlest and room is needed).
function forget(old) {
  if (old && (!view || view.id !== old.id)) fetch(`/api/sessions/${old.id}`, { method: "DELETE" }).catch(() => {});
}

// ---- drawing ----------------------------------------------------------------------------

function show(v) {
  view = v;
  const n = v.num_sites;
  $("board").innerHTML = v.svg;
  const svg = $("board").querySelector("svg");
  addHitTargets(svg, new Set(v.human_to_move ? v.legal_sites : []));
  // The title names the options that differ from the defaults; the tooltip lists them all.
  const spec = gameSpec(v.game).options;
  const changed = spec.filter((o) => o.default !== null && v.options[o.name] !== o.default);
  $("title").textContent = [v.game, ...changed.map((o) => `${o.name.replaceAll("_", " ")} ${v.options[o.name]}`)].join(" · ");
  $("title").title = Object.entries(v.options).map(([k, x]) => `${k} = ${x}`).join("\n");

  // Whose turn, or the result.
  const turn = $("turn");
  turn.replaceChildren();
  if (v.terminal) {
    turn.append(resultText(v));
  } else {
    const p = v.current_player;
    const seat = v.players[p];
    turn.append(el("span", { class: `dot p${p}` }), ` ${NAMES[p]} to move`);
    turn.append(seat.kind === "human" ? " — your move" : ` — ${seat.label} is thinking…`);
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
  $("undo").disabled = v.step === 0;
  $("pause").hidden = true;

  // Players: seat, score, rank.
  const body = $("players").querySelector("tbody");
  body.replaceChildren();
  v.players.forEach((seat, p) => {
    const winner = v.terminal && v.ranks && v.ranks[p] === Math.min(...v.ranks);
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
    item.append(el("span", { class: "n" }, `${m.step}.`), " ", el("span", { class: `dot small p${m.player}` }), " " + m.label);
    if (m.step === v.step) item.classList.add("current");
    if (m.step > v.step) item.classList.add("ahead");
    item.addEventListener("click", () => goto(m.step));
    moves.append(item);
  }
  const current = moves.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });

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

// ---- playing ----------------------------------------------------------------------------

function onBoardClick(event) {
  const hit = event.target.closest(".hit");
  if (!hit || !view || busy) return;
  if (!view.human_to_move) {
    message(view.terminal ? "The game is over." : "Wait for the agent's move.");
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
  if (!v || busy || paused || v.terminal || !v.agent_to_move || v.step < v.line.length) return;
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
    const v = await api("POST", sessionPath("/agent" + numbersQuery()), {});
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
    // Relative to the most visited site, damped when the search is still undecided (a flat
    // spread of visits should not paint the whole board hot).
    mark.setAttribute("fill-opacity", String(0.05 + 0.8 * (x / top) * Math.min(1, 3 * top)));
    layer.append(mark);
    // The three most visited sites get their share written on them.
    if (rank < 3 && x >= 0.01) {
      const label = document.createElementNS(SVGNS, "text");
      const box = hit.getBBox();
      label.setAttribute("x", String(box.x + box.width / 2));
      label.setAttribute("y", String(box.y + box.height / 2));
      label.setAttribute("class", "heat-label");
      label.textContent = `${Math.round(100 * x)}%`;
      layer.append(label);
    }
  });
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
  if (query.get("seats")) {
    const seats = query.get("seats").split(",").map((s) => {
      const [kind, rest] = s.split(":");
      const iterations = rest ? Number(rest.replace("iterations=", "")) : undefined;
      return { kind, iterations };
    });
    buildSeats(seats);
  }
  select.addEventListener("change", () => buildOptions(select.value));
  $("setup-form").addEventListener("submit", newGame);
  $("board").addEventListener("click", onBoardClick);
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
  $("load").addEventListener("change", loadRecord);
  $("pause").addEventListener("click", () => {
    paused = true;
    $("pause").hidden = true;
    message("The agents stop after this move; “Continue from here” resumes.", false);
  });
  document.addEventListener("keydown", onKey);
  if (wanted && gameSpec(wanted)) {
    $("setup").open = false;
    await newGame();
  } else {
    setState("setup");
  }
}

document.addEventListener("DOMContentLoaded", init);
