// The built-in page's script: polls api/state once a second and renders the
// resources table, one canvas chart per resource (pass and block per second,
// mean response time on the right axis), breaker transitions and the rules
// in force. Text goes in through textContent only: resource names and rule
// descriptions are data, never markup.
"use strict";
(function () {
  const HISTORY = 60;
  const colors = { pass: "#2e9d4f", block: "#d1403a", rt: "#e08a1e", grid: "#e3e6ea", ink: "#687183" };
  const $ = (id) => document.getElementById(id);

  function pad(n) { return String(n).padStart(2, "0"); }
  // hh:mm:ss in the browser's time zone.
  function clock(ms) {
    const d = new Date(ms);
    return pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds());
  }

  function td(tr, text, cls, field) {
    const c = document.createElement("td");
    c.textContent = text;
    if (cls) c.className = cls;
    if (field) c.dataset.field = field;
    tr.appendChild(c);
    return c;
  }

  function fill(tbody, rows) {
    tbody.replaceChildren(...rows);
  }

  function badge(state) {
    const s = document.createElement("span");
    s.className = "state " + state;
    s.textContent = state;
    return s;
  }

  function renderResources(st) {
    const rows = st.resources.map((r) => {
      const tr = document.createElement("tr");
      tr.dataset.resource = r.name;
      tr.dataset.second = String(r.last.t);
      td(tr, r.name, "", "name");
      td(tr, r.last.t ? clock(r.last.t) : "–", "", "second");
      td(tr, r.last.pass, "num", "pass");
      td(tr, r.last.block, "num", "block");
      td(tr, r.last.success, "num", "success");
      td(tr, r.last.error, "num", "error");
      td(tr, r.last.rtMs, "num", "rt");
      td(tr, r.concurrency, "num", "concurrency");
      const b = td(tr, "", "", "breakers");
      (r.breakers || []).forEach((br) => {
        const s = badge(br.state);
        s.title = br.rule;
        b.appendChild(s);
      });
      return tr;
    });
    fill($("resources").tBodies[0], rows);
  }

  // niceMax rounds v up to 1, 2 or 5 times a power of ten (at least 1).
  function niceMax(v) {
    if (!(v > 0)) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 2, 5, 10]) if (v <= m * p) return m * p;
    return 10 * p;
  }

  function draw(canvas, series, endMs) {
    const dpr = window.devicePixelRatio || 1;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
    const ctx = canvas.getContext("2d");
    ctx.scale(dpr, dpr);
    ctx.clearRect(0, 0, w, h);
    const m = { l: 40, r: 40, t: 8, b: 20 };
    const pw = w - m.l - m.r, ph = h - m.t - m.b;
    const startMs = endMs - (HISTORY - 1) * 1000;
    const x = (t) => m.l + ((t - startMs) / ((HISTORY - 1) * 1000)) * pw;
    let top = 0, rtTop = 0;
    for (const p of series) { top = Math.max(top, p.pass, p.block); rtTop = Math.max(rtTop, p.rtMs); }
    top = niceMax(top);
    rtTop = niceMax(rtTop);
    const y = (v) => m.t + ph - (v / top) * ph;
    const yr = (v) => m.t + ph - (v / rtTop) * ph;

    ctx.font = "11px system-ui, sans-serif";
    ctx.lineWidth = 1;
    ctx.strokeStyle = colors.grid;
    ctx.fillStyle = colors.ink;
    // Five steps of a 1, 2 or 5 maximum are round numbers.
    const tick = (v) => String(Math.round(v * 10) / 10);
    for (let i = 0; i <= 5; i++) {
      const gy = m.t + (ph * i) / 5;
      ctx.beginPath(); ctx.moveTo(m.l, gy); ctx.lineTo(m.l + pw, gy); ctx.stroke();
      ctx.textAlign = "right";
      ctx.fillText(tick(top * (1 - i / 5)), m.l - 4, gy + 4);
      ctx.textAlign = "left";
      ctx.fillText(tick(rtTop * (1 - i / 5)), m.l + pw + 4, gy + 4);
    }
    ctx.textAlign = "center";
    for (let s = 0; s < HISTORY; s += 15) {
      const t = startMs + s * 1000;
      ctx.fillText(clock(t), x(t), h - 5);
    }
    ctx.textAlign = "right";
    ctx.fillText(clock(endMs), x(endMs), h - 5);

    const line = (key, color, ys) => {
      ctx.strokeStyle = color;
      ctx.lineWidth = 2;
      ctx.beginPath();
      let prev = null;
      for (const p of series) {
        if (p.t < startMs) continue;
        const px = x(p.t), py = ys(p[key]);
        // A second the sampler did not keep breaks the line.
        if (prev !== null && p.t - prev === 1000) ctx.lineTo(px, py); else ctx.moveTo(px, py);
        prev = p.t;
      }
      ctx.stroke();
    };
    line("rtMs", colors.rt, yr);
    line("block", colors.block, y);
    line("pass", colors.pass, y);
  }

  function renderCharts(st) {
    const box = $("charts");
    const keep = new Set();
    st.resources.forEach((r, i) => {
      keep.add(r.name);
      let card = [...box.children].find((c) => c.dataset.resource === r.name);
      if (!card) {
        card = document.createElement("div");
        card.className = "chart";
        card.dataset.resource = r.name;
        const h = document.createElement("h4");
        h.textContent = r.name;
        const cv = document.createElement("canvas");
        card.append(h, cv);
        box.appendChild(card);
      }
      card.querySelector("canvas").id = "chart-" + i;
      draw(card.querySelector("canvas"), r.series || [], st.latestMs || st.nowMs);
      // For tests and scripts: how many seconds the chart has drawn.
      card.dataset.points = String((r.series || []).length);
    });
    for (const c of [...box.children]) if (!keep.has(c.dataset.resource)) c.remove();
  }

  function renderTransitions(st) {
    fill($("transitions").tBodies[0], st.transitions.slice(0, 20).map((t) => {
      const tr = document.createElement("tr");
      td(tr, clock(t.atMs));
      td(tr, t.resource);
      td(tr, t.rule);
      td(tr, "").appendChild(badge(t.from));
      td(tr, "").appendChild(badge(t.to));
      td(tr, t.value, "num");
      return tr;
    }));
  }

  // The pushes the command center refused: the dashboard shows some of
  // them as saved, so the page says so.
  function renderRefused(st) {
    const r = st.refused;
    $("refused").hidden = !r || !r.count;
    if (!r || !r.count) return;
    $("refused-text").textContent = r.count + " refused; the last at " + clock(r.lastAtMs) + ": " +
      r.kind + " from " + r.caller + ": " + r.reason;
  }

  function renderRules(st) {
    const blocked = new Map();
    for (const r of st.resources) for (const b of r.blocked || []) blocked.set(r.name + "\u0000" + b.type, (blocked.get(r.name + "\u0000" + b.type) || 0) + b.blocked);
    fill($("flow-rules").tBodies[0], (st.flow || []).map((r) => {
      const tr = document.createElement("tr");
      td(tr, r.resource);
      td(tr, r.grade);
      td(tr, r.count, "num", "count");
      td(tr, r.strategy + (r.ref ? " " + r.ref : ""));
      td(tr, r.behavior + (r.cluster ? ", cluster" : ""));
      td(tr, r.limitApp || "default");
      td(tr, blocked.get(r.resource + "\u0000flow") || 0, "num");
      return tr;
    }));
    fill($("degrade-rules").tBodies[0], (st.degrade || []).map((r) => {
      const tr = document.createElement("tr");
      td(tr, r.resource);
      td(tr, r.text);
      td(tr, r.minRequestAmount || 5, "num");
      td(tr, r.statIntervalMs || 1000, "num");
      return tr;
    }));
    fill($("other-rules").tBodies[0], (st.others || []).map((r) => {
      const tr = document.createElement("tr");
      td(tr, r.kind);
      td(tr, r.resource || "(every inbound call)");
      td(tr, r.text);
      td(tr, blocked.get(r.resource + "\u0000" + r.kind) || 0, "num");
      return tr;
    }));
  }

  async function tick() {
    try {
      const resp = await fetch("api/state", { cache: "no-store" });
      if (!resp.ok) throw new Error("HTTP " + resp.status);
      const st = await resp.json();
      document.title = st.title;
      $("title").textContent = st.title;
      $("latest").textContent = st.latestMs ? "latest second " + clock(st.latestMs) : "";
      renderResources(st);
      renderCharts(st);
      renderTransitions(st);
      renderRefused(st);
      renderRules(st);
      $("status").textContent = "live";
      $("status").className = "status ok";
      // For tests and scripts: which second the page shows.
      document.body.dataset.latest = String(st.latestMs);
    } catch (e) {
      $("status").textContent = "no answer: " + e.message;
      $("status").className = "status error";
    }
    setTimeout(tick, 1000);
  }
  tick();
})();
