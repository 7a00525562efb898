"""The page's style and script, served as files of its own (``/static/web.css`` and
``/static/web.js``) so that the Content-Security-Policy allows nothing inline.

The script is plain JavaScript, no framework and no build step: zoom and pan of the
board (buttons, wheel, drag, two-finger pinch), the live page's server-sent events
(``EventSource``: each committed turn's texts put in place with ``textContent``), and the
arrow keys on the step-through."""

from __future__ import annotations

STYLE = """
:root { color-scheme: light dark; --ink: #1d1d1f; --paper: #fbfaf7; --line: #d8d4ca; }
@media (prefers-color-scheme: dark) { :root { --ink: #e8e6e1; --paper: #1b1b1d; --line: #3a3a3e; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1400px; padding: 0.75rem; font: 16px/1.45 system-ui,
  -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--paper); }
h1 { font-size: 1.3rem; margin: 0 0 0.25rem; } h1 span { font-weight: normal; opacity: 0.7; }
h2 { font-size: 1.05rem; margin: 1rem 0 0.25rem; }
#turn { font-weight: 600; margin: 0.25rem 0; }
#clocks ul { margin: 0; padding-left: 1.2rem; } .empty, .note { opacity: 0.7; }
.viewport { position: relative; overflow: hidden; height: min(75vh, 900px); border: 1px solid
  var(--line); border-radius: 6px; touch-action: none; cursor: grab; background: #777; }
.viewport img { position: absolute; left: 0; top: 0; transform-origin: 0 0; max-width: none;
  user-select: none; -webkit-user-drag: none; }
.zoom { margin: 0.4rem 0; display: flex; gap: 0.4rem; }
button, .steps a, .steps .off { font: inherit; min-width: 2.75rem; min-height: 2.75rem;
  padding: 0.4rem 0.8rem; border: 1px solid var(--line); border-radius: 6px;
  background: transparent; color: inherit; text-decoration: none; display: inline-flex;
  align-items: center; justify-content: center; }
.steps { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0.5rem 0; }
.steps .off { opacity: 0.4; } .jump input { width: 5rem; font: inherit; min-height: 2.75rem; }
#log ol { margin: 0; padding-left: 2.2rem; max-height: 40vh; overflow: auto; }
@media (min-width: 1000px) {
  main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(18rem, 1fr); gap: 1rem; }
  main > .viewport, main > .zoom, main > p { grid-column: 1; }
  main > section { grid-column: 2; grid-row: 1 / span 4; }
  #log ol { max-height: 80vh; }
}
"""

SCRIPT = r"""
"use strict";
(function () {
  const view = document.getElementById("viewport");
  const img = document.getElementById("board");
  let scale = 1, x = 0, y = 0, fitted = true;
  const pointers = new Map();
  let pinch = null;

  function apply() { if (img) img.style.transform = `translate(${x}px, ${y}px) scale(${scale})`; }
  function fit() {
    if (!view || !img || !img.naturalWidth) return;
    // As tall as the board at the page's width (a phone shows no empty band), at most
    // three quarters of the screen.
    const tall = view.clientWidth * img.naturalHeight / img.naturalWidth;
    view.style.height = `${Math.round(Math.min(window.innerHeight * 0.75, tall))}px`;
    scale = Math.min(view.clientWidth / img.naturalWidth, view.clientHeight / img.naturalHeight);
    x = (view.clientWidth - img.naturalWidth * scale) / 2;
    y = (view.clientHeight - img.naturalHeight * scale) / 2;
    fitted = true; apply();
  }
  function zoomAt(factor, cx, cy) {
    const next = Math.max(0.1, Math.min(8, scale * factor));
    x = cx - (cx - x) * (next / scale); y = cy - (cy - y) * (next / scale);
    scale = next; fitted = false; apply();
  }
  if (view && img) {
    img.addEventListener("load", () => { if (fitted) fit(); });
    if (img.complete) fit();
    window.addEventListener("resize", () => { if (fitted) fit(); });
    view.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = view.getBoundingClientRect();
      zoomAt(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    view.addEventListener("pointerdown", (e) => {
      view.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
    });
    view.addEventListener("pointermove", (e) => {
      const was = pointers.get(e.pointerId);
      if (!was) return;
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        const r = view.getBoundingClientRect();
        if (pinch) zoomAt(d / pinch, (a[0] + b[0]) / 2 - r.left, (a[1] + b[1]) / 2 - r.top);
        pinch = d; return;
      }
      x += e.clientX - was[0]; y += e.clientY - was[1]; fitted = false; apply();
    });
    const up = (e) => { pointers.delete(e.pointerId); pinch = null; };
    view.addEventListener("pointerup", up); view.addEventListener("pointercancel", up);
    view.addEventListener("keydown", (e) => {
      if (e.key === "+" || e.key === "=") zoomAt(1.2, view.clientWidth / 2, view.clientHeight / 2);
      if (e.key === "-") zoomAt(1 / 1.2, view.clientWidth / 2, view.clientHeight / 2);
    });
  }
  function zoomButton(button) {
    const kind = button.dataset.zoom;
    if (kind === "fit" || !view) { fit(); return; }
    zoomAt(kind === "in" ? 1.25 : 1 / 1.25, view.clientWidth / 2, view.clientHeight / 2);
  }
  document.querySelectorAll("[data-zoom]").forEach((button) => {
    button.addEventListener("click", () => zoomButton(button));
  });

  function list(holder, tag, items, empty) {
    holder.replaceChildren();
    if (!items.length) {
      const p = document.createElement("p");
      p.className = "empty"; p.textContent = empty; holder.append(p);
      return;
    }
    const box = document.createElement(tag);
    for (const item of items) {
      const li = document.createElement("li");
      li.textContent = item; box.append(li);
    }
    holder.append(box);
    if (tag === "ol") box.scrollTop = box.scrollHeight;
  }
  function applyTurn(data) {
    if (Number(data.version) < Number(document.body.dataset.version)) return;
    // A lobby's page has no board yet: the first turn's page is drawn whole.
    if (!img && data.board) { window.location.reload(); return; }
    document.body.dataset.version = String(data.version);
    document.getElementById("turn").textContent = data.turn;
    list(document.getElementById("clocks"), "ul", data.clocks, "No clock.");
    list(document.getElementById("log"), "ol", data.log, "The log is empty.");
    if (img && data.board) { img.src = data.board; img.alt = data.alt; }
    if (data.over) {
      document.getElementById("replay").hidden = false;
      document.getElementById("note").textContent = "The game is over.";
    }
  }
  const events = document.body.dataset.events;
  if (events && window.EventSource) {
    const source = new EventSource(events);
    source.addEventListener("turn", (e) => {
      const data = JSON.parse(e.data);
      applyTurn(data);
      if (data.over) source.close();  // nothing more will come
    });
    // Refused (too many live pages) or the link no longer opens: the browser gives up.
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) {
        document.getElementById("note").textContent =
          "This page no longer updates by itself; reload it to see the game as it stands.";
      }
    });
    // A league's page is redrawn by its server: a change it does not show reloads it.
    source.addEventListener("league", (e) => {
      if (JSON.parse(e.data).digest !== document.body.dataset.digest) window.location.reload();
    });
    source.addEventListener("gone", () => {
      source.close();
      document.getElementById("note").textContent = "This link no longer opens this page.";
    });
  }
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    const to = e.key === "ArrowLeft" ? "back" : e.key === "ArrowRight" ? "forward" : null;
    const link = to && document.getElementById(to);
    if (link) link.click();
  });
})();
"""
