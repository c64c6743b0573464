// gnomekit web page: every answer comes from the JSON API (docs/web.md), which runs the CLI's verbs.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { games: [], game: null, budgetMax: 20, controller: null,
  build: { history: [], moves: null, movesFor: null, selected: null, chance: [] } };
const ASKS = ["check", "moves", "solve", "hint"];

async function api(path, body, signal) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal,
  };
  const res = await fetch(path, init);
  let data;
  try { data = await res.json(); } catch (e) { data = { answer: { error: "HTTP " + res.status, message: res.statusText } }; }
  return { http: res.status, data };
}

function showError(data, http) {
  const a = (data && data.answer) || {};
  const box = $("error");
  box.textContent = "";
  const where = [a.source || "", a.line ?? "", a.column ?? ""].filter((x) => x !== "").join(":");
  if (where) {
    const w = document.createElement("span");
    w.className = "where";
    w.textContent = where + ": ";
    box.appendChild(w);
  }
  box.appendChild(document.createTextNode((a.message || "error") + (a.text ? ` (found ${JSON.stringify(a.text)})` : "")));
  const kind = document.createElement("div");
  kind.textContent = `${a.error || "error"} (HTTP ${http})`;
  box.appendChild(kind);
  box.hidden = false;
  if (a.source === "<position>" && a.line) selectLine(a.line);
}

function selectLine(line) {
  const ta = $("position");
  const lines = ta.value.split("\n");
  let start = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  const end = start + (lines[line - 1] || "").length;
  ta.focus();
  ta.setSelectionRange(start, end);
}

function clearMessages() {
  $("error").hidden = true;
  $("error").textContent = "";
}

function drawSvg(svgText) {
  const box = $("picture");
  box.textContent = "";
  if (!svgText) {
    box.innerHTML = '<p class="empty">(no picture)</p>';
    return;
  }
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg" || doc.getElementsByTagName("parsererror").length) {
    box.innerHTML = '<p class="empty">(the picture is not valid SVG)</p>';
    return;
  }
  for (const s of Array.from(svg.getElementsByTagName("script"))) s.remove();
  box.appendChild(document.importNode(svg, true));
}

// Every violation ({rule, message, cells}) anywhere in an answer, and every list of "reasons".
function reasonsOf(value, out) {
  if (Array.isArray(value)) {
    value.forEach((v) => reasonsOf(v, out));
  } else if (value && typeof value === "object") {
    if ("rule" in value && "message" in value && "cells" in value) {
      const cells = (value.cells || []).map((c) => (Array.isArray(c) ? c.join(",") : String(c))).join(" ");
      const line = `[${value.rule}] ${value.message}` + (cells ? ` (cells ${cells})` : "");
      if (!out.bad.includes(line)) out.bad.push(line);
    }
    for (const [k, v] of Object.entries(value)) {
      if (k === "reasons" && Array.isArray(v)) {
        v.filter((r) => typeof r === "string").forEach((r) => { if (!out.notes.includes(r)) out.notes.push(r); });
      } else if (k !== "moves") {
        reasonsOf(v, out);
      }
    }
  }
  return out;
}

function moveWords(m) {
  if (typeof m === "string") return m;
  if (m && typeof m === "object") return m.notation || m.text || m.turn || m.move || null;
  return null;
}

function showAnswer(verb, data) {
  const a = data.answer || {};
  $("answer").hidden = false;
  const verdict = $("verdict");
  let words;
  let cls;
  if (verb === "check" && typeof a.legal === "boolean") {
    words = a.legal ? "legal" : "illegal";
    cls = words;
  } else if (verb === "moves" && typeof a.count === "number") {
    words = `${a.count} legal move(s)`;
    cls = a.count ? "yes" : "no";
  } else if (data.unknown) {
    // The budget ran out: not "no". The best found and the bound are in the answer and its text.
    words = `${verb}: unknown (the budget ran out)` +
      (data.seconds !== undefined ? ` (${data.seconds} s)` : "");
    cls = "unknown";
  } else {
    words = `${verb}: ` + (data.status === 0 ? "yes" : "no") + (data.seconds !== undefined ? ` (${data.seconds} s)` : "");
    cls = data.status === 0 ? "yes" : "no";
  }
  verdict.textContent = words;
  verdict.className = cls;
  const found = reasonsOf(a, { bad: [], notes: [] });
  const ul = $("reasons");
  ul.textContent = "";
  for (const r of found.bad) {
    const li = document.createElement("li");
    li.textContent = r;
    ul.appendChild(li);
  }
  for (const r of found.notes) {
    if (found.bad.some((b) => b.includes(r))) continue;
    const li = document.createElement("li");
    li.className = verb === "check" && a.legal === false ? "" : "note";
    li.textContent = r;
    ul.appendChild(li);
  }
  const list = $("move-list");
  list.textContent = "";
  if (verb === "moves" && Array.isArray(a.moves)) {
    for (const m of a.moves.slice(0, 500)) {
      const w = moveWords(m);
      if (!w) continue;
      const li = document.createElement("li");
      li.textContent = w;
      li.title = "check this move";
      li.addEventListener("click", () => { $("move").value = w; });
      list.appendChild(li);
    }
  }
  $("answer-text").textContent = data.text ?? (data.note || "");
  $("answer-json").textContent = JSON.stringify(a, null, 2);
  $("command").textContent = data.command || "";
}

function busy(on, label) {
  $("busy").hidden = !on;
  for (const b of document.querySelectorAll("button")) if (b.id !== "cancel") b.disabled = on;
  $("cancel").disabled = !(on && state.controller);
  if (!on) $("progress").textContent = label || "";
}

async function loadPosition(path, body) {
  clearMessages();
  busy(true);
  try {
    const { http, data } = await (body === undefined ? api(path) : api(path, body));
    if (http !== 200) {
      showError(data, http);
      return;
    }
    $("position").value = data.position ?? data.text ?? "";
    drawSvg(data.svg);
    resetBuild(data.position ?? data.text ?? "");
    $("answer").hidden = true;
    $("command").textContent = data.command || "";
    return data;
  } catch (e) {
    showError({ answer: { error: "NetworkError", message: String(e) } }, 0);
  } finally {
    busy(false);
  }
}

function optionsOf(verb) {
  return $(verb + "-options").value;
}

async function ask(verb) {
  clearMessages();
  const body = { position: $("position").value, args: optionsOf(verb) };
  if (verb === "check") body.move = $("move").value;
  const slow = verb === "solve" || verb === "hint";
  if (slow) body.budget = Math.min(Number($("budget").value) || 10, state.budgetMax);
  state.controller = slow ? new AbortController() : null;
  const t0 = performance.now();
  busy(true);
  const timer = slow ? setInterval(() => {
    $("progress").textContent = `${verb}: ${((performance.now() - t0) / 1000).toFixed(1)} s of ${body.budget} s`;
  }, 200) : null;
  let label = "";
  try {
    const { http, data } = await api(`/api/${state.game.name}/${verb}`, body, state.controller && state.controller.signal);
    if (http !== 200) {
      showError(data, http);
      if (data.svg === undefined || data.svg === null) return;
    } else {
      showAnswer(verb, data);
    }
    if (data.svg) drawSvg(data.svg);
    label = `${verb}: ${((performance.now() - t0) / 1000).toFixed(1)} s`;
  } catch (e) {
    if (e.name === "AbortError") {
      label = `${verb}: cancelled`;
    } else {
      showError({ answer: { error: "NetworkError", message: String(e) } }, 0);
    }
  } finally {
    if (timer) clearInterval(timer);
    state.controller = null;
    busy(false, label);
  }
}

function setGame(name) {
  state.game = state.games.find((g) => g.name === name);
  const g = state.game;
  $("move").placeholder = `${g.move_option} e.g. ${g.move_example}`;
  for (const v of ASKS) $(v + "-options").value = (g.options && g.options[v]) || "";
  $("make-options").value = "";
  // Nothing of the previous game stays on the page.
  $("move").value = "";
  $("position").value = "";
  $("picture").innerHTML = '<p class="empty">Load a position to see it drawn.</p>';
  resetBuild(null);
  $("answer").hidden = true;
  $("progress").textContent = "";
  clearMessages();
  $("puzzle").textContent = "";
  api(`/api/${g.name}/puzzles`).then(({ http, data }) => {
    if (http !== 200) return showError(data, http);
    state.puzzles = data.puzzles;
    for (const p of data.puzzles) {
      const o = document.createElement("option");
      o.value = p.name;
      o.textContent = p.title ? `${p.name}: ${p.title}` : p.name;
      $("puzzle").appendChild(o);
    }
  });
}

async function loadPuzzle() {
  const name = $("puzzle").value;
  const data = await loadPosition(`/api/${state.game.name}/puzzles/${encodeURIComponent(name)}`);
  const p = data && data.puzzle;
  if (!p) return;
  // A puzzle's roll (Hexen Rennen) or depth (Gnomes at Midnight) goes into the options of the asks.
  for (const v of ASKS) {
    let opts = $(v + "-options").value;
    if (p.roll !== undefined) opts = opts.replace(/--roll\s+\S+/, "").trim() + ` --roll ${p.roll}`;
    if (p.depth !== undefined && (v === "solve" || v === "hint")) opts = opts.replace(/--depth\s+\S+/, "").trim() + ` --depth ${p.depth}`;
    $(v + "-options").value = opts.trim();
  }
}

async function init() {
  const { http, data } = await api("/api/games");
  if (http !== 200) return showError(data, http);
  state.games = data.games;
  state.budgetMax = data.budget.max;
  $("budget").value = data.budget.default;
  $("budget").max = data.budget.max;
  for (const g of data.games) {
    const o = document.createElement("option");
    o.value = g.name;
    o.textContent = g.title;
    $("game").appendChild(o);
  }
  $("game").addEventListener("change", () => setGame($("game").value));
  $("load-puzzle").addEventListener("click", loadPuzzle);
  $("new").addEventListener("click", () => loadPosition(`/api/${state.game.name}/new`, { args: $("make-options").value }));
  $("random").addEventListener("click", () => loadPosition(`/api/${state.game.name}/random`,
    { seed: Number($("seed").value) || 0, args: $("make-options").value }));
  $("read").addEventListener("click", () => loadPosition(`/api/${state.game.name}/read`, { position: $("position").value }));
  for (const v of ASKS) $(v).addEventListener("click", () => ask(v));
  $("cancel").addEventListener("click", () => { if (state.controller) state.controller.abort(); });
  $("picture").addEventListener("click", onPictureClick);
  $("undo").addEventListener("click", undo);
  setGame(data.games[0].name);
  document.body.dataset.ready = "yes";
}

// -- Building a position by clicking the board (POST /api/GAME/apply; docs/web.md, "Building a position").
// Gnomes at Midnight: a gnome's square, then the target square (step, or pair step: a choice when both are
// legal); an add on a flower square. Hedge Mage and Gnome Hollow: a square or hex: the legal placements
// covering it (`moves` with the options in its box), previewed on hover, applied when chosen.
const CLICKABLE = ["gnomes-at-midnight", "hedge-mage", "gnome-hollow"];
const SVGNS = "http://www.w3.org/2000/svg";

function buildStatus(words, bad) {
  $("build-status").textContent = words;
  $("build-status").className = "build-status" + (bad ? " bad" : "");
}

function hideChoices() {
  $("choices").hidden = true;
  $("choice-list").textContent = "";
  clearMarks("gk-preview");
}

function resetBuild(text) {
  const b = state.build;
  b.history = [];
  b.moves = null;
  b.movesFor = null;
  b.selected = null;
  b.chance = [];
  $("undo").disabled = true;
  hideChoices();
  showChance();
  $("other").hidden = true;
  const clickable = state.game && CLICKABLE.includes(state.game.name);
  buildStatus(!text ? "" : clickable ? "Click the board to make a move." : "Building by clicking: not for this game.");
  if (text && clickable) movesNow(true).then(showOther);
}

function cellKey(c) {
  return Array.isArray(c) ? c.join(",") : c === undefined || c === null ? null : String(c);
}

// The board cells a move (from `moves` JSON, or a notation string) touches, as "r,c" / "q,r" keys.
function cellsOf(m) {
  if (typeof m === "string") {
    const at = m.match(/@(-?\d+),(-?\d+)/);
    return at ? [`${at[1]},${at[2]}`] : [];
  }
  if (!m || typeof m !== "object") return [];
  if (Array.isArray(m.cells)) return m.cells.map(cellKey);
  return ["cell", "from", "to"].map((k) => cellKey(m[k])).filter((c) => c !== null);
}

function moveLabel(m) {
  const w = moveWords(m);
  if (w) return m && m.kind === "pair" ? `${w}  (both gnomes)` : m && m.kind === "step" ? `${w}  (one gnome)` : w;
  if (m && m.tile && Array.isArray(m.cells)) {
    return `${m.tile}, sigil ${cellKey(m.sigil)}: ${m.cells.map(cellKey).join(" ")}`;
  }
  return JSON.stringify(m);
}

// What apply is sent: the notation where the answer has it, else the move's JSON object (a placement).
function moveArg(m) {
  return moveWords(m) || m;
}

// The legal moves of the position in the box (`moves`, with the options in its box), fetched once per text.
// A failure is said in the status line, unless `quiet` (a fetch ahead of any click).
async function movesNow(quiet) {
  const b = state.build;
  const text = $("position").value;
  if (b.movesFor === text && b.moves) return b.moves;
  const { http, data } = await api(`/api/${state.game.name}/moves`, { position: text, args: optionsOf("moves") });
  if (http !== 200) {
    if (!quiet) buildStatus(`no moves to click: ${(data.answer && data.answer.message) || "HTTP " + http}`, true);
    return null;
  }
  const a = data.answer || {};
  b.moves = a.moves || a.placements || [];
  b.movesFor = text;
  return b.moves;
}

function boardSvg() {
  return document.querySelector("#picture svg");
}

function cellAt(event) {
  for (const el of document.elementsFromPoint(event.clientX, event.clientY)) {
    const hit = el.closest && el.closest("#picture [data-cell]");
    if (hit) return hit.getAttribute("data-cell");
  }
  return null;
}

function clearMarks(cls) {
  for (const el of document.querySelectorAll(`#picture .${cls}`)) el.remove();
}

// Outline the cells on the picture (a preview of a placement, the selected gnome).
function markCells(cells, cls, colour) {
  const svg = boardSvg();
  if (!svg) return;
  for (const c of cells) {
    const el = svg.querySelector(`[data-cell="${c}"]`);
    if (!el) continue;
    let mark;
    if (el.tagName === "g") {
      const box = el.getBBox();
      mark = document.createElementNS(SVGNS, "rect");
      for (const [k, v] of Object.entries({ x: box.x, y: box.y, width: box.width, height: box.height })) mark.setAttribute(k, v);
    } else {
      mark = el.cloneNode(false);
      mark.removeAttribute("data-cell");
    }
    mark.setAttribute("class", cls);
    mark.setAttribute("fill", colour + "66");
    mark.setAttribute("stroke", colour);
    mark.setAttribute("stroke-width", "3");
    mark.setAttribute("pointer-events", "none");
    svg.appendChild(mark);
  }
}

function offer(moves, head) {
  hideChoices();
  if (!moves.length) return;
  $("choices-head").textContent = head;
  for (const m of moves) {
    const li = document.createElement("li");
    li.textContent = moveLabel(m);
    li.addEventListener("mouseenter", () => { clearMarks("gk-preview"); markCells(cellsOf(m), "gk-preview", "#2e8b57"); });
    li.addEventListener("mouseleave", () => clearMarks("gk-preview"));
    li.addEventListener("click", () => applyMove(m));
    $("choice-list").appendChild(li);
  }
  $("choices").hidden = false;
}

function showChance() {
  const list = $("chance-list");
  list.textContent = "";
  for (const c of state.build.chance) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `${c.move} (${c.probability})`;
    b.addEventListener("click", () => applyMove(c.move));
    list.appendChild(b);
  }
  $("chance").hidden = !state.build.chance.length;
}

// Moves that touch no cell (pass, end, ...) as buttons; for a used-up Hedge Mage garden, the next tile to reveal.
function showOther(moves) {
  const list = $("other-list");
  list.textContent = "";
  for (const m of (moves || []).filter((m) => !cellsOf(m).length).slice(0, 40)) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = moveLabel(m);
    b.addEventListener("click", () => applyMove(m));
    list.appendChild(b);
  }
  const text = $("position").value;
  const remaining = text.match(/^remaining: (.*)$/m);
  if (state.game.name === "hedge-mage" && /^tile: -\s*$/m.test(text) && remaining && remaining[1].trim() !== "-") {
    for (const tile of new Set(remaining[1].trim().split(/\s+/))) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = `reveal ${tile}`;
      b.title = "the next building card: set the garden's revealed tile";
      b.addEventListener("click", () => reveal(tile));
      list.appendChild(b);
    }
  }
  $("other").hidden = !list.children.length;
}

function remember() {
  const svg = boardSvg();
  state.build.history.push({ position: $("position").value, svg: svg ? svg.outerHTML : null, chance: state.build.chance });
  $("undo").disabled = false;
}

function afterChange(text, svg, chance, words, bad) {
  const b = state.build;
  $("position").value = text;
  drawSvg(svg);
  b.selected = null;
  b.chance = chance || [];
  b.moves = null;
  b.movesFor = null;
  hideChoices();
  showChance();
  $("other").hidden = true;
  buildStatus(words, bad);
  if (!b.chance.length) movesNow(true).then(showOther);
}

async function applyMove(m) {
  clearMessages();
  const { http, data } = await api(`/api/${state.game.name}/apply`, { position: $("position").value, move: moveArg(m) });
  if (http !== 200) {
    showError(data, http);
    return;
  }
  if (data.status !== 0) {
    showAnswer("check", data);
    drawSvg(data.svg);
    buildStatus(`illegal: ${data.move}`, true);
    return;
  }
  remember();
  const next = data.to_move === "chance" ? "a chance outcome next" : data.to_move === "over" ? (data.result || "no move left") : "next move";
  afterChange(data.position, data.svg, data.chance, `applied ${data.move}: ${next}` + (data.note ? ` (${data.note})` : ""));
}

async function reveal(tile) {
  clearMessages();
  const text = $("position").value.replace(/^tile: -\s*$/m, `tile: ${tile}`);
  const { http, data } = await api(`/api/${state.game.name}/read`, { position: text });
  if (http !== 200) {
    showError(data, http);
    return;
  }
  remember();
  afterChange(data.position, data.svg, [], `revealed ${tile}: click the garden to place it`);
}

function undo() {
  const h = state.build.history.pop();
  if (!h) return;
  clearMessages();
  afterChange(h.position, h.svg, h.chance, "undone");
  $("undo").disabled = !state.build.history.length;
}

async function onPictureClick(event) {
  const b = state.build;
  if (!state.game || !CLICKABLE.includes(state.game.name) || !boardSvg()) return;
  const cell = cellAt(event);
  if (cell === null) return;
  if (b.chance.length) {
    buildStatus("a chance outcome comes first: pick one below", true);
    return;
  }
  const moves = await movesNow();
  if (!moves) return;
  const touching = moves.filter((m) => cellsOf(m).includes(cell));
  if (state.game.name !== "gnomes-at-midnight") {
    buildStatus(touching.length ? `${touching.length} placement(s) cover ${cell}: pick one` : `no legal placement covers ${cell}`,
      !touching.length);
    offer(touching, `placements covering ${cell}`);
    return;
  }
  // Gnomes at Midnight: a source square, then a target square.
  const from = moves.filter((m) => cellKey(m.from) === cell);
  const adds = moves.filter((m) => m.kind === "add" && cellKey(m.to ?? m.cell) === cell);
  if (b.selected !== null) {
    const sel = b.selected;
    const both = moves.filter((m) => cellKey(m.from) === sel && cellKey(m.to) === cell);
    b.selected = null;
    clearMarks("gk-selected");
    if (both.length === 1) return applyMove(both[0]);
    if (both.length) {
      buildStatus(`${both.length} moves from ${sel} to ${cell}: pick one`);
      return offer(both, `from ${sel} to ${cell}`);
    }
    if (cell === sel) {
      hideChoices();
      return buildStatus("Click the board to make a move.");
    }
  }
  hideChoices();
  if (from.length) {
    b.selected = cell;
    markCells([cell], "gk-selected", "#1f5fbf");
    buildStatus(`from ${cell}: click the target square`);
    if (adds.length) offer(adds, `or add a gnome on ${cell}`);
    return;
  }
  if (adds.length === 1) return applyMove(adds[0]);
  if (adds.length) return offer(adds, `adds on ${cell}`);
  buildStatus(`no legal move starts at ${cell}`, true);
}

init();
