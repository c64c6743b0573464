// gnomekit web page: every answer comes from the JSON API (docs/web.md), which runs the CLI's verbs.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { games: [], game: null, budgetMax: 20, controller: null };
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
  setGame(data.games[0].name);
  document.body.dataset.ready = "yes";
}

init();
